// Filter weights: the per-axis tap tables of the separable resize paths
// (docs/SEMANTICS.md 3, 4, 5), in float32 for float images and in PyTorch's 16-bit fixed
// point for uint8 images.
//
// A table says: output i reads input clamp_tap(start(i) + k, in) with weight
// weight(k, i), for k in [0, taps). Weights beyond an output's own window are 0.
#pragma once

#include "Halide.h"
#include "boundary.h"
#include "coords.h"

#include <cmath>
#include <functional>

namespace hres {

using namespace Halide;
using Halide::Internal::make_const;
using Halide::Internal::make_one;
using Halide::Internal::make_zero;

enum class Filter { linear, cubic };

// Taps of one output in the non-antialiased paths, and the window scale of the
// antialiased ones (docs/SEMANTICS.md 5.1).
inline int filter_support(Filter f) { return f == Filter::linear ? 2 : 4; }

// Keys cubic convolution in PyTorch's evaluation forms (docs/SEMANTICS.md 4): cc1 for
// |d| <= 1, cc2 for 1 < |d| < 2. The forms matter for float rounding, so the
// products stay unfused on CUDA too.
inline Expr cubic_near(Expr d, Expr a) {
    return unfused_product(unfused_product(unfused_product(a + 2, d) - (a + 3), d), d) + 1;
}
inline Expr cubic_far(Expr d, Expr a) {
    return unfused_product(unfused_product(unfused_product(a, d) - 5 * a, d) + 8 * a, d) - 4 * a;
}

// The same as PyTorch's AVX2 and AVX-512 builds evaluate them in their
// generic resize kernel (HelperInterpCubic, float32): every multiply and add
// fused into one rounding but each polynomial's last. Bit for bit PyTorch
// 2.15's weights (docs/SEMANTICS.md, "Ties"; the plain forms differ by an
// ulp, and are exactly 0 where these are not).
inline Expr cubic_near_fused(Expr d, Expr a) {
    return unfused_product(unfused_product(fused_multiply_add_f32(a + 2, d, -(a + 3)), d), d) + 1;
}
inline Expr cubic_far_fused(Expr d, Expr a) {
    Expr inner = fused_multiply_add_f32(fused_multiply_add_f32(a, d, -(5 * a)), d, 8 * a);
    return unfused_product(inner, d) - 4 * a;
}

// The four weights of taps floor(u)-1 .. floor(u)+2 at fraction t = u - floor(u),
// each in the form PyTorch's float kernels evaluate: grid_sample's plain
// forms, or (`fused`) its resize kernel's.
inline std::vector<Expr> cubic_coefficients(Expr t, Expr a, bool fused = false) {
    Expr one = make_one(t.type());
    auto near = [&](Expr d) { return strict_float(fused ? cubic_near_fused(d, a) : cubic_near(d, a)); };
    auto far = [&](Expr d) { return strict_float(fused ? cubic_far_fused(d, a) : cubic_far(d, a)); };
    return {far(t + one), near(t), near(one - t), far((one - t) + one)};
}

inline Expr filter_value(Filter f, Expr d, Expr cubic_a) {
    Type t = d.type();
    Expr ad = abs(d);
    if (f == Filter::linear) {
        return select(ad < 1, make_one(t) - ad, make_zero(t));
    }
    return select(ad < 1, cubic_near(ad, cubic_a),
                  ad < 2, cubic_far(ad, cubic_a),
                  make_zero(t));
}

struct AxisTaps {
    Var i;        // the output index the Funcs and Exprs below are defined on
    Func start;   // (i) -> first input index (before clamping)
    Func weight;  // (k, i) -> float32, or int16 in the fixed-point path
    Expr taps;    // extent of k
    Func shift;   // () -> fixed-point precision p (uint8 path only)
    // Every Func above and the helpers they reduce over: small per-call tables
    // that a schedule computes once, ahead of the pixel loops (each once:
    // inlined, the antialiased filter's values were evaluated three times).
    std::vector<Func> tables;
    // uint8 only: the whole-axis maximum setting the precision (also in
    // `tables`), and the RVar over the axis' outputs its update reduces along.
    Func largest;
    RVar largest_over;
    // Bounds on the taps of output i, affine in i and inside [0, in): they
    // never change a tap (every tap lies within them), but they tell bounds
    // inference which input rows a tile of outputs reads, which the
    // data-dependent start(i) cannot.
    Expr lowest, highest;
    // The most input indices that any `count` consecutive outputs read
    // between those bounds, as one expression: a per-tile buffer sized by it
    // needs no evaluation of every tile's window.
    std::function<Expr(int count)> window_extent;

    // Optional (k, i) -> tap k's input index, already clamped: see
    // with_index_table.
    Func index;
    // Tables fitted inside the image (fit_inside): start(i) + k is an input
    // index for every k < taps, so taps are read unclamped.
    bool fitted = false;

    // Input index of tap k of output i: edge replication (boundary.h) within
    // the window above.
    Expr tap(Expr k) const {
        if (index.defined()) return promised_index(index(k, i), lowest, highest);
        if (fitted) return unsafe_promise_clamped(start(i) + k, lowest, highest);
        return clamp(start(i) + k, lowest, highest);
    }
};

struct AxisSpec {
    std::string name;    // "x" or "y": names the tables
    Expr in, out;        // extents along the axis
    Expr align_corners;  // bool
    Expr user_scale;     // float64, <= 0 when not given
    // PyTorch would run its channels-last kernel (coords.h, nearest_source).
    Expr channels_last = Halide::Internal::const_false();
};

namespace detail {

// PyTorch's per-pass precision (docs/SEMANTICS.md 3.2): the largest p <= 22 such that the
// biggest weight still fits int16, i.e. the first q in [0, 22) with
// int(0.5 + wmax * 2^(q+1)) >= 2^15, else 22.
inline Expr fixed_point_shift(Expr wmax) {
    Expr p = 22;
    for (int q = 21; q >= 0; q--) {
        p = select(cast<int>(Expr(0.5) + wmax * Expr(double(1 << (q + 1)))) >= (1 << 15), q, p);
    }
    return strict_float(p);
}

// The window [floor(s*i) - reach, floor(s*(i+1)) + reach] clipped to the
// image, s being the axis' source-per-output scale: every filter here reads
// within `reach` pixels of that span (the bounds in AxisTaps). An unchanged
// axis reads input i alone, whatever the scale.
inline void set_window(AxisTaps &taps, Expr unchanged, Expr scale, Expr in, Expr reach) {
    Expr s = cast<double>(scale);
    Expr i = cast<double>(taps.i);
    // Clamped whole, as schedules may evaluate i outside [0, out) (vectors
    // shifted inwards on narrow images) and bounds inference must not read
    // outside the image then either.
    Expr identity = taps.i;
    Expr low = cast<int>(floor(s * i)) - reach, high = cast<int>(floor(s * (i + 1))) + reach;
    if (KnownTarget::known()) {
        // For an autoscheduler: in plain arithmetic and a pixel wider
        // (coords.h, bound_form), truncated rather than floored (Halide
        // folds the one, not the other), which the margin also covers.
        low = cast<int>(bound_form(s * i)) - reach - 1;
        high = cast<int>(bound_form(s * (i + 1))) + reach + 1;
    }
    Expr lowest = clamp(select(unchanged, identity, low), 0, in - 1);
    Expr highest = clamp(select(unchanged, identity, high), 0, in - 1);
    // Only the GPU schedules compute the horizontal pass per tile and need
    // these bounds. On x86 it covers whole images, and the window, evaluated
    // per tap (two float64 floors a lane), cost as much as the filtering
    // itself: there the taps are clamped to the image alone.
    taps.lowest = on_cuda(lowest, 0);
    taps.highest = on_cuda(highest, in - 1);
    // Outputs i0 .. i0 + count - 1 read floor(s*(i0 + count)) - floor(s*i0)
    // + 2*reach + 1 <= ceil(s*count) + 2*reach + 1 indices (clamping only
    // narrows that); one more for the rounding of the float64 products.
    // Schedules size buffers on the host with it (host_form).
    taps.window_extent = [=](int count) {
        Expr span = cast<int>(ceil(s * count)) + 2 * reach + 2;
        return host_form(select(unchanged, count, min(span, in)));
    };
}

// Rounds half away from zero into int16, as PyTorch does for its weights.
inline Expr quantise(Expr w, Expr shift) {
    Expr v = w * cast<double>(Expr(1) << shift);
    return cast<int16_t>(strict_float(select(v < Expr(0.0), v - Expr(0.5), v + Expr(0.5))));
}

}  // namespace detail

// Non-antialiased bilinear / bicubic (docs/SEMANTICS.md 3, 4). `identity_if_unchanged`
// applies PyTorch's per-axis short cut for in == out (float bilinear and both
// uint8 paths); float bicubic always uses the formula.
inline AxisTaps interpolating_taps(const AxisSpec &axis, Filter filter, Type pixel, Var i, Var k) {
    const bool fixed = pixel == UInt(8);
    const bool cubic = filter == Filter::cubic;
    const int support = filter_support(filter);
    const bool identity_if_unchanged = fixed || !cubic;
    // Float images compute coordinates in float32; uint8 in float64.
    const Type t = fixed ? Float(64) : Float(32);

    Expr scale = area_pixel_scale(axis.in, axis.out, axis.align_corners, axis.user_scale, t);
    // Float coordinates round as PyTorch's x86 builds compute them: fused
    // in its cubic kernel and in its channels-last linear one (coords.h).
    Expr fused = cubic ? Halide::Internal::const_true() : axis.channels_last;
    Expr r = area_pixel_source(scale, i, axis.align_corners, cubic, fused);
    // The uint8 path floors the coordinate after rounding it to float32.
    Expr index = min(cast<int>(floor(cast<float>(r))), axis.in - 1);
    Expr frac = strict_float(clamp(r - cast(t, index), make_zero(t), make_one(t)));
    Expr first = index - (support / 2 - 1);

    // Unfolded weights of taps first + j.
    std::vector<Expr> w(support);
    if (!fixed && !cubic) {
        w[0] = strict_float(make_one(t) - frac);
        w[1] = frac;
    } else if (!fixed) {
        w = cubic_coefficients(frac, make_const(t, -0.75), /*fused=*/true);
    } else {
        // The uint8 path evaluates the filter at each tap's distance (1 - (1 - t)
        // is not t in floating point, so this differs from the float forms).
        for (int j = 0; j < support; j++) {
            w[j] = strict_float(filter_value(filter, make_const(t, j + 1 - support / 2) - frac, make_const(t, -0.75)));
        }
    }

    AxisTaps taps;
    taps.i = i;
    taps.start = Func("start_" + axis.name);
    taps.weight = Func("weight_" + axis.name);
    taps.taps = support;
    Expr unchanged = identity_if_unchanged ? (axis.in == axis.out) : Halide::Internal::const_false();
    // Taps run from floor(r) - 1 to floor(r) + 2 with r >= s*i - 0.5 and r <= s*(i+1).
    detail::set_window(taps, unchanged, scale, axis.in, 4);

    if (!fixed) {
        // Float: clamped tap indices carry the edge replication (no folding).
        taps.start(i) = select(unchanged, i, first);
        taps.weight(k, i) = select(unchanged, select(k == 0, make_one(t), make_zero(t)),
                                   mux(k, w));
        taps.tables = {taps.start, taps.weight};
        return taps;
    }

    // uint8: taps that clamp onto the same input pixel are folded into one
    // weight before quantisation, and the precision is chosen from the largest
    // partial sum seen while folding (docs/SEMANTICS.md 3.2).
    Expr lo = max(first, 0);
    std::vector<Expr> slot(support);
    Expr peak = make_zero(t);
    for (int j = 0; j < support; j++) {
        slot[j] = clamp_tap(first + j, axis.in) - lo;
        Expr partial = make_zero(t);
        for (int jj = 0; jj <= j; jj++) {
            partial = partial + select(slot[jj] == slot[j], w[jj], make_zero(t));
        }
        peak = max(peak, strict_float(partial));
    }
    std::vector<Expr> by_slot(support);
    for (int s = 0; s < support; s++) {
        Expr sum = make_zero(t);
        for (int j = 0; j < support; j++) {
            sum = sum + select(slot[j] == s, w[j], make_zero(t));
        }
        by_slot[s] = strict_float(sum);
    }

    // One evaluation of an output's filter gives all its folded weights and
    // its peak (an unchanged axis: weight 1 on its own pixel): a table of
    // them, per output, which the quantised weights and the maximum read
    // (inlined, each weight and the maximum redid them all).
    std::vector<Expr> values(support + 1);
    for (int s = 0; s < support; s++) values[s] = select(unchanged, s == 0 ? make_one(t) : make_zero(t), by_slot[s]);
    values[support] = select(unchanged, make_one(t), peak);
    Func folded("folded_" + axis.name);
    folded(i) = Tuple(values);
    std::vector<Expr> weights(support);
    for (int s = 0; s < support; s++) weights[s] = folded(i)[s];
    // Peaks are >= 0, so starting the maximum at 0 changes nothing.
    RDom all(0, axis.out, "all_outputs");
    Func largest("largest_" + axis.name);
    largest() = make_zero(t);
    largest() = max(largest(), folded(all)[support]);
    taps.shift = Func("shift_" + axis.name);
    taps.shift() = detail::fixed_point_shift(largest());
    taps.start(i) = select(unchanged, i, lo);
    taps.weight(k, i) = detail::quantise(mux(k, weights), taps.shift());
    taps.tables = {folded, largest, taps.start, taps.weight, taps.shift};
    taps.largest = largest;
    taps.largest_over = all.x;
    return taps;
}

// Antialiased bilinear / bicubic (docs/SEMANTICS.md 5, Pillow's algorithm): a window
// stretched by the downscale factor, taps outside the image dropped and the
// rest renormalised. An unchanged axis is skipped (identity), as PyTorch does.
// The passes loop over taps.taps taps per output (PyTorch over each output's
// own count): PyTorch's bound on the count, or with `span` the tighter
// one below. Results are equal (taps past an output's count weigh 0); which
// runs faster depends on the schedule (the generators' span_taps).
inline AxisTaps antialias_taps(const AxisSpec &axis, Filter filter, Type pixel, Var i, Var k,
                               bool span = false, int fixed_taps = 0) {
    const bool fixed = pixel == UInt(8);
    const Type t = fixed ? Float(64) : Float(32);
    const double half_support = filter_support(filter) * 0.5;
    Expr cubic_a = make_const(t, -0.5);

    Expr scale = area_pixel_scale(axis.in, axis.out, axis.align_corners, axis.user_scale, t);
    Expr d_scale = cast<double>(scale);
    Expr support = strict_float(select(scale >= make_one(t), cast(t, Expr(half_support) * d_scale),
                                       make_const(t, half_support)));
    Expr max_taps = cast<int>(ceil(support)) * 2 + 1;  // PyTorch's bound (kmax)
    // The tap loops' extent: that bound, or a constant one (`fixed_taps`,
    // the autoschedulable form: autoschedulers need constant extents to
    // tile and unroll), which a call needing more is refused by.
    Expr loop_taps = fixed_taps > 0 ? Expr(fixed_taps) : max_taps;
    Expr inv_scale = strict_float(select(scale >= make_one(t), cast(t, Expr(1.0) / d_scale), make_one(t)));
    Expr center = strict_float(cast(t, d_scale * (cast<double>(i) + Expr(0.5))));
    Expr lo = max(cast<int>(strict_float(cast<double>(center - support) + Expr(0.5))), 0);
    Expr hi = min(cast<int>(strict_float(cast<double>(center + support) + Expr(0.5))), axis.in);
    Expr count = clamp(hi - lo, 0, max_taps);
    // Float images: the "+ 0.5" and "* invscale" are evaluated in double and
    // the argument rounded to float32; uint8 images do everything in double.
    Expr arg = cast(t, (cast<double>(cast(t, k + lo) - center) + Expr(0.5)) * cast<double>(inv_scale));
    Func raw("raw_weight_" + axis.name);
    raw(k, i) = select(k < count, strict_float(filter_value(filter, strict_float(arg), cubic_a)), make_zero(t));
    RDom tap(0, loop_taps, "tap");
    Func total("total_" + axis.name);
    total(i) = make_zero(t);
    total(i) = strict_float(total(i) + raw(tap, i));  // sequential, as PyTorch sums
    Expr normalised = strict_float(select(total(i) != 0, exact_quotient(raw(k, i), total(i)), raw(k, i)));

    Expr unchanged = axis.in == axis.out;
    AxisTaps taps;
    taps.i = i;
    // Taps with weight run from int(center - support + 0.5) to below
    // int(center + support + 0.5), center being s*(i + 0.5): more than
    // floor(s*i) - support - 1 and less than floor(s*(i+1)) + support + 1 for
    // any s (an upscale's support is 1 or 2), so within ceil(support) of the
    // span; one more pixel of margin for rounding. Taps past an output's
    // count weigh 0, and their clamping changes nothing.
    detail::set_window(taps, unchanged, scale, axis.in,
                       fixed_taps > 0 ? Expr((fixed_taps - 1) / 2 + 1) : cast<int>(ceil(support)) + 1);
    taps.start = Func("start_" + axis.name);
    taps.weight = Func("weight_" + axis.name);
    // The span bound: a count is int(A + 0.5) - int(B + 0.5), with A and B
    // the evaluated (rounded) center + support and center - support, so at
    // most ceil(A - B); A - B exceeds 2 * support by at most (center +
    // support) * 2^-23 (two roundings to float32; far less in float64), and
    // center < scale * (out + 0.5). Tighter than PyTorch's 2 * ceil(support)
    // + 1 for downscales: at the seed's 1.28 and 1.69, 3 and 4 taps instead
    // of 5 (bilinear), 6 and 7 instead of 7 and 9 (bicubic).
    Expr d_support = cast<double>(support);
    Expr rounding =
        (d_scale * (cast<double>(axis.out) + Expr(0.5)) + d_support + Expr(1.0)) * Expr(std::ldexp(1.0, -22));
    Expr spanned = cast<int>(ceil(Expr(2.0) * d_support + rounding));
    taps.taps = select(unchanged, 1, span ? min(max_taps, spanned) : loop_taps);
    taps.start(i) = select(unchanged, i, fixed_taps > 0 ? require(max_taps <= fixed_taps, lo, max_taps,
                                                                  "taps, more than the kernel's fixed_taps")
                                                        : lo);
    Expr w = select(unchanged, select(k == 0, make_one(t), make_zero(t)), normalised);
    if (!fixed) {
        taps.weight(k, i) = w;
        taps.tables = {raw, total, taps.start, taps.weight};
        return taps;
    }
    Func weight_f64("weight_f64_" + axis.name);
    weight_f64(k, i) = w;
    RDom all(0, taps.taps, 0, axis.out, "all_weights");
    Func largest("largest_" + axis.name);
    largest() = make_zero(t);
    largest() = max(largest(), weight_f64(all.x, all.y));
    taps.shift = Func("shift_" + axis.name);
    taps.shift() = detail::fixed_point_shift(largest());
    taps.weight(k, i) = detail::quantise(weight_f64(k, i), taps.shift());
    taps.tables = {raw, total, weight_f64, largest, taps.start, taps.weight, taps.shift};
    taps.largest = largest;
    taps.largest_over = all.y;
    return taps;
}

namespace detail {

// The window bounds of tables fitted inside the image (fit_inside), from
// those of the unfitted ones, for `count` taps per output. A window moved
// left by the fit starts at in - count at the lowest, and one at the left
// edge, whose taps past its own are no longer clamped onto the edge, reaches
// count - 1. Otherwise the fitted taps stay within the bounds set_window
// gives: within its margin of reach = ceil(support) + 1 around the span
// (checked by brute force, bench/tune/check_fitted_windows.py: sizes
// 1-33, 100, 345, 456 and 1080 both ways, explicit scales, align_corners,
// both filters, float32 and float64 coordinates and both tap counts). So a
// tile's window grows to at most `count` rows where these apply.
inline void fitted_window(AxisTaps &taps, Expr in, Expr count) {
    taps.fitted = true;
    taps.taps = count;
    taps.lowest = min(taps.lowest, in - count);
    taps.highest = max(taps.highest, count - 1);
    auto extent = taps.window_extent;
    taps.window_extent = [=](int outputs) { return host_form(min(max(extent(outputs), count), in)); };
}

}  // namespace detail

// The tables fitted inside the image, for the kernels that take them from
// the host (CUDA, antialiased): each output's window of taps is moved left
// where it would run past the last input index, its weights shifted along
// (the taps it gains at its start weigh 0), so that every tap reads a pixel
// of the image and none needs a clamp. The tap count becomes min(taps, in):
// no output has more weighted taps than the image has pixels. Sums are
// unchanged: the same weighted pixels in the same order, zeros before them
// instead of after. On the GPU a clamped tap was 10 instructions, 6 of them
// its index and address; fitted, a tap is two loads and a multiply-add
// (with the planar tiles' unit strides). H200, 2026-11-29,
// bench/tune/cuda_ab.sh, best of 3, clamped -> fitted: 4x3x345x456 ->
// 270x270 bilinear+aa 0.95-0.98x, bicubic+aa 0.92-0.94x, 4x3x1080x1920 ->
// 540x960 bicubic+aa 0.87-0.92x (f32 NCHW 116.5 -> 101.2 us); the gain
// of two horizontal rows per thread for bilinear came with it
// (schedules/resize_cuda.cpp).
inline AxisTaps fit_inside(const AxisTaps &taps, Expr in, Var k) {
    const Var i = taps.i;
    const Expr count = min(taps.taps, in);
    AxisTaps fitted = taps;
    fitted.start = Func("fitted_" + taps.start.name());
    fitted.start(i) = min(taps.start(i), in - count);
    fitted.weight = Func("fitted_" + taps.weight.name());
    Expr moved = taps.start(i) - fitted.start(i);
    Expr w = taps.weight(clamp(k - moved, 0, k), i);  // moved >= 0: the clamp only bounds it for Halide
    fitted.weight(k, i) = select(k >= moved, w, make_zero(w.type()));
    fitted.tables.push_back(fitted.start);
    fitted.tables.push_back(fitted.weight);
    detail::fitted_window(fitted, in, count);
    return fitted;
}

// `taps` with its start and weight tables (and the uint8 precision) supplied
// by the caller instead: the CUDA kernels built with host_tables take them as
// inputs, computed on the host by the resize_taps pipeline from these same
// functions. Weights arrive as float32 (the uint8 path's int16 values are
// exact in it). With `fitted_count` defined, the tables are fitted inside
// the image (fit_inside) for that many taps, which the kernel then loops
// over; otherwise the window bounds and the tap count stay as computed here.
inline AxisTaps with_given_tables(AxisTaps taps, Func start, Func weight, Expr shift, Expr in,
                                  Expr fitted_count = Expr()) {
    const bool fixed = taps.shift.defined();
    if (fitted_count.defined()) detail::fitted_window(taps, in, fitted_count);
    Var k("k");
    taps.start = Func("given_start_" + start.name());
    taps.start(taps.i) = start(taps.i);
    taps.weight = Func("given_weight_" + weight.name());
    taps.weight(k, taps.i) = fixed ? cast<int16_t>(weight(k, taps.i)) : weight(k, taps.i);
    if (fixed) {
        taps.shift = Func("given_shift_" + weight.name());
        taps.shift() = shift;
    }
    taps.tables.clear();
    taps.largest = Func();
    return taps;
}

// `taps` reading each tap's clamped input index from a table (computed with
// the others) instead of clamping start(i) + k per tap, for the x86 passes,
// which evaluate taps per pixel tile (boundary.h's index_bits says how the
// table avoids being clamped again).
inline AxisTaps with_index_table(AxisTaps taps, Var k) {
    taps.index = Func("index_" + taps.start.name());
    taps.index(k, taps.i) = index_bits(clamp(taps.start(taps.i) + k, taps.lowest, taps.highest));
    taps.tables.push_back(taps.index);
    return taps;
}

}  // namespace hres
