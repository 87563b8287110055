#include "x86_loops.h"

#include <algorithm>

namespace hres {

using namespace Halide;

int vector_width(const Target &target, Type t, int multiplier) {
    return std::max(1, target.natural_vector_size(t) * multiplier);
}

bool llvm_vectorizer(const Target &target) {
    return target.has_feature(Target::EnableLLVMLoopOpt);
}

bool llvm_gathers(const Target &target) {
    return llvm_vectorizer(target) && target.has_feature(Target::AVX512_Zen4);
}

OutputLoopVars schedule_output_loops(Stage f, const Var &x, const Var &y, const Var &c, const Var &n,
                                     const LayoutConditions &layout, const OutputLoops &o) {
    Var yo("yo"), yi("yi"), task("strips");
    const int planar_rows = o.planar_rows > 0 ? o.planar_rows : o.rows;
    // One parallel loop over the strips of all planes of an image (or of the
    // batch): small images still give the thread pool enough tasks, and it
    // is entered once. One loop per image (34 tasks per loop for interleaved
    // images, four fork-joins) gave 42-63% parallel efficiency (h200, 16
    // threads, nearest 4x3x1080x1920 -> 540x960; RESULTS.md@89f6099
    // 2026-11-21 (evening)).
    auto rows_in_parallel = [&](Stage s, int vec, bool planes, int rows) {
        if (rows >= 1) {
            s.split(y, yo, yi, rows, TailStrategy::GuardWithIf);
            if (planes) {
                s.fuse(yo, c, task);
            } else {
                s.rename(yo, task);
            }
            if (o.images == OutputLoops::Images::in_tasks) s.fuse(task, n, task);
            s.parallel(task);
            if (o.images == OutputLoops::Images::in_parallel) s.parallel(n);
        }
        if (vec > 1) s.vectorize(x, vec, o.tail);
    };
    for (int channels : o.pixels) {
        Stage s = f.specialize(layout.interleaved(channels));
        s.reorder(c, x, y, n).unroll(c);
        rows_in_parallel(s, o.interleaved_lanes, false, o.rows);
    }
    for (int channels : kPixelBranches) {
        if (o.planar_pixel_lanes < 1 || !o.planar) break;
        Stage s = f.specialize(layout.planar() && layout.channels == channels);
        s.reorder(c, x, y, n).unroll(c);
        rows_in_parallel(s, o.planar_pixel_lanes, false, planar_rows);
    }
    if (o.planar) rows_in_parallel(f.specialize(layout.planar()), o.planar_lanes, true, planar_rows);
    // Any other strides (NHWC with other channel counts, mixed layouts).
    rows_in_parallel(f, o.planar_lanes, true, o.rows);
    return {task, yi};
}

}  // namespace hres
