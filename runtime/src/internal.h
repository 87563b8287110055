// Shared plumbing of the wrapper: argument checks, Image -> halide_buffer_t,
// running a kernel with Halide's errors turned into a Status.
#pragma once

#include "HalideRuntime.h"
#include "hres/hres.h"

#include <functional>
#include <string>

namespace hres::internal {

// A halide_buffer_t describing an Image in Halide's (x, y, c, n) order.
struct HalideView {
    halide_dimension_t dims[4];
    halide_buffer_t buffer;
    explicit HalideView(const Image &image);
    HalideView(const HalideView &) = delete;
    HalideView &operator=(const HalideView &) = delete;
    halide_buffer_t *get() { return &buffer; }
};

// Validates one image argument: data, sizes, strides, and that every element's
// offset fits Halide's 32-bit indexing. `what` names it in the message.
Status check_image(const Image &image, const char *what);

// Both images valid, same dtype, device, batch and channels; not overlapping.
Status check_pair(const Image &in, const Image &out);

// Whether `bytes` bytes at `data` share memory with any element of `image`.
bool overlaps(const void *data, size_t bytes, const Image &image);

// Runs a kernel entry point; a non-zero return or a Halide error becomes a
// Status carrying Halide's message, prefixed with `op`.
Status run_kernel(const char *op, const std::function<int()> &kernel);

}  // namespace hres::internal
