// Schedules of the flip pipeline (generators/flip_generator.cpp).
#pragma once

#include "Halide.h"
#include "cuda_loops.h"
#include "layout.h"

namespace hres {

struct FlipKnobs {
    int task_bytes;         // output bytes per parallel task (whole rows, at least one)
    int vector_multiplier;  // vector width = multiplier * natural width of the pixel type
};

struct FlipFuncs {
    Halide::Func output;
    Halide::Func staged;        // copy of the input that mirrored interleaved rows are read through
    Halide::Func mirrored_row;  // interleaved_rows kernels: a row's values as one flat run, mirrored
    Halide::Func ahead;         // (y, plane, n): 0, prefetching the row that row y + 1 reads; may be undefined
    Halide::Var x, y, c, n;
    Halide::Var i;  // mirrored_row's flat index
    LayoutConditions layout;
    Halide::Expr horizontal;  // the run-time "flip x" argument
    Halide::Expr small;       // images run in one serial loop (the generator's serial_elements)
    // x86: horizontally mirrored RGB/RGBA rows are read directly, not through
    // `staged`, for a scalar loop that LLVM vectorises (llvm_vectorizer()).
    bool scalar_mirrors = false;
    int interleaved_rows = 0;  // > 0: the kernel for NHWC pixels of this many channels only
};

void schedule_flip_cuda(FlipFuncs f, const GpuKnobs &knobs);

void schedule_flip_x86(FlipFuncs f, const Halide::Target &target, const FlipKnobs &knobs);
// The generator's one call (schedules/targets.cpp): the target's schedule.
void schedule_flip(const FlipFuncs &f, const Halide::Target &target, const FlipKnobs &x86, const GpuKnobs &gpu);

}  // namespace hres
