// x86 schedule of flip: a copy with reversed x and/or y, bound by memory
// bandwidth. Loop nests per (horizontal, layout): rows in parallel tasks, x
// vectorised with whole vectors everywhere (the last one shifted inwards)
// except on images narrower than a vector. A vertical flip only changes which
// input row an output row reads and needs no loop nest of its own.
//
// Horizontal flips: planar rows are reversed with dense loads plus a lane
// reversal. Interleaved rows go through `staged` (see the generator): copied
// into a small planar buffer, read back reversed and re-interleaved; except
// RGB and RGBA on the AVX2 and AVX-512 entries (LLVM's loop,
// schedule_flip_x86) and NHWC RGB uint8 (schedule_mirrored_rows).
// Machines below are bench/machines.md keys.
#include "flip_schedules.h"
#include "x86_loops.h"

namespace hres {

using namespace Halide;

namespace {

// The loop nest of every branch: one loop over the strips of `rows` output
// rows of all planes and images (or, with `unroll_channels`, of all images,
// each strip's pixels with their channels), parallel or not, x vectorised.
void row_tasks(Stage s, const FlipFuncs &f, Expr rows, bool unroll_channels, bool parallel, int lanes,
               TailStrategy tail) {
    Var yo("yo"), yi("yi"), task("task");
    s.split(f.y, yo, yi, rows, TailStrategy::GuardWithIf);
    if (unroll_channels) {
        s.reorder(f.c, f.x, yi, yo, f.n).unroll(f.c).fuse(yo, f.n, task);
    } else {
        s.fuse(yo, f.c, task).fuse(task, f.n, task);
    }
    if (parallel) s.parallel(task);
    if (lanes > 1) s.vectorize(f.x, lanes, tail);
}

// The general kernel's branches per layout. `interleaved_vec`: the x vector
// width of 3- and 4-channel interleaved rows (1: a scalar loop, left to
// LLVM's loop vectorizer).
void schedule_layouts(Stage s, const FlipFuncs &f, int vec, int interleaved_vec, Expr rows, const Var &xs,
                      bool parallel) {
    auto loops = [&](Stage stage, bool unroll_channels, TailStrategy tail, int lanes) {
        row_tasks(stage, f, rows, unroll_channels, parallel, lanes, tail);
        stage.rename(f.x, xs);
    };
    loops(s.specialize(f.output.output_buffer().dim(0).extent() < vec), false, TailStrategy::GuardWithIf, vec);
    for (int channels : kPixelBranches) {
        loops(s.specialize(f.layout.interleaved(channels)), true, TailStrategy::ShiftInwards, interleaved_vec);
    }
    loops(s.specialize(f.layout.planar()), false, TailStrategy::ShiftInwards, vec);
    loops(s, false, TailStrategy::GuardWithIf, vec);
}

// The interleaved_rows kernels (NHWC pixels of one channel count, chosen by
// the wrapper for horizontal flips of uint8 RGB): each output row first
// reads its mirrored flat run (mirrored_row, computed per row into a buffer
// that stays in L1: dense loads reversed in registers, whole-vector stores),
// then puts each pixel's channels back in order (dense loads, two-source
// permutes) and stores whole vectors in ascending order. The general
// kernel's LLVM loop moves 96-byte blocks, upper part first, half its 64-byte
// accesses straddling two cache lines. h200, uint8 NHWC 1x3x1080x1920, 1
// thread: 612-780 -> 565-644 us, 224x224 even (RESULTS.md@89f6099 2026-11-27
// (later)). Lost: runs of 64 output pixels instead of a row (even; float32
// keeps the general kernel).
void schedule_mirrored_rows(Stage s, const FlipFuncs &f, int vec, Expr rows, bool parallel) {
    const Expr width = f.output.output_buffer().dim(0).extent();
    row_tasks(s.specialize(width >= vec), f, rows, true, parallel, vec, TailStrategy::ShiftInwards);
    row_tasks(s, f, rows, true, parallel, vec, TailStrategy::GuardWithIf);
}

}  // namespace

// Each output row of a large horizontal flip first prefetches the first
// prefetch_lines cache lines the next row reads (the generator's rows_ahead;
// kernels/knobs.toml has the tuned counts). Folded into the values as a 0,
// since Halide 21's prefetch directive fails on these loop nests (an
// internal "Mul of mismatched types" while splitting the prefetched box into
// lines).
void schedule_flip_x86(FlipFuncs f, const Target &target, const FlipKnobs &knobs) {
    const int vec = vector_width(target, f.output.type(), knobs.vector_multiplier);
    Var xs("xs");  // the vectorised x loop of every branch
    // Small images (f.small, the generator's serial_elements; the seed flips
    // are 224x224x3) run one serial loop: a few microseconds of copying do
    // not pay for a parallel loop's tasks. h200, vflip u8 NCHW 5.4-5.7 ->
    // 4.5-5.3 us (RESULTS.md@89f6099 2026-11-21, "Seed flips again").
    const Halide::OutputImageParam &out = f.output.output_buffer();
    // Tasks of about task_bytes of output, whole rows: a flip costs per
    // byte, and a fixed row count made uint8 planar tasks 4x shorter than
    // float32 ones. h200, 16 threads, 4x3x1080x1920, 32-row tasks: 45%
    // parallel efficiency for uint8 planar (61 KB tasks), 94% for float32
    // (245 KB) (RESULTS.md@89f6099 2026-11-21 (evening)).
    const Expr x_stride = out.dim(0).stride();
    const Expr row_bytes = out.dim(0).extent() * max(x_stride, -x_stride) * out.type().bytes();
    const Expr rows = max(1, knobs.task_bytes / max(1, row_bytes));
    // Horizontal flips of interleaved RGB/RGBA on the AVX2 and AVX-512
    // entries (scalar_mirrors: the generator reads those pixels directly): a
    // scalar loop over pixels, channels unrolled, which LLVM turns into dense
    // 64-byte loads, two-source permutes (vpermt2b, vpermt2ps) and stores,
    // where Halide's staged copy deinterleaves, stores, reloads reversed and
    // reinterleaves. build-zen5, AVX-512 Skylake entry (byte shuffles and
    // blends: no byte permutes), uint8 NHWC 1x3x224x224, 1 thread: 11.1-11.5
    // -> 2.7-2.8 us (RESULTS.md@89f6099 2026-11-25, also the h100 and AVX2
    // entry runs).
    // SSE4.1 keeps the staging: its uint8 loop took 2x the time (10.7 -> 21.2
    // us), though float32 gained (31.3 -> 16.0 us).
    const int mirrored_interleaved_vec = f.scalar_mirrors ? 1 : vec;
    // Per value of `horizontal`, so that the reads' selects fold; small
    // images serial (specialised first), the others in parallel tasks.
    for (bool horizontal : {true, false}) {
        Stage branch = f.output.specialize(horizontal ? f.horizontal : !f.horizontal);
        const int interleaved_vec = horizontal ? mirrored_interleaved_vec : vec;
        for (bool parallel : {false, true}) {
            Stage s = parallel ? branch : branch.specialize(f.small);
            if (f.interleaved_rows > 0) {
                schedule_mirrored_rows(s, f, vec, rows, parallel);
            } else {
                schedule_layouts(s, f, vec, interleaved_vec, rows, xs, parallel);
            }
        }
    }

    // The prefetches of the next row before each row (the knob prefetch_lines).
    if (f.ahead.defined()) f.ahead.compute_at(f.output, Var("yi"));

    if (f.interleaved_rows > 0) {
        // Not reached (horizontal is true or false); the same loops, serial.
        row_tasks(f.output, f, rows, true, false, vec, TailStrategy::GuardWithIf);
        // One row's buffer per task, reused by its rows (computed per row,
        // it was allocated per row: a heap allocation, the image's width
        // being a run-time value), and whole vectors along the run wherever
        // it has one (a guarded tail is scalar here). Each made 224-pixel
        // rows slower than the general kernel's.
        const Expr values = out.dim(0).extent() * f.interleaved_rows;
        f.mirrored_row.store_at(f.output, Var("task")).compute_at(f.output, Var("yi"));
        f.mirrored_row.specialize(values >= vec).vectorize(f.i, vec, TailStrategy::ShiftInwards);
        f.mirrored_row.vectorize(f.i, vec, TailStrategy::GuardWithIf);
        return;
    }
    // Not reached (horizontal is true or false); a plain loop keeps it small.
    f.output.split(f.y, Var("yo"), Var("yi"), rows).rename(f.x, xs);
    f.staged.compute_at(f.output, xs).reorder_storage(f.x, f.c, f.y, f.n).reorder(f.x, f.c, f.y, f.n)
        .vectorize(f.x, vec, TailStrategy::GuardWithIf);
}

}  // namespace hres
