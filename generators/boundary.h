// Boundary handling: what a read outside the input image means.
//
// Resize replicates the edge pixel. grid_sample has three padding modes
// (docs/SEMANTICS.md 6.2) acting on coordinates, and reads outside the image give 0.
#pragma once

#include "Halide.h"
#include "coords.h"

namespace hres {

using namespace Halide;

// Resize replicates the edge pixel: tap indices are clamped into the image
// (docs/SEMANTICS.md 3.1, 4.1), which also keeps every read in bounds.
inline Expr clamp_tap(Expr index, Expr extent) { return clamp(index, 0, extent - 1); }

// The same for an index known not to be negative that lies inside the image
// but for the last few (uint8's tap pairs on x86 read one column past a
// tap): only the upper edge is clamped, marked likely so that loops over
// such indices are split into a clamp-free body and a clamped end.
inline Expr clamp_tap_above(Expr index, Expr extent) { return min(likely(index), extent - 1); }

// Indices clamped once into a table (a Func computed ahead of the pixel
// loops) and read many times. When Halide can see that a table's values are
// clamped, it clamps them again at every use (its clamp_unsafe_accesses
// pass): two scalar ops per tap, or 64-bit vector min/max and lane extracts
// once LLVM vectorises them. So a table stores the index's bits as uint32
// (index_bits), and a read takes them back with promised_index, which gives
// bounds inference the range at no run-time cost. The promise is an impure
// call to Halide, which keeps a vector loop around it from getting a
// predicated tail: where only the value matters, index_from_bits.
inline Expr index_bits(Expr index) { return reinterpret<uint32_t>(index); }
inline Expr index_from_bits(Expr bits) { return reinterpret<int32_t>(bits); }
inline Expr promised_index(Expr bits, Expr lowest, Expr highest) {
    return unsafe_promise_clamped(index_from_bits(bits), lowest, highest);
}

// grid_sample's padding_mode, a run-time kernel argument (PyTorch's enum values).
enum class Padding { zeros = 0, border = 1, reflection = 2 };

inline Expr is_padding(Expr padding, Padding p) { return padding == static_cast<int>(p); }

// Mirrors u about the image's edges (align_corners=False: -0.5 and size-0.5;
// True: the corner pixel centres 0 and size-1) in the form of PyTorch's
// vectorised CPU kernel: a = |u - low|, e = a mod 2*span, min(e, 2*span - e) + low.
inline Expr reflect_coordinate(Expr u, Expr size, Expr align_corners) {
    Expr low = select(align_corners, 0.0f, -0.5f);
    Expr twice_span = select(align_corners, cast<float>(2 * (size - 1)), cast<float>(2 * size));
    Expr a = abs(u - low);
    Expr extra = a - trunc(exact_quotient(a, twice_span)) * twice_span;
    Expr mirrored = min(extra, twice_span - extra) + low;
    // align_corners with a 1-pixel axis: the span is empty, everything maps to 0.
    return strict_float(select(align_corners && size <= 1, 0.0f, mirrored));
}

// Clamps u into [0, last] as PyTorch's vectorised CPU kernel does: x86's
// max(u, 0), then min(that, last), which return their second operand where
// one is NaN. So NaN maps to 0 and +-inf to the edges (a reflected +-inf is
// NaN, hence 0 too).
inline Expr clip_coordinate(Expr u, Expr last) {
    Expr above_zero = select(u > 0.0f, u, 0.0f);
    return strict_float(select(above_zero < last, above_zero, last));
}

// grid_sample's padding transform P(u) on a coordinate in pixel units
// (docs/SEMANTICS.md 6.2): zeros leaves it (reads outside give 0), border clamps it
// into the image, reflection mirrors then clamps it.
inline Expr pad_coordinate(Expr u, Expr size, Expr padding, Expr align_corners) {
    Expr last = cast<float>(size - 1);
    Expr clamped = clip_coordinate(u, last);
    Expr reflected = clip_coordinate(reflect_coordinate(u, size, align_corners), last);
    return strict_float(select(is_padding(padding, Padding::border), clamped,
                               is_padding(padding, Padding::reflection), reflected,
                               u));
}

// grid_sample's zeros or border padding made explicit for integral tap
// coordinates: `image` (x, y, c, n), and wherever (x, y) lies outside width x
// height, 0 (zeros) or the nearest edge pixel (border: an integral tap
// clamped into the image).
template<typename Image>
Func padded_image(const Image &image, Expr width, Expr height, Padding padding) {
    const Region inside = {{0, width}, {0, height}};
    if (padding == Padding::border) return BoundaryConditions::repeat_edge(image, inside);
    return BoundaryConditions::constant_exterior(image, Halide::Internal::make_zero(image.type()), inside);
}

// `value`, read for pixel (x, y), or 0 where (x, y) lies outside the image.
inline Expr zero_outside(Expr value, Expr x, Expr y, Expr width, Expr height) {
    Expr inside = x >= 0 && x < width && y >= 0 && y < height;
    return select(inside, value, Halide::Internal::make_zero(value.type()));
}

// grid_sample's read: pixel (x, y) of `image` (x, y, c, n) if inside, else
// 0; the indices are clamped for the read itself so that bounds inference
// sees an in-range footprint.
inline Expr read_or_zero(Func image, Expr x, Expr y, Expr c, Expr n, Expr width, Expr height) {
    return zero_outside(image(clamp_tap(x, width), clamp_tap(y, height), c, n), x, y, width, height);
}

}  // namespace hres
