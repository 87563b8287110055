// Scalar reference implementation of torch.nn.functional.interpolate (4-D,
// float32 and uint8), written from docs/SEMANTICS.md sections 1-5. See
// resize_reference.h for the API and what "exact" means for each path.
//
// BUILD REQUIREMENT: compile with -O2 -ffp-contract=off (and never with
// -ffast-math). The float32 reference evaluates the SEMANTICS.md formulas op by op in
// float32, and the uint8 weights op by op in float64; contracting a*b+c into a
// fused multiply-add (GCC's default in GNU mode on FMA-capable targets) changes
// the rounding, which can move a floor() or an int16 weight by one step and
// break bit-exactness. As a second line of defence every product whose rounding
// matters goes through rmul(), which rounds the product to its type before it
// can meet an addition, so the code stays correct even if the flag is lost.
//
// Organisation (mirrors docs/SEMANTICS.md):
//   1. SEMANTICS.md 1.4   scale and source-coordinate helpers
//   2. SEMANTICS.md 2-5   per-dimension tap tables (indices and weights)
//   3. SEMANTICS.md 3.2   uint8 weight quantisation (int16, precision p)
//   4.                    2-D application: gather, direct 2-D float formulas,
//                         and the separable 1-D passes (float antialias, all
//                         uint8 filters)
//   5.                    public entry points (mode / dtype dispatch,
//                         SEMANTICS.md 1.5 rules)

#include "resize_reference.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "float_rules.h"

namespace hres_ref {
namespace {

// Product rounded to T. Storing through a volatile forces the rounding, so the
// product can never be fused with a following addition (see the build note).
template <typename T>
T rmul(T a, T b) {
    volatile T p = a * b;
    return p;
}

// ===========================================================================
// 1. SEMANTICS.md 1.4: scale and source-coordinate helpers.
//    T = float for the float paths and for every nearest index computation,
//    T = double for the uint8 separable paths (SEMANTICS.md 1.2, 3.2).
//    A user scale s counts as "given" only when s > 0 (SEMANTICS.md 1.4).
// ===========================================================================

template <typename T>
T compute_scales_value(double s, int64_t in, int64_t out) {
    if (s > 0.0) return static_cast<T>(1.0 / s);  // the division is in double, then cast
    return static_cast<T>(in) / static_cast<T>(out);  // the division is in T
}

template <typename T>
T area_pixel_compute_scale(int64_t in, int64_t out, bool align_corners, double s) {
    if (align_corners) {
        // The user scale is ignored; out == 1 maps everything to index 0 (SEMANTICS.md 1.5).
        return out > 1 ? static_cast<T>(in - 1) / static_cast<T>(out - 1) : T(0);
    }
    return compute_scales_value<T>(s, in, out);
}

// `fused`: scale * (i + 0.5) - 0.5 rounded once, as PyTorch's AVX2 and
// AVX-512 builds compute it in the kernels where their compiler contracts it
// (docs/SEMANTICS.md, "Ties"); otherwise the product rounds first.
template <typename T>
T area_pixel_compute_source_index(T scale, int64_t i, bool align_corners, bool cubic, bool fused = false) {
    if (align_corners) return rmul(scale, static_cast<T>(i));
    T r = fused ? std::fma(scale, static_cast<T>(i) + T(0.5), -T(0.5))
                : rmul(scale, static_cast<T>(i) + T(0.5)) - T(0.5);
    // Linear modes clamp negative coordinates to 0 (edge replication); cubic
    // keeps them so that its 4 taps straddle the border.
    if (!cubic && r < T(0)) r = T(0);
    return r;
}

int64_t floor_to_int(float v) { return static_cast<int64_t>(std::floor(v)); }

// ===========================================================================
// 2. Per-dimension tap tables. H uses the height parameters, W the width
//    parameters (SEMANTICS.md 1.1); each table is computed for one dimension.
// ===========================================================================

// ---- SEMANTICS.md 2: nearest / nearest-exact source indices (float32 scale) --

// PyTorch CPU picks its "channels-last" nearest and bilinear kernel, which
// carries the legacy out==in / out==2*in shortcut and rounds coordinates its
// own way at ties, under this condition (SEMANTICS.md 2 and "Ties"). It is
// a property of the whole call, so it is evaluated once for both dimensions.
// (An NCHW tensor with H == W == 1 also counts as channels-last contiguous in
// PyTorch, but with in == 1 every index is 0 either way, so the flag suffices.)
bool uses_channels_last_kernel(const ResizeParams& p, int64_t c, int64_t oh, int64_t ow) {
    return (p.channels_last && c > 3) || (oh + ow <= 128);
}

std::vector<int64_t> nearest_indices(int64_t in, int64_t out, double s, bool exact,
                                     bool channels_last_kernel) {
    const float scale = compute_scales_value<float>(s, in, out);
    std::vector<int64_t> idx(static_cast<size_t>(out));
    for (int64_t i = 0; i < out; ++i) {
        // Legacy special case, `nearest` only: ignores the scale, so it differs
        // from the formula when an explicit scale has 1/s != in/out (SEMANTICS.md 10 N4).
        if (!exact && channels_last_kernel && out == in) {
            idx[i] = i;
            continue;
        }
        if (!exact && channels_last_kernel && out == 2 * in) {
            idx[i] = i >> 1;
            continue;
        }
        float v;
        if (exact && channels_last_kernel) {
            // f32(scale * (i + 0.5)): i + 0.5 and the product are exact in
            // double, so this is the single float32 rounding of SEMANTICS.md 2.
            v = static_cast<float>(static_cast<double>(scale) * (static_cast<double>(i) + 0.5));
        } else if (exact) {
            // The generic kernel: round(max(fma(scale, i + 0.5, -0.5), 0) + 0.5).
            v = area_pixel_compute_source_index<float>(scale, i, false, false, true) + 0.5f;
        } else {
            v = rmul(scale, static_cast<float>(i));
        }
        idx[i] = std::min(floor_to_int(v), in - 1);
    }
    return idx;
}

// ---- SEMANTICS.md 3.1: float32 bilinear taps --------------------------------

struct LinearTap {
    int64_t i0, i1;
    float l0, l1;
};

std::vector<LinearTap> linear_taps_f32(int64_t in, int64_t out, bool align_corners, double s, bool fused) {
    const float scale = area_pixel_compute_scale<float>(in, out, align_corners, s);
    std::vector<LinearTap> taps(static_cast<size_t>(out));
    for (int64_t i = 0; i < out; ++i) {
        if (in == out) {
            // SEMANTICS.md 1.5: CPU float bilinear treats an unchanged dimension as an
            // exact identity, even when an explicit scale s != 1 was passed.
            taps[i] = {i, i, 1.0f, 0.0f};
            continue;
        }
        const float r = area_pixel_compute_source_index<float>(scale, i, align_corners, false, fused);
        const int64_t i0 = std::min(floor_to_int(r), in - 1);
        const float l1 = std::min(std::max(r - static_cast<float>(i0), 0.0f), 1.0f);
        const int64_t i1 = i0 + (i0 < in - 1 ? 1 : 0);  // collapses onto in-1 at the border
        taps[i] = {i0, i1, 1.0f - l1, l1};
    }
    return taps;
}

// ---- SEMANTICS.md 4: cubic convolution kernel -------------------------------
// The evaluation forms cc1/cc2 are part of SEMANTICS.md 4 (they fix float rounding).

template <typename T>
T cubic_conv1(T x, T A) {  // |x| <= 1: ((A+2)*x - (A+3))*x*x + 1
    return rmul(rmul(rmul(A + T(2), x) - (A + T(3)), x), x) + T(1);
}

template <typename T>
T cubic_conv2(T x, T A) {  // 1 < |x| < 2: ((A*x - 5A)*x + 8A)*x - 4A
    return rmul(rmul(rmul(A, x) - rmul(T(5), A), x) + rmul(T(8), A), x) - rmul(T(4), A);
}

// Keys cubic W_A(d) evaluated through cc1/cc2 on |d| (SEMANTICS.md 4 / 5.1).
template <typename T>
T keys_cubic(T d, T A) {
    const T x = std::abs(d);
    if (x < T(1)) return cubic_conv1(x, A);
    if (x < T(2)) return cubic_conv2(x, A);
    return T(0);
}

template <typename T>
T triangle(T d) {  // SEMANTICS.md 5.1 bilinear filter (also the non-AA uint8 linear weights)
    const T x = std::abs(d);
    return x < T(1) ? T(1) - x : T(0);
}

// ---- SEMANTICS.md 4.1: float32 bicubic taps ---------------------------------

struct CubicTap {
    int64_t idx[4];
    float c[4];
};

std::vector<CubicTap> cubic_taps_f32(int64_t in, int64_t out, bool align_corners, double s) {
    // No in == out shortcut here (SEMANTICS.md 1.5): the formula is always used.
    const float A = -0.75f;
    const float scale = area_pixel_compute_scale<float>(in, out, align_corners, s);
    std::vector<CubicTap> taps(static_cast<size_t>(out));
    for (int64_t i = 0; i < out; ++i) {
        // PyTorch's x86 builds fuse the coordinate in the cubic kernel.
        const float r = area_pixel_compute_source_index<float>(scale, i, align_corners, true, true);
        const int64_t i0 = std::min(floor_to_int(r), in - 1);  // may be -1 (r < 0 is kept)
        const float t = std::min(std::max(r - static_cast<float>(i0), 0.0f), 1.0f);
        const float t2 = 1.0f - t;
        CubicTap& tap = taps[i];
        // As PyTorch's x86 builds evaluate them (SEMANTICS.md, "Ties"): each
        // multiply-add fused but the polynomial's last.
        auto near = [A](float x) { return rmul(rmul(std::fma(A + 2.0f, x, -(A + 3.0f)), x), x) + 1.0f; };
        auto far = [A](float x) { return rmul(std::fma(std::fma(A, x, -5.0f * A), x, 8.0f * A), x) - 4.0f * A; };
        tap.c[0] = far(t + 1.0f);
        tap.c[1] = near(t);
        tap.c[2] = near(t2);
        tap.c[3] = far(t2 + 1.0f);
        for (int k = 0; k < 4; ++k) {
            // Border: clamped (replicated) tap indices, not renormalised weights.
            tap.idx[k] = std::min(std::max(i0 - 1 + k, int64_t(0)), in - 1);
        }
    }
    return taps;
}

// ---- Window taps: antialias (SEMANTICS.md 5.2) and the uint8 separable passes --

// One output of a separable 1-D pass: contiguous input window starting at
// xmin, one weight per input element of the window.
template <typename W>
struct WindowTap {
    int64_t xmin = 0;
    std::vector<W> w;
};

int interp_size(Mode mode) { return mode == Mode::bilinear ? 2 : 4; }

// SEMANTICS.md 5.2 with the float32 precision rules stated there: center, support,
// invscale, filter values, total and normalised weights are float32; the
// filter argument's "+ 0.5" and "* invscale" are done in double and rounded
// to float32 when handed to the filter.
std::vector<WindowTap<float>> aa_taps_f32(int64_t in, int64_t out, bool align_corners, double s,
                                          Mode mode) {
    const int isz = interp_size(mode);
    const float scale = area_pixel_compute_scale<float>(in, out, align_corners, s);
    const float support = scale >= 1.0f ? static_cast<float>(rmul(isz * 0.5, static_cast<double>(scale)))
                                        : static_cast<float>(isz * 0.5);
    const int64_t kmax = static_cast<int64_t>(std::ceil(support)) * 2 + 1;
    const float invscale = scale >= 1.0f ? static_cast<float>(1.0 / static_cast<double>(scale)) : 1.0f;
    auto filter = [mode](float d) {
        // Antialias bicubic uses Pillow's a = -0.5, not -0.75 (SEMANTICS.md 5.1).
        return mode == Mode::bilinear ? triangle(d) : keys_cubic(d, -0.5f);
    };

    std::vector<WindowTap<float>> taps(static_cast<size_t>(out));
    for (int64_t i = 0; i < out; ++i) {
        // scale * (i + 0.5) is exact in double; one rounding to float32.
        const float center = static_cast<float>(rmul(static_cast<double>(scale), static_cast<double>(i) + 0.5));
        const int64_t xmin = std::max(static_cast<int64_t>(static_cast<double>(center - support) + 0.5), int64_t(0));
        int64_t xsize = std::min(static_cast<int64_t>(static_cast<double>(center + support) + 0.5), in) - xmin;
        xsize = std::min(std::max(xsize, int64_t(0)), kmax);

        WindowTap<float>& tap = taps[i];
        tap.xmin = xmin;
        tap.w.resize(static_cast<size_t>(xsize));
        float total = 0.0f;
        for (int64_t j = 0; j < xsize; ++j) {
            const float dist = static_cast<float>(j + xmin) - center;  // float32 subtraction
            const float arg = static_cast<float>(rmul(static_cast<double>(dist) + 0.5, static_cast<double>(invscale)));
            tap.w[j] = filter(arg);
            total += tap.w[j];  // sequential float32 sum
        }
        // Out-of-range taps were dropped above; renormalise what is left.
        if (total != 0.0f) {
            for (float& wj : tap.w) wj = wj / total;
        }
    }
    return taps;
}

// uint8 weights of one pass, all float64 (SEMANTICS.md 3.2 / 4.2 / 5.4), plus the
// maximum that selects the fixed-point precision of the pass.
struct PassWeightsF64 {
    std::vector<WindowTap<double>> taps;
    double wmax = 0.0;
};

// SEMANTICS.md 3.2 (bilinear) and 4.2 (bicubic, A = -0.75), antialias=False.
PassWeightsF64 separable_weights_f64(int64_t in, int64_t out, bool align_corners, double s,
                                     Mode mode) {
    const int isz = interp_size(mode);
    const bool cubic = mode == Mode::bicubic;
    const int64_t support = isz / 2;
    auto filter = [cubic](double d) { return cubic ? keys_cubic(d, -0.75) : triangle(d); };
    const double scale = area_pixel_compute_scale<double>(in, out, align_corners, s);

    PassWeightsF64 pw;
    pw.taps.resize(static_cast<size_t>(out));
    for (int64_t i = 0; i < out; ++i) {
        const double r = area_pixel_compute_source_index<double>(scale, i, align_corners, cubic);
        // NB: r is rounded to float32 before floor (SEMANTICS.md 3.2); lam uses the double r.
        const int64_t idx = std::min(floor_to_int(static_cast<float>(r)), in - 1);
        const double lam = std::min(std::max(r - static_cast<double>(idx), 0.0), 1.0);

        // Unclamped taps idx-support+1 .. idx+support; those outside [0, in)
        // are folded onto the border element (equivalent to the float path's
        // clamped indices), giving a window [imin, imin + isize).
        const int64_t umin = idx - support + 1;
        const int64_t umax = idx + support + 1;
        const int64_t imin = std::max(umin, int64_t(0));
        int64_t isize = std::min(umax, in) - imin;
        isize = std::min(std::max(isize, int64_t(0)), static_cast<int64_t>(isz));

        std::vector<double> ws(static_cast<size_t>(isz), 0.0);
        int64_t slot = 0;
        for (int64_t j = 0; j < isz; ++j) {
            const double w = filter(static_cast<double>(j + 1 - support) - lam);
            if (umin + j <= 0) {
                slot = 0;
            } else if (umin + j >= in - 1) {
                slot = isize - 1;
            }
            ws[slot] += w;
            // wmax tracks every partial sum of the folding, not only the final
            // weights: a folded slot can peak before a later negative weight
            // lowers it, and that peak still decides p (SEMANTICS.md 3.2).
            pw.wmax = std::max(pw.wmax, ws[slot]);
            ++slot;
        }
        ws.resize(static_cast<size_t>(isize));
        pw.taps[i].xmin = imin;
        pw.taps[i].w = std::move(ws);
    }
    return pw;
}

// SEMANTICS.md 5.2 / 5.4: antialias window weights, everything in float64.
PassWeightsF64 aa_weights_f64(int64_t in, int64_t out, bool align_corners, double s, Mode mode) {
    const int isz = interp_size(mode);
    const double scale = area_pixel_compute_scale<double>(in, out, align_corners, s);
    const double support = scale >= 1.0 ? rmul(isz * 0.5, scale) : isz * 0.5;
    const int64_t kmax = static_cast<int64_t>(std::ceil(support)) * 2 + 1;
    const double invscale = scale >= 1.0 ? 1.0 / scale : 1.0;
    auto filter = [mode](double d) {
        return mode == Mode::bilinear ? triangle(d) : keys_cubic(d, -0.5);
    };

    PassWeightsF64 pw;
    pw.taps.resize(static_cast<size_t>(out));
    for (int64_t i = 0; i < out; ++i) {
        const double center = rmul(scale, static_cast<double>(i) + 0.5);
        const int64_t xmin = std::max(static_cast<int64_t>(center - support + 0.5), int64_t(0));
        int64_t xsize = std::min(static_cast<int64_t>(center + support + 0.5), in) - xmin;
        xsize = std::min(std::max(xsize, int64_t(0)), kmax);

        WindowTap<double>& tap = pw.taps[i];
        tap.xmin = xmin;
        tap.w.resize(static_cast<size_t>(xsize));
        double total = 0.0;
        for (int64_t j = 0; j < xsize; ++j) {
            tap.w[j] = filter(rmul(static_cast<double>(j + xmin) - center + 0.5, invscale));
            total += tap.w[j];
        }
        if (total != 0.0) {
            for (double& wj : tap.w) wj = wj / total;
        }
        for (double wj : tap.w) pw.wmax = std::max(pw.wmax, wj);  // final weights only
    }
    return pw;
}

// ===========================================================================
// 3. SEMANTICS.md 3.2: quantisation of one uint8 pass to int16 weights.
// ===========================================================================

struct QuantisedPass {
    std::vector<WindowTap<int16_t>> taps;
    int p = 0;  // fractional bits of the int16 weights
};

QuantisedPass quantise(const PassWeightsF64& pw) {
    QuantisedPass q;
    // p = the largest p in [0, 22] with int(0.5 + wmax * 2^p) <= 32767, found
    // the way SEMANTICS.md 3.2 states it: first q whose next power overflows int16.
    q.p = 22;
    for (int k = 0; k < 22; ++k) {
        const double scaled = rmul(pw.wmax, static_cast<double>(int64_t(1) << (k + 1)));
        if (static_cast<int64_t>(0.5 + scaled) >= 32768) {
            q.p = k;
            break;
        }
    }
    const double one = static_cast<double>(int64_t(1) << q.p);
    q.taps.resize(pw.taps.size());
    for (size_t i = 0; i < pw.taps.size(); ++i) {
        q.taps[i].xmin = pw.taps[i].xmin;
        for (double w : pw.taps[i].w) {
            const double v = rmul(w, one);
            // Round half away from zero, then truncate (C conversion).
            const int64_t r = v < 0.0 ? static_cast<int64_t>(v - 0.5) : static_cast<int64_t>(v + 0.5);
            if (r < INT16_MIN || r > INT16_MAX) throw std::logic_error("hres_ref: int16 weight overflow");
            q.taps[i].w.push_back(static_cast<int16_t>(r));
        }
    }
    return q;
}

// ===========================================================================
// 4. 2-D application.
// ===========================================================================

void validate(size_t size, int n, int c, int h, int w, int oh, int ow, const ResizeParams& p) {
    if (n < 0 || c < 0 || h <= 0 || w <= 0 || oh <= 0 || ow <= 0) {
        throw std::invalid_argument("hres_ref::resize: sizes must be > 0 (n, c >= 0)");
    }
    if (size != static_cast<size_t>(n) * c * h * w) {
        throw std::invalid_argument("hres_ref::resize: input size does not match n*c*h*w");
    }
    const bool nearest = p.mode == Mode::nearest || p.mode == Mode::nearest_exact;
    if (nearest && (p.antialias || p.align_corners)) {
        // SEMANTICS.md 1.3: PyTorch rejects both for the nearest modes.
        throw std::invalid_argument("hres_ref::resize: antialias/align_corners not allowed for nearest modes");
    }
}

// SEMANTICS.md 2: pure gather, exact for every dtype.
template <typename T>
std::vector<T> resize_nearest(const std::vector<T>& in, int64_t planes, int64_t c, int64_t h, int64_t w,
                              int64_t oh, int64_t ow, const ResizeParams& p) {
    const bool exact = p.mode == Mode::nearest_exact;
    const bool channels_last_kernel = uses_channels_last_kernel(p, c, oh, ow);
    const std::vector<int64_t> hi = nearest_indices(h, oh, p.scale_h, exact, channels_last_kernel);
    const std::vector<int64_t> wi = nearest_indices(w, ow, p.scale_w, exact, channels_last_kernel);
    std::vector<T> out(static_cast<size_t>(planes * oh * ow));
    for (int64_t pl = 0; pl < planes; ++pl) {
        const T* src = in.data() + pl * h * w;
        T* dst = out.data() + pl * oh * ow;
        for (int64_t y = 0; y < oh; ++y) {
            for (int64_t x = 0; x < ow; ++x) dst[y * ow + x] = src[hi[y] * w + wi[x]];
        }
    }
    return out;
}

// SEMANTICS.md 3.1: float32 bilinear, non-separable, in the generic CPU kernel's order
//   out = lh0*(lw0*x00 + lw1*x01) + lh1*(lw0*x10 + lw1*x11).
std::vector<float> bilinear_f32(const std::vector<float>& in, int64_t planes, int64_t c, int64_t h, int64_t w,
                                int64_t oh, int64_t ow, const ResizeParams& p) {
    const bool fused = uses_channels_last_kernel(p, c, oh, ow);  // PyTorch's channels-last kernel fuses
    const std::vector<LinearTap> th = linear_taps_f32(h, oh, p.align_corners, p.scale_h, fused);
    const std::vector<LinearTap> tw = linear_taps_f32(w, ow, p.align_corners, p.scale_w, fused);
    std::vector<float> out(static_cast<size_t>(planes * oh * ow));
    for (int64_t pl = 0; pl < planes; ++pl) {
        const float* x = in.data() + pl * h * w;
        float* dst = out.data() + pl * oh * ow;
        for (int64_t y = 0; y < oh; ++y) {
            const LinearTap& a = th[y];
            for (int64_t xo = 0; xo < ow; ++xo) {
                const LinearTap& b = tw[xo];
                const float top = rmul(b.l0, x[a.i0 * w + b.i0]) + rmul(b.l1, x[a.i0 * w + b.i1]);
                const float bottom = rmul(b.l0, x[a.i1 * w + b.i0]) + rmul(b.l1, x[a.i1 * w + b.i1]);
                dst[y * ow + xo] = rmul(a.l0, top) + rmul(a.l1, bottom);
            }
        }
    }
    return out;
}

// SEMANTICS.md 4.1: float32 bicubic, one pass, no intermediate rounding or clamping:
//   out = sum_j cy_j * (sum_k cx_k * x[hy_j, wx_k]), inner sums over W first,
//   both sums sequential from index 0.
std::vector<float> bicubic_f32(const std::vector<float>& in, int64_t planes, int64_t h, int64_t w,
                               int64_t oh, int64_t ow, const ResizeParams& p) {
    const std::vector<CubicTap> th = cubic_taps_f32(h, oh, p.align_corners, p.scale_h);
    const std::vector<CubicTap> tw = cubic_taps_f32(w, ow, p.align_corners, p.scale_w);
    std::vector<float> out(static_cast<size_t>(planes * oh * ow));
    for (int64_t pl = 0; pl < planes; ++pl) {
        const float* x = in.data() + pl * h * w;
        float* dst = out.data() + pl * oh * ow;
        for (int64_t y = 0; y < oh; ++y) {
            const CubicTap& a = th[y];
            for (int64_t xo = 0; xo < ow; ++xo) {
                const CubicTap& b = tw[xo];
                float acc = 0.0f;
                for (int j = 0; j < 4; ++j) {
                    const float* row = x + a.idx[j] * w;
                    float r = rmul(row[b.idx[0]], b.c[0]);
                    for (int k = 1; k < 4; ++k) r = r + rmul(row[b.idx[k]], b.c[k]);
                    const float term = rmul(r, a.c[j]);
                    acc = (j == 0) ? term : acc + term;
                }
                dst[y * ow + xo] = acc;
            }
        }
    }
    return out;
}

// One separable 1-D pass (SEMANTICS.md 3.2 / 5.3) over every (n, c) plane of a
// planes x h x w buffer: along W (horizontal) or along H (vertical), producing
// `out_len` samples per line. `sample(line, stride, o)` computes output o from
// the input line (element k at line[k * stride]).
template <typename T, typename Sample>
std::vector<T> separable_pass(const std::vector<T>& src, int64_t planes, int64_t h, int64_t w,
                              bool horizontal, int64_t out_len, Sample sample) {
    const int64_t oh = horizontal ? h : out_len;
    const int64_t ow = horizontal ? out_len : w;
    std::vector<T> dst(static_cast<size_t>(planes * oh * ow));
    for (int64_t pl = 0; pl < planes; ++pl) {
        const T* plane = src.data() + pl * h * w;
        T* out = dst.data() + pl * oh * ow;
        for (int64_t y = 0; y < oh; ++y) {
            for (int64_t x = 0; x < ow; ++x) {
                // Horizontal: line = input row y, output index x.
                // Vertical:   line = input column x, output index y.
                out[y * ow + x] = horizontal ? sample(plane + y * w, int64_t(1), x)
                                             : sample(plane + x, w, y);
            }
        }
    }
    return dst;
}

// SEMANTICS.md 5: float32 antialias. Horizontal pass first into a float32
// intermediate, then vertical; a pass whose dimension is unchanged is skipped
// (SEMANTICS.md 1.5 / 5.3, current CPU behaviour, even with an explicit scale).
std::vector<float> antialias_f32(const std::vector<float>& in, int64_t planes, int64_t h, int64_t w,
                                 int64_t oh, int64_t ow, const ResizeParams& p) {
    auto apply = [](const std::vector<WindowTap<float>>& taps) {
        return [&taps](const float* line, int64_t stride, int64_t o) {
            const WindowTap<float>& t = taps[static_cast<size_t>(o)];
            float acc = 0.0f;
            for (size_t j = 0; j < t.w.size(); ++j) {
                const float term = rmul(t.w[j], line[(t.xmin + static_cast<int64_t>(j)) * stride]);
                acc = (j == 0) ? term : acc + term;  // sequential, starting with j = 0
            }
            return acc;
        };
    };
    std::vector<float> cur = in;
    int64_t cur_w = w;
    if (ow != w) {
        const auto taps = aa_taps_f32(w, ow, p.align_corners, p.scale_w, p.mode);
        cur = separable_pass(cur, planes, h, w, true, ow, apply(taps));
        cur_w = ow;
    }
    if (oh != h) {
        const auto taps = aa_taps_f32(h, oh, p.align_corners, p.scale_h, p.mode);
        cur = separable_pass(cur, planes, h, cur_w, false, oh, apply(taps));
    }
    return cur;
}

// SEMANTICS.md 3.2 / 4.2 / 5.4: uint8 bilinear/bicubic, with or without antialias.
// Separable fixed point: horizontal pass into a uint8 intermediate (rounded
// and clamped, so horizontal overshoot is lost), then vertical; a pass whose
// dimension is unchanged is skipped, both unchanged -> copy.
std::vector<uint8_t> separable_u8(const std::vector<uint8_t>& in, int64_t planes, int64_t h, int64_t w,
                                  int64_t oh, int64_t ow, const ResizeParams& p) {
    auto pass_weights = [&p](int64_t in_len, int64_t out_len, double s) {
        return quantise(p.antialias ? aa_weights_f64(in_len, out_len, p.align_corners, s, p.mode)
                                    : separable_weights_f64(in_len, out_len, p.align_corners, s, p.mode));
    };
    auto apply = [](const QuantisedPass& q) {
        return [&q](const uint8_t* line, int64_t stride, int64_t o) {
            const WindowTap<int16_t>& t = q.taps[static_cast<size_t>(o)];
            // PyTorch uses a 32-bit accumulator; with |sum w16| ~ 2^p <= 2^22
            // and pixels <= 255 the sum cannot overflow it, so int64 here
            // gives identical values without signed-overflow UB.
            int64_t acc = q.p > 0 ? (int64_t(1) << (q.p - 1)) : 0;
            for (size_t j = 0; j < t.w.size(); ++j) {
                acc += static_cast<int64_t>(line[(t.xmin + static_cast<int64_t>(j)) * stride]) * t.w[j];
            }
            // acc >> p is a floor division; any negative acc floors to a
            // negative value, which the clamp turns into 0 anyway.
            if (acc < 0) return uint8_t(0);
            return static_cast<uint8_t>(std::min<int64_t>(acc >> q.p, 255));
        };
    };
    std::vector<uint8_t> cur = in;
    int64_t cur_w = w;
    if (ow != w) {
        const QuantisedPass q = pass_weights(w, ow, p.scale_w);
        cur = separable_pass(cur, planes, h, w, true, ow, apply(q));
        cur_w = ow;
    }
    if (oh != h) {
        const QuantisedPass q = pass_weights(h, oh, p.scale_h);
        cur = separable_pass(cur, planes, h, cur_w, false, oh, apply(q));
    }
    return cur;
}

}  // namespace

// ===========================================================================
// 5. Public entry points.
// ===========================================================================

std::vector<float> resize(const std::vector<float>& in, int n, int c, int h, int w, int oh, int ow,
                          const ResizeParams& p) {
    validate(in.size(), n, c, h, w, oh, ow, p);
    const int64_t planes = static_cast<int64_t>(n) * c;  // channels never mix (SEMANTICS.md 1.1)
    switch (p.mode) {
        case Mode::nearest:
        case Mode::nearest_exact:
            return resize_nearest(in, planes, c, h, w, oh, ow, p);
        case Mode::bilinear:
            return p.antialias ? antialias_f32(in, planes, h, w, oh, ow, p)
                               : bilinear_f32(in, planes, c, h, w, oh, ow, p);
        case Mode::bicubic:
            return p.antialias ? antialias_f32(in, planes, h, w, oh, ow, p)
                               : bicubic_f32(in, planes, h, w, oh, ow, p);
    }
    throw std::invalid_argument("hres_ref::resize: unknown mode");
}

std::vector<uint8_t> resize(const std::vector<uint8_t>& in, int n, int c, int h, int w, int oh, int ow,
                            const ResizeParams& p) {
    validate(in.size(), n, c, h, w, oh, ow, p);
    const int64_t planes = static_cast<int64_t>(n) * c;
    switch (p.mode) {
        case Mode::nearest:
        case Mode::nearest_exact:
            return resize_nearest(in, planes, c, h, w, oh, ow, p);
        case Mode::bilinear:
        case Mode::bicubic:
            return separable_u8(in, planes, h, w, oh, ow, p);
    }
    throw std::invalid_argument("hres_ref::resize: unknown mode");
}

}  // namespace hres_ref
