// The forms a filtered resize's passes take (resize_generator.cpp, ResizeFiltered). Each is
// an equal statement of a pass or of the passes' order, chosen by a knob or
// a kernel variant (kernels/knobs.toml, kernels/kernels.toml) for what a
// target's schedule does well with; none changes a result beyond
// docs/SEMANTICS.md's float32 tolerance, and the uint8 ones none at all
// (integer sums). Their Funcs are named, and a schedule finds them in
// FilteredResizeFuncs (schedules/resize_schedules.h).
#pragma once

#include "Halide.h"

#include <functional>
#include <string>
#include <vector>

#include "columns.h"
#include "filters.h"

namespace hres {

// A tap's contribution to a pass' sum: uint8 widens pixel and int16 weight
// to int32 (docs/SEMANTICS.md 3.2), float32 multiplies.
using Product = std::function<Halide::Expr(Halide::Expr, Halide::Expr)>;
inline Halide::Expr fixed_point_product(Halide::Expr pixel, Halide::Expr w) {
    return Halide::cast<int32_t>(pixel) * Halide::cast<int32_t>(w);
}
inline Halide::Expr float_product(Halide::Expr pixel, Halide::Expr w) { return pixel * w; }

// A pixel of a pass' source at a tap (the tap's input index along the axis).
using TapPixel = std::function<Halide::Expr(Halide::Expr)>;

// A pass: sum(x, y, c, n) = init + product(pixel(tap), weight) over the
// axis' taps, in tap order. With antialias a reduction over the tap tables
// (`r` runs over them); without, the filter's constant taps written out: a
// pure Func, which a schedule can inline, so that each output sums its taps
// directly (CUDA) and vectors end in predicated tails (x86; a reduction's
// tails are scalar loops there).
//
// Tap pairs (`pairs` given): the taps two at a time, each pair a Func
// appended there; with antialias `r` then runs over the pairs, taps 2r and
// 2r + 1 (the tables extend past the taps with zero weights). x86
// multiplies two int16 pairs and adds the products in one instruction
// (pmaddwd), which Halide emits for an Add of two widening multiplies, but
// lowering (its grouping of loop invariants) re-nests a sum inlined whole
// into one chain of single products; a pair computed apart keeps its Add.
inline void define_tap_sum(Halide::Func sum, const AxisTaps &taps, Halide::RVar r, const TapPixel &pixel,
                           Halide::Expr init, const Product &product, bool antialias, Filter filter,
                           std::vector<Halide::Func> *pairs, Halide::Var x, Halide::Var y, Halide::Var c,
                           Halide::Var n) {
    using namespace Halide;
    auto term = [&](Expr k) { return product(pixel(taps.tap(k)), taps.weight(k, taps.i)); };
    if (antialias) {
        sum(x, y, c, n) = init;
        if (pairs) {
            Var p("p");
            Func pair(sum.name() + "_pair");
            pair(x, p, y, c, n) = term(2 * p) + term(2 * p + 1);
            pairs->push_back(pair);
            sum(x, y, c, n) += pair(x, r, y, c, n);
        } else {
            sum(x, y, c, n) += term(r);
        }
        return;
    }
    Expr total = init;
    const int support = filter_support(filter);
    for (int j = 0; j < support; j++) {
        if (pairs && j + 1 < support) {
            Func pair(sum.name() + "_pair_" + std::to_string(j / 2));
            pair(x, y, c, n) = term(j) + term(j + 1);
            pairs->push_back(pair);
            total = total + pair(x, y, c, n);
            j++;
        } else {
            total = total + term(j);
        }
    }
    sum(x, y, c, n) = total;
}

// The passes of one resize: what every form's sums share.
struct Passes {
    bool antialias;
    Filter filter;
    Halide::Var x, y, c, n;

    void sum(Halide::Func sum, const AxisTaps &taps, Halide::RVar r, const TapPixel &pixel, Halide::Expr init,
             const Product &product, std::vector<Halide::Func> *pairs = nullptr) const {
        define_tap_sum(sum, taps, r, pixel, init, product, antialias, filter, pairs, x, y, c, n);
    }
};

// Column pairs (uint8): the horizontal taps summed two at a time, from pairs
// of adjacent input columns (the vpdpwssd / pmaddwd form, as tap pairs
// above). A uint8 tap k reads column min(start + k, in - 1), and taps past
// the edge weigh 0 (filters.h), so the pair at start + 2p serves taps 2p and
// 2p + 1; its second column may lie one past the edge. Two equal statements
// of the pairs: stored per strip, each pair clamps its columns; formed per
// tap pair, the columns are clamped once (`clamped`), before they are
// paired.
struct ColumnPairs {
    Halide::RDom pair;  // (lane in the pair, pair)
    Halide::Func clamped{"clamped_columns"}, columns{"column_pairs"}, rows{"source_rows"};

    explicit ColumnPairs(const AxisTaps &taps) : pair(0, 2, 0, (taps.taps + 1) / 2, "rpair") {}

    // `image(x, y)` reads the input at (x, y, c, n); `in_w` and `in_h` are
    // its extents. With `group` > 0 (the uint8 NHWC rows kernels) the
    // strip the schedule stages reads the input's rows (those past its last
    // repeat it) picked `group` at a time, as many as the schedule stores
    // per vector register (columns.h), so that a row's channels stay one
    // dense load (a vector over several rows of them is a gather). The
    // general kernels read plain rows: read so, planar batches lost 4-20%
    // (runtime/src/resize.cpp).
    void define(Halide::Func input, Halide::Expr in_w, Halide::Expr in_h, bool stored, int group,
                const Passes &p) {
        using namespace Halide;
        const Var &x = p.x, &y = p.y, &c = p.c, &n = p.n;
        Var j("j");
        auto clamped_column = [&](Expr column) { return input(clamp_tap_above(column, in_w), y, c, n); };
        if (stored) {
            columns(j, x, y, c, n) = clamped_column(x + j);
            return;
        }
        if (group > 0) {
            rows(x, y, c, n) = picked_in_groups(y, group, [&](Expr j) { return input(x, min(j, in_h - 1), c, n); });
            clamped(x, y, c, n) = rows(clamp_tap_above(x, in_w), y, c, n);
        } else {
            clamped(x, y, c, n) = clamped_column(x);
        }
        columns(j, x, y, c, n) = clamped(x + j, y, c, n);
    }

    // The horizontal pass over the pairs.
    void define_sum(Halide::Func sum, const AxisTaps &taps, Halide::Expr init, const Product &product,
                    const Passes &p) const {
        using namespace Halide;
        const Var &x = p.x, &y = p.y, &c = p.c, &n = p.n;
        Expr pair_pixel = columns(pair.x, taps.tap(2 * pair.y), y, c, n);
        sum(x, y, c, n) = init;
        Expr pair_weight = taps.weight(2 * pair.y + pair.x, x);
        sum(x, y, c, n) += product(cast<int16_t>(pair_pixel), pair_weight);
    }
};

// Narrow blocks (CUDA with antialias): on grids of many small planes
// (cuda_loops.h, GpuKnobs::narrow_grid) both passes built once more, for
// those blocks' threads (a Func's threads cannot differ by branch); the
// output reads them where `grid` holds.
struct NarrowBlocks {
    Halide::Func sum_x{"sum_x_narrow"}, resized_x{"resized_x_narrow"}, sum_y{"sum_y_narrow"};

    // The vertical sum the output reads: `wide` (the passes' own), or on the
    // narrow grid (if defined) these blocks'.
    Halide::Expr vertical_sum(Halide::Expr grid, Halide::Expr wide, const AxisTaps &taps_x, const AxisTaps &taps_y,
                              Halide::RVar rx, Halide::RVar ry, const TapPixel &input_column, Halide::Expr init_x,
                              Halide::Expr init_y, const Product &product,
                              const std::function<Halide::Expr(Halide::Expr)> &resized_value, const Passes &p) {
        using namespace Halide;
        if (!grid.defined()) return wide;
        const Var &x = p.x, &y = p.y, &c = p.c, &n = p.n;
        p.sum(sum_x, taps_x, rx, input_column, init_x, product);
        resized_x(x, y, c, n) = resized_value(sum_x(x, y, c, n));
        p.sum(sum_y, taps_y, ry, [&](Expr tap) { return resized_x(x, tap, c, n); }, init_y, product);
        return select(grid, sum_y(x, y, c, n), wide);
    }
};

// Lanes of a pixel vector (the float32 NHWC rows kernels' pixel_vectors):
// an RGB or RGBA pixel's channels in one 128-bit register.
constexpr int kPixelLanes = 4;

// Vertical first (float32): the passes the other way round, both within
// docs/SEMANTICS.md's float32 tolerance of PyTorch's order (which sums the
// 2-D taps directly without antialias). The horizontal pass (the costlier
// one on x86: it transposes tiles, or gathers) then runs over the output's
// rows instead of the input's, which pays where the image shrinks enough in
// y (the knob vertical_first_below).
struct VerticalFirst {
    Halide::Func sum_y{"sum_y_first"}, resized_y{"resized_y"}, sum_x{"sum_x_second"}, resized{"resized_yx"};
    Halide::Func flat_rows{"resized_y_rows"};  // flat rows: resized_y's rows of values
    Halide::Func pixel_sum{"pixel_sum"};       // pixel vectors: the horizontal pass, (x, y, lane, n)
    Halide::Var lane{"q"};

    // Planar (or any) rows: resized_y(x, y, c, n) over the input's rows.
    void define_rows(Halide::Func input, const AxisTaps &taps_y, Halide::RVar ry, const Passes &p) {
        using namespace Halide;
        const Var &x = p.x, &c = p.c, &n = p.n;
        p.sum(sum_y, taps_y, ry, [&](Expr tap) { return input(x, tap, c, n); }, 0.0f, float_product);
        resized_y(x, p.y, c, n) = sum_y(x, p.y, c, n);
    }

    // Flat rows (NHWC pixels of `channels` values): along a row's flat run
    // of values (x here indexes the values, c is unused), one dense load per
    // tap row and no shuffles; the horizontal pass then reads its pixels'
    // channels apart, as it reads an interleaved input's. Each task needs
    // only its own rows of the vertical pass, as planar images' do. Read as
    // pixel vectors, an RGB row is one value longer: the last pixel's padding
    // lane, a copy of its last value (the clamp is peeled off the row's other
    // vectors).
    void define_flat_rows(Halide::Func input, int channels, Halide::Expr in_w, bool pixel_vectors,
                          const AxisTaps &taps_y, Halide::RVar ry, const Passes &p) {
        using namespace Halide;
        const Var &x = p.x, &y = p.y, &c = p.c, &n = p.n;
        Expr value = x;
        if (pixel_vectors && channels < kPixelLanes) value = min(likely(x), channels * in_w - 1);
        auto flat_row = [&](Expr tap) { return input(value / channels, tap, value % channels, n); };
        p.sum(sum_y, taps_y, ry, flat_row, 0.0f, float_product);
        flat_rows(x, y, c, n) = sum_y(x, y, c, n);
        resized_y(x, y, c, n) = flat_rows(channels * x + c, y, 0, n);
    }

    // The horizontal pass over resized_y; its value at (x, y, c, n).
    Halide::Expr define_columns(const AxisTaps &taps_x, Halide::RVar rx, const Passes &p) {
        using namespace Halide;
        const Var &x = p.x, &y = p.y, &c = p.c, &n = p.n;
        p.sum(sum_x, taps_x, rx, [&](Expr tap) { return resized_y(tap, y, c, n); }, 0.0f, float_product);
        resized(x, y, c, n) = sum_x(x, y, c, n);
        return resized(x, y, c, n);
    }

    // Pixel vectors (flat rows): a pixel's channels as one vector of
    // kPixelLanes (lane q reads value q of the pixel's run; past an RGB
    // pixel's three it reads the next pixel's first, and is not stored): a
    // tap is one dense load at the pixel's offset in the flat row, where the
    // tiles transpose and the gathers read lane by lane. Its value at
    // (x, y, c, n).
    Halide::Expr define_pixel_vectors(int channels, const AxisTaps &taps_x, Halide::RVar rx, const Passes &p) {
        using namespace Halide;
        const Var &x = p.x, &y = p.y, &c = p.c, &n = p.n;
        auto pixel_lanes = [&](Expr tap) { return flat_rows(channels * tap + lane, y, 0, n); };
        define_tap_sum(pixel_sum, taps_x, rx, pixel_lanes, 0.0f, float_product, p.antialias, p.filter, nullptr, x,
                       y, lane, n);
        return pixel_sum(x, y, c, n);
    }
};

}  // namespace hres
