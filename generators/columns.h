// Windows of input columns: a resize whose output columns read non-decreasing
// input columns (nearest's column table) reads, for a block of `lanes`
// consecutive outputs, within a window of input columns about as wide as the
// block times the scale. Upscaling along x that is a few columns, and each
// output of the block can pick its value out of them with selects on its
// offset into the window, in vector registers: blends of broadcast loads,
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
    Func fits(int size) {
        Func reach("window_reach_" + std::to_string(size)), fits("window_fits_" + std::to_string(size));
        RDom all(first_, width_, "all_columns");
        reach() = 0;
        reach() = max(reach(), offset(all, size));
        fits() = in_ >= size && reach() < size;
        tables_.insert(tables_.end(), {reach, fits});
        return fits;
    }
    std::vector<Func> tables() const {
        std::vector<Func> all = {start_};
        all.insert(all.end(), tables_.begin(), tables_.end());
        return all;
    }

    // Output x's value picked from its block's window of `size` columns,
    // where fits(size): column(j) is the value of input column j. A tree of
    // selects on the bits of the column's offset into the window, size - 1
    // in all; the outputs of a block share every leaf (one input column,
    // broadcast) and every condition. A window starts at the block's first
    // column, or nearer the right edge `size` columns before it, so that
    // its columns lie inside the image where fits(size) holds. `exact` is a
    // condition the schedule specialises on before it specialises on the
    // fits flags: branches that do not know it evaluate every pick, taken
    // or not, so there the columns are clamped.
    Expr pick(const std::function<Expr(Expr)> &column, int size, Expr exact) const {
        Expr window = window_start(block(x_), size);
        Expr last = select(exact, Int(32).max(), in_ - 1);
        std::vector<Expr> level;
        for (int j = 0; j < size; j++) {
            level.push_back(column(unsafe_promise_clamped(min(window + j, last), 0, in_ - 1)));
        }
        Expr d = offset(x_, size);
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

private:
    // Output x's block: blocks of `lanes` columns from the output's first,
    // which the schedule vectorises as whole vectors.
    Expr block(Expr x) const { return (x - first_) / lanes_; }
    Expr window_start(Expr block, int size) const { return min(start_(block), max(in_ - size, 0)); }
    Expr offset(Expr x, int size) const { return source_(x) - window_start(block(x), size); }

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
