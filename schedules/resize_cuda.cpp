// CUDA schedules of the resize pipelines: one kernel launch per call, no
// intermediate in device memory (per-call launches and allocations, not
// arithmetic, dominate small images on a GPU).
//
// Nearest: a gather, one thread per output pixel, the index maps inlined.
// Filtered: blocks of output tiles per plane. Each block builds, in shared
// memory, the weight tables of its columns and rows, then the horizontal pass
// over the input rows its tile reads (bounded by AxisTaps' windows), then
// each thread sums its pixel's vertical taps. The uint8 path's per-axis
// fixed-point precision depends on every output's weights; each block
// reduces them itself (split over the block's threads) rather than paying a
// second kernel launch. Measurements: bench/RESULTS.md.
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

    if (f.fixed_point) {
        // uint8: the tables (and the whole-axis maxima that set their
        // precision) are computed on the host and copied to the device, as
        // the x86 schedule computes them. Computing them per block in shared
        // memory (the float path below, plus a split reduction for the
        // maxima) gave wrong results on an H100/H200 (Halide 21, shared
        // allocations of mixed element sizes); see bench/RESULTS.md.
        for (Func table : f.tables) table.compute_root();
    } else {
        // float32: per block, one thread per output column / row, taps
        // looped inside.
        for (Func table : f.tables) {
            const Var i = table.args().back();
            table.compute_at(block).gpu_threads(i);
            for (int u = 0; u < table.num_update_definitions(); u++) {
                table.update(u).gpu_threads(i);
            }
        }
    }

    Var yo("yo"), yi("yi");
    f.resized_x.compute_at(block)
        .split(f.y, yo, yi, knobs.tile_height, TailStrategy::GuardWithIf)
        .reorder(f.x, yi, yo)
        .gpu_threads(f.x, yi);
    f.sum_x.compute_at(f.resized_x, f.x);
    f.sum_y.compute_at(f.output, loops.xi);
    if (f.constant_taps) {
        f.sum_x.update().unroll(f.rx);
        f.sum_y.update().unroll(f.ry);
    }
}

}  // namespace hres
