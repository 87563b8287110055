// x86 schedule of grid_sample / affine_grid_sample (AVX-512, AVX2, SSE4.1).
//
// The work per output pixel is a data-dependent gather of 1, 4 or 16 input
// pixels per channel; everything before the gather (grid read or affine map,
// unnormalisation, padding, tap indices and weights) depends on the pixel only.
// So the footprint is computed once per output row, vectorised, into a small
// row buffer, and every channel's gathers read it. Rows are parallel tasks.
//
// Code size is kept in check on purpose (bicubic has 16 gathers per channel
// and every branch is compiled for four ISAs): one footprint loop for all
// padding modes (its selects are cheap next to the gathers), whole vectors
// with the last one shifted inwards instead of a predicated tail, and one
// unrolled-channel branch, for 3-channel interleaved images (RGB).
#include "grid_sample_schedules.h"
#include "x86_loops.h"

namespace hres {

using namespace Halide;

void schedule_grid_sample_x86(GridSampleFuncs f, const Target &target, const GridSampleKnobs &knobs) {
    const int vec = vector_width(target, Float(32), knobs.vector_multiplier);
    // Gather lanes (the knob's default is 8): on the build machine (AMD EPYC
    // AVX2, 1 thread, 2x3x345x456 f32 bilinear, 2026-11-21) 8 lanes 3.4 ms,
    // 4 lanes 4.1 ms, scalar 11 ms (the per-lane index arithmetic is vector
    // work too). On the H200 host (AVX-512, 1 thread, same day, side by
    // side) 8 lanes beat the natural 16 and 4: f32 nchw bilinear 1.92 ms vs
    // 2.25 ms (16) and 2.51 ms (4), bicubic 6.1 vs 8.4 and 8.1 ms; nearest
    // within 5% of 16 lanes, 15% ahead of 4.
    const int lanes = knobs.gather_lanes > 0 ? knobs.gather_lanes : vec;
    for (Func table : f.tables) {
        table.compute_root();
    }
    // Every branch: rows in parallel tasks, x in vectors of `width` lanes
    // (whole vectors, the last shifted inwards), channels either inside the
    // x vector (unrolled) or around the row.
    Var yo("yo"), yi("yi");
    auto loops = [&](Stage s, bool channels_inside, int width) {
        if (channels_inside) {
            s.reorder(f.c, f.x, f.y, f.n).unroll(f.c);
        } else {
            s.reorder(f.x, f.c, f.y, f.n);
        }
        if (width > 1) s.vectorize(f.x, width, TailStrategy::ShiftInwards);
        s.split(f.y, yo, yi, knobs.rows_per_task, TailStrategy::GuardWithIf).parallel(yo);
    };
    // Images narrower than a vector: scalar.
    loops(f.output.specialize(f.output.output_buffer().dim(0).extent() < lanes), false, 1);
    // Interleaved RGB: c inside the x vector, so stores interleave in registers.
    loops(f.output.specialize(f.layout.interleaved(3)), true, lanes);
    // Planar (and every other layout): channels around rows, so a row's
    // footprint serves all channels. The planar branch knows x's unit stride,
    // so its stores are dense vectors instead of one store per lane.
    loops(f.output.specialize(f.layout.planar()), false, lanes);
    loops(f.output, false, lanes);

    // Footprints specialised per padding mode: otherwise every mode pays for
    // reflection's mirroring (a division per axis and tap).
    f.footprint.compute_at(f.output, yi);
    for (const Expr &padding : f.padding_cases) {
        f.footprint.specialize(padding).vectorize(f.x, vec, TailStrategy::GuardWithIf);
    }
    f.footprint.vectorize(f.x, vec, TailStrategy::GuardWithIf);
}

}  // namespace hres
