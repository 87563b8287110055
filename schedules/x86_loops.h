// The output loop nest every x86 schedule shares.
#pragma once

#include "Halide.h"
#include "layout.h"

namespace hres {

// Vector lanes of type `t` on `target`, times `multiplier` (at least 1).
int vector_width(const Halide::Target &target, Halide::Type t, int multiplier);

// Whether LLVM's loop vectorizer runs for this target: the kernel enables it
// on some entries (llvm_vectorizer in kernels/kernels.toml). It vectorises two kinds
// of loop better than Halide 21 does, which schedules then leave scalar there:
// copies of interleaved pixels in reverse order, as dense loads and
// permutes (Halide reads them back to front element by element), and ...
bool llvm_vectorizer(const Halide::Target &target);

// ... 32-bit gathers, as hardware gathers (vgatherdps; Halide builds a gather
// lane by lane), where LLVM may use them: from the Zen 4 feature level up
// (Sapphire Rapids), which has no Skylake-era microcode penalty, so Halide
// does not tell LLVM to avoid gathers there.
bool llvm_gathers(const Halide::Target &target);

// How schedule_output_loops shapes a nest.
struct OutputLoops {
    int planar_lanes = 1;       // x vector lanes, planar layouts (1 = scalar)
    int interleaved_lanes = 1;  // x vector lanes, interleaved 3/4 channels (c unrolled inside)
    int rows = 0;               // output rows per parallel task; < 1: a serial nest
    int planar_rows = 0;        // the same for planar layouts (0 = rows)
    // How the images of a batch share the parallel loops.
    enum class Images {
        // n a serial loop around one parallel loop per image (for pipelines
        // with per-image intermediates computed at n).
        in_turn,
        // One parallel loop over the strips of every image of the batch.
        in_tasks,
        // n a parallel loop too, around each image's own parallel loops: the
        // thread pool then runs several images' tasks at once, so that the
        // end of one image's loop does not leave threads idle.
        in_parallel,
    };
    Images images = Images::in_turn;
    // > 0: planar images of 3 or 4 channels also run c unrolled innermost, x
    // vectorised that wide (1 = scalar), so that per-pixel work (a gather's
    // index) is shared by the channels.
    int planar_pixel_lanes = 0;
    // false: planar layouts are left to the caller, which has specialised
    // on them itself (else this specialisation would be that one).
    bool planar = true;
    // The densely interleaved channel counts that get branches of their own
    // (any other runs the generic-stride branch).
    std::vector<int> pixels = kPixelBranches;
    // How x vectors end a row: GuardWithIf works for any width; ShiftInwards
    // (the last vector overlaps the one before) only where the caller has
    // specialised on rows at least a vector wide.
    Halide::TailStrategy tail = Halide::TailStrategy::GuardWithIf;
};

// The loops schedule_output_loops makes, for intermediates computed inside
// them: the parallel tasks and the rows of a task.
struct OutputLoopVars {
    Halide::Var task, row;
};

// Tasks of `rows` output rows in parallel, x vectorised with a guarded tail
// so 1..7-pixel-wide images work, and for interleaved layouts with 3 or 4
// channels c unrolled innermost so that stores interleave in registers
// instead of scattering. Specialises `f` (a Func, a specialisation of one, or
// an intermediate computed per task) on the layout.
OutputLoopVars schedule_output_loops(Halide::Stage f, const Halide::Var &x, const Halide::Var &y,
                                     const Halide::Var &c, const Halide::Var &n, const LayoutConditions &layout,
                                     const OutputLoops &loops);

}  // namespace hres
