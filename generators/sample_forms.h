// The forms a grid sampler's taps are read in (grid_sample_generator.cpp,
// sample_image): equal statements of reading a footprint's taps, each
// chosen by a knob or a kernel variant (kernels/knobs.toml,
// kernels/kernels.toml) for what a target's schedule does well with: row
// windows, taps by element offset, byte words, pixel words, padded copies
// and prefetched rows. Sampled holds their Funcs, which a schedule finds in
// GridSampleFuncs (schedules/grid_sample_schedules.h).
#pragma once

#include "Halide.h"

#include <functional>
#include <vector>

#include "boundary.h"
#include "coords.h"
#include "layout.h"

namespace hres {

using namespace Halide;

// A tap index of a coordinate in pixel units. Under zeros padding coordinates
// are unbounded; everything beyond one pixel outside the image reads 0, so
// clamping there first keeps the float -> int conversion defined without
// changing a result.
inline Expr tap_index(Expr u, Expr size) { return cast<int>(clamp(u, -2.0f, cast<float>(size + 1))); }

// An integral coordinate as an index into [lowest, highest], beyond which a
// padded copy reads what it holds at those bounds: clamped as a float to keep
// the conversion defined, and again as an int, where NaN lands.
inline Expr padded_index(Expr u, Expr lowest, Expr highest) {
    return clamp(cast<int>(clamp(u, cast<float>(lowest), cast<float>(highest))), lowest, highest);
}

struct Sampled {
    Func footprint;  // (x, y, n): tap indices and weights, shared by all channels
    Expr value;      // value of (x, y, c, n), in the type of `pixels`
    // With row windows (bilinear and bicubic on x86): (i, r, x, y, c, n),
    // pixel i of the window of tap row r, and the condition (the input is at
    // least a window wide) under which `value` picks its taps from them
    // rather than reading each tap on its own. Undefined otherwise.
    Func window;
    Expr window_fits;
    // Padded windows (bicubic with zeros or border padding, the generator's
    // padded_copy): the input with margins (a window's width in x and in y)
    // padded as that mode pads, which the windows read. Every window then
    // starts at its row's first tap, so the taps are the windows as read,
    // with nothing to pick or mask, and window_fits is undefined: they
    // always fit.
    Func padded;
    // Nearest by offset (x86, NCHW and NHWC input): per channel, the tap's
    // element offset into the input (x, y, c, n), the whole index of its
    // gather; and for other layouts the tap's coordinates (x, y, n).
    // Undefined otherwise.
    Func offsets, tap_coordinates;
    // Taps read as byte words (ByteWords below): nearest RGB (x, y, n), the
    // tap's pixel; nearest planar (x, y, c, n), the tap's value in byte 0;
    // bilinear RGB (k, x, y, n), tap k = 2 * row + column; bilinear planar
    // (j, x, y, c, n), the two taps of row j; bicubic over the (planar)
    // padded copy (r, x, y, c, n), the four taps of row r. Undefined
    // otherwise.
    Func words;
    // x86: prefetches of the next output row's taps (x, y, n), each 0, which
    // the footprint's first value consumes (prefetch_taps). Undefined where
    // not prefetched.
    Func ahead;

    // x86 uint8 bilinear of RGB images (the generator's pixel_words): each
    // input pixel's channels as one 32-bit word (x, y, n), which the taps
    // gather. Undefined otherwise.
    Func pixel_words;

    // The footprint's first value at (x, y, n) with the prefetches folded in.
    Expr with_ahead(Expr first, Var x, Var y, Var n) const {
        return ahead.defined() ? or_zero(first, ahead(x, y, n)) : first;
    }
};

// uint8 taps read as 32-bit words of consecutive bytes (layout.h's
// byte_word), for the x86 kernels of one layout that LLVM's loop vectorizer
// gathers in hardware (the generator's interleaved_rows and planar_words):
// Halide gathers bytes lane by lane, LLVM gathers no bytes at all. Densely
// interleaved RGB reads a pixel (3 channels) per word; planar images read
// per channel a word at the tap, whose byte 1 is the next column (bicubic:
// a row's four taps from the padded copy, RowWindows::define_words).
struct ByteWords {
    Func bytes;  // the input's values (x, y, c, n)
    OffsetReads reads;
    Expr last;    // the input's last element offset (the input holds at least 4)
    bool planar;  // the kernel's layout: planar, else NHWC RGB

    Expr word(Expr offset) const {
        return byte_word([&](Expr at) { return reads.read(bytes, index_bits(at)); }, offset, last);
    }
};

// Row windows: the taps of one row of a footprint are adjacent pixels (2 for
// bilinear, 4 for bicubic), so the row can be read as one dense window and
// each tap picked from it, instead of every tap being gathered lane by lane.
// The footprint stores where the windows start (every tap inside the image
// lies within [start, start + w - 1] for images at least w wide, whatever the
// padding: the taps are consecutive before padding, and reflection and
// border keep neighbours within 1 of each other) and the rows they read
// (taps outside the image read row 0 or the last, then give 0), both as
// boundary.h's index bits. Over a padded copy (Sampled::padded) the windows
// start at the first tap instead, wherever that lies.
class RowWindows {
public:
    // With `reads`, where the layout condition `by_offset` holds (a layout
    // that allows offsets), the footprint stores each window's element
    // offset rather than its row (OffsetReads), and the windows are read
    // from there.
    RowWindows(Sampled &s, Func pixels, Expr width, Expr height, int w, const OffsetReads *reads, Expr by_offset,
               Var x, Var y, Var c, Var n)
        : s(s), pixels(pixels), width(width), height(height), w(w), reads(reads), by_offset(by_offset), x(x), y(y),
          c(c), n(n) {}

    // Appends the footprint values: the window start (from the row's taps
    // `xs`) and per y tap of `ys` the row read (or the window's offset).
    void add_values(std::vector<Expr> &values, const std::vector<Expr> &xs, const std::vector<Expr> &ys) {
        at = int(values.size());
        rows = int(ys.size());
        Expr lowest = xs[0];
        for (const Expr &t : xs) lowest = min(lowest, t);
        Expr start = clamp(lowest, 0, width - w);
        values.push_back(index_bits(start));
        for (const Expr &u : ys) {
            Expr row = clamp_tap(u, height);
            values.push_back(index_bits(reads ? select(by_offset, reads->pixel(start, row, n), row) : row));
        }
    }

    // The same over the padded copy, from the coordinates of the first tap
    // in x and in y (integral floats): windows starting beyond [-w, width],
    // or whose rows start beyond [-w, height], read only what the copy holds
    // there (zeros, or the edge pixels), as they do at those bounds. So the
    // rows are consecutive from the first, which is all the footprint
    // stores: each window's address is one offset from the row's.
    void add_padded_values(std::vector<Expr> &values, Expr first, Expr top) {
        at = int(values.size());
        values.push_back(index_bits(padded_index(first, -w, width)));
        values.push_back(index_bits(padded_index(top, -w, height)));
    }

    // After the footprint is defined: the windows, and the value of the tap
    // at x index t of row j (whose y index is u).
    void define() {
        Var i("i"), r("r");
        if (s.padded.defined()) {
            s.window(i, r, x, y, c, n) = cast<float>(s.padded(padded_first() + i, padded_top() + r, c, n));
            return;
        }
        Expr first = promised_index(stored(at), 0, width - w);
        if (!reads) {
            s.window(i, r, x, y, c, n) = pixels(first + i, promised_index(row_read(r), 0, height - 1), c, n);
        } else {
            // Each branch of the schedule knows its layout, so only one read
            // remains there; where both do (vector code evaluates both sides
            // of a select), each reads element 0 or row 0 unless its own.
            Expr at = index_from_bits(row_read(r)) + i * reads->x_stride + c * reads->c_stride;
            Expr offset_read = reads->read(pixels, index_bits(select(by_offset, at, 0)));
            Expr row = promised_index(select(by_offset, index_bits(0), row_read(r)), 0, height - 1);
            s.window(i, r, x, y, c, n) = select(by_offset, offset_read, pixels(first + i, row, c, n));
        }
        s.window_fits = width >= w;
    }
    // Over the padded copy (planar) of a uint8 image, in place of define():
    // each window as one byte word (ByteWords), s.words(r, x, y, c, n).
    // The copy's margins hold every window whole, so no word is clamped.
    void define_words() {
        _halide_user_assert(w == 4) << "a byte word holds a window of four taps (bicubic)";
        Var r("r");
        Expr row = padded_top() + r;
        s.words(r, x, y, c, n) = word_of_bytes([&](Expr i) { return s.padded(i, row, c, n); }, padded_first());
    }
    // Over the padded copy: tap k of row j, from the row's word or window,
    // or where there are neither (the kernels whose taps LLVM gathers) read
    // on its own.
    Expr padded_tap(int k, int j) const {
        if (s.words.defined()) return cast<float>(word_byte(s.words(j, x, y, c, n), k));
        if (s.window.defined()) return s.window(k, j, x, y, c, n);
        return cast<float>(s.padded(padded_first() + k, padded_top() + j, c, n));
    }
    Expr tap(Expr t, int j, Expr u) const {
        Expr offset = t - index_from_bits(stored(at));
        Expr picked = s.window(w - 1, j, x, y, c, n);
        for (int i = w - 2; i >= 0; i--) picked = select(offset == i, s.window(i, j, x, y, c, n), picked);
        return zero_outside(picked, t, u, width, height);
    }

private:
    Expr stored(int i) const { return s.footprint(x, y, n)[i]; }
    // The row that tap row r reads, as index bits.
    Expr row_read(Var r) const {
        std::vector<Expr> read_rows;
        for (int j = 0; j < rows; j++) read_rows.push_back(stored(at + 1 + j));
        return rows == 1 ? read_rows[0] : mux(r, read_rows);
    }
    // Over the padded copy: the windows' first column and first row.
    Expr padded_first() const { return promised_index(stored(at), -w, width); }
    Expr padded_top() const { return promised_index(stored(at + 1), -w, height); }

    Sampled &s;
    Func pixels;
    Expr width, height;
    int w;
    const OffsetReads *reads;
    Expr by_offset;
    Var x, y, c, n;
    int at = 0, rows = 0;
};

// Nearest by offset: the footprint stores the tap's element offset
// (layout.h's OffsetReads), or -1 outside the image, and per channel the
// offset is computed once more into a buffer that the gathers load their
// lane addresses from. Layouts that allow no offset reads read by the tap's
// coordinates. Returns the value at output (x, y, c, n).
inline Expr nearest_by_offset(Sampled &s, Func pixels, const OffsetReads &reads, Expr xi, Expr yi, Expr width, Expr height,
                       Var x, Var y, Var c, Var n) {
    Expr inside = xi >= 0 && xi < width && yi >= 0 && yi < height;
    s.footprint(x, y, n) = s.with_ahead(select(inside, reads.pixel(xi, yi, n), -1), x, y, n);
    s.tap_coordinates(x, y, n) = {xi, yi};
    s.offsets(x, y, c, n) = reads.channel(max(s.footprint(x, y, n), 0), c);
    Expr by_offset = reads.read(pixels, s.offsets(x, y, c, n));
    by_offset = select(s.footprint(x, y, n) >= 0, by_offset, Halide::Internal::make_zero(by_offset.type()));
    Expr by_coordinates = read_or_zero(pixels, s.tap_coordinates(x, y, n)[0], s.tap_coordinates(x, y, n)[1], c, n,
                                       width, height);
    return select(reads.usable(), by_offset, by_coordinates);
}

// Nearest by byte words: the footprint stores the tap's element offset, or
// -1 outside the image, and the tap is read as a word from there (per
// channel where planar).
inline Expr nearest_by_words(Sampled &s, const ByteWords &words, Expr xi, Expr yi, Expr width, Expr height, Var x, Var y,
                      Var c, Var n) {
    Expr inside = xi >= 0 && xi < width && yi >= 0 && yi < height;
    s.footprint(x, y, n) = s.with_ahead(select(inside, words.reads.pixel(xi, yi, n), -1), x, y, n);
    Expr at = max(s.footprint(x, y, n), 0);
    Expr value;
    if (words.planar) {
        s.words(x, y, c, n) = words.word(at + c * words.reads.c_stride);
        value = word_byte(s.words(x, y, c, n), 0);
    } else {
        s.words(x, y, n) = words.word(at);
        value = word_byte(s.words(x, y, n), c);
    }
    return select(s.footprint(x, y, n) >= 0, value, cast<uint8_t>(0));
}

// Bilinear by byte words: tap (kx, j) (column x0 + kx of row y0 + j) as a
// float, 0 outside the image. Planar rows read one word per channel from
// column `start`, which holds both taps wherever they lie inside the image
// (x0 = -1 reads its east tap from byte 0, x0 = width - 1 its west one from
// byte 1); RGB reads each tap's pixel.
inline std::function<Expr(int, int)> bilinear_by_words(Sampled &s, const ByteWords &words, Expr x0, Expr y0, Expr width,
                                                 Expr height, Var x, Var y, Var c, Var n) {
    const OffsetReads &reads = words.reads;
    Func read = s.words;
    Var j("j"), k("k");
    if (words.planar) {
        Expr start = clamp(x0, 0, max(width - 2, 0));
        read(j, x, y, c, n) = words.word(reads.pixel(start, clamp_tap(y0 + j, height), n) + c * reads.c_stride);
        return [=](int kx, int row) {
            Expr word = read(row, x, y, c, n);
            Expr first = kx == 0 ? x0 == start : x0 < start;  // the tap lies at `start`
            Expr byte = select(first, word_byte(word, 0), word_byte(word, 1));
            return zero_outside(cast<float>(byte), x0 + kx, y0 + row, width, height);
        };
    }
    read(k, x, y, n) = words.word(reads.pixel(clamp_tap(x0 + k % 2, width), clamp_tap(y0 + k / 2, height), n));
    return [=](int kx, int row) {
        Expr byte = word_byte(read(2 * row + kx, x, y, n), c);
        return zero_outside(cast<float>(byte), x0 + kx, y0 + row, width, height);
    };
}

// Prefetches (each evaluating to 0) of the cache lines that hold the taps
// around pixel coordinates (u, v) of image n: `rows` rows from the tap row
// above (bicubic) or at v, and along each three lines from the first tap,
// or in planar images the first tap's line in each of three planes.
template<typename In>
Expr prefetch_taps(const In &input, const OffsetReads &reads, Expr u, Expr v, Expr width, Expr height, Expr n,
                   int rows) {
    const int first = rows == 4 ? -1 : 0;
    const int line = 64 / input.type().bytes();
    Expr tx = clamp_tap(tap_index(u, width) + first, width);
    Expr ty = tap_index(v, height) + first;
    Expr total;
    for (int j = 0; j < rows; j++) {
        Expr at = reads.pixel(tx, clamp_tap(ty + j, height), n);
        for (int k = 0; k < 3; k++) {
            Expr step = select(reads.x_stride == 1, min(k, reads.channels - 1) * reads.c_stride, k * line);
            Expr line_read = prefetch_element(input, at + step);
            total = total.defined() ? (total | line_read) : line_read;
        }
    }
    return total;
}

// The forms sample_image reads a footprint's taps in; each member is set at
// construction (a default Func would take a name of its own).
struct TapForms {
    // Bilinear and bicubic: tap rows read as windows (RowWindows) in the
    // layouts where `windows_where` holds (the schedule's branches decide),
    // by element offset where `window_reads` is given and `windows_by_offset`
    // holds.
    bool row_windows;
    Expr windows_where;
    const OffsetReads *window_reads;
    Expr windows_by_offset;
    // Nearest: taps read by element offset (nearest_by_offset), else by coordinates.
    const OffsetReads *tap_reads;
    // Taps read as byte words (nearest, bilinear, and bicubic over the padded copy).
    const ByteWords *words;
    // Bilinear: pixel words (x, y, n) read at offsets the footprint stores.
    Func pixel_words;
    // Prefetches of the next output row's taps (prefetch_taps).
    Func ahead;
};

}  // namespace hres
