#include "x86_loops.h"

#include <algorithm>

namespace hres {

using namespace Halide;

int vector_width(const Target &target, Type t, int multiplier) {
    return std::max(1, target.natural_vector_size(t) * multiplier);
}

void schedule_output_loops(Stage f, const Var &x, const Var &y, const Var &c, const Var &n,
                           const LayoutConditions &layout, int vec_planar, int vec_interleaved, int rows) {
    Var yo("yo"), yi("yi"), task("strips");
    // One parallel loop over the strips of all planes of an image: small
    // images still give the thread pool enough tasks, and it is entered once
    // per image. (n stays a loop of its own: filtered resizes compute their
    // horizontal pass per image, at n.)
    auto rows_in_parallel = [&](Stage s, int vec, bool planes) {
        s.split(y, yo, yi, rows, TailStrategy::GuardWithIf);
        if (planes) {
            s.fuse(yo, c, task).parallel(task);
        } else {
            s.parallel(yo);
        }
        if (vec > 1) s.vectorize(x, vec, TailStrategy::GuardWithIf);
    };
    for (int channels : {3, 4}) {
        Stage s = f.specialize(layout.interleaved(channels));
        s.reorder(c, x, y, n).unroll(c);
        rows_in_parallel(s, vec_interleaved, false);
    }
    rows_in_parallel(f.specialize(layout.planar()), vec_planar, true);
    // Any other strides (NHWC with other channel counts, mixed layouts).
    rows_in_parallel(f, vec_planar, true);
}

}  // namespace hres
