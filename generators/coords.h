// Coordinate mapping: where an output pixel samples the input (SPEC.md 1.4, 2).
//
// Every formula here is evaluated in the precision PyTorch uses (float32 for
// float paths and all nearest indices, float64 for the uint8 separable paths),
// and wrapped in strict_float so that Halide and LLVM neither reassociate nor
// contract it: indices and weights must come out bit-identical to PyTorch's.
#pragma once

#include "Halide.h"

namespace hres {

using namespace Halide;
using Halide::Internal::make_const;
using Halide::Internal::make_one;
using Halide::Internal::make_zero;

// PyTorch's compute_scales_value: 1/s for an explicit scale factor s > 0
// (division in double, then rounded to t), else in/out evaluated in t.
inline Expr scale_from_sizes_or_factor(Expr user_scale, Expr in, Expr out, Type t) {
    return strict_float(select(user_scale > Expr(0.0),
                               cast(t, Expr(1.0) / user_scale),
                               cast(t, in) / cast(t, out)));
}

// PyTorch's area_pixel_compute_scale: with align_corners the corner pixel
// centres map onto each other and an explicit scale factor is ignored.
inline Expr area_pixel_scale(Expr in, Expr out, Expr align_corners, Expr user_scale, Type t) {
    Expr corners = select(out > 1, cast(t, in - 1) / cast(t, out - 1), make_zero(t));
    return strict_float(select(align_corners, corners,
                               scale_from_sizes_or_factor(user_scale, in, out, t)));
}

// PyTorch's area_pixel_compute_source_index. Linear filters clamp a negative
// coordinate to 0 (edge replication); cubic keeps it and clamps the taps instead.
inline Expr area_pixel_source(Expr scale, Expr i, Expr align_corners, bool cubic) {
    Type t = scale.type();
    Expr fi = cast(t, i);
    Expr centred = scale * (fi + make_const(t, 0.5)) - make_const(t, 0.5);
    if (!cubic) {
        centred = select(centred < 0, make_zero(t), centred);
    }
    return strict_float(select(align_corners, scale * fi, centred));
}

// Nearest-neighbour source index (SPEC.md 2). `legacy` enables the special case
// of PyTorch's channels-last CPU kernel (out == in -> i, out == 2*in -> i/2),
// which ignores an explicit scale factor.
inline Expr nearest_source(Expr i, Expr in, Expr out, Expr user_scale, bool exact, Expr legacy) {
    Expr scale = scale_from_sizes_or_factor(user_scale, in, out, Float(32));
    Expr fi = cast<float>(i);
    Expr src = strict_float(floor(exact ? scale * (fi + 0.5f) : scale * fi));
    Expr index = min(cast<int>(src), in - 1);
    if (!exact) {
        index = select(legacy && out == in, i,
                       legacy && out == 2 * in, i / 2,
                       index);
    }
    return index;
}

}  // namespace hres
