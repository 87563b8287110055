// Which x86 kernels the wrapper chooses: some kernels are taken only where
// the Sapphire Rapids entry runs (they leave gathers to LLVM's loop
// vectorizer, which pays there). Kept apart from internal.h, which needs
// Halide's runtime headers, so that the tests can switch the choice.
#pragma once

namespace hres::internal {

// Whether the x86 kernels run their first multi-target entry (Sapphire
// Rapids features, not forced below AVX-512), on which float32 bilinear's
// horizontal pass (generators/pass_order.h), uint8 RGB nearest's pixel
// words (runtime/src/resize.cpp) and the sampler's uint8 byte words
// (runtime/src/grid_sample.cpp) gather in hardware; or whether the choice
// is taken everywhere (below).
bool sapphire_rapids_entry_runs();

// For tests: choose the Sapphire Rapids entry's kernels on any CPU (each
// kernel is built for every x86 entry and computes the same results on
// each), so that machines without that entry test them too. Returns the
// previous setting.
bool choose_sapphire_rapids_kernels_everywhere(bool on);

// Whether planar float32 nearest takes the kernels that copy a pixel's
// channels in a scalar loop (built with planar_pixel_lanes=1) instead of
// gathering 8 lanes at a time: where the AVX2 or SSE4.1 entry runs on an AMD
// CPU, whose cores ran the scalar loop 1.1-1.4x faster (Zen 3), while
// Intel's ran the gathers 1.2-1.4x faster (schedules/resize_x86.cpp); or
// everywhere (below).
bool amd_scalar_pixels();

// For tests: take those kernels on any CPU and entry. Returns the previous
// setting.
bool choose_amd_scalar_pixels_everywhere(bool on);

}  // namespace hres::internal
