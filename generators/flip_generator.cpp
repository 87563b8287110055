// flip: torch.flip of N x C x H x W images over W, H or both (SPEC.md 8).
// Which axes flip is a run-time argument; the schedule specialises on it.
#include "Halide.h"

#include "layout.h"
#include "schedules/flip_schedules.h"
#include "schedules/x86_loops.h"

namespace {

using namespace Halide;
using namespace hres;

class Flip : public Generator<Flip> {
public:
    GeneratorParam<int> task_bytes{"task_bytes", 256 << 10};  // x86: output bytes per parallel task
    GeneratorParam<int> vector_multiplier{"vector_multiplier", 1};
    GeneratorParam<int> serial_elements{"serial_elements", 1 << 18};  // x86: no parallel loop up to this size
    GeneratorParam<int> gpu_tile_width{"gpu_tile_width", 32};  // CUDA: output pixels per thread block
    GeneratorParam<int> gpu_tile_height{"gpu_tile_height", 8};

    Input<Buffer<void, 4>> input{"input"};
    Input<bool> horizontal{"horizontal"};
    Input<bool> vertical{"vertical"};
    Output<Buffer<void, 4>> output{"output"};

    void generate() {
        accept_any_layout(input);
        accept_any_layout(output);
        Var x("x"), y("y"), c("c"), n("n");
        Expr mirrored_x = select(horizontal, input.dim(0).extent() - 1 - x, x);
        Expr mirrored_y = select(vertical, input.dim(1).extent() - 1 - y, y);

        // Mirroring an interleaved row reverses whole pixels: read backwards
        // element by element that is a gather. Those reads go through
        // `staged`, a plain copy of the input that the schedule places next to
        // each output vector (dense forward loads into a small planar buffer,
        // then reversed dense loads from it). The values are the same.
        // Where LLVM's loop vectorizer runs (schedules/x86_loops.h), 3- and
        // 4-channel pixels are read directly in a scalar loop instead, which
        // it turns into dense loads and two-source permutes.
        Func staged("staged");
        staged(x, y, c, n) = input(x, y, c, n);
        const LayoutConditions layout = layout_of(input, output);
        const bool scalar_mirrors = llvm_vectorizer(get_target());
        Expr through_stage = horizontal && input.dim(2).stride() == 1 && input.dim(0).stride() > 1;
        if (scalar_mirrors) through_stage = through_stage && !layout.interleaved(3) && !layout.interleaved(4);
        output(x, y, c, n) = select(through_stage, staged(mirrored_x, mirrored_y, c, n),
                                    input(mirrored_x, mirrored_y, c, n));

        // The seed benchmark shape (BENCH.md): 1x3x224x224.
        input.set_estimates({{0, 224}, {0, 224}, {0, 3}, {0, 1}});
        output.set_estimates({{0, 224}, {0, 224}, {0, 3}, {0, 1}});
        horizontal.set_estimate(true);
        vertical.set_estimate(false);

        if (!using_autoscheduler()) {
            FlipFuncs funcs{output, staged, x, y, c, n, layout, horizontal, scalar_mirrors};
            if (get_target().has_gpu_feature()) {
                schedule_flip_cuda(funcs, {gpu_tile_width, gpu_tile_height});
            } else {
                schedule_flip_x86(funcs, get_target(), {task_bytes, vector_multiplier, serial_elements});
            }
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Flip, flip)
