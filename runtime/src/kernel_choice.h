// Which x86 kernels the wrapper chooses: some kernels are taken only where
// the Sapphire Rapids entry runs (they leave gathers to LLVM's loop
// vectorizer, which pays there). Kept apart from internal.h, which needs
// Halide's runtime headers, so that the tests can switch the choice.
#pragma once

namespace hres::internal {

// Whether the x86 kernels run their first multi-target entry (Sapphire
// Rapids features, not forced below AVX-512), on which float32 bilinear's
// horizontal pass (generators/pass_order.h), uint8 RGB nearest's pixel
// words (runtime/src/resize.cpp) and the sampler's uint8 nearest and
// bilinear byte words (runtime/src/grid_sample.cpp; its bicubic ones are
// taken on every entry) gather in hardware; or whether the choice
// is taken everywhere (below).
bool sapphire_rapids_entry_runs();

// For tests: choose the Sapphire Rapids entry's kernels on any CPU (each
// kernel is built for every x86 entry and computes the same results on
// each), so that machines without that entry test them too. Returns the
// previous setting.
bool choose_sapphire_rapids_kernels_everywhere(bool on);

// Whether the kernels built for AMD's cores are taken: where the AVX2 or
// SSE4.1 entry runs on an AMD CPU. Planar float32 nearest copies a pixel's
// channels in a scalar loop (built with planar_pixel_lanes=1) instead of
// gathering 8 lanes at a time: Zen 3 ran it 1.1-1.4x faster, Intel's cores
// ran the gathers 1.2-1.4x faster (schedules/resize_x86.cpp). float32
// bilinear sampling prefetches the next output row's taps (built with
// prefetch_ahead): 1.1-1.7x faster on Zen 3 (planar images on SSE4.1 even),
// 1.2-1.5x slower on Intel's cores (schedules/grid_sample_x86.cpp). Or
// everywhere (below).
bool amd_kernels();

// For tests: take those kernels on any CPU and entry. Returns the previous
// setting.
bool choose_amd_kernels_everywhere(bool on);

}  // namespace hres::internal
