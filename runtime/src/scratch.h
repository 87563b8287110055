// The host allocator behind Halide's scratch buffers (scratch.cpp).
#pragma once

namespace hres::internal {

// Makes Halide's host allocations (the x86 kernels' intermediates) come from
// per-thread caches of recently freed blocks. Idempotent.
void install_scratch_allocator();

}  // namespace hres::internal
