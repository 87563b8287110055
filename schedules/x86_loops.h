// The output loop nest every x86 schedule shares.
#pragma once

#include "Halide.h"
#include "layout.h"

namespace hres {

// Vector lanes of type `t` on `target`, times `multiplier` (at least 1).
int vector_width(const Halide::Target &target, Halide::Type t, int multiplier);

// Tasks of `rows` output rows in parallel, x vectorised (`vec_planar` /
// `vec_interleaved` lanes; 1 = scalar) with a guarded tail so 1..7-pixel-wide
// images work, and for interleaved layouts with 3 or 4 channels c unrolled
// innermost so that stores interleave in registers instead of scattering.
// Specialises `f` (a Func, or a specialisation of one) on the layout.
// `images_in_tasks`: one parallel loop over the strips of every image of the
// batch; otherwise n stays a serial loop around one parallel loop per image
// (for pipelines with per-image intermediates computed at n).
// `vec_planar_pixels` > 0: planar images of 3 or 4 channels also run c
// unrolled innermost, x vectorised that wide (1 = scalar), so that per-pixel
// work (a gather's index) is shared by the channels.
// `rows` < 1: no tasks, a serial nest (for an intermediate computed per task).
// Returns the loop of tasks, for intermediates computed per task.
Halide::Var schedule_output_loops(Halide::Stage f, const Halide::Var &x, const Halide::Var &y,
                                  const Halide::Var &c, const Halide::Var &n, const LayoutConditions &layout,
                                  int vec_planar, int vec_interleaved, int rows, bool images_in_tasks,
                                  int vec_planar_pixels = 0);

}  // namespace hres
