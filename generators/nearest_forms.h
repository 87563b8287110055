// The forms the nearest gather takes (resize_generator.cpp, ResizeNearest):
// equal statements of out(x, y) = in(column(x), row(y)), each chosen by a
// knob or a kernel variant (kernels/knobs.toml, kernels/kernels.toml) for
// what a target's schedule does well with. Their Funcs are named, and a
// schedule finds them in NearestResizeFuncs (schedules/resize_schedules.h).
#pragma once

#include "Halide.h"

#include <functional>
#include <vector>

#include "columns.h"
#include "layout.h"

namespace hres {

// An index along an axis (an output row or column) to the input's.
using SourceIndex = std::function<Halide::Expr(Halide::Expr)>;

// Transposed tiles (planar uint8): each output row's input row, whole
// (`rows`), then its columns (`pixels`), both picked `group` at a time
// (columns.h), so that the schedule stores a vector register of them at
// once; it stores a strip's rows transposed, so that a column is one dense
// vector. Tiles round up past the output's edge, and those outputs, which
// are discarded, read the tables at their last entries.
struct TransposedTiles {
    Halide::Func rows{"picked_rows"}, pixels{"picked"};

    void define(Halide::Func input, const SourceIndex &column_of, const SourceIndex &row_of, Halide::Expr out_w,
                Halide::Expr out_h, int group, Halide::Var x, Halide::Var y, Halide::Var c, Halide::Var n) {
        using namespace Halide;
        rows(x, y, c, n) = picked_in_groups(y, group, [&](Expr j) { return input(x, row_of(min(j, out_h - 1)), c, n); });
        pixels(x, y, c, n) = picked_in_groups(x, group, [&](Expr i) { return rows(column_of(min(i, out_w - 1)), y, c, n); });
    }
};

// Column picks (planar images upscaled along x): the outputs of a vector (a
// block of `lanes` columns from the output's first) read within a window of
// few input columns, and each picks its column from the window (columns.h).
// Picks of a few sizes up to `window_max` (8, 10, 12 and 16 columns with
// AVX-512: a 2x upscale's windows are 9 or 10 wide, and a pick costs a blend
// per column), each taken where the widest window of the call fits it (a
// per-call flag, so that the schedule can specialise on it), the smallest
// first; shrinking by up to about 2 (up to `shifted_max`), a window per lane,
// of dense loads, where a row's partial last block gathers; the gather
// where none fits.
struct ColumnPicks {
    // The picks tried, in order: windows of the block, then shifted ones,
    // each narrowest first (fits: where the pick is taken).
    struct Pick {
        Halide::Func fits;
        int size;
        bool shifted;
    };
    std::vector<Pick> picks;
    std::vector<Halide::Func> tables;  // the windows' per-call tables

    // The output's value: `gathered`, or a pick where one fits. `column(j)`
    // reads input column j of the output's row; `source_column` maps an
    // output column to its input column.
    Halide::Expr define(Halide::Expr gathered, const SourceIndex &source_column, const SourceIndex &column,
                        Halide::Expr out_min, Halide::Expr out_w, Halide::Expr in_w, int lanes, int window_max,
                        int shifted_max, Halide::Expr planar, Halide::Var x) {
        using namespace Halide;
        ColumnWindows windows(source_column, x, out_min, out_w, in_w, lanes);
        auto add_picks = [&](std::initializer_list<int> sizes, bool shifted) {
            int last = 0;
            for (int size : sizes) {
                if (size < 2 || size == last) continue;
                picks.push_back({windows.fits(size, shifted), size, shifted});
                last = size;
            }
        };
        add_picks({window_max / 2, (5 * window_max) / 8, (3 * window_max) / 4, window_max}, false);
        add_picks({shifted_max / 2, (3 * shifted_max) / 4, shifted_max}, true);
        Expr windowed = gathered;
        for (auto it = picks.rbegin(); it != picks.rend(); ++it) {
            Expr pick = windows.pick(column, it->size, planar, it->shifted);
            // A shifted pick is vector code: a row's partial last block gathers.
            if (it->shifted) pick = select(likely(windows.full_block(x)), pick, gathered);
            windowed = select(it->fits(), pick, windowed);
        }
        tables = windows.tables();
        return select(planar, windowed, gathered);
    }
};

}  // namespace hres
