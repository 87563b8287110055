// Scalar reference implementation of torch.nn.functional.interpolate for 4-D
// input (float32 and uint8), written from docs/SEMANTICS.md sections 1-5.
//
// This is the test oracle the Halide kernels are compared against. It favours
// clarity over speed: per-dimension tap tables are computed exactly as SEMANTICS.md
// states them, then applied with plain loops.
//
// What "exact" means here:
//   * uint8 bilinear / bicubic (with and without antialias): bit-exact with
//     PyTorch's CPU fixed-point path (SEMANTICS.md 3.2, 4.2, 5.4).
//   * nearest / nearest-exact (both dtypes): a pure gather with the exact
//     float32 index computation of SEMANTICS.md 2 (bit-exact).
//   * float32 bilinear / bicubic / antialias: op-by-op float32 evaluation of the
//     SEMANTICS.md formulas. PyTorch's own CPU kernels differ among themselves in
//     summation order (SEMANTICS.md 3.1), so compare with a small tolerance.
//
// Deliberately NOT reproduced: the PyTorch CPU bugs of SEMANTICS.md 9.1 (which
// says to implement the formulas; the W_out == 1 separable-kernel bug gives wrong
// values in PyTorch, the reference gives the correct ones).
//
// Build note: resize_reference.cpp must be compiled with -ffp-contract=off
// (see the comment at the top of that file).
#pragma once

#include <cstdint>
#include <vector>

namespace hres_ref {

enum class Mode { nearest, nearest_exact, bilinear, bicubic };

struct ResizeParams {
    Mode mode;
    // SEMANTICS.md 1.3: only meaningful for bilinear / bicubic; true with a nearest
    // mode is rejected (std::invalid_argument), as PyTorch rejects it.
    bool antialias = false;
    // SEMANTICS.md 1.3: only meaningful for bilinear / bicubic (None == False);
    // true with a nearest mode is rejected (std::invalid_argument).
    bool align_corners = false;
    // User scale factors as passed to the kernel (SEMANTICS.md 1.3,
    // recompute_scale_factor=False): 0 (or negative) means "not given", in
    // which case the mapping uses in/out. When given and align_corners is
    // false, the mapping uses 1/scale. The caller chooses the output size
    // (PyTorch: out = trunc(in * scale)).
    double scale_h = 0, scale_w = 0;
    // Memory layout of the *PyTorch input* being emulated. It only matters for
    // the legacy `nearest` special case of SEMANTICS.md 2 (kernel selection
    // (channels_last && C > 3) || (out_h + out_w <= 128)). The data passed to
    // resize() is always NCHW-contiguous regardless of this flag.
    bool channels_last = false;
};

// `in`: contiguous NCHW of size n*c*h*w. Returns contiguous NCHW of size
// n*c*oh*ow. Requires h, w, oh, ow > 0 and n, c >= 0; throws
// std::invalid_argument otherwise.
std::vector<float> resize(const std::vector<float>& in, int n, int c, int h, int w,
                          int oh, int ow, const ResizeParams& params);
std::vector<uint8_t> resize(const std::vector<uint8_t>& in, int n, int c, int h, int w,
                            int oh, int ow, const ResizeParams& params);

}  // namespace hres_ref
