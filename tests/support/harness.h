// Test plumbing shared by the suites: running hres ops on NCHW vectors in a
// chosen memory layout, comparing images, and the per-ISA test main.
#pragma once

#include "hres/hres.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <type_traits>
#include <sstream>
#include <string>
#include <vector>

namespace hres_test {

enum class Layout { nchw, nhwc };
inline const char *name(Layout l) { return l == Layout::nchw ? "nchw" : "nhwc"; }

template<typename T> constexpr hres::DType dtype_of();
template<> constexpr hres::DType dtype_of<uint8_t>() { return hres::DType::u8; }
template<> constexpr hres::DType dtype_of<float>() { return hres::DType::f32; }

// NCHW <-> NHWC copies of contiguous data.
template<typename T>
std::vector<T> to_layout(const std::vector<T> &nchw, int64_t n, int64_t c, int64_t h, int64_t w, Layout l) {
    if (l == Layout::nchw) return nchw;
    std::vector<T> out(nchw.size());
    for (int64_t b = 0; b < n; b++)
        for (int64_t ch = 0; ch < c; ch++)
            for (int64_t y = 0; y < h; y++)
                for (int64_t x = 0; x < w; x++)
                    out[((b * h + y) * w + x) * c + ch] = nchw[((b * c + ch) * h + y) * w + x];
    return out;
}

template<typename T>
std::vector<T> from_layout(const std::vector<T> &data, int64_t n, int64_t c, int64_t h, int64_t w, Layout l) {
    if (l == Layout::nchw) return data;
    std::vector<T> out(data.size());
    for (int64_t b = 0; b < n; b++)
        for (int64_t ch = 0; ch < c; ch++)
            for (int64_t y = 0; y < h; y++)
                for (int64_t x = 0; x < w; x++)
                    out[((b * c + ch) * h + y) * w + x] = data[((b * h + y) * w + x) * c + ch];
    return out;
}

template<typename T>
hres::Image view(std::vector<T> &data, int64_t n, int64_t c, int64_t h, int64_t w, Layout l) {
    return l == Layout::nchw ? hres::nchw(data.data(), dtype_of<T>(), n, c, h, w)
                             : hres::nhwc(data.data(), dtype_of<T>(), n, c, h, w);
}

// ---------------------------------------------------------------------------
// The device the kernel suites run their kernels on: the CPU, or the GPU when
// ctest runs a suite with HRES_DEVICE=cuda (isa_main.cpp sets it).
inline hres::Device &test_device() {
    static hres::Device device = hres::Device::cpu;
    return device;
}

// Bytes from an image's first element to one past its last.
inline size_t span_bytes(const hres::Image &im) {
    const int64_t last = (im.n - 1) * im.stride_n + (im.c - 1) * im.stride_c + (im.h - 1) * im.stride_h +
                         (im.w - 1) * im.stride_w;
    return size_t(last + 1) * hres::dtype_size(im.dtype);
}

// Runs op(in, params, out) on the test device. On the CPU the arguments are
// used as given. On CUDA, in, out (with its current contents) and the
// `param_count` floats at `params` (grid or theta, may be null) are copied
// to device memory, op runs on device views with the same strides, and out
// is copied back. Images with a non-positive size go to op unchanged apart
// from their device, for the wrapper to reject.
template<typename Op>
hres::Status on_test_device(const hres::Image &in, const hres::Image &out, const float *params,
                            size_t param_count, Op op) {
    if (test_device() == hres::Device::cpu) return op(in, params, out);
    hres::Image din = in, dout = out;
    din.device = dout.device = hres::Device::cuda;
    for (const hres::Image *im : {&in, &out}) {
        if (im->n <= 0 || im->c <= 0 || im->h <= 0 || im->w <= 0 || !im->data) return op(din, params, dout);
    }
    hres::CudaBuffer in_copy, out_copy, params_copy;
    if (hres::Status s = in_copy.upload(in.data, span_bytes(in)); !s) return s;
    if (hres::Status s = out_copy.upload(out.data, span_bytes(out)); !s) return s;
    if (params && param_count > 0) {
        if (hres::Status s = params_copy.upload(params, param_count * sizeof(float)); !s) return s;
    }
    din.data = in_copy.get();
    dout.data = out_copy.get();
    const float *dparams = params ? static_cast<const float *>(params_copy.get()) : nullptr;
    if (hres::Status s = op(din, dparams, dout); !s) return s;
    return hres::cuda_download(out.data, out_copy.get(), span_bytes(out));
}

// The ops, run on the test device.
inline hres::Status run_resize(const hres::Image &in, const hres::Image &out, const hres::ResizeOptions &o) {
    return on_test_device(in, out, nullptr, 0,
                          [&](const hres::Image &i, const float *, const hres::Image &r) { return hres::resize(i, r, o); });
}
inline hres::Status run_grid_sample(const hres::Image &in, const float *grid, const hres::Image &out,
                                    const hres::GridSampleOptions &o) {
    const size_t count = out.n > 0 && out.h > 0 && out.w > 0 ? size_t(out.n * out.h * out.w * 2) : 0;
    return on_test_device(in, out, grid, count, [&](const hres::Image &i, const float *g, const hres::Image &r) {
        return hres::grid_sample(i, g, r, o);
    });
}
inline hres::Status run_affine_grid_sample(const hres::Image &in, const float *theta, const hres::Image &out,
                                           const hres::GridSampleOptions &o) {
    const size_t count = out.n > 0 ? size_t(out.n * 6) : 0;
    return on_test_device(in, out, theta, count, [&](const hres::Image &i, const float *t, const hres::Image &r) {
        return hres::affine_grid_sample(i, t, r, o);
    });
}
inline hres::Status run_flip(const hres::Image &in, const hres::Image &out, hres::FlipAxes axes) {
    return on_test_device(in, out, nullptr, 0,
                          [&](const hres::Image &i, const float *, const hres::Image &r) { return hres::flip(i, r, axes); });
}

// Runs hres::resize on NCHW data handed to the kernel in layout `l`; returns NCHW.
template<typename T>
hres::Status resize_in_layout(const std::vector<T> &in_nchw, int64_t n, int64_t c, int64_t h, int64_t w,
                              int64_t oh, int64_t ow, const hres::ResizeOptions &options, Layout l,
                              std::vector<T> *out_nchw) {
    std::vector<T> in = to_layout(in_nchw, n, c, h, w, l);
    std::vector<T> out(size_t(n * c * oh * ow), T(0));
    hres::Status status = run_resize(view(in, n, c, h, w, l), view(out, n, c, oh, ow, l), options);
    *out_nchw = from_layout(out, n, c, oh, ow, l);
    return status;
}

// Random test pixels: float32 uniform in [0, 1); uint8 uniform, except that
// half the images are binary 0/255, the hardest case for clamping and
// saturation.
template<typename T>
std::vector<T> random_pixels(std::mt19937 &rng, size_t count) {
    std::vector<T> v(count);
    if constexpr (std::is_same_v<T, uint8_t>) {
        const bool binary = rng() % 2;
        for (auto &x : v) x = binary ? (rng() % 2 ? 255 : 0) : uint8_t(rng());
    } else {
        std::uniform_real_distribution<float> u(0.0f, 1.0f);
        for (auto &x : v) x = u(rng);
    }
    return v;
}

// Element-wise comparison: exact for uint8, |a - b| <= tolerance for float.
// Reports the count of mismatches and the first one (NCHW position).
template<typename T>
::testing::AssertionResult images_match(const std::vector<T> &got, const std::vector<T> &want, int64_t c,
                                        int64_t h, int64_t w, double tolerance) {
    if (got.size() != want.size()) {
        return ::testing::AssertionFailure() << "sizes differ: " << got.size() << " vs " << want.size();
    }
    size_t bad = 0, first = 0;
    double worst = 0;
    for (size_t i = 0; i < got.size(); i++) {
        const double d = std::fabs(double(got[i]) - double(want[i]));
        if (!(d <= tolerance)) {  // NaN counts as a mismatch
            if (bad++ == 0) first = i;
            worst = std::isnan(d) ? d : std::max(worst, d);
        }
    }
    if (bad == 0) return ::testing::AssertionSuccess();
    const size_t x = first % w, y = first / w % h, ch = first / (w * h) % c, b = first / (w * h * c);
    return ::testing::AssertionFailure()
           << bad << " of " << got.size() << " elements differ (max |diff| " << worst << "), first at n=" << b
           << " c=" << ch << " y=" << y << " x=" << x << ": got " << double(got[first]) << ", want "
           << double(want[first]);
}

}  // namespace hres_test
