// Scalar reference implementation of grid_sample, affine_grid and flip (2-D,
// float32 and uint8), written from docs/SEMANTICS.md sections 6-8 and following
// the Python oracle shared/spec_oracles/ref_gs.py step by step. See
// sample_reference.h for the API and the exact forms used.
//
// BUILD REQUIREMENT: compile with -O2 -ffp-contract=off (never -ffast-math).
// Every float32 step must round exactly as written; contracting a*b+c into an
// FMA changes the last bit, which moves floor()/nearbyint() decisions. As a
// second line of defence every product whose rounding matters goes through
// rmul() (a volatile store). The FMAs that affine_grid does need are explicit
// std::fma calls.

#include "sample_reference.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <sstream>
#include <string>

#include "float_rules.h"

namespace hres_ref {
namespace {

// Product rounded to float; can never be fused with a following addition.
float rmul(float a, float b) {
    volatile float p = a * b;
    return p;
}

void check_sizes(int n, int c, int h, int w, int oh, int ow) {
    if (n < 0 || c < 0 || h <= 0 || w <= 0 || oh <= 0 || ow <= 0) {
        throw std::invalid_argument("hres_ref: bad sizes n=" + std::to_string(n) + " c=" + std::to_string(c) +
                                    " h=" + std::to_string(h) + " w=" + std::to_string(w) +
                                    " oh=" + std::to_string(oh) + " ow=" + std::to_string(ow));
    }
}

// ===========================================================================
// SEMANTICS.md 6.2: padding transforms (CPU vectorised forms, as ref_gs.py).
// ===========================================================================

float clip_coordinate(float u, int size) {
    return std::min(std::max(u, 0.0f), float(size - 1));
}

float reflect_coordinate(float u, int size, bool align_corners) {
    float low, twice_span;
    if (align_corners) {
        if (size <= 1) return 0.0f;
        low = 0.0f;
        twice_span = float(2 * (size - 1));
    } else {
        low = -0.5f;
        twice_span = float(2 * size);
    }
    const float a = std::fabs(u - low);
    const float flips = std::trunc(a / twice_span);
    const float extra = a - rmul(flips, twice_span);
    return std::min(extra, twice_span - extra) + low;
}

// SEMANTICS.md 4 cubic convolution coefficients, A = -0.75, exactly as ref.py's cc1/cc2.
constexpr float kA = -0.75f;

float cubic_inner(float x) {  // |x| <= 1: ((A+2)*x - (A+3))*x*x + 1
    return rmul(rmul(rmul(kA + 2.0f, x) - (kA + 3.0f), x), x) + 1.0f;
}

float cubic_outer(float x) {  // 1 < |x| < 2: ((A*x - 5A)*x + 8A)*x - 4A
    return rmul(rmul(rmul(kA, x) - rmul(5.0f, kA), x) + rmul(8.0f, kA), x) - rmul(4.0f, kA);
}

void cubic_coefficients(float t, float coeffs[4]) {
    const float x2 = 1.0f - t;
    coeffs[0] = cubic_outer(t + 1.0f);
    coeffs[1] = cubic_inner(t);
    coeffs[2] = cubic_inner(x2);
    coeffs[3] = cubic_outer(x2 + 1.0f);
}

// ---------------------------------------------------------------------------
// The same coordinate computation in double, used only to recognise exact ties
// for nearest_tie_mask (real-number forms of SEMANTICS.md 6.1 / 6.2).
double exact_unnormalize(double g, int size, bool align_corners) {
    return align_corners ? (g + 1.0) * double(size - 1) / 2.0 : ((g + 1.0) * double(size) - 1.0) / 2.0;
}

double exact_pad(double u, int size, GridPadding padding, bool align_corners) {
    const double hi = double(size - 1);
    switch (padding) {
    case GridPadding::zeros:
        return u;
    case GridPadding::border:
        return std::min(std::max(u, 0.0), hi);
    case GridPadding::reflection: {
        double r;
        if (align_corners) {
            if (size <= 1) return 0.0;
            const double span = hi, d = std::fabs(u);
            const double extra = std::fmod(d, span);
            r = (long long)std::floor(d / span) % 2 == 0 ? extra : span - extra;
        } else {
            const double span = double(size), d = std::fabs(u + 0.5);
            const double extra = std::fmod(d, span);
            r = ((long long)std::floor(d / span) % 2 == 0 ? extra : span - extra) - 0.5;
        }
        return std::min(std::max(r, 0.0), hi);
    }
    }
    return u;
}

template<typename Fn>
void for_each_point(int n, int oh, int ow, Fn fn) {
    for (int b = 0; b < n; b++)
        for (int i = 0; i < oh; i++)
            for (int j = 0; j < ow; j++) fn(b, i, j);
}

template<typename T>
std::vector<T> flip_impl(const std::vector<T> &in, int n, int c, int h, int w, FlipAxes axes) {
    if (n < 0 || c < 0 || h <= 0 || w <= 0 || in.size() != size_t(n) * c * h * w) {
        throw std::invalid_argument("hres_ref::flip: bad sizes");
    }
    const bool fh = axes == FlipAxes::horizontal || axes == FlipAxes::both;
    const bool fv = axes == FlipAxes::vertical || axes == FlipAxes::both;
    std::vector<T> out(in.size());
    for (int p = 0; p < n * c; p++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                const int sy = fv ? h - 1 - y : y, sx = fh ? w - 1 - x : x;
                out[(size_t(p) * h + y) * w + x] = in[(size_t(p) * h + sy) * w + sx];
            }
    return out;
}

}  // namespace

// ===========================================================================
// SEMANTICS.md 6.1: unnormalisation, CPU vectorised form. PyTorch's compiled kernel
// fuses (g + 1) * (size / 2) - 0.5 into one multiply-add (measured against
// PyTorch 2.11 at 1080x1920: bit-identical only fused).
// ===========================================================================

float unnormalize(float g, int size, bool align_corners) {
    if (align_corners) return rmul(g + 1.0f, float(size - 1) / 2.0f);
    return std::fma(g + 1.0f, float(size) / 2.0f, -0.5f);
}

float pad_coordinate(float u, int size, GridPadding padding, bool align_corners) {
    switch (padding) {
    case GridPadding::zeros:
        return u;
    case GridPadding::border:
        return clip_coordinate(u, size);
    case GridPadding::reflection:
        return clip_coordinate(reflect_coordinate(u, size, align_corners), size);
    }
    throw std::invalid_argument("hres_ref: bad padding mode");
}

// ===========================================================================
// SEMANTICS.md 6.3: the three modes.
// ===========================================================================

std::vector<float> grid_sample(const std::vector<float> &in, int n, int c, int h, int w,
                               const std::vector<float> &grid, int oh, int ow, const GridSampleParams &p) {
    check_sizes(n, c, h, w, oh, ow);
    if (in.size() != size_t(n) * c * h * w || grid.size() != size_t(n) * oh * ow * 2) {
        throw std::invalid_argument("hres_ref::grid_sample: input or grid size does not match the shape");
    }
    std::vector<float> out(size_t(n) * c * oh * ow, 0.0f);
    const bool ac = p.align_corners;

    for_each_point(n, oh, ow, [&](int b, int i, int j) {
        const float gx = grid[((size_t(b) * oh + i) * ow + j) * 2 + 0];
        const float gy = grid[((size_t(b) * oh + i) * ow + j) * 2 + 1];
        for (int ch = 0; ch < c; ch++) {
            const float *plane = in.data() + (size_t(b) * c + ch) * h * w;
            // v(yy, xx): the input value, 0 outside the image.
            auto v = [&](int64_t yy, int64_t xx) -> float {
                return (xx >= 0 && xx < w && yy >= 0 && yy < h) ? plane[yy * w + xx] : 0.0f;
            };
            float result = 0.0f;
            if (p.mode == GridMode::bicubic) {
                // Unnormalised WITHOUT padding; padding acts on each integer tap.
                const float ux = unnormalize(gx, w, ac), uy = unnormalize(gy, h, ac);
                const float fx = std::floor(ux), fy = std::floor(uy);
                float cx[4], cy[4];
                cubic_coefficients(ux - fx, cx);
                cubic_coefficients(uy - fy, cy);
                float rows[4];
                for (int r = 0; r < 4; r++) {
                    const float ty = pad_coordinate(fy + float(r - 1), h, p.padding, ac);
                    float acc = 0.0f;
                    for (int k = 0; k < 4; k++) {
                        const float tx = pad_coordinate(fx + float(k - 1), w, p.padding, ac);
                        const float term = rmul(v(int64_t(ty), int64_t(tx)), cx[k]);  // int(): truncation
                        acc = k == 0 ? term : acc + term;
                    }
                    rows[r] = acc;
                }
                for (int r = 0; r < 4; r++) {
                    const float term = rmul(rows[r], cy[r]);
                    result = r == 0 ? term : result + term;
                }
            } else {
                const float x = pad_coordinate(unnormalize(gx, w, ac), w, p.padding, ac);
                const float y = pad_coordinate(unnormalize(gy, h, ac), h, p.padding, ac);
                if (p.mode == GridMode::nearest) {
                    // Round half to even (default rounding mode).
                    result = v(int64_t(std::nearbyint(y)), int64_t(std::nearbyint(x)));
                } else {
                    const float x0 = std::floor(x), y0 = std::floor(y);
                    const float wx1 = x - x0, wx0 = 1.0f - wx1;
                    const float wy1 = y - y0, wy0 = 1.0f - wy1;
                    const float nw = rmul(wy0, wx0), ne = rmul(wy0, wx1);
                    const float sw = rmul(wy1, wx0), se = rmul(wy1, wx1);
                    const int64_t xi = int64_t(x0), yi = int64_t(y0);
                    result = rmul(v(yi, xi), nw) + rmul(v(yi, xi + 1), ne);
                    result = result + rmul(v(yi + 1, xi), sw);
                    result = result + rmul(v(yi + 1, xi + 1), se);
                }
            }
            out[((size_t(b) * c + ch) * oh + i) * ow + j] = result;
        }
    });
    return out;
}

std::vector<uint8_t> grid_sample(const std::vector<uint8_t> &in, int n, int c, int h, int w,
                                 const std::vector<float> &grid, int oh, int ow, const GridSampleParams &p) {
    const std::vector<float> as_float(in.begin(), in.end());
    const std::vector<float> f = grid_sample(as_float, n, c, h, w, grid, oh, ow, p);
    std::vector<uint8_t> out(f.size());
    for (size_t k = 0; k < f.size(); k++) {
        const float r = std::nearbyint(f[k]);  // half to even
        out[k] = uint8_t(std::min(std::max(r, 0.0f), 255.0f));
    }
    return out;
}

std::vector<uint8_t> nearest_tie_mask(const std::vector<float> &grid, int n, int h, int w, int oh, int ow,
                                      const GridSampleParams &p, bool grid_is_approximate) {
    check_sizes(n, 1, h, w, oh, ow);
    if (grid.size() != size_t(n) * oh * ow * 2) throw std::invalid_argument("hres_ref::nearest_tie_mask: grid size");
    auto ambiguous = [&](float g, int size) {
        const float raw = unnormalize(g, size, p.align_corners);
        const float u = pad_coordinate(raw, size, p.padding, p.align_corners);
        const float distance = std::fabs(u - std::floor(u) - 0.5f);
        const float tolerance = 8.0f * FLT_EPSILON * std::max({1.0f, std::fabs(raw), float(size)});
        if (!(distance <= tolerance)) return false;
        if (grid_is_approximate) return true;
        // An exact tie: g + 1 exact and the float coordinate equal to the real one.
        const double exact = exact_pad(exact_unnormalize(g, size, p.align_corners), size, p.padding, p.align_corners);
        const bool exact_steps = double(g + 1.0f) == double(g) + 1.0 && double(u) == exact;
        return !exact_steps;
    };
    std::vector<uint8_t> mask(size_t(n) * oh * ow, 0);
    for_each_point(n, oh, ow, [&](int b, int i, int j) {
        const size_t k = (size_t(b) * oh + i) * ow + j;
        mask[k] = ambiguous(grid[2 * k], w) || ambiguous(grid[2 * k + 1], h);
    });
    return mask;
}

// ===========================================================================
// SEMANTICS.md 7: affine_grid.
// ===========================================================================

std::vector<float> affine_base(int n, bool align_corners) {
    if (n <= 0) throw std::invalid_argument("hres_ref::affine_base: n must be positive");
    if (n == 1) return {0.0f};
    std::vector<float> base(n);
    const float step = 2.0f / float(n - 1);
    const int halfway = n / 2;
    for (int j = 0; j < n; j++) {
        // torch.linspace(-1, 1, n) in float32: from the start in the first
        // half, from the end in the second.
        const float lin = j < halfway ? std::fma(step, float(j), -1.0f) : std::fma(-step, float(n - 1 - j), 1.0f);
        base[j] = align_corners ? lin : rmul(lin, float(n - 1)) / float(n);
    }
    return base;
}

std::vector<float> affine_grid(const std::vector<float> &theta, int n, int h, int w, bool align_corners) {
    check_sizes(n, 1, h, w, h, w);
    if (theta.size() != size_t(n) * 6) throw std::invalid_argument("hres_ref::affine_grid: theta must be n x 2 x 3");
    const std::vector<float> bx = affine_base(w, align_corners), by = affine_base(h, align_corners);
    std::vector<float> grid(size_t(n) * h * w * 2);
    for_each_point(n, h, w, [&](int b, int i, int j) {
        const float *t = theta.data() + size_t(b) * 6;
        const float x = bx[j], y = by[i];
        const size_t k = ((size_t(b) * h + i) * w + j) * 2;
        grid[k + 0] = std::fma(y, t[1], rmul(x, t[0])) + t[2];
        grid[k + 1] = std::fma(y, t[4], rmul(x, t[3])) + t[5];
    });
    return grid;
}

// ===========================================================================
// SEMANTICS.md 8: flips.
// ===========================================================================

std::vector<float> flip(const std::vector<float> &in, int n, int c, int h, int w, FlipAxes axes) {
    return flip_impl(in, n, c, h, w, axes);
}

std::vector<uint8_t> flip(const std::vector<uint8_t> &in, int n, int c, int h, int w, FlipAxes axes) {
    return flip_impl(in, n, c, h, w, axes);
}

// ===========================================================================
// Comparison rules for the tests.
// ===========================================================================

namespace {

template<typename Got, typename Allowed>
Comparison compare_impl(const std::vector<Got> &got, const std::vector<float> &want, int c, int oh, int ow,
                        const std::vector<uint8_t> &tie_mask, Allowed allowed) {
    Comparison r;
    if (got.size() != want.size() || c <= 0 || oh <= 0 || ow <= 0 || want.size() % (size_t(c) * oh * ow) != 0 ||
        (!tie_mask.empty() && tie_mask.size() * c != want.size())) {
        r.failures = 1;
        r.first_failure = "sizes differ: got " + std::to_string(got.size()) + " elements, want " +
                          std::to_string(want.size()) + " (tie mask " + std::to_string(tie_mask.size()) + ")";
        return r;
    }
    r.elements = got.size();
    const size_t plane = size_t(oh) * ow;
    for (size_t k = 0; k < got.size(); k++) {
        const int verdict = allowed(double(got[k]), want[k]);  // 0 ok, 1 rounding, 2 mismatch
        if (verdict == 0) continue;
        if (verdict == 1) {
            r.rounding_mismatches++;
            continue;
        }
        const size_t b = k / (plane * c), point = b * plane + k % plane;
        if (!tie_mask.empty() && tie_mask[point]) {
            r.tie_mismatches++;
            continue;
        }
        if (r.failures++ == 0) {
            std::ostringstream s;
            s.precision(9);
            s << "n=" << b << " c=" << k / plane % c << " y=" << k % plane / ow << " x=" << k % ow
              << ": got " << double(got[k]) << ", want " << want[k];
            r.first_failure = s.str();
        }
    }
    return r;
}

}  // namespace

Comparison compare(const std::vector<float> &got, const std::vector<float> &want, int c, int oh, int ow,
                   double tolerance, const std::vector<uint8_t> &tie_mask) {
    return compare_impl(got, want, c, oh, ow, tie_mask, [&](double g, float w) {
        return std::fabs(g - double(w)) <= tolerance ? 0 : 2;  // NaN is a mismatch
    });
}

Comparison compare(const std::vector<uint8_t> &got, const std::vector<float> &want_float, int c, int oh, int ow,
                   const std::vector<uint8_t> &tie_mask) {
    return compare_impl(got, want_float, c, oh, ow, tie_mask, [&](double g, float w) {
        const double rounded = std::min(std::max(double(std::nearbyint(w)), 0.0), 255.0);
        if (g == rounded) return 0;
        const double fraction = double(w) - std::floor(double(w));
        if (std::fabs(g - rounded) == 1.0 && std::fabs(fraction - 0.5) <= 1e-4) return 1;
        return 2;
    });
}

}  // namespace hres_ref
