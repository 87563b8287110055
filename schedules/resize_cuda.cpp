// CUDA schedules of the resize pipelines: one kernel launch per call (per-call
// launches and allocations, not arithmetic, dominate small images on a GPU).
//
// Nearest: a gather, one thread per output pixel, the index maps inlined.
//
// Filtered: blocks of output tiles per plane. A block computes the
// horizontal pass over the input rows its tile reads (bounded by AxisTaps'
// windows) into a per-block scratch area, then each thread sums the vertical
// taps of its pixels. Each thread computes a few rows of a column
// (rows_per_thread): taller tiles mean fewer blocks and less overlap between
// neighbouring tiles' input windows. H200, 2026-11-21, per call, 1 -> 2 -> 4
// rows: 4x3x345x456 -> 270x270 bilinear f32 12.2 -> 10.2 -> 9.1 us,
// 500x400 -> 1024x1024 bicubic f32 41.5 -> 28.5 -> 21.6 us; with antialias 2
// is best (bilinear 42.4 -> 29.8 -> 41.7 us: the rows' longer tap loops
// serialise). Tables: see the branches below. All measurements:
// bench/RESULTS.md.
#include "resize_schedules.h"

namespace hres {

using namespace Halide;

void schedule_resize_nearest_cuda(NearestResizeFuncs f, const GpuKnobs &knobs) {
    gpu_pixel_threads(f.output, f.x, f.y, f.c, f.n, f.layout, knobs, GpuLoops());
}

void schedule_resize_filtered_cuda(FilteredResizeFuncs f, const GpuKnobs &knobs) {
    GpuLoops loops;
    gpu_plane_threads(f.output, f.x, f.y, f.c, f.n, knobs, loops);
    const LoopLevel block(f.output, loops.xo);

    if (f.constant_taps) {
        // Without antialias a tap's index and weight take a few operations:
        // they are inlined where used, which saves a table phase and its
        // barrier per block.
        // uint8's per-axis precision (a maximum over every output's weights)
        // is reduced per block: each of `lanes` threads folds a stride of the
        // outputs, then one thread the lanes. That is O(outputs) work per
        // block: 2.2x the float32 time at 270x270, 7x at 1024x1024 (H200,
        // 2026-11-21). Splitting the fold over all the block's threads, or
        // folding once per call in a small kernel, gave wrong results
        // (Halide 21). The tables belong outside the kernel, once per call;
        // see bench/RESULTS.md.
        const int lanes = knobs.tile_width;
        for (auto &m : f.maxima) {
            RVar outer("outer"), inner("inner");
            Var lane("lane");
            Func partial = m.func.update()
                               .split(m.over, outer, inner, lanes, TailStrategy::GuardWithIf)
                               .rfactor(inner, lane);
            partial.compute_at(block).gpu_threads(lane);
            partial.update().gpu_threads(lane);
        }
        for (Func table : f.tables) {
            if (table.dimensions() == 0) table.compute_at(block);  // the maxima and the precision
        }
    } else if (!f.maxima.empty()) {
        // uint8 with antialias: the tables, and the maxima over them that set
        // their precision, are computed on the host and copied to the device
        // (as the x86 schedule computes them). Per block in shared memory
        // (the float path below plus split maxima) gave wrong results on an
        // H200 (Halide 21; see bench/RESULTS.md).
        for (Func table : f.tables) table.compute_root();
    } else {
        // float32 with antialias: per block, one thread per output column /
        // row, taps looped inside. (Inlining indices and weights, keeping
        // only the normalising sums per block, was 10-20% slower: each
        // weight is then a filter evaluation and a division per tap; H200,
        // 2026-11-21.)
        for (Func table : f.tables) {
            const Var i = table.args().back();
            table.compute_at(block).gpu_threads(i);
            for (int u = 0; u < table.num_update_definitions(); u++) {
                table.update(u).gpu_threads(i);
            }
        }
    }

    // The horizontal pass of a tile's window of input rows, per block. In
    // global memory (cached in L1/L2): a tile's window grows with the
    // downscale factor s (R output rows read about R*s + 8 input rows), past
    // shared memory's 48 KB for large factors; measured 2-7% slower than
    // shared memory on the seed shapes (H200, 2026-11-21).
    Var yo("yo"), yi("yi");
    f.resized_x.store_in(MemoryType::Heap);
    f.resized_x.compute_at(block)
        .split(f.y, yo, yi, knobs.tile_height, TailStrategy::GuardWithIf)
        .reorder(f.x, yi, yo)
        .gpu_threads(f.x, yi);
    f.sum_x.compute_at(f.resized_x, f.x);
    f.sum_y.compute_at(f.output, loops.row);
    if (f.constant_taps) {
        f.sum_x.update().unroll(f.rx);
        f.sum_y.update().unroll(f.ry);
    }
}

}  // namespace hres
