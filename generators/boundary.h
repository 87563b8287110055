// Boundary handling: what a read outside the input image means.
#pragma once

#include "Halide.h"

namespace hres {

using namespace Halide;

// Resize replicates the edge pixel: tap indices are clamped into the image
// (SPEC.md 3.1, 4.1), which also keeps every read in bounds.
inline Expr clamp_tap(Expr index, Expr extent) { return clamp(index, 0, extent - 1); }

}  // namespace hres
