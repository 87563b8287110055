// flip: torch.flip of N x C x H x W images over W, H or both (docs/SEMANTICS.md 8).
// Which axes flip is a run-time argument; the schedule specialises on it.
#include "Halide.h"

#include "layout.h"
#include "schedules/flip_schedules.h"
#include "knobs.h"

namespace {

using namespace Halide;
using namespace hres;

class Flip : public Generator<Flip> {
public:
    // x86 kernels for NHWC pixels of this many channels only, each row read
    // as one flat run (0: any layout; see below).
    GeneratorParam<int> interleaved_rows{"interleaved_rows", 0};
    GeneratorParam<std::string> kernel{"kernel", ""};  // the kernel table's name for it (knob rows may name it)
    GeneratorParam<FixedLayout> fixed_layout{"fixed_layout", FixedLayout::any, kFixedLayouts};  // layout.h

    // Knobs (kernels/knobs.toml has their tuned defaults and records).
    // Horizontal flips of images larger than serial_elements: each output
    // row first prefetches this many cache lines of the input row that the
    // next one reads (0: none).
    GeneratorParam<int> prefetch_lines{"prefetch_lines", kTuned};
    // Interleaved RGB and RGBA rows mirrored by a scalar loop that LLVM's
    // vectorizer turns into dense loads and permutes (1), or through a
    // staged copy (0; see below).
    GeneratorParam<int> scalar_mirrors{"scalar_mirrors", kTuned};
    GeneratorParam<int> task_bytes{"task_bytes", kTuned};  // x86: output bytes per parallel task
    GeneratorParam<int> vector_multiplier{"vector_multiplier", kTuned};
    GeneratorParam<int> serial_elements{"serial_elements", kTuned};  // x86: no parallel loop up to this size
    GeneratorParam<int> gpu_tile_width{"gpu_tile_width", kTuned};  // CUDA: output pixels per thread block
    GeneratorParam<int> gpu_tile_height{"gpu_tile_height", kTuned};

    Input<Buffer<void, 4>> input{"input"};
    Input<bool> horizontal{"horizontal"};
    Input<bool> vertical{"vertical"};
    Output<Buffer<void, 4>> output{"output"};

    // Prefetches, at (y, plane, n), of the first prefetch_lines cache lines
    // that output row y + 1 of a horizontal flip reads (x descending: the
    // row's last values), a 0 that the output folds into its values so that
    // the prefetches run before each row. Reading every row backwards, a
    // horizontal flip starts a new descending stream per row, which the
    // hardware prefetchers catch only after some lines. Planar images per
    // plane, interleaved rows (plane 0) with every channel.
    Func rows_ahead(const Var &y, int lines_ahead) {
        Var plane("plane"), n("n");
        const Expr x_stride = stride_of(input, 0, fixed_layout);
        const Expr bytes = input.type().bytes();
        const Expr span = input.dim(0).extent() * max(x_stride, -x_stride) * bytes;  // a row's bytes
        RDom line(0, min((span + 63) / 64, lines_ahead), "line");
        const Expr height = input.dim(1).extent();
        Expr next_y = clamp(select(vertical, height - 2 - y, y + 1), 0, height - 1);
        Expr row_start = (next_y - input.dim(1).min()) * stride_of(input, 1, fixed_layout) +
                         (plane - input.dim(2).min()) * stride_of(input, 2, fixed_layout) +
                         (n - input.dim(3).min()) * stride_of(input, 3, fixed_layout) +
                         min(0, (input.dim(0).extent() - 1) * x_stride);
        Func ahead("ahead");
        ahead(y, plane, n) = 0;
        ahead(y, plane, n) = ahead(y, plane, n) | prefetch_element(input, row_start + (span - 1 - line * 64) / bytes);
        return ahead;
    }

    void generate() {
        Var x("x"), y("y"), c("c"), n("n"), i("i");
        Expr mirrored_x = select(horizontal, input.dim(0).extent() - 1 - x, x);
        Expr mirrored_y = select(vertical, input.dim(1).extent() - 1 - y, y);
        Func staged("staged"), mirrored_row("mirrored_row");
        Func ahead;  // rows_ahead, where prefetches run
        const Tuned tuned("flip", kernel, get_target(), input.type() == UInt(8) ? knobs::fact::uint8 : 0);
        const bool mirrors_in_loops = tuned.on(scalar_mirrors);
        // Images the x86 schedule copies in one serial loop, in cache.
        Expr small = output.dim(0).extent() * output.dim(1).extent() * output.dim(2).extent() *
                         output.dim(3).extent() <=
                     tuned(serial_elements);
        if (const int lines = tuned(prefetch_lines); lines > 0) ahead = rows_ahead(y, lines);
        // Values with the prefetches folded in where they run (the
        // schedule's branches fold the select).
        auto with_ahead = [&](Expr value, Expr plane) {
            return ahead.defined() ? select(horizontal && !small, or_zero(value, ahead(y, plane, n)), value) : value;
        };

        if (interleaved_rows > 0) {
            // NHWC pixels of `channels` values only: a row's values are read
            // as one flat run, last value first where the flip is horizontal
            // (dense loads and a lane reversal), which reverses each pixel's
            // channels too; the output reads them back in order, `channels`
            // values apart (dense loads and two-source permutes), and stores
            // whole vectors in ascending order. The flat run is read through
            // the channel coordinate, promised to stay in range for bounds
            // inference though it runs along the row (OffsetReads in
            // generators/layout.h explains the trick).
            const int channels = interleaved_rows;
            accept_interleaved(input, channels);
            accept_interleaved(output, channels);
            Expr flat = select(horizontal, channels * input.dim(0).extent() - 1 - i, i);
            Expr run = input(0, mirrored_y, unsafe_promise_clamped(flat, 0, channels - 1), n);
            mirrored_row(i, y, n) = with_ahead(run, 0);
            output(x, y, c, n) = mirrored_row(channels * x + select(horizontal, channels - 1 - c, c), y, n);
        } else {
            accept_layout(input, fixed_layout);
            accept_layout(output, fixed_layout);
            // Mirroring an interleaved row reverses whole pixels: read
            // backwards element by element that is a gather. Those reads go
            // through `staged`, a plain copy of the input that the schedule
            // places next to each output vector (dense forward loads into a
            // small planar buffer, then reversed dense loads from it). The
            // values are the same. Where LLVM's loop vectorizer runs
            // (schedules/x86_loops.h), 3- and 4-channel pixels are read
            // directly in a scalar loop instead, which it turns into dense
            // loads and two-source permutes.
            staged(x, y, c, n) = input(x, y, c, n);
            Expr through_stage =
                horizontal && stride_of(input, 2, fixed_layout) == 1 && stride_of(input, 0, fixed_layout) > 1;
            if (mirrors_in_loops) {
                const LayoutConditions layout = layout_of(input, output, fixed_layout);
                through_stage = through_stage && !layout.interleaved(3) && !layout.interleaved(4);
            }
            Expr direct = input(mirrored_x, mirrored_y, c, n);
            // (Where a fixed layout rules the staged copy out, it is not
            // read at all: Mullapudi2016 fails on a Func it cannot bound.)
            Expr value = Halide::Internal::is_const_zero(Halide::Internal::simplify(through_stage))
                             ? direct
                             : select(through_stage, staged(mirrored_x, mirrored_y, c, n), direct);
            output(x, y, c, n) = with_ahead(value, select(stride_of(input, 0, fixed_layout) == 1, c, 0));
        }

        // The seed benchmark shape (BENCH.md): 1x3x224x224.
        input.set_estimates({{0, 224}, {0, 224}, {0, 3}, {0, 1}});
        output.set_estimates({{0, 224}, {0, 224}, {0, 3}, {0, 1}});
        horizontal.set_estimate(true);
        vertical.set_estimate(false);

        if (!using_autoscheduler()) {
            FlipFuncs funcs{output, staged, mirrored_row, ahead, x, y, c, n, i, layout_of(input, output, fixed_layout),
                            horizontal, small, mirrors_in_loops, interleaved_rows};
            schedule_flip(funcs, get_target(), {tuned(task_bytes), tuned(vector_multiplier)},
                          {tuned(gpu_tile_width), tuned(gpu_tile_height)});
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Flip, flip)
