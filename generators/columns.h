// Windows of input columns: a resize whose output columns read non-decreasing
// input columns (nearest's column table) reads, for a block of `lanes`
// consecutive outputs, within a window of input columns about as wide as the
// block times the scale. Upscaling along x that is a few columns, and each
// output of the block can pick its value out of them with selects on its
// offset into the window, in vector registers: blends of broadcast loads
// (shrinking by up to about 2, of shifted dense loads, as each output's
// column less its lane stays within a few columns),
// where x86 would otherwise gather lane by lane (Halide 21 builds every
// gather from scalar loads and inserts, two shuffle-port ops a lane, and
// emits no variable permutes).
#pragma once

#include "Halide.h"

#include <functional>
#include <string>

namespace hres {

using namespace Halide;

class ColumnWindows {
public:
    // `source` maps an output column to its input column; the output has
    // `width` columns from `first`, in blocks of `lanes`; the input `in`.
    ColumnWindows(const std::function<Expr(Expr)> &source, Var x, Expr first, Expr width, Expr in, int lanes)
        : source_(source), x_(x), in_(in), first_(first), width_(width), lanes_(lanes) {
        Var b("b");
        start_ = Func("window_start");
        start_(b) = source(first + b * lanes);
    }

    // Whether every block's window of `size` columns holds all its outputs'
    // columns (a per-call flag the schedule specialises on), and the tables
    // behind it: a schedule computes them once per call, ahead of the pixels.
    // Shifted windows (`shifted`) are a window per lane instead, from the
    // block's window start plus the lane, for shrinking: there the offsets
    // less the lane stay small (0 to about (lanes - 1) * (scale - 1)).
    Func fits(int size, bool shifted = false) {
        const std::string name = std::to_string(size) + (shifted ? "_shifted" : "");
        Func reach("window_reach_" + name), fits("window_fits_" + name);
        RDom all(first_, width_, "all_columns");
        // Tuple (largest offset, smallest offset).
        reach() = {0, 0};
        reach() = {max(reach()[0], offset(all, size, shifted)), min(reach()[1], offset(all, size, shifted))};
        const Expr span = shifted ? size + lanes_ - 1 : size;  // the input columns a block reads
        fits() = in_ >= span && reach()[0] < size && reach()[1] >= 0;
        tables_.insert(tables_.end(), {reach, fits});
        return fits;
    }
    std::vector<Func> tables() const {
        std::vector<Func> all = {start_};
        all.insert(all.end(), tables_.begin(), tables_.end());
        return all;
    }

    // Output x's value picked from its block's window of `size` columns,
    // where fits(size, shifted): column(j) is the value of input column j. A
    // tree of selects on the bits of the column's offset into the window,
    // size - 1 in all, whose conditions the outputs of a block share; each
    // leaf is one input column, broadcast to the block's outputs, or in a
    // shifted window one dense vector load (the lane's column plus j). A
    // window starts at the block's first column, or nearer the right edge,
    // so that its columns lie inside the image where fits(size, shifted)
    // holds. `exact` is a condition the schedule specialises on before it
    // specialises on the fits flags: branches that do not know it evaluate
    // every pick, taken or not, so there the columns are clamped.
    Expr pick(const std::function<Expr(Expr)> &column, int size, Expr exact, bool shifted = false) const {
        Expr window = window_start(block(x_), size, shifted) + (shifted ? lane(x_) : 0);
        Expr last = select(exact, Int(32).max(), in_ - 1);
        std::vector<Expr> level;
        for (int j = 0; j < size; j++) {
            level.push_back(column(unsafe_promise_clamped(min(window + j, last), 0, in_ - 1)));
        }
        Expr d = offset(x_, size, shifted);
        for (int bit = 0; level.size() > 1; bit++) {
            Expr set = (d & (1 << bit)) != 0;
            std::vector<Expr> next;
            for (size_t j = 0; j < level.size(); j += 2) {
                next.push_back(j + 1 < level.size() ? select(set, level[j + 1], level[j]) : level[j]);
            }
            level = next;
        }
        return level[0];
    }

    // Whether x's block holds `lanes` outputs (all but possibly the last):
    // a shifted pick is vector code, and the guarded last block of a row
    // runs it lane by lane, where the gather costs less.
    Expr full_block(Expr x) const { return (block(x) + 1) * lanes_ <= width_; }

private:
    // Output x's block: blocks of `lanes` columns from the output's first,
    // which the schedule vectorises as whole vectors; x's lane in it.
    Expr block(Expr x) const { return (x - first_) / lanes_; }
    Expr lane(Expr x) const { return x - first_ - block(x) * lanes_; }
    // A shifted window's lanes read up to size - 1 columns past their own,
    // and the output's last block may hold fewer than `lanes` outputs (the
    // schedule guards the others' loads and stores).
    Expr window_start(Expr block, int size, bool shifted) const {
        Expr block_lanes = clamp(width_ - block * lanes_, 1, lanes_);
        return min(start_(block), max(in_ - (shifted ? size + block_lanes - 1 : size), 0));
    }
    Expr offset(Expr x, int size, bool shifted) const {
        return source_(x) - window_start(block(x), size, shifted) - (shifted ? lane(x) : 0);
    }

    std::function<Expr(Expr)> source_;
    Var x_;
    Expr in_, first_, width_;
    int lanes_;
    Func start_;
    std::vector<Func> tables_;
};

// value(i) for index i, written so that a vector of `group` consecutive
// indices from a multiple of `group` reads `group` values that each depend
// on one index only: value(i) is picked by selects on i % group from the
// values at the group's indices. Where value(i) reads a row (or column)
// chosen by a table, each pick is one dense load broadcast to its lanes,
// instead of a gather of every lane (Halide 21 cannot tell that each lane's
// address is one of `group` whole rows). Identical to value(i); value is
// also evaluated at the group's other indices, so it must accept indices
// up to group - 1 past the last i read.
inline Expr picked_in_groups(Expr i, int group, const std::function<Expr(Expr)> &value) {
    if (group <= 1) return value(i);
    Expr offset = i % group;
    Expr first = i - offset;
    Expr picked = value(first + (group - 1));
    for (int k = group - 2; k >= 0; k--) picked = select(offset == k, value(first + k), picked);
    return picked;
}

}  // namespace hres
