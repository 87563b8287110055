// x86 schedules of the resize pipelines (AVX-512, AVX2, SSE4.1: the same
// schedule, vector widths follow the target).
//
// Shape of both schedules: index/weight tables computed once per call (they are
// O(width + height)), output rows split into tasks for Halide's thread pool,
// x vectorised. Layout specialisations: planar (NCHW) vectorises along x with
// unit-stride stores; interleaved (NHWC) with 3 or 4 channels unrolls c inside
// the x vector so stores are interleaved in registers rather than scattered.
// Measurements behind the knobs' defaults are in bench/RESULTS.md.
#include "resize_schedules.h"
#include "x86_loops.h"

namespace hres {

using namespace Halide;

// Nearest is a gather: out(x, y) = in(source_x(x), source_y(y)). The tables are
// tiny; the cost is the gather along x (planar) or of whole pixels (interleaved).
// Lanes (build machine, AMD EPYC AVX2, 1 thread, 1x3x500x400 -> 256x256 u8,
// side by side with cv::resize INTER_NEAREST, 2026-11-20): planar 8-lane
// gathers 98 us vs 118 us at the natural 32 lanes and 152 us scalar;
// interleaved scalar pixel copies with c unrolled 84 us vs 269 us for 32-lane
// gathers plus interleaving shuffles.
void schedule_resize_nearest_x86(NearestResizeFuncs f, const Target &target,
                                 const ResizeKnobs &knobs) {
    const int vec = vector_width(target, f.output.type(), knobs.vector_multiplier);
    f.source_x.compute_root();
    f.source_y.compute_root();
    schedule_output_loops(f.output, f.x, f.y, f.c, f.n, f.layout,
                          knobs.gather_lanes > 0 ? knobs.gather_lanes : vec,
                          knobs.interleaved_gather_lanes > 0 ? knobs.interleaved_gather_lanes : vec,
                          knobs.rows_per_task);
}

// Separable filters: the horizontal pass is computed for a whole image of the
// batch (H_in x W_out x C: 1.1 MB for the seed case in float32, within L2 on
// the machines we measure), then the vertical pass streams over it. Computing
// the horizontal pass per output strip would need the strip's input rows,
// which bounds inference cannot derive from the data-dependent tap tables.
void schedule_resize_filtered_x86(FilteredResizeFuncs f, const Target &target,
                                  const ResizeKnobs &knobs) {
    // Accumulators are 32-bit (int32 for uint8, float32): vectorise at that width.
    const int vec = vector_width(target, Int(32), knobs.vector_multiplier);
    for (Func table : f.tables) {
        table.compute_root();
        // Weight tables are (k, i): store them i-major, so a vector of
        // outputs reads tap k's weights with one dense load instead of a
        // strided gather.
        if (table.dimensions() == 2) table.reorder_storage(table.args()[1], table.args()[0]);
    }

    schedule_output_loops(f.output, f.x, f.y, f.c, f.n, f.layout, vec, vec, knobs.rows_per_task);

    // The horizontal pass gathers every tap lane by lane (scalar load and
    // insert). Lanes (build machine, AMD EPYC AVX2, 1 thread, 2026-11-21,
    // 1x3x345x456 -> 270x270 f32 bilinear): the natural 8 lanes 643 us,
    // 4 lanes 610 us (within the noise), scalar 1072 us (the tap index and
    // weight loads then repeat per element).
    const int lanes = knobs.horizontal_lanes > 0 ? knobs.horizontal_lanes : vec;
    Var yo("yo"), yi("yi");
    f.resized_x.compute_at(f.output, f.n)
        .reorder(f.x, f.y, f.c)
        .split(f.y, yo, yi, knobs.rows_per_task, TailStrategy::GuardWithIf)
        .parallel(yo);
    f.sum_x.compute_at(f.resized_x, f.x);
    if (lanes > 1) {
        f.resized_x.vectorize(f.x, lanes);
        f.sum_x.vectorize(f.x);
        f.sum_x.update().vectorize(f.x);
    }
    f.sum_y.compute_at(f.output, f.x).vectorize(f.x);
    f.sum_y.update().vectorize(f.x);
    if (f.constant_taps) {
        f.sum_x.update().unroll(f.rx);
        f.sum_y.update().unroll(f.ry);
    }
}

}  // namespace hres
