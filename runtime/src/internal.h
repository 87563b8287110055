// Shared plumbing of the wrapper: argument checks, Image -> halide_buffer_t,
// running a kernel with Halide's errors turned into a Status.
#pragma once

#include "HalideRuntime.h"
#include "hres/hres.h"

#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace hres::internal {

// Points `buffer` at `data`: its host pointer, or a wrapped CUDA device pointer.
void attach(halide_buffer_t *buffer, void *data, Device device);
// Undoes attach's wrapping (the memory stays the caller's).
void detach(halide_buffer_t *buffer);

// A halide_buffer_t describing an Image in Halide's (x, y, c, n) order.
struct HalideView {
    halide_dimension_t dims[4];
    halide_buffer_t buffer;
    explicit HalideView(const Image &image);
    ~HalideView() { detach(&buffer); }
    HalideView(const HalideView &) = delete;
    HalideView &operator=(const HalideView &) = delete;
    halide_buffer_t *get() { return &buffer; }
};

// A dense float32 array (grid, theta) on `device`; extents innermost first.
struct DenseFloats {
    halide_dimension_t dims[4];
    halide_buffer_t buffer;
    DenseFloats(const float *data, Device device, std::initializer_list<int64_t> extents);
    ~DenseFloats() { detach(&buffer); }
    DenseFloats(const DenseFloats &) = delete;
    DenseFloats &operator=(const DenseFloats &) = delete;
    halide_buffer_t *get() { return &buffer; }
};

// Points Halide's CUDA runtime at the caller's context and stream (cuda.cpp).
void install_cuda_hooks();

// A callable passed down for the length of a call, not kept: unlike
// std::function it never allocates. Every kernel call passes lambdas that
// capture their arguments by reference, which std::function put on the
// heap, per call: with the shape's table key made on the stack too, the
// host time of a CUDA call with tap tables went 1.05 -> 0.79 us (bilinear
// uint8 0.81 -> 0.57; bench_cuda_launch on the stub driver, build machine,
// best of 3 side by side; RESULTS.md@89f6099, 2026-11-29 morning).
template<typename Signature>
class CallRef;
template<typename R, typename... Args>
class CallRef<R(Args...)> {
public:
    template<typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, CallRef>>>
    CallRef(F &&f)  // NOLINT: implicit, as std::function's
        : object_(const_cast<void *>(static_cast<const void *>(std::addressof(f)))),
          invoke_([](void *object, Args... args) -> R {
              return (*static_cast<std::remove_reference_t<F> *>(object))(std::forward<Args>(args)...);
          }) {}
    R operator()(Args... args) const { return invoke_(object_, std::forward<Args>(args)...); }

private:
    void *object_;
    R (*invoke_)(void *, Args...);
};

// Runs `use` with a device copy (and a host copy) of `bytes` bytes that
// `fill` writes on the host, cached per `key` in the caller's CUDA context:
// `fill` and the upload happen on a key's first use in a context only. `use`
// should only enqueue work (it runs under the cache's lock). cuda.cpp.
Status with_device_tables(std::string_view key, size_t bytes, CallRef<Status(void *host)> fill,
                          CallRef<Status(void *device, const unsigned char *host)> use);

// Validates one image argument: data, sizes, strides, and that every element's
// offset fits Halide's 32-bit indexing. `what` names it in the message.
Status check_image(const Image &image, const char *what);

// Both images valid, same dtype, device, batch and channels; not overlapping.
Status check_pair(const Image &in, const Image &out);

// Whether `bytes` bytes at `data` share memory with any element of `image`.
bool overlaps(const void *data, size_t bytes, const Image &image);
// Whether no two elements of `image` share an address.
bool distinct_elements(const Image &image);

// One past the last element's offset, or -1 if it overflows.
int64_t element_span(const Image &image);

// The threads Halide's pool runs kernels on: set_num_threads' value, or
// Halide's own default (HL_NUM_THREADS, else one per core).
int pool_threads();

// Image `i` of the batch alone (a batch of one, same strides).
Image batch_item(const Image &image, int64_t i);

// Copies of whole pixels (nearest resize and sampling, flips) never look at
// the values, so a uint8 image of 4 interleaved channels (RGBA in NHWC
// memory) with 4-byte aligned pixels is the same copy of one 4-byte
// channel: the float32 kernels, which only move the bits (zeros padding's 0.0f
// is four zero bytes), gather each pixel once instead of each channel.
// The views of such a call: with `pack`, both images as one 4-byte channel
// where both allow it, else both as given.
struct CopyViews {
    Image in, out;  // as the kernel sees them (dtype, strides)
    HalideView input, output;
    CopyViews(const Image &source, const Image &result, bool pack = true);
};

// Runs a kernel entry point; a non-zero return or a Halide error becomes a
// Status carrying Halide's message, prefixed with `op`.
Status run_kernel(const char *op, CallRef<int()> kernel);

}  // namespace hres::internal
