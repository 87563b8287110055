// CUDA schedules of the resize pipelines: one kernel launch per call (per-call
// launches and allocations, not arithmetic, dominate small images on a GPU).
// Figures: us per call, before -> after; machines by their bench/machines.md
// keys; a date names the section of RESULTS.md@89f6099 with the full table.
//
// Nearest: a gather, one thread per output pixel, the index maps inlined.
//
// Filtered: blocks of output tiles per plane (per pixel for NHWC, below).
// With antialias a block computes the horizontal pass over the input rows
// its tile reads (bounded by AxisTaps' windows) into a per-block scratch
// area, then each thread sums the vertical taps of its pixels; without, each
// thread sums its outputs' taps directly (the branch below). Each thread
// computes a few rows of a column (rows_per_thread): taller tiles mean fewer
// blocks and less overlap between neighbouring tiles' input windows. h200,
// bicubic f32 500x400 -> 1024x1024, 1 -> 2 -> 4 rows: 41.5 -> 28.5 -> 21.6
// (2026-11-21, CUDA (issue 4)). With antialias 4 rows too (2026-11-21 (late
// morning)), but grids of few tiles take 2 (1x3x345x456 -> 270x270 bilinear
// 7.3 at 2 rows, 8.1-8.2 at 4: SMs left idle; 1 row 1.18-1.24x, 2026-11-29
// (morning)).
//
// NHWC images of 3 or 4 channels, and NCHW ones of at least 2^17 output
// pixels, run a pixel's channels in one thread (cuda_loops.h says why:
// interleaved_pixels, planar_pixels_from). Without antialias blocks are 32 x 8
// threads, not 32 x 16, small grids one row per thread. h200, bilinear u8 NHWC
// 4x3x1080x1920 -> 540x960 27.9 -> 14.3 (2026-11-21 (evening)); NCHW: h100,
// bicubic f32 500x400 -> 1024x1024 25.9-26.1 -> 20.0 (2026-11-24 (night)).
// With antialias the channels share the block's horizontal pass (540x960
// NHWC 0.88-0.93x). Lost: as pixels, or with 32 x 8 blocks, small antialiased
// grids were 1.1-1.3x slower (they keep a plane per block); NCHW pixels for
// bilinear f32 4x3x1080x1920 -> 540x960 (45.1 -> 48.5) and for smaller grids
// (1x3x345x456 -> 270x270 4.4 -> 4.9: 73k pixels fill too few warps); each
// thread summing its outputs' taps with antialias too (1.3-2.6x); a first
// form of rows summed tap by tap (8-50x, illegal addresses in some builds,
// code removed; gpu_horizontal_rows below is the form that works).
#include "resize_schedules.h"

#include <algorithm>

namespace hres {

using namespace Halide;

void schedule_resize_nearest_cuda(NearestResizeFuncs f, const GpuKnobs &knobs) {
    gpu_pixel_threads(f.output, f.x, f.y, f.c, f.n, f.layout, knobs, GpuLoops());
}

void schedule_resize_filtered_cuda(FilteredResizeFuncs f, const FilteredGpuKnobs &knobs) {
    GpuLoops loops;
    gpu_plane_threads(f.output, f.x, f.y, f.c, f.n, f.layout, knobs, loops);
    const LoopLevel block(f.output, loops.xo);

    if (f.tables.empty()) {
        // The tables are inputs (host_tables: uint8, and float32 with
        // antialias), computed once per shape on the host and cached on the
        // device by the wrapper. Before, uint8 reduced its per-axis precision
        // (a maximum over every output's weights) in every block, 2.2-7x the
        // float32 time, or copied host tables per call (57-86 us at 270x270);
        // float32 with antialias built its tables per block behind barriers
        // (h200, 2026-11-21, CUDA (issue 4); 2026-11-21 (morning)).
    } else if (!f.maxima.empty()) {
        // uint8 built without host_tables: the tables on the host, copied to
        // the device per call. Correct, but slow (see above).
        for (Func table : f.tables) table.compute_root();
    } else if (f.constant_taps) {
        // float32 without antialias: a tap's index and weight take a few
        // operations; they are inlined where used, which saves a table phase
        // and its barrier per block.
    } else {
        // float32 with antialias built without host_tables: per block, one
        // thread per output column / row, taps looped inside. (Lost: indices
        // and weights inlined, only the normalising sums per block, 10-20%
        // slower: each weight is then a filter evaluation and a division per
        // tap; h200, 2026-11-21, CUDA (issue 4).)
        for (Func table : f.tables) {
            const Var i = table.args().back();
            table.compute_at(block).gpu_threads(i);
            for (int u = 0; u < table.num_update_definitions(); u++) {
                table.update(u).gpu_threads(i);
            }
        }
    }

    if (f.constant_taps) {
        f.sum_y.compute_at(f.output, loops.row);
        // Without antialias the horizontal sum is a pure Func
        // (generators/resize_generator.cpp), inlined, so each thread sums its
        // outputs' 2x2 (4x4) taps directly from L1/L2, as PyTorch's kernel
        // does: no scratch, no barrier. The vertical sum is pure too (its
        // taps written out). h200, bilinear f32 4x3x1080x1920 -> 540x960 68.1
        // -> 36.8 (2026-11-21 (noon)). Slower only for bicubic upscaling to
        // 1024x1024 (22.8 -> 26.2), where the block pass shares each
        // horizontal sum between about two output rows.
        return;
    }

    // With antialias, the horizontal pass of a tile's window of input rows,
    // per block, in global memory (cached in L1/L2): the window grows with
    // the downscale factor s (R output rows read about R*s + 8 input rows),
    // past shared memory's 48 KB for large factors (beyond which Halide's
    // launch fails). Shared memory was 2-7% slower on the seed shapes
    // (2026-11-21, CUDA (issue 4)), and 0.96-0.99x with the fitted tables and
    // two rows per thread (2026-11-29): not worth a second copy of the pass.
    //
    // Each thread of the pass computes `rows` consecutive rows (yr), summed
    // together tap by tap: each tap's index and weight are loaded once for
    // the rows, and the rows' input loads are in flight together (their sums
    // in registers; rows past the window are skipped by the guard, as bounds
    // inference trims sum_x to it). h200, bicubic+aa 1 -> 2 rows 0.80-0.88x
    // (2026-11-21 (night)). Bilinear gains too since the taps read fitted
    // tables unclamped (generators/filters.h, fit_inside): f32 NCHW
    // 4x3x1080x1920 -> 540x960 103.2 -> 84.8 (2026-11-29). Lost: 4 rows
    // (bilinear+aa 1.03-1.21x, 2026-11-21 (night)); 3 rows (1.08x at 540x960
    // f32 NCHW, 2026-11-29).
    const int rows = std::max(knobs.horizontal_rows, 1);
    auto block_passes = [&](Func resized_x, Func sum_x, Func sum_y, int tile_height, int block_rows) {
        Var yo("yo"), yi("yi"), yr("yr"), yt("yt");
        sum_y.compute_at(f.output, loops.row);
        resized_x.store_in(MemoryType::Heap);
        // Its buffer is sized for the tallest block's window of input rows
        // by one expression (generators/filters.h). Left to bounds
        // inference, the size was the largest of every block's window,
        // evaluated on the host in a loop over the grid before each launch.
        // With the wrapper's cheaper cache key (runtime/src/resize.cpp), host
        // time per call 2.3-3.0 -> 1.4 us (bench/cuda_launch.cpp on
        // tests/support/stub_libcuda.c, build-zen5; 2026-11-25 (evening)).
        resized_x.bound_storage(f.x, knobs.tile_width).bound_storage(f.y, f.input_rows_read(block_rows));
        if (rows == 1) {
            // (The branch below at one row is other code, not measured:
            // Halide cannot size one row's sums as a constant after the
            // split by 1.)
            resized_x.compute_at(block)
                .split(f.y, yo, yi, tile_height, TailStrategy::GuardWithIf)
                .reorder(f.x, yi, yo)
                .gpu_threads(f.x, yi);
            sum_x.compute_at(resized_x, f.x);
        } else {
            resized_x.compute_at(block)
                .split(f.y, yo, yt, tile_height * rows, TailStrategy::GuardWithIf)
                .split(yt, yi, yr, rows)
                .reorder(yr, f.x, yi, yo)
                .gpu_threads(f.x, yi)
                .unroll(yr);
            sum_x.compute_at(resized_x, f.x).store_in(MemoryType::Register).unroll(f.y);
            // Rows innermost, inside the taps (the tap split below keeps
            // them there).
            sum_x.update().reorder(f.y, f.rx).unroll(f.y);
        }
        // Both passes' tap loops unrolled (a guarded tail): a thread's loads
        // of several taps are in flight together instead of one per
        // iteration. h200, bilinear+aa 4x3x1080x1920 -> 540x960, not unrolled
        // -> 4: 101-133 -> 83-127 (2026-11-21 (evening); 2 or 8 between or
        // slower). The best factor covers a pixel's taps in few whole rounds:
        // a bilinear+aa downscale by up to 2 has at most 5 taps, bicubic+aa 7
        // or 9 at the seed scales. h100, bilinear+aa 4x3x345x456 -> 270x270
        // f32, 4 -> 5: 16.4 -> 13.8, 3: 18.5; bicubic+aa 0.95-0.98x at 3
        // (2026-11-24 (night)). Hence 5 for bilinear, 3 for bicubic.
        if (knobs.tap_unroll > 1) {
            for (auto [sum, r] : {std::pair{sum_x, f.rx}, std::pair{sum_y, f.ry}}) {
                RVar ro("ro"), ri("ri");
                sum.update().split(r, ro, ri, knobs.tap_unroll, TailStrategy::GuardWithIf).unroll(ri);
            }
        }
    };
    const int block_rows = knobs.tile_height * std::max({1, knobs.rows_per_thread, knobs.rows_per_thread_few,
                                                         knobs.interleaved_rows, knobs.interleaved_rows_few});
    block_passes(f.resized_x, f.sum_x, f.sum_y, knobs.tile_height, block_rows);
    // Grids of many small planes (cuda_loops.h, many_small_planes: the seed's
    // 4x3x345x456 -> 270x270) run narrow blocks, 32 x 8 threads of 4 rows
    // each, with the passes built once more for them: at 48 registers up to
    // 5 of their blocks fit on a multiprocessor (1280 threads), where 32 x 16
    // threads of 4 rows fit 2 (1024 threads; ncu: 540 blocks in 2.05 waves).
    // h200, bilinear+aa f32 NCHW 11.3 -> 10.6 (2026-11-29 (morning)). Lost:
    // narrow threads of 3, 5 or 6 rows (1.02-1.11x), 32 x 16 threads of 2 or
    // 3 rows (1.11-1.25x); 8 rows even.
    if (f.narrow.resized_x.defined()) {
        block_passes(f.narrow.resized_x, f.narrow.sum_x, f.narrow.sum_y, knobs.narrow_tile_height,
                     knobs.narrow_tile_height * knobs.narrow_rows);
    }
}

}  // namespace hres
