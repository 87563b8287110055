// Buffer conventions shared by every generator: 4-D (x, y, c, n) buffers with
// free strides on x and c, so one library serves NCHW and NHWC memory, and
// the layout facts handed to the schedules.
#pragma once

#include "Halide.h"
#include "boundary.h"
#include "schedules/layout.h"

#include <functional>
#include <map>
#include <string>

namespace hres {

template<typename Buf>
void accept_any_layout(Buf &buffer) {
    buffer.dim(0).set_stride(Halide::Expr());
}

// Kernels for planar (NCHW) images only: unit stride along x.
// The layout a kernel is built for: any (strides read at run time: the
// kernels hres ships), or one fixed, its strides stated from the extents: the
// autoschedulable form (bench/tune/tune.py autoschedule), since an
// autoscheduler needs an estimate for every value the algorithm reads and
// cannot specialise on a stride.
enum class FixedLayout { any, nchw, nhwc };
inline const std::map<std::string, FixedLayout> kFixedLayouts = {
    {"any", FixedLayout::any}, {"nchw", FixedLayout::nchw}, {"nhwc", FixedLayout::nhwc}};

// A buffer's stride along dimension d: as the kernel reads it at run time,
// or in a fixed layout as accept_layout states it.
template<typename Buf>
Halide::Expr stride_of(Buf &buffer, int d, FixedLayout layout) {
    if (layout == FixedLayout::any) return buffer.dim(d).stride();
    const Halide::Expr w = buffer.dim(0).extent(), h = buffer.dim(1).extent(), c = buffer.dim(2).extent();
    const bool nchw = layout == FixedLayout::nchw;
    const Halide::Expr strides[4] = {nchw ? Halide::Expr(1) : c, nchw ? w : w * c, nchw ? w * h : Halide::Expr(1),
                                     w * h * c};
    return strides[d];
}

template<typename Buf>
void accept_layout(Buf &buffer, FixedLayout layout) {
    if (layout == FixedLayout::any) {
        accept_any_layout(buffer);
        return;
    }
    for (int d = 0; d < 4; d++) buffer.dim(d).set_min(0).set_stride(stride_of(buffer, d, layout));
}

template<typename Buf>
void accept_planar(Buf &buffer) {
    buffer.dim(0).set_stride(1);
}

// The other convention, for kernels of one layout only: densely interleaved
// pixels of `channels` values (NHWC), each row a flat run of values. The
// strides are constants, so that a row read as input(i / channels, y, i %
// channels, n) is a dense load (the simplifier folds the address back to i).
template<typename Buf>
void accept_interleaved(Buf &buffer, int channels) {
    buffer.dim(0).set_min(0).set_stride(channels);
    buffer.dim(2).set_bounds(0, channels).set_stride(1);
}

// Reads of an input by element offset (x * x_stride + y * y_stride + c *
// c_stride + n * n_stride from its first element), for gathers on x86.
// Halide addresses a buffer by coordinates, so a gather's lane addresses are
// computed in vector registers and every lane is extracted from them, a
// shuffle-port op per lane on top of the insert; an offset computed ahead
// into memory is loaded straight into the address instead. Halide has no flat
// view of a buffer, so the offset is passed as the coordinate of whichever of
// x and c has unit stride, the others 0, and promised to lie within that
// dimension: a promise that does not hold, but bounds inference only needs
// it to accept the read, and every offset comes from a pixel inside the
// image, so every read lies inside the buffer. Offsets count from the
// buffer's first element, so of() constrains its mins to 0.
struct OffsetReads {
    Halide::Expr x_stride, y_stride, c_stride, n_stride;
    Halide::Expr width, channels;

    template<typename Buf>
    static OffsetReads of(Buf &buffer, FixedLayout layout = FixedLayout::any) {
        for (int d = 0; d < 4; d++) buffer.dim(d).set_min(0);
        return {stride_of(buffer, 0, layout), stride_of(buffer, 1, layout), stride_of(buffer, 2, layout),
                stride_of(buffer, 3, layout), buffer.dim(0).extent(), buffer.dim(2).extent()};
    }
    // Whether the layout allows them (NCHW, NHWC); other layouts read by coordinates.
    Halide::Expr usable() const { return x_stride == 1 || c_stride == 1; }
    Halide::Expr pixel(Halide::Expr x, Halide::Expr y, Halide::Expr n) const {
        return x * x_stride + y * y_stride + n * n_stride;
    }
    // Channel c of the pixel at offset `at`, as index bits (boundary.h) for
    // read(); 0 where the layout does not allow offset reads, so that a
    // branch that evaluates both kinds of read stays inside the buffer.
    Halide::Expr channel(Halide::Expr at, Halide::Expr c) const {
        return index_bits(Halide::select(usable(), at + c * c_stride, 0));
    }
    // The element of `image` (x, y, c, n: the input, or a Func that only
    // converts its values) at offset bits `bits`. Vector code evaluates both
    // reads wherever the layout is not known, so each reads element 0 where
    // its dimension does not have unit stride.
    Halide::Expr read(Halide::Func image, Halide::Expr bits) const {
        Halide::Expr along_x = Halide::select(x_stride == 1, bits, index_bits(0));
        Halide::Expr along_c = Halide::select(x_stride == 1, index_bits(0), bits);
        return Halide::select(x_stride == 1, image(promised_index(along_x, 0, width - 1), 0, 0, 0),
                              image(0, 0, promised_index(along_c, 0, channels - 1), 0));
    }
};

// A software prefetch of the cache line holding element `offset` (counted
// from the first element) of `image`, for x86; evaluates to 0 (int32).
// Halide prefetches only boxes that bounds inference gives, and a gather's
// box is the whole image; this addresses one line, through Halide's own
// prefetch intrinsic. In a vectorised loop Halide prefetches lane 0 only.
template<typename Buf>
Halide::Expr prefetch_element(const Buf &image, Halide::Expr offset) {
    using namespace Halide::Internal;
    const Halide::ImageParam param = image;
    Halide::Expr buffer =
        Variable::make(Halide::type_of<halide_buffer_t *>(), param.name() + ".buffer", param.parameter());
    Halide::Expr host = Call::make(Halide::Handle(), Call::buffer_get_host, {buffer}, Call::Extern);
    Halide::Expr line = Call::make(param.type(), Call::prefetch, {host, offset, 1, 1}, Call::Intrinsic);
    return Halide::cast<int>(line);
}

// `value` with an int32 0 (prefetch_element's) folded into its bits, which
// keeps the prefetch in the pipeline; floats keep their exact bits.
inline Halide::Expr or_zero(Halide::Expr value, Halide::Expr zero) {
    const Halide::Type bits = Halide::UInt(value.type().bits(), value.type().lanes());
    if (value.type().is_float()) {
        return Halide::reinterpret(value.type(), Halide::reinterpret(bits, value) | Halide::cast(bits, zero));
    }
    return value | Halide::cast(value.type(), zero);
}

// Four consecutive uint8 elements from element offset `at` as one
// little-endian 32-bit word, element at + i in byte i: an RGB pixel's three
// channels (and the next pixel's first), or a planar row's value and the
// next three. `byte_at` reads one element; `last` is the buffer's last
// element offset. A word that would reach past it starts early enough and is
// shifted down (the buffer needs 4 elements). Halide reads no word at a byte
// offset, but stored whole (as a Func the schedule computes into a buffer)
// the word's four byte loads become one 32-bit load in LLVM, which its loop
// vectorizer gathers at byte offsets.
// The four elements from `start` as such a word, where all four exist.
inline Halide::Expr word_of_bytes(const std::function<Halide::Expr(Halide::Expr)> &byte_at, Halide::Expr start) {
    Halide::Expr word = Halide::cast<uint32_t>(0);
    for (int b = 0; b < 4; b++) word = word | (Halide::cast<uint32_t>(byte_at(start + b)) << (8 * b));
    return word;
}

inline Halide::Expr byte_word(const std::function<Halide::Expr(Halide::Expr)> &byte_at, Halide::Expr at,
                              Halide::Expr last) {
    Halide::Expr start = Halide::min(at, last - 3);
    return word_of_bytes(byte_at, start) >> Halide::cast<uint32_t>(8 * (at - start));
}

// Byte i of a byte_word (channel i of an RGB pixel's).
inline Halide::Expr word_byte(Halide::Expr word, Halide::Expr i) {
    return Halide::cast<uint8_t>(word >> Halide::cast<uint32_t>(8 * i));
}

template<typename In, typename Out>
LayoutConditions layout_of(In &input, Out &output, FixedLayout layout = FixedLayout::any) {
    return {stride_of(input, 0, layout), stride_of(output, 0, layout), stride_of(input, 2, layout),
            stride_of(output, 2, layout), output.dim(2).extent()};
}

}  // namespace hres
