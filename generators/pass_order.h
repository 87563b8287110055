// Which pass of a float32 filtered resize runs first on x86: the vertical
// one where the output has at most this fraction of the input's rows, so
// that the horizontal pass (the one that transposes tiles) covers output
// rows only. Shared by the generator (the planar kernels' default
// vertical_first_below) and the wrapper (runtime/src/resize.cpp, which picks
// the interleaved_rows kernels by it). No Halide here: the wrapper includes it.
// schedules/resize_x86.cpp and runtime/src/resize.cpp have the measurements.
#pragma once

namespace hres {

constexpr float kVerticalFirstBelow = 0.7f;

}  // namespace hres
