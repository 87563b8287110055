// x86 schedule of flip: a copy with reversed x and/or y, bound by memory
// bandwidth. Loop nests per (horizontal, layout): rows in parallel tasks, x
// vectorised with whole vectors everywhere (the last one shifted inwards)
// except on images narrower than a vector. A vertical flip only changes which
// input row an output row reads and needs no loop nest of its own.
//
// Horizontal flips: planar rows are reversed with dense loads plus a lane
// reversal. Interleaved rows go through `staged` (see the generator): each
// output vector's input pixels are first copied into a small planar buffer
// (dense loads, deinterleaved in registers), then read back reversed and
// re-interleaved into the output.
#include "flip_schedules.h"
#include "x86_loops.h"

namespace hres {

using namespace Halide;

namespace {

void schedule_layouts(Stage s, const FlipFuncs &f, int vec, Expr rows, const Var &xs, bool parallel) {
    Var yo("yo"), yi("yi"), task("task");
    // One loop over the strips of all planes and images, parallel or not.
    auto loops = [&](Stage stage, bool unroll_channels, TailStrategy tail) {
        stage.split(f.y, yo, yi, rows, TailStrategy::GuardWithIf);
        if (unroll_channels) {
            stage.reorder(f.c, f.x, yi, yo, f.n).unroll(f.c).fuse(yo, f.n, task);
        } else {
            stage.fuse(yo, f.c, task).fuse(task, f.n, task);
        }
        if (parallel) stage.parallel(task);
        stage.vectorize(f.x, vec, tail).rename(f.x, xs);
    };
    loops(s.specialize(f.output.output_buffer().dim(0).extent() < vec), false, TailStrategy::GuardWithIf);
    for (int channels : {3, 4}) {
        loops(s.specialize(f.layout.interleaved(channels)), true, TailStrategy::ShiftInwards);
    }
    loops(s.specialize(f.layout.planar()), false, TailStrategy::ShiftInwards);
    loops(s, false, TailStrategy::GuardWithIf);
}

}  // namespace

void schedule_flip_x86(FlipFuncs f, const Target &target, const FlipKnobs &knobs) {
    const int vec = vector_width(target, f.output.type(), knobs.vector_multiplier);
    Var xs("xs");  // the vectorised x loop of every branch
    // Small images (the seed flips: 224x224x3) in one serial loop: a few
    // microseconds of copying do not pay for a parallel loop's tasks. H200
    // machine's 16-core host, 1 thread, 2026-11-21, two runs each: vflip
    // 224x224x3 u8 NCHW 5.4-5.7 -> 4.5-5.3 us, NHWC 5.0-5.1 -> 4.3-5.0 us
    // (cv2.flip 5.5 us); the other seed flips unchanged or a little faster.
    const Halide::OutputImageParam &out = f.output.output_buffer();
    Expr small = out.dim(0).extent() * out.dim(1).extent() * out.dim(2).extent() * out.dim(3).extent() <=
                 knobs.serial_elements;
    // Tasks of about task_bytes of output, whole rows: a flip costs per
    // byte, so a fixed row count made uint8 planar tasks 4x shorter than
    // float32 ones and their per-task overhead showed. H200 host, 16
    // threads, 4x3x1080x1920: 32-row tasks reached 94% parallel efficiency
    // for float32 planar (245 KB tasks) but 45% for uint8 planar (61 KB).
    const Expr x_stride = out.dim(0).stride();
    const Expr row_bytes = out.dim(0).extent() * max(x_stride, -x_stride) * out.type().bytes();
    const Expr rows = max(1, knobs.task_bytes / max(1, row_bytes));
    for (Expr horizontal : {f.horizontal, !f.horizontal}) {
        Stage branch = f.output.specialize(horizontal);
        schedule_layouts(branch.specialize(small), f, vec, rows, xs, false);
        schedule_layouts(branch, f, vec, rows, xs, true);
    }
    // Not reached (horizontal is true or false); a plain loop keeps it small.
    f.output.split(f.y, Var("yo"), Var("yi"), rows).rename(f.x, xs);

    f.staged.compute_at(f.output, xs).reorder_storage(f.x, f.c, f.y, f.n).reorder(f.x, f.c, f.y, f.n)
        .vectorize(f.x, vec, TailStrategy::GuardWithIf);
}

}  // namespace hres
