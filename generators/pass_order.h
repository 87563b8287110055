// Which pass of a float32 filtered resize runs first on x86: the vertical
// one where the output has at most this fraction of the input's rows, so
// that the horizontal pass (the costlier one) covers output rows only.
// Shared by the generator (the planar kernels' default vertical_first_below)
// and the wrapper (runtime/src/resize.cpp, which picks the interleaved_rows
// kernels by it). No Halide here: the wrapper includes it.
// schedules/resize_x86.cpp and runtime/src/resize.cpp have the measurements.
#pragma once

namespace hres {

constexpr float kVerticalFirstBelow = 0.7f;

// float32 bilinear without antialias where its horizontal pass gathers in
// hardware (the x86 entries on which LLVM's loop vectorizer gathers,
// schedules/x86_loops.h): that pass costs less than the transposed tiles
// and reads the vertical pass' strip from cache, so the vertical pass runs
// first wherever the output has no more rows than the input.
constexpr float kVerticalFirstBelowGathered = 1.0f;

// Which float32 resizes gather their horizontal taps so: bilinear without
// antialias (bicubic's four gathers per output vector did not beat the
// tiles), on the entries where LLVM gathers. The generator asks it of its
// target, the wrapper of the entry the CPU runs.
inline bool horizontal_pass_gathers(bool bilinear, bool antialias, bool gathering_entry) {
    return bilinear && !antialias && gathering_entry;
}

inline float vertical_first_below(bool horizontal_gathers) {
    return horizontal_gathers ? kVerticalFirstBelowGathered : kVerticalFirstBelow;
}

// The float32 NHWC RGB and RGBA kernels (the generator's interleaved_rows)
// run their horizontal pass as pixel vectors (a pixel's channels one
// vector, each tap one dense load; the generator's pixel_vectors) without
// antialias, except bicubic on the AVX-512 entries, whose 16-row tiles
// beat them there; with antialias a pixel's tap loop lost to the tiles.
// The generator asks it of its target, the wrapper of the entry the CPU runs.
inline bool pixel_vectors_by_default(bool bilinear, bool antialias, bool avx512_entry) {
    return !antialias && (bilinear || !avx512_entry);
}

// With pixel vectors those kernels pay (the wrapper takes them) wherever
// the output has no more rows than the input (runtime/src/resize.cpp has
// the measurements).
constexpr float kPixelVectorsBelow = 1.0f;

// Where the wrapper takes the interleaved_rows kernels: the planar kernels'
// threshold (vertical_first_below), or the pixel vectors' where they run.
inline float interleaved_vertical_first_below(bool bilinear, bool antialias, bool avx512_entry,
                                              bool horizontal_gathers) {
    if (pixel_vectors_by_default(bilinear, antialias, avx512_entry)) return kPixelVectorsBelow;
    return vertical_first_below(horizontal_gathers);
}

}  // namespace hres
