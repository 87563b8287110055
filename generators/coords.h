// Coordinate mapping: where an output pixel samples the input: resize
// (docs/SEMANTICS.md 1.4, 2), grid_sample's unnormalisation (6.1) and affine_grid's
// base coordinates (7).
//
// Every formula here is evaluated in the precision PyTorch uses (float32 for
// float paths and all nearest indices, float64 for the uint8 separable paths),
// and wrapped in strict_float so that Halide and LLVM neither reassociate nor
// contract it: indices and weights must come out bit-identical to PyTorch's.
#pragma once

#include "Halide.h"

#include <cmath>
#include <optional>
#include <utility>

namespace hres {

using namespace Halide;
using Halide::Internal::make_const;
using Halide::Internal::make_one;
using Halide::Internal::make_zero;
using Halide::Internal::const_false;
using Halide::Internal::const_true;

// Float32 operations that PTX code must round exactly as written. Halide
// compiles PTX with unsafe math: a multiply feeding an add becomes one fused
// multiply-add and a division is approximate (and LLVM narrows a detour
// through float64 back to float32 first), which moves coordinates by an ulp
// and, times a pixel gradient, values beyond the tolerances. libdevice's
// round-to-nearest primitives are neither fused nor approximated. CPU code
// keeps the plain operation: strict_float already stops contraction there.
// Target queries are left to Halide's lowering (target_has_feature), so
// that one algorithm serves every target of a multi-target build. An
// autoscheduler, though, bounds the algorithm before lowering, and a
// query's select keeps every extent behind it symbolic ("extent not
// constant"): while a generator builds its autoschedulable form
// (KnownTarget), the queries are answered from its target instead.
class KnownTarget {
public:
    KnownTarget(bool known, const Target &target) {
        if (known) current() = target;
    }
    ~KnownTarget() { current().reset(); }
    KnownTarget(const KnownTarget &) = delete;
    KnownTarget &operator=(const KnownTarget &) = delete;
    static bool known() { return current().has_value(); }
    static Expr has_feature(Target::Feature feature) {
        if (!current()) return target_has_feature(feature);
        return current()->has_feature(feature) ? const_true() : const_false();
    }

private:
    static std::optional<Target> &current() {
        static thread_local std::optional<Target> target;
        return target;
    }
};

inline Expr on_cuda(Expr cuda, Expr cpu) { return select(KnownTarget::has_feature(Target::CUDA), cuda, cpu); }

// For an autoscheduler (KnownTarget set): an extent or a bound in plain
// arithmetic, which Halide's simplifier folds once the estimates are in (it
// leaves strict operations and libdevice calls as they are). Plain arithmetic may round
// otherwise (CUDA's division is approximate), so callers widen the bounds
// it gives by a pixel (filters.h, set_window). Elsewhere `e`.
inline Expr bound_form(Expr e) {
    using namespace Halide::Internal;
    class Plain : public IRMutator {
        using IRMutator::visit;
        Expr visit(const Call *op) override {
            if (op->is_strict_float_intrinsic()) return mutate(unstrictify_float(op));
            if (op->name == "__nv_fdiv_rn") return mutate(op->args[0]) / mutate(op->args[1]);
            if (op->name == "__nv_fmul_rn") return mutate(op->args[0]) * mutate(op->args[1]);
            return IRMutator::visit(op);
        }
    };
    return KnownTarget::known() ? Plain().mutate(e) : e;
}

// `e` with on_cuda's CPU forms chosen: for an Expr that a schedule hands to
// Halide outside any Func (a bound_storage extent), whose target queries
// Halide leaves unresolved, and which runs on the host. There the two forms
// agree (runtime/src/libdevice_host.cpp defines the libdevice primitives plainly).
inline Expr host_form(Expr e) {
    using namespace Halide::Internal;
    class CpuForms : public IRMutator {
        using IRMutator::visit;
        Expr visit(const Call *op) override {
            if (op->is_intrinsic(Call::target_has_feature) && is_const(op->args[0], int(Target::CUDA))) {
                return const_false();
            }
            return IRMutator::visit(op);
        }
    };
    return CpuForms().mutate(e);
}

inline Expr libdevice(const char *name, const std::vector<Expr> &args) {
    return Halide::Internal::Call::make(Float(32), name, args, Halide::Internal::Call::PureExtern);
}

// a * b rounded once and never fused into a following add or subtract.
inline Expr unfused_product(Expr a, Expr b) {
    if (a.type() != Float(32)) return strict_float(a * b);
    return strict_float(on_cuda(libdevice("__nv_fmul_rn", {a, b}), a * b));
}

// a / b correctly rounded.
inline Expr exact_quotient(Expr a, Expr b) {
    if (a.type() != Float(32)) return strict_float(a / b);
    return strict_float(on_cuda(libdevice("__nv_fdiv_rn", {a, b}), a / b));
}

// PyTorch's compute_scales_value: 1/s for an explicit scale factor s > 0
// (division in double, then rounded to t), else in/out evaluated in t.
inline Expr scale_from_sizes_or_factor(Expr user_scale, Expr in, Expr out, Type t) {
    return strict_float(select(user_scale > Expr(0.0),
                               cast(t, Expr(1.0) / user_scale),
                               exact_quotient(cast(t, in), cast(t, out))));
}

// PyTorch's area_pixel_compute_scale: with align_corners the corner pixel
// centres map onto each other and an explicit scale factor is ignored.
inline Expr area_pixel_scale(Expr in, Expr out, Expr align_corners, Expr user_scale, Type t) {
    Expr corners = select(out > 1, exact_quotient(cast(t, in - 1), cast(t, out - 1)), make_zero(t));
    return strict_float(select(align_corners, corners,
                               scale_from_sizes_or_factor(user_scale, in, out, t)));
}

// a * b + c rounded once to float32, as the fused multiply-add PyTorch's
// compiled CPU code uses. CUDA has the operation itself (libdevice's, since
// Halide's PTX would narrow a float64 detour back to separate float32
// operations), and so do x86 targets with FMA: Halide 21 has no operator for
// it, so the LLVM intrinsic is named as an extern, which Halide declares per
// lane and LLVM's SLP pass fuses back into one vector instruction. Without
// FMA the float64 product of two floats is exact, so only the sum rounds
// (twice, which differs from one rounding in ~2^-29 of cases). The hardware
// form made the affine nearest sampler 15-20% faster on the H200 host
// (2026-11-21, RESULTS.md@89f6099).
inline Expr fused_multiply_add_f32(Expr a, Expr b, Expr c) {
    using Halide::Internal::Call;
    Expr emulated = cast<float>(cast<double>(a) * cast<double>(b) + cast<double>(c));
    Expr hardware = Call::make(Float(32), "llvm.fma.f32", {a, b, c}, Call::PureExtern);
    return strict_float(on_cuda(libdevice("__nv_fmaf", {a, b, c}),
                                select(KnownTarget::has_feature(Target::FMA), hardware, emulated)));
}

// PyTorch's area_pixel_compute_source_index. Linear filters clamp a negative
// coordinate to 0 (edge replication); cubic keeps it and clamps the taps instead.
// `fused`: scale * (i + 0.5) - 0.5 rounded once, where PyTorch's AVX2 and
// AVX-512 builds contract it into a fused multiply-add (float32 only: its
// generic cubic and channels-last linear kernels; SEMANTICS.md, "Ties").
inline Expr area_pixel_source(Expr scale, Expr i, Expr align_corners, bool cubic, Expr fused) {
    Type t = scale.type();
    Expr fi = cast(t, i);
    Expr half = make_const(t, 0.5);
    Expr centred = unfused_product(scale, fi + half) - half;
    if (t == Float(32)) {
        centred = select(fused, fused_multiply_add_f32(scale, fi + half, -half), centred);
    }
    if (!cubic) {
        centred = select(centred < 0, make_zero(t), centred);
    }
    return strict_float(select(align_corners, unfused_product(scale, fi), centred));
}

// Nearest-neighbour source index (docs/SEMANTICS.md 2), as the PyTorch kernel that
// `channels_last` names computes it (PyTorch has two CPU kernels for nearest
// and bilinear resizing; the wrapper's pytorch_channels_last_kernel says
// which a call gets). Its channels-last kernel takes a legacy
// short cut for nearest (out == in -> i, out == 2*in -> i/2, ignoring an
// explicit scale factor) and rounds nearest-exact's scale * (i + 0.5) once;
// the generic kernel rounds nearest-exact as max(scale * (i + 0.5) - 0.5, 0)
// + 0.5, whose product and difference PyTorch's AVX2 and AVX-512 builds fuse
// (its portable build does not, and equals the one-product form).
inline Expr nearest_source(Expr i, Expr in, Expr out, Expr user_scale, bool exact, Expr channels_last) {
    Expr scale = scale_from_sizes_or_factor(user_scale, in, out, Float(32));
    Expr fi = cast<float>(i);
    Expr src;
    if (exact) {
        Expr one_product = strict_float(floor(scale * (fi + 0.5f)));
        Expr centred = area_pixel_source(scale, i, const_false(), false, const_true());
        src = select(channels_last, one_product, strict_float(floor(centred + 0.5f)));
    } else {
        src = strict_float(floor(scale * fi));
    }
    Expr index = min(cast<int>(src), in - 1);
    if (!exact) {
        index = select(channels_last && out == in, i,
                       channels_last && out == 2 * in, i / 2,
                       index);
    }
    return index;
}

// Bounds of nearest_source's index over a span of outputs, for bounds
// inference (the index itself comes from a table, whose values it cannot
// see): the same product in float64, where it is exact, widened by the
// float32 roundings (at most 2^-23 of it); under the legacy short cut, its
// own index (an explicit scale factor may be any, whatever the sizes).
inline std::pair<Expr, Expr> nearest_source_bounds(Expr i, Expr in, Expr out, Expr user_scale, bool exact,
                                                   Expr channels_last) {
    Expr scale = cast<double>(scale_from_sizes_or_factor(user_scale, in, out, Float(32)));
    Expr p = scale * (cast<double>(i) + Expr(exact ? 0.5 : 0.0));
    const Expr narrower(1.0 - std::ldexp(1.0, -22)), wider(1.0 + std::ldexp(1.0, -22));
    Expr lo = clamp(cast<int>(floor(p * narrower)), 0, in - 1), hi = clamp(cast<int>(floor(p * wider)), 0, in - 1);
    if (exact) return {lo, hi};
    Expr legacy = select(out == in, i, i / 2);
    Expr short_cut = channels_last && (out == in || out == 2 * in);
    return {select(short_cut, legacy, lo), select(short_cut, legacy, hi)};
}

// grid_sample's map from a normalised coordinate g (-1 and +1 are the image
// edges, or with align_corners the corner pixel centres) to input pixel units,
// in the form of PyTorch's vectorised CPU kernel: (g + 1) * ((size - 1) / 2),
// or (g + 1) * (size / 2) - 0.5, where its compiled code fuses the multiply
// and the subtract. Only the fused form reproduces PyTorch 2.11's CPU
// grid_sample bit for bit at 1080x1920 (H200 host, 2026-11-21); rounded
// twice, the coordinate is an ulp off, which times a pixel gradient is up to
// 5e-5 there. With align_corners the addend is 0, and a fused multiply-add
// of 0 rounds exactly as the plain product, so one form serves both.
inline Expr grid_unnormalize(Expr g, Expr size, Expr align_corners) {
    Expr half_span = select(align_corners, cast<float>(size - 1), cast<float>(size)) / 2.0f;
    return fused_multiply_add_f32(g + 1.0f, half_span, select(align_corners, 0.0f, -0.5f));
}

// affine_grid's base coordinate j of n along one axis (docs/SEMANTICS.md 7):
// torch.linspace(-1, 1, n) as its CPU kernel evaluates it (from -1 upwards in
// the first half, from +1 downwards in the second, each a fused multiply-add),
// then without align_corners scaled by (n - 1) / n (multiply, then divide).
inline Expr affine_base(Expr j, Expr n, Expr align_corners) {
    Expr step = exact_quotient(2.0f, cast<float>(n - 1));
    Expr lin = select(j < n / 2, fused_multiply_add_f32(step, cast<float>(j), -1.0f),
                      fused_multiply_add_f32(-step, cast<float>(n - 1 - j), 1.0f));
    Expr centred = exact_quotient(strict_float(lin * cast<float>(n - 1)), cast<float>(n));
    return select(n <= 1, 0.0f, select(align_corners, lin, centred));
}

}  // namespace hres
