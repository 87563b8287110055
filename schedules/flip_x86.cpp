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
// re-interleaved into the output; RGB and RGBA rows on the AVX2 and AVX-512
// entries are a scalar loop that LLVM vectorises (schedule_flip_x86). NHWC
// RGB uint8 has a kernel of its own that mirrors whole rows first
// (schedule_mirrored_rows).
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
// permutes) and stores whole vectors in ascending order. LLVM's loop in the
// general kernel moves 96-byte blocks (a 64-byte and a 32-byte access each
// way), the upper part stored first; half its 64-byte accesses straddle two
// cache lines, all of them where a row starts 16 bytes past a line. H200
// machine's host, 2026-11-27, uint8 NHWC, 1 thread, `hres flip
// --horizontal --bench`, 5 interleaved rounds, general kernel -> this
// one: 1x3x1080x1920 612-780 -> 565-644 us (every round), 256x256 8.2-11.1
// -> 6.5-8.3 us, 224x224 6.6-8.8 -> 7.2-8.7 us. A prototype (RESULTS.md@89f6099,
// 2026-11-27 (later)) also had a run of 64 output pixels instead of a row:
// even for uint8, and no better than the general kernel for float32, which
// keeps it.
void schedule_mirrored_rows(Stage s, const FlipFuncs &f, int vec, Expr rows, bool parallel) {
    const Expr width = f.output.output_buffer().dim(0).extent();
    row_tasks(s.specialize(width >= vec), f, rows, true, parallel, vec, TailStrategy::ShiftInwards);
    row_tasks(s, f, rows, true, parallel, vec, TailStrategy::GuardWithIf);
}

}  // namespace

// Each output row of a large horizontal flip first prefetches the first 16
// cache lines that the next row reads (the generator's rows_ahead: reading
// rows backwards, each row starts a descending stream that the hardware
// prefetchers pick up late). In the generator, as a 0 folded into the
// values, since Halide 21's prefetch directive fails on these loop nests
// (an internal "Mul of mismatched types" while splitting the prefetched box
// into lines). Same-process pairs (bench/tune/kernel_ab.sh pair, flip),
// 1x3x1080x1920, 1 thread, 2026-11-28, no prefetch -> 16 lines, min of
// 100-300 calls: build machine (AMD Zen 3), AVX2 entry, uint8 NHWC
// 377-528 -> 348-492 us, NCHW 297-646 -> 244-605 us (5-18% in every pair;
// 8 and 32 lines, and the whole row, between or slower), float32 3-9%
// faster; H200 machine's host (Intel), 3 rounds: AVX2 uint8 NHWC 727-854 ->
// 561-646 us, NCHW 692-861 -> 686-767 us, SSE4.1 uint8 NHWC 1315-1382 ->
// 878-931 us, NCHW 792-1038 -> 562-719 us (its NHWC RGB rows kernel 690-742
// -> 567-604 us); but uint8 NCHW 5-16% slower on both AVX-512 entries
// (NHWC: Skylake 1-11% faster, Sapphire Rapids 0-4% slower), and float32
// 2-5% slower on every Intel entry but SSE4.1 (level). Hence uint8 below
// AVX-512 only.
int flip_prefetch_lines(const Target &target, const Type &type) {
    return type.bytes() == 1 && !target.has_feature(Target::AVX512) ? 16 : 0;
}

void schedule_flip_x86(FlipFuncs f, const Target &target, const FlipKnobs &knobs) {
    const int vec = vector_width(target, f.output.type(), knobs.vector_multiplier);
    Var xs("xs");  // the vectorised x loop of every branch
    // Small images (the seed flips: 224x224x3) in one serial loop: a few
    // microseconds of copying do not pay for a parallel loop's tasks. H200
    // machine's 16-core host, 1 thread, 2026-11-21, two runs each: vflip
    // 224x224x3 u8 NCHW 5.4-5.7 -> 4.5-5.3 us, NHWC 5.0-5.1 -> 4.3-5.0 us
    // (cv2.flip 5.5 us); the other seed flips unchanged or a little faster.
    // (f.small: the generator's serial_elements.)
    const Halide::OutputImageParam &out = f.output.output_buffer();
    // Tasks of about task_bytes of output, whole rows: a flip costs per
    // byte, so a fixed row count made uint8 planar tasks 4x shorter than
    // float32 ones and their per-task overhead showed. H200 host, 16
    // threads, 4x3x1080x1920: 32-row tasks reached 94% parallel efficiency
    // for float32 planar (245 KB tasks) but 45% for uint8 planar (61 KB).
    const Expr x_stride = out.dim(0).stride();
    const Expr row_bytes = out.dim(0).extent() * max(x_stride, -x_stride) * out.type().bytes();
    const Expr rows = max(1, knobs.task_bytes / max(1, row_bytes));
    // Horizontal flips of interleaved RGB/RGBA where the generator reads
    // those pixels directly for LLVM's vectorizer (scalar_mirrors: the AVX2
    // and AVX-512 entries): a
    // scalar loop over pixels, channels unrolled, which LLVM turns into three
    // (or four) dense 64-byte loads, four two-source permutes and three
    // stores per 64 pixels of uint8 (vpermt2b; vpermt2ps for float32),
    // where Halide's staged copy deinterleaves, stores, reloads reversed and
    // reinterleaves. H100 host (16 Xeon cores, Emerald Rapids), 2026-11-25,
    // bench_hres, 5 alternating rounds, 1 thread, NHWC, staged -> LLVM:
    // 1x3x224x224 uint8 15.8-19.6 -> 9.6-13.5 us, 256x256 19.5-25.0 ->
    // 13.7-18.7 us, float32 224x224 43.6-56.5 -> 36.3-46.9 us, 256x256
    // 61.2-92.8 -> 46.9-75.2 us; 1x3x1080x1920, bound by memory, within
    // the host's noise. The AVX-512 Skylake entry (no byte permutes: byte
    // shuffles and masked blends instead), build machine (AMD Zen 5), 4
    // alternating rounds, 1 thread, NHWC: uint8 1x3x224x224 11.1-11.5 ->
    // 2.7-2.8 us, 1x3x1080x1920 379-391 -> 122-129 us, 4x3x1080x1920
    // 4761-5894 -> 2088-2172 us; float32 224x224 16.3-18.5 -> 9.1-9.6 us,
    // 1x3x1080x1920 1737-1851 -> 1149-1229 us (NCHW, unchanged code, within
    // 0.86-1.07x). Forced to the AVX2 entry there (`hres flip --isa avx2
    // --bench 2000`, NHWC, 1 thread, medians): uint8 224x224 9.2 -> 2.6 us,
    // 1x3x1080x1920 391 -> 144 us, float32 224x224 22.8 -> 10.8 us. The
    // SSE4.1 entry keeps the staging: LLVM's uint8 loop took 2x its time
    // there (10.7 -> 21.2 us, float32 31.3 -> 16.0 us).
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

    // The prefetches of the next row before each row (flip_prefetch_lines).
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
