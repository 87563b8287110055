// x86 schedules of the resize pipelines (AVX-512, AVX2, SSE4.1: the same
// schedule, vector widths follow the target).
//
// Shape of both schedules: index/weight tables computed once per call (they are
// O(width + height)), output rows split into tasks for Halide's thread pool,
// x vectorised. Layout specialisations: planar (NCHW) vectorises along x with
// unit-stride stores; interleaved (NHWC) with 3 or 4 channels unrolls c inside
// the x vector so stores are interleaved in registers rather than scattered.
// Measurements behind the knobs' defaults are in RESULTS.md@89f6099.
#include "resize_schedules.h"
#include "x86_loops.h"

#include <algorithm>

namespace hres {

using namespace Halide;

namespace {

// Tiles vectorised across rows (the filtered resizes' horizontal pass and
// planar nearest): a strip's rows stored transposed, so that each output
// column is dense vectors of rows, and v x v tiles turned back.

// The loop over `line`, a staged tile's lines (v of them, rows or columns,
// each already a vector), stored `group` lines per vector register where
// group divides v (the vector then spans the lines too), else a line per
// store: split by v first, so that the loops have constant extents even
// where the tile is a guarded partial one, the lines unrolled. Returns the
// (outer, inner) Vars of the split by group.
std::pair<Var, Var> store_lines_grouped(Stage func, const Var &line, int v, int group, const std::string &prefix) {
    Var t(prefix + "t"), r(prefix + "r"), o(prefix + "o"), i(prefix + "i");
    if (group < 1 || v % group != 0) group = 1;
    func.split(line, t, r, v, TailStrategy::GuardWithIf).split(r, o, i, group).unroll(o);
    if (group > 1) {
        func.vectorize(i);
    } else {
        func.unroll(i);
    }
    return {o, i};
}

// A v x v tile of `func` computed at `at`, rows fastest: each column one
// vector of v rows, the columns unrolled; or `columns` columns per vector
// where func reads its values from a tile stored the same way (a
// data-dependent column would make that a gather).
void schedule_rows_fastest_tile(Func func, LoopLevel at, int v, int columns = 1) {
    const std::vector<Var> a = func.args();
    const Var &x = a[0], &y = a[1];
    func.compute_at(at)
        .reorder_storage(y, x, a[2], a[3])
        .bound_storage(y, v)
        .bound_storage(x, v)
        .reorder(y, x)
        .vectorize(y, v, TailStrategy::GuardWithIf);
    store_lines_grouped(func, x, v, columns, "tile_x");
}

// The loops of `in_t`, a strip of rows the caller stores rows fastest (v of
// them), and of the v x v `block`s of rows it transposes: whole blocks
// where `whole`, each loaded densely, a block storing `rows` of its rows
// per vector (`lines`: the rows' loop split into outer and inner); partial
// blocks of dense rows (`dense_rows`, if defined) guarded vectors; the
// other partial blocks, and in_t's transposes of partial blocks, scalar
// loops. Vectorised with guards, their strided lanes were predicated
// loads, which Halide emits as a branch per lane: with the turned-back
// tiles, three quarters of the general uint8 bicubic kernel's LLVM IR,
// whose instruction selection took most of its build time (AVX-512
// Skylake entry, build machine, 2026-11-26; RESULTS.md@89f6099 has the
// compile times and the small images' timings). Specialisations of in_t
// made before take precedence; the caller specialises whole blocks
// further through `whole_blocks`.
struct TransposedBlocks {
    Stage whole_blocks;
    std::pair<Var, Var> lines;
};
TransposedBlocks schedule_transposed_strip(Func in_t, Func block, Expr whole, int v, int rows = 1,
                                           Expr dense_rows = Expr()) {
    const std::vector<Var> a = in_t.args();
    const Var &x = a[0], &y = a[1], &c = a[2];
    Var bx("bx"), xb("xb");
    in_t.specialize(whole)
        .split(x, bx, xb, v, TailStrategy::ShiftInwards)
        .reorder(y, xb, bx, c)
        .vectorize(y, v)
        .vectorize(xb);
    in_t.split(x, bx, xb, v, TailStrategy::GuardWithIf).reorder(y, xb, bx, c);
    const std::vector<Var> b = block.args();
    block.compute_at(in_t, bx).bound_storage(b[0], v).bound_storage(b[1], v);
    auto vectors = [&](Stage s) {
        s.vectorize(b[0], v, TailStrategy::GuardWithIf);
        return store_lines_grouped(s, b[1], v, rows, "block_y");
    };
    Stage whole_blocks = block.specialize(whole);
    const std::pair<Var, Var> lines = vectors(whole_blocks);
    if (dense_rows.defined()) vectors(block.specialize(dense_rows));
    return {whole_blocks, lines};
}

// Planar nearest vectorised across rows, as the filtered resizes' horizontal
// pass is (schedule_horizontal_tiles): each task's strip of output rows takes
// its input rows (picked_rows, dense row loads) and stores them transposed,
// rows fastest, so that an output column is one dense load of the column it
// copies; v x v tiles of those columns are turned back to x-fastest rows.
// Per v x v outputs that is a share of one transpose in, one out and v
// vector copies, instead of v x v scalar loads. The strip's tiles round up
// (the output copies what it needs), so only inputs narrower than v take
// partial blocks, copied in scalar loops (schedule_transposed_strip; as
// guarded vectors they took 4-7x as long: 1x3x200x12 -> 400x24 138-203 ->
// 21-36 us, 8x8 -> 16x16 4.8-6.7 -> 0.9-2.6 us, H100 machine's host,
// Sapphire Rapids entry, 2026-11-26, through the command line). Both staged
// tiles store `group` rows or columns per vector register, each a dense load of a row or column the generator picks group
// at a time (picked_in_groups), so that the transposes' whole-register
// reads are served by store forwarding (schedule_horizontal_tiles has the
// cost of a row per store). H100 machine's host (Sapphire Rapids entry),
// 2026-11-26, single-kernel harness, interleaved rounds, NCHW, a row or
// column per store -> 4 per 64-byte store: 1 thread, 1x3x500x400 ->
// 256x256 56-99 -> 38-82 us (best 56.3 -> 38.1, 8 rounds; nearest-exact
// 58-98 -> 38-82), 1x3x300x400 -> 600x700 216-414 -> 163-270 us (5 of 5
// faster); 16 threads, 4x3x1080x1920 -> 540x960 258-276 -> 250-259 us,
// -> 2160x3840 1834-2005 -> 1512-1781 us. Build machine (AMD EPYC Zen 3,
// AVX2 entry, 2 per 32-byte store): 500x400 -> 256x256 93-96 -> 80-84 us.
void schedule_nearest_tiles(NearestResizeFuncs f, const Var &strips, int v, int group) {
    Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
    // The strip, tile by tile...
    Func image = f.picked.in(f.output);
    image.compute_at(f.output, strips)
        .tile(image.args()[0], image.args()[1], xo, yo, xi, yi, v, v, TailStrategy::RoundUp)
        .vectorize(xi)
        .unroll(yi);
    // ... each tile's columns, rows fastest...
    schedule_rows_fastest_tile(f.picked, LoopLevel(image, xo), v, group);
    // ... turned back to x-fastest.
    Func back = f.picked.in(image);
    back.compute_at(image, xo)
        .bound_storage(back.args()[0], v)
        .bound_storage(back.args()[1], v)
        .vectorize(back.args()[0], v)
        .vectorize(back.args()[1], v);
    // The input rows of v output rows, transposed, from v x v blocks of rows
    // loaded densely.
    Func rows_t = f.picked_rows.in(f.picked);
    rows_t.compute_at(image, yo).reorder_storage(f.y, f.x, f.c, f.n).bound_storage(f.y, v);
    schedule_transposed_strip(rows_t, f.picked_rows, f.in_width >= v, v, group);
}

// Outputs picked from windows of input columns (generators/columns.h): a
// vector is one window's block of outputs, and `rows` output rows of it are
// unrolled inside the loop over blocks, so that the rows share the block's
// offsets and their bit tests; tasks of strips of rows, all planes and
// images in one parallel loop. H100 host (Sapphire Rapids variant),
// 2026-11-24, single-kernel harness, 5 interleaved rounds, float32 NCHW,
// 1 thread, gathers -> picks (windows of up to 16 columns, 8 rows):
// 1x3x300x400 -> 600x700 667-808 -> 486-625 us, -> 300x700 409-439 ->
// 228-322 us, 1x1x224x224 -> 448x448 116-179 -> 41-59 us; 4x3x1080x1920 ->
// 2160x3840 at 16 threads 5542-5889 -> 4124-4569 us; shrinking rows take
// the gathers as before (500x400 -> 256x256 within the noise). 4 rows per
// window: within the noise of 8 at 1 thread, 4492-4768 us at 16 threads.
// Windows of at most 8 columns miss the 600x700 row's 10 (gathers). On
// the build machine (AMD EPYC Zen 4, AVX-512 Skylake variant) 272-282 ->
// 199-210 us on the first row, whose blends there take two passes each;
// a pick of 10 columns besides 8, 12 and 16 (the generator) took it to
// 183 us (H100 host, 6 rounds: within its noise at 1 thread, 4103-4439
// against 4314-4607 us at 16 threads).
// Shrinking along x by up to about 2, the kernels of scalar pixel copies
// (AMD's, the wrapper's choice on its AVX2 entry) pick from shifted windows
// (a window per lane: dense loads), a row's partial last block gathering.
// Same-process pairs (bench/tune/kernel_ab.sh pair), build machine (AMD
// Zen 3), AVX2 entry, 2026-11-28, NCHW, 1 thread, min of 60-1000 calls,
// scalar copies -> shifted windows: 1x3x500x400 -> 256x256 72.8-73.3 ->
// 57.5-60.0 us (nearest-exact 73.1-74.4 -> 59.1-59.8), -> 400x300 125-160 ->
// 86-119 us, 1x3x1080x1920 -> 540x960 1113-1141 -> 886-952 us,
// 345x456 -> 270x270 95 -> 86-87 us (level while the partial last blocks
// ran the tree lane by lane instead of gathering), 4x3 of it 310-457 ->
// 280-431 us; upscaling rows unchanged. On the SSE4.1 entry (windows of 2
// to 4 columns for 4 lanes) 0.85-0.89x at 256x256 but 1.07x slower at
// 270x270; on the H200 machine's host (Intel), against its 8-lane gathers,
// 3 rounds: AVX2 1.1x slower at 256x256 and 1.2x at 540x960, AVX-512
// Skylake 1.05-1.3x slower (400x300 level). Hence the AMD kernels' 8-lane
// entry only (the generator's shifted_columns).
void schedule_windowed_rows(Stage s, const NearestResizeFuncs &f, int rows_per_task, int rows) {
    Var strip("window_strip"), yr("window_yr"), yo("window_yo"), yi("window_yi"), xo("window_xo"),
        xi("window_xi"), task("window_task");
    s.split(f.y, strip, yr, rows_per_task, TailStrategy::GuardWithIf)
        .split(yr, yo, yi, rows, TailStrategy::GuardWithIf)
        .split(f.x, xo, xi, f.window_lanes, TailStrategy::GuardWithIf)
        .reorder(xi, yi, xo, yo, strip, f.c, f.n)
        .fuse(strip, f.c, task)
        .fuse(task, f.n, task)
        .parallel(task)
        .vectorize(xi)
        .unroll(yi);
}

}  // namespace

// Nearest is a gather: out(x, y) = in(source_x(x), source_y(y)). The tables are
// tiny; the cost is the gather along x (planar float32), of whole pixels
// (interleaved), or for planar uint8 the transposes of schedule_nearest_tiles.
// Lanes (build machine, AMD EPYC AVX2, 1 thread, 1x3x500x400 -> 256x256 u8,
// side by side with cv::resize INTER_NEAREST, 2026-11-20): planar 8-lane
// gathers 98 us vs 118 us at the natural 32 lanes and 152 us scalar;
// interleaved scalar pixel copies with c unrolled 84 us vs 269 us for 32-lane
// gathers plus interleaving shuffles.
// Planar RGB/RGBA with the channels innermost, one index per pixel for all
// planes (H200 host, AVX-512, 1 thread, 2026-11-21, single-kernel harness,
// five interleaved rounds): uint8 scalar 500x400 -> 256x256 66.8 -> 57.6 us,
// 300x400 -> 600x700 432 -> 367-373 us (8 lanes: 60 / 393 us; 16: 97 / 631
// us); float32 with 8-lane gathers 82-87 -> 64-68 us and 410 -> 363-367 us
// (scalar: 88-101 / 466 us).
// AMD's cores want the scalar loop instead, so the wrapper takes kernels
// built with planar_pixel_lanes=1 where the AVX2 or SSE4.1 entry runs on an
// AMD CPU (runtime/src/kernel_choice.h). Both forms linked into one
// process, 8-lane -> scalar, min of 20-400 interleaved calls, 1 thread,
// 2026-11-28: build machine (AMD EPYC Zen 3), AVX2 entry, 1x3x500x400 ->
// 256x256 109-121 -> 81-103 us, 1x4 of it 143 -> 104 us, 1x3x1080x1920 ->
// 540x960 1452 -> 1347 us, upscaling to 600x700 (window picks) 396 -> 387
// us; SSE4.1 entry 111 -> 80-84 us. The H200 machine's host (Intel, Golden
// Cove cores, as in Alder Lake's), the same binaries: AVX2 entry 137 -> 192
// us, 1x4 173 -> 234 us, 540x960 1038 -> 1299 us; the AVX-512 Skylake and
// SSE4.1 entries alike (139 -> 185, 141 -> 181 us).
// float32 on the Sapphire Rapids variant (llvm_gathers): the gathers are
// left as scalar loops of pixels, planar RGB's channels unrolled in them,
// which LLVM vectorises with vgatherdps, one per channel from one index
// vector; the windows of input columns (schedule_windowed_rows) are off
// there, as the hardware gathers beat them. H100 host, 2026-11-25,
// single-kernel harness, 6 interleaved rounds, NCHW, 1 thread, Halide's
// 8-lane gathers (and windows) -> LLVM's: 1x3x500x400 -> 256x256 126-161 ->
// 86-119 us (faster in every round); 1x3x300x400 -> 600x700 396-550 ->
// 285-392 us (every round); 4x3x1080x1920 -> 540x960 at 16 threads
// 395-430 -> 352-385 us. The other entries keep Halide's gathers: Skylake to
// Ice Lake microcode makes hardware gathers slow, and Halide tells LLVM so.
void schedule_resize_nearest_x86(NearestResizeFuncs f, const Target &target,
                                 const ResizeKnobs &knobs) {
    const int vec = vector_width(target, f.output.type(), knobs.vector_multiplier);

    OutputLoops gather;
    gather.planar_lanes = knobs.gather_lanes > 0 ? knobs.gather_lanes : vec;
    gather.interleaved_lanes = knobs.interleaved_gather_lanes > 0 ? knobs.interleaved_gather_lanes : vec;
    gather.rows = knobs.rows_per_task;
    gather.images = OutputLoops::Images::in_tasks;
    gather.planar_pixel_lanes = knobs.planar_pixel_lanes;
    f.source_x.compute_root();
    f.source_y.compute_root();
    for (Func table : f.window_tables) table.compute_root();
    // Planar uint8 across rows (schedule_nearest_tiles). H100 host (Sapphire
    // Rapids: AVX-512 with VBMI's byte permutes), 2026-11-22, single-kernel
    // harness, min / median of 8 alternating runs, NCHW uint8, per-pixel
    // gathers -> tiles of 16: 1 thread, 1x3x500x400 -> 256x256 115/122 ->
    // 66/69 us (cv2.resize 136/139, Pillow 87/88 on HWC in the same run),
    // 1x3x300x400 -> 600x700, which copied repeated rows, 601/629 -> 260/316
    // us (cv2 880/897, Pillow 516/546); 16 threads, 4x3x1080x1920 ->
    // 540x960 359/384 -> 290/312 us, -> 2160x3840 2596/3341 -> 1813/1926 us.
    // Tiles of 32 lost (315/349 us on the first row). float32 lost as well
    // (tiles of 8 / 16: 99/156 -> 196/225 / 248/268 us on the first row; 16
    // threads 371/403 -> 650/677 us): a 4-byte lane's gather costs about what
    // a byte's does, and its transposes move 4x the bytes. On the build
    // machine (Cascade Lake, no VBMI) the tiles were even shrinking and
    // 1.3-1.5x faster upscaling. (The same run: reading the column table
    // without clamping each index again, generator, took the gathers from
    // 143/155 to 115/122 us and float32 NHWC from 153/160 to 116/118 us.)
    //
    // Planar uint8 (these tiles, and the reused rows below) takes tasks of
    // 64 output rows (the generator's planar_rows_per_task): tasks of 16
    // rows of a small image are a few microseconds of copying each, and at
    // 16 threads the pool's handing out of them took longer than the
    // copies (1x3x500x400 -> 256x256 took 48 us at 16 threads against 37
    // at 1). H200 machine's host (Sapphire Rapids entry), 2026-11-27,
    // single-kernel harness, 3-4 interleaved rounds, NCHW, 16 -> 32 -> 64
    // rows, 16 threads: 1x3x500x400 -> 256x256 43-58 -> 26-32 -> 18-19 us,
    // 1x3x300x400 -> 600x700 (reused rows) 92-113 -> 46-48 -> 43-48 us,
    // 1x1x224x224 -> 112x112 8.0-8.6 -> 5.0-5.7 -> 4.8-6.6 us,
    // 4x3x345x456 -> 270x270 168-179 -> 83-88 -> 46-50 us; 4x3x1080x1920
    // -> 540x960 262-281 -> 257-266 -> 271-287 us, -> 2160x3840
    // 1824-1950 -> 1788-1993 -> 1813-1952 us; 1 thread within the noise
    // (4x3x1080x1920 -> 540x960 1826-2990 -> 1853-3019 -> 1838-3293 us,
    // 1x3x500x400 -> 256x256 56-75 -> 42-69 -> 53-77 us).
    if (knobs.tile_lanes > 0) {
        OutputLoops tiles;
        tiles.planar_lanes = vec;
        tiles.rows = knobs.rows_per_task;
        tiles.planar_rows = knobs.planar_rows_per_task;
        tiles.images = OutputLoops::Images::in_tasks;
        const Var strips =
            schedule_output_loops(f.output.specialize(f.across_rows), f.x, f.y, f.c, f.n, f.layout, tiles).task;
        schedule_nearest_tiles(f, strips, knobs.tile_lanes, knobs.tile_group);
    }
    // Upscaling vertically (uint8; the generator's `reuse`): each task
    // gathers its strip's input rows once, then copies them to the output
    // rows that repeat them. The rows are stored pixel by pixel, so
    // interleaved copies are dense loads and stores, and planar RGB copies
    // deinterleave in registers. H200 host, AVX-512, 1 thread, 2026-11-21,
    // single-kernel harness, 4 interleaved rounds, 1x3x300x400 -> 600x700
    // uint8: nchw 367-395 -> 290-293 us (copies of 8 pixels; 64: 577-584;
    // a plane per task: 404-424), nhwc 288-296 -> 184-188 us; 4x3x1080x1920
    // -> 2160x3840 at 16 threads nchw 2260 -> 1601 us, nhwc 1813 -> 1306 us.
    // float32 got slower every way (nchw 366-370 -> 432-585 us, nhwc 256-268
    // -> 327-343 us; the AVX2 variant on that host alike), so it gathers
    // directly, though the build machine (AMD EPYC, AVX2) gained there.
    OutputLoops copy;
    copy.planar_lanes = copy.interleaved_lanes = vec;
    copy.rows = knobs.rows_per_task;
    copy.planar_rows = knobs.planar_rows_per_task;
    copy.images = OutputLoops::Images::in_tasks;
    copy.planar_pixel_lanes = knobs.reuse_pixel_lanes;
    const Var strips =
        schedule_output_loops(f.output.specialize(f.reuse_rows), f.x, f.y, f.c, f.n, f.layout, copy).task;
    f.gathered_rows.compute_at(f.output, strips).reorder_storage(f.c, f.x, f.y, f.n);
    OutputLoops rows = gather;
    rows.rows = 0;
    schedule_output_loops(f.gathered_rows, f.x, f.y, f.c, f.n, f.layout, rows);
    // Planar images upscaled along x (and in AMD's kernels shrunk by up to
    // about 2) pick each output's column from a window of input columns
    // (schedule_windowed_rows). The sizes of pick are
    // specialised inside the planar branch: only there does Halide drop the
    // picks it did not take from the planar gather's definition.
    if (!f.windowed.empty()) {
        Stage planar = f.output.specialize(f.layout.planar());
        for (const Expr &when : f.windowed) {
            schedule_windowed_rows(planar.specialize(when), f, knobs.rows_per_task, knobs.window_rows);
        }
        schedule_output_loops(planar, f.x, f.y, f.c, f.n, f.layout, gather);
        gather.planar = false;
    }
    // Otherwise the gather writes the output directly.
    schedule_output_loops(f.output, f.x, f.y, f.c, f.n, f.layout, gather);
}

// uint8 RGB as pixel words: each output vector's words are gathered by a
// scalar loop that LLVM's loop vectorizer turns into vpgatherdd at byte
// offsets (the kernel is built with LLVM_VECTORIZER), stored in a buffer of
// constant size (else LLVM cannot tell it from the input, as the combined
// load carries no alias information, and does not vectorise the loop), then
// split into the three channels' bytes and interleaved in registers
// (vpmovdb, vpermt2b). Against the general kernel's scalar pixel copies,
// Sapphire Rapids entry, H200 machine's host (model 207), 2026-11-26,
// single-kernel harness, interleaved rounds, NHWC, us: 1x3x500x400 ->
// 256x256 48-50 -> 33-34 at 64 words per vector (41-42 at 32, 56-59 at
// 16; Pillow's NEAREST 41 in the same session), 1x3x345x456 -> 270x270
// 55 -> 40-53 (Pillow 46), 4x3x1080x1920 -> 540x960 at 16 threads 186-214
// -> 127-130, at 1 thread 1791-2788 -> 1204-1405. Upscaling in y, the
// general kernel copies each gathered row (its `reuse`) and stays ahead:
// 1x3x300x400 -> 600x700 191-293 against 206-250, so the wrapper takes
// this kernel only where the output has no more rows than the input.
void schedule_resize_nearest_words_x86(NearestWordsFuncs f, const ResizeKnobs &knobs, int lanes) {
    f.source_x.compute_root();
    f.source_y.compute_root();
    OutputLoops loops;
    loops.interleaved_lanes = lanes;
    loops.rows = knobs.rows_per_task;
    loops.images = OutputLoops::Images::in_tasks;
    schedule_output_loops(f.output, f.x, f.y, f.c, f.n, f.layout, loops);
    f.words.compute_at(f.output, f.x).bound_storage(f.x, lanes);
}

namespace {

// Lines of v values (a tile's rows or columns) of type t per store of
// `store_bytes` (at least one).
int lines_per_store(int store_bytes, int v, Type t) { return std::max(1, store_bytes / (v * t.bytes())); }

// The tap tables, computed once per call (in float64 for uint8),
// vectorised across outputs: scalar, they were 6-9% of the seed antialiased
// uint8 rows (perf, build machine). Both passes read each weight as a
// scalar broadcast (tap k of one output), so the tables keep their natural
// (k, i) storage (an output's taps adjacent), except with `outputs_fastest`
// (gathered horizontal taps read a tap's indices and weights for a vector
// of outputs: stored outputs fastest, one dense load each). H200 host,
// AVX-512, 1 thread, 2026-11-21, single-kernel harness, 5 interleaved
// rounds, 1x3x345x456 -> 270x270 nchw/nhwc, typical rounds, scalar ->
// vectorised: bilinear+aa u8 198 -> 182 / 234 -> 216 us, bicubic u8 208 ->
// 196 / 229 -> 226 us, bicubic+aa f32 486 -> 469 / 560 -> 525 us.
void schedule_tap_tables(const std::vector<Func> &tables, const std::vector<FilteredResizeFuncs::Maximum> &maxima,
                         bool constant_taps, bool outputs_fastest, const Target &target) {
    const int table_lanes = vector_width(target, Float(64), 1);
    for (Func table : tables) {
        table.compute_root();
        const std::vector<Var> args = table.args();
        if (args.empty()) continue;  // a whole-axis maximum, the precision
        const Var i = args.back();
        if (args.size() == 2) table.reorder(i, args[0]);  // (k, i): outputs innermost
        if (args.size() == 2 && outputs_fastest) table.reorder_storage(i, args[0]);
        table.vectorize(i, table_lanes, TailStrategy::GuardWithIf);
        for (int u = 0; u < table.num_update_definitions(); u++) {
            table.update(u).vectorize(i, table_lanes, TailStrategy::GuardWithIf);
        }
    }
    // uint8 without antialias: the whole-axis maximum that sets the
    // precision reads each output's peak; when it evaluated the outputs'
    // filters itself, in float64, as a scalar loop it was most of the
    // tables' time (perf, build machine, Cascade Lake AVX-512, 1 thread,
    // 2026-11-22: 9% of bicubic 500x400 -> 256x256 nchw, 6% of bilinear
    // 345x456 -> 270x270), vectorised across outputs 5% and 3.4%. Since
    // the peaks and folded weights are a table of their own (filters.h),
    // all the tables take 2.1% of that bicubic row (6.1% before; AMD EPYC,
    // AVX2, 2026-11-26). With antialias it reads the weight table (outputs
    // strided by the tap count there), so it stays scalar.
    if (constant_taps) {
        for (FilteredResizeFuncs::Maximum m : maxima) {
            m.func.update().atomic().vectorize(m.over, table_lanes, TailStrategy::GuardWithIf);
        }
    }
}

// Rows per vector (and tile edge) of the horizontal pass.
int horizontal_lanes(const Target &target, const ResizeKnobs &knobs) {
    const int vec = vector_width(target, Int(32), knobs.vector_multiplier);
    return knobs.horizontal_lanes > 0 ? knobs.horizontal_lanes
                                      : (knobs.light_horizontal_taps ? std::min(vec, 8) : vec);
}

// One horizontal pass of a separable resize: `result` = `sum` of taps over
// columns of `source` (the input, or the vertical pass run first), narrowed
// to the pixel type where that is uint8.
struct HorizontalPass {
    Func result, sum, source;
    LoopLevel at;          // where the pass' image (result's values, x fastest) is computed
    Expr whole_tiles;      // source and result at least v x v: tiles need no guards
    bool parallel;         // strips of v rows in parallel (else the caller's task runs it)
    // The vertical pass first: `source` computed per strip of v rows, x
    // vectorised this wide (0: source is the input), and its sum when that
    // is a reduction (antialias). Planar images, or where `source_rows` is
    // defined, the flat rows of values that `source` reads interleaved
    // pixels from (computed in its place).
    int source_lanes = 0;
    Func source_sum;
    Func source_rows;
    // uint8: the sum over pairs of taps, reading pairs of source columns.
    FilteredResizeFuncs::PairedTaps paired;
    // With `parallel`: planar inputs at least this wide run a task per strip
    // and plane (0 = never).
    int plane_tasks_from = 0;
};

// The horizontal pass, vectorised across rows instead of along x: tap k of
// output x then reads one source column, the same for every lane, so each tap
// is a dense vector load and a broadcast weight rather than a lane-by-lane
// gather (the gathers were most of the time: Halide scalarises them on x86).
// This needs the source rows of a strip stored transposed (in_t: rows
// fastest) and the result turned back to x-fastest rows; both are v x v
// transposes of tiles with constant storage, vectorised in both dimensions so
// that Halide emits them as one dense load, a shuffle and one dense store.
// The result is narrowed before it is turned back: uint8 tiles are a quarter
// of the int32 sums' bytes.
// Images narrower or shorter than v take the same loops over partial tiles:
// guarded vectors, except the transposes (in_t and the turned-back tiles)
// and interleaved blocks, whose guarded vectors read strided lanes: Halide
// predicates each such lane in a branch of its own, three quarters of the
// general uint8 bicubic kernel's code and most of its build time
// (schedule_transposed_strip). Scalar, those copies cost inputs shorter
// than a tile time: uint8 1x3x15x200 -> 30x400 NHWC 1.2-1.7x (bicubic
// 28.9-36.6 -> 35.5-54.5 us), 1x3x10x1000 -> 5x500 NHWC 1.2-1.3x, float32
// bicubic 10x1000 -> 5x500 NHWC 1.3-1.5x; other small images even (H100
// machine's host, Sapphire Rapids entry, 2026-11-26, two runs,
// RESULTS.md@89f6099).
//
// A transpose reads its staged tile as whole vector registers. Staged one
// row or column at a time (a uint8 tile's 16-byte columns, a float32
// tile's 32-byte rows), each 64-byte read waits for several stores that
// cannot forward to it: x86 forwards a store only to a load inside it. So
// the staging stores `tile_store_bytes` at once where it can: the source blocks
// several rows per vector (concatenated dense row loads), uint8 results
// several columns per vector (read from the stored sums; float32 results
// read their taps at data-dependent columns, so they keep a column per
// vector). A vector over several rows of an interleaved block's channel
// would be a gather (Halide stages a strided load per row only), so the
// uint8 NHWC RGB kernels (the generator's interleaved_rows) read their rows
// through grouped picks (`paired.rows`, generators/columns.h): each row's
// channels one dense load, split three ways and blended into the rows'
// vector; the general kernels' interleaved blocks keep a row per store (see
// below). Sapphire Rapids entry,
// H200 machine's host, 2026-11-26, single-kernel harness, 5 interleaved
// rounds, 1 thread, us, a row or column per store -> 64 bytes: uint8
// 1x3x345x456 -> 270x270 NCHW bilinear 142.7-155.5 -> 108.0-121.5,
// bicubic 178.9-194.9 -> 148.5-154.3 (every round faster); NHWC bilinear
// 148.9-170.1 -> 136.6-170.6 (4 of 5), bicubic 190.5-236.8 -> 179.2-217.8
// (3 of 5); 1x3x500x400 -> 256x256 NCHW bilinear 170.8-245.2 ->
// 123.0-204.8 (4 of 5), bicubic 220.7-300.3 -> 168.8-228.7 (5 of 5);
// float32 bicubic 500x400 -> 256x256 NCHW (vertical pass first) 309-452
// -> 239-367 (4 of 5). 16 threads, 4x3x1080x1920 -> 540x960 uint8:
// bilinear NHWC 732-744 -> 611-645, NCHW 735-761 -> 664-693; bicubic NHWC
// 837-932 -> 759-811, NCHW 839-887 -> 755-780 (every round faster). The
// build machine (AMD EPYC Zen 3), AVX2 entry: bilinear 345x456 NCHW
// 215-248 -> 135-171, NHWC 174-182 -> 166-169; SSE4.1 entry NCHW 354-440
// -> 138-271, NHWC even. With antialias it did not pay (the generator's
// default is off there): Sapphire Rapids 1-thread rounds within the host's
// noise, 16 threads bicubic+aa NCHW 1346-1364 -> 1400-1470; AVX2 entry
// NCHW 3% faster, NHWC 5% slower (287-289 -> 300-305 bilinear+aa).
// The grouped rows of interleaved blocks, H100 machine's host, Sapphire
// Rapids entry, 2026-11-26, single-kernel harness, 3-7 interleaved rounds,
// us, a row per store -> four per 64-byte store: NHWC, 1 thread, bilinear
// 1x3x345x456 -> 270x270 127.5-136.2 -> 120.6-120.9 (a quiet session;
// noisy 142-198 -> 134-146), bicubic 161.9-194.3 -> 154.6-154.8; 16
// threads, 4x3x1080x1920 -> 540x960 bilinear 490-514 -> 445-497. With
// antialias the kernels form their pairs per tap pair, as the grouped rows
// need (the general kernels store them per strip): bilinear+aa 345x456
// 253-357 -> 234-313, 16 threads 1182-1264 -> 982-1059. Read so in every
// layout, planar batches lost 4-20% at 1 thread (bilinear 4x3x345x456
// NCHW 472.8-498.3 -> 496.2-582.3), hence kernels of their own
// (runtime/src/resize.cpp and RESULTS.md@89f6099 have the rest).
void schedule_horizontal_tiles(HorizontalPass p, FilteredResizeFuncs f, int v, const ResizeKnobs &knobs) {
    Var xo("xo"), yo("yo"), xi("xi"), yi("yi"), task("task");
    auto rows_per_store = [&](Type t) { return lines_per_store(knobs.tile_store_bytes, v, t); };
    // The pass' image, which its consumers read: tiles of v x v outputs, in
    // tasks of a strip of v rows, all planes (an interleaved strip is loaded
    // for all of them at once), or on wide planar inputs one plane: three
    // times the tasks, so the pool's last round idles less. H200 host,
    // AVX-512, 2026-11-22, single-kernel harness, 5 interleaved rounds,
    // 4x3x1080x1920 -> 540x960 nchw uint8 at 16 threads, strip -> plane
    // tasks: bilinear 1031-1071 -> 961-1011 us, bicubic 1105-1152 -> 1010-1030
    // us, bilinear+aa 1210-1302 -> 1100-1147 us, bicubic+aa 1479-1583 ->
    // 1312-1359 us; at 1 thread even. 4x3x345x456 at 16 threads lost
    // (bilinear+aa 349-360 -> 455-490 us: tasks of 2 us), hence the width.
    Func image = p.result.in();
    image.compute_at(p.at);
    const Var ic = image.args()[2];
    // Grouped source rows (generators/columns.h) need strips that start at
    // a multiple of the group for the blocks' picks to fold: the image
    // starts at one, and its last strip is shifted inwards by whole groups,
    // its last group rounded up (the rows past the input repeat its last).
    const int group = p.paired.rows.defined() ? rows_per_store(p.source.type()) : 1;
    if (group > 1) image.align_bounds(image.args()[1], group);
    for (TailStrategy tail : {TailStrategy::ShiftInwards, TailStrategy::GuardWithIf}) {
        Stage s = tail == TailStrategy::ShiftInwards ? image.specialize(p.whole_tiles) : Stage(image);
        Var yg("yg"), yq("yq"), yr("yr");
        s.split(image.args()[0], xo, xi, v, tail);
        std::vector<VarOrRVar> rows;  // a strip's rows, innermost first
        if (group > 1 && v % group == 0 && tail == TailStrategy::ShiftInwards) {
            s.split(image.args()[1], yg, yr, group, TailStrategy::RoundUp).split(yg, yo, yq, v / group, tail);
            rows = {yr, yq};
        } else {
            s.split(image.args()[1], yo, yi, v, tail);
            rows = {yi};
        }
        std::vector<VarOrRVar> order = {xi};
        order.insert(order.end(), rows.begin(), rows.end());
        order.insert(order.end(), {xo, ic, yo});
        s.reorder(order).vectorize(xi);
        for (const VarOrRVar &r : rows) s.unroll(r.var);
        // Plane tasks are for planar layouts, and the condition says so:
        // stated as "not interleaved RGB or RGBA", it left Halide's stage
        // skipping, in the general uint8 kernels without an RGB branch
        // (rgb_branches), with conditions it could not fold, so every tile
        // tested run-time flags. H100 machine's host, Sapphire Rapids
        // entry, 2026-11-26, single-kernel harness, bicubic+aa
        // 4x3x345x456 -> 270x270 NCHW, 1 thread: 955-975 us with the RGB
        // branch, 1271-1741 without; with this condition the flags are gone
        // and the two come out even (RESULTS.md@89f6099).
        if (p.parallel && p.plane_tasks_from > 0 && tail == TailStrategy::ShiftInwards) {
            order.erase(order.end() - 2, order.end());
            order.insert(order.end(), {yo, ic});
            s.specialize(f.in_width >= p.plane_tasks_from && f.layout.planar())
                .reorder(order)
                .fuse(yo, ic, task)
                .parallel(task);
        }
        s.rename(yo, task);
        if (p.parallel) s.parallel(task);
    }

    // One tile of the pass, rows fastest: the sums (a reduction with
    // antialias or paired taps, else pure and inlined into the result)...
    const bool paired = p.paired.columns.defined();
    const bool stored_pairs = paired && !p.paired.source.defined();
    const bool sum_stored = paired || !f.constant_taps;
    if (sum_stored) schedule_rows_fastest_tile(p.sum, LoopLevel(image, xo), v);
    if (paired) {
        // A tap pair's 2 x v products are one vector, summed lane pair by
        // lane pair (Halide's VectorReduce: pmaddwd, vpdpwssd on Zen 4 and
        // Sapphire Rapids); the tile's columns are unrolled inside the loop
        // over pairs, v accumulators in registers. Per pair and column: a
        // table load, a zero-extending load, a weight-pair broadcast, the
        // multiply-add and the add (before: all of that per tap, with the
        // weight widened and the tap loop per column). With the narrowing
        // above, H200 host, AVX-512, 1 thread, 2026-11-21, single-kernel
        // harness, 1x3x345x456 -> 270x270 nchw/nhwc, medians of 3: bilinear
        // 259 -> 174 / 257 -> 182 us, bicubic 341 -> 210 / 339 -> 251 us,
        // bilinear+aa nhwc 395 -> 290 us, bicubic+aa nhwc 569 -> 389 us
        // (the planar antialiased rows moved within the host's noise).
        p.sum.update()
            .reorder(p.paired.lane, f.y, f.x, p.paired.pair)
            .atomic()
            .vectorize(p.paired.lane)
            .vectorize(f.y, v, TailStrategy::GuardWithIf)
            .unroll(f.x, v, TailStrategy::GuardWithIf);
        if (f.constant_taps) p.sum.update().unroll(p.paired.pair);  // 1 or 2 pairs
    } else if (!f.constant_taps) {
        p.sum.update()
            .reorder(f.y, f.rx, f.x)
            .vectorize(f.y, v, TailStrategy::GuardWithIf)
            .unroll(f.x, v, TailStrategy::GuardWithIf);
    }
    // ... and the result, narrowed to the pixel type (float32 results of
    // stored sums are the sums themselves: inlined).
    if (!sum_stored || p.result.type() != p.sum.type()) {
        schedule_rows_fastest_tile(p.result, LoopLevel(image, xo), v, sum_stored ? rows_per_store(p.result.type()) : 1);
    }
    // ... turned back to x-fastest (partial tiles: scalar, see above).
    Func tile = p.result.in(image);
    tile.compute_at(image, xo).bound_storage(tile.args()[0], v).bound_storage(tile.args()[1], v);
    tile.specialize(p.whole_tiles).vectorize(tile.args()[0], v).vectorize(tile.args()[1], v);

    // The strip's source rows, transposed: in_t stored rows fastest, from
    // v x v blocks of source rows loaded densely (the clamped columns, where
    // the pairs are formed per tap pair).
    Func in_t = stored_pairs ? p.source.in(p.paired.columns) : paired ? p.paired.source : p.source.in(p.sum);
    const bool grouped_rows = paired && p.paired.rows.defined();
    Func block = grouped_rows ? p.paired.rows : p.source.in(in_t);
    const std::vector<Var> a = in_t.args();
    const Var &x = a[0], &y = a[1], &c = a[2], &n = a[3];
    Var bx("bx"), xb("xb");
    in_t.compute_at(image, task).reorder_storage(y, x, c, n).bound_storage(y, v);
    // Interleaved strips: all channels of a block at once.
    for (int channels : knobs.interleaved_pixels) {
        in_t.specialize(p.whole_tiles && f.layout.interleaved(channels))
            .split(x, bx, xb, v, TailStrategy::ShiftInwards)
            .reorder(y, xb, c, bx)
            .vectorize(y, v)
            .vectorize(xb)
            .unroll(c);
    }
    TransposedBlocks blocks =
        schedule_transposed_strip(in_t, block, p.whole_tiles, v, rows_per_store(p.source.type()), f.layout.planar());
    const auto [block_yo, block_yi] = blocks.lines;
    const std::vector<Var> b = block.args();
    for (int channels : knobs.interleaved_pixels) {
        Stage s = blocks.whole_blocks.specialize(f.layout.interleaved(channels));
        s.reorder(b[2], b[0], block_yi, block_yo).unroll(b[2]);
        if (!grouped_rows) s.unroll(block_yi);
    }
    // Pairs of adjacent columns: stored per strip, one interleave of two
    // v-row vectors per input column, or formed per tap pair and output
    // column from two loads of the clamped strip (generator's
    // stored_pairs). Without antialias the latter: a tap pair per column or
    // two, fewer interleaves than input columns when shrinking, no stores.
    // H200 host, AVX-512, 2026-11-22, single-kernel harness, stored -> per
    // tap pair, typical rounds of 3-5: bilinear 1x3x345x456 -> 270x270
    // nchw about even (143-155 -> 142-150 us), nhwc 181-199 -> 166-181 us,
    // 4x3x1080x1920 -> 540x960 at 16 threads nhwc 885-961 -> 792-817 us;
    // bicubic 500x400 -> 256x256 nhwc 285-340 -> 264-275 us, 4x3x1080x1920
    // nhwc 1107-1154 -> 1036-1063 us, nchw even. With antialias (3-5
    // pairs) the stored pairs won: bilinear+aa 4x3x1080x1920 nchw 1037-1106
    // vs 1161-1166 us, bicubic+aa 1379-1446 vs 1559-1674 us. (Storing
    // pairs of the clamped strip lost everywhere, e.g. bilinear
    // 1x3x345x456 nchw 143-155 -> 175-199 us.)
    if (stored_pairs) {
        // Adjacent columns of the transposed strip side by side: per column
        // one interleave of two v-row vectors, (j, y) fastest.
        Func pairs = p.paired.columns;
        const std::vector<Var> q = pairs.args();  // j, x, y, c, n
        pairs.compute_at(image, task).reorder_storage(q[0], q[2], q[1], q[3], q[4]).bound_storage(q[2], v);
        for (TailStrategy tail : {TailStrategy::Auto, TailStrategy::GuardWithIf}) {
            Stage s = tail == TailStrategy::Auto ? pairs.specialize(p.whole_tiles) : Stage(pairs);
            s.reorder(q[0], q[2], q[1], q[3], q[4]).vectorize(q[0], 2).vectorize(q[2], v, tail);
        }
    }
    Func rows = p.source_rows.defined() ? p.source_rows : p.source;
    if (p.source_lanes > 0) {
        rows.compute_at(image, task).vectorize(f.x, p.source_lanes, TailStrategy::GuardWithIf);
    }
    if (p.source_sum.defined()) {
        p.source_sum.compute_at(rows, f.x).vectorize(f.x);
        p.source_sum.update().vectorize(f.x);
    }
}

}  // namespace

// Separable filters, horizontal pass first: computed for a whole image of the
// batch (H_in x W_out x C: 1.1 MB for the seed case in float32, within L2 on
// the machines we measure), in strips of rows for the thread pool, then the
// vertical pass streams over it. Computing the horizontal pass per output
// strip would need the strip's input rows, which bounds inference cannot
// derive from the data-dependent tap tables.
//
// Vectorising the horizontal pass across rows (schedule_horizontal_tiles)
// rather than along x (per-lane gathers), H200 host, AVX-512, 1 thread,
// 2026-11-21, same run as PyTorch, OpenCV and Pillow (RESULTS.md@89f6099):
// bilinear+aa u8 nchw 255 us (was about 2x that), now below cv2.resize
// INTER_AREA and Pillow; on the build machine (AMD EPYC, AVX2) bicubic+aa f32
// 1713 -> 663 us, bilinear f32 327 -> 212 us.
//
// Planar float32 shrunk in y to at most `vertical_first_below` (0.7; 1.0 for
// bilinear where the horizontal pass gathers, below) of its rows runs the
// vertical pass first: each task of output rows then needs
// exactly its own rows of the vertical pass (computed per strip of v rows,
// vectorised along x), and the horizontal pass covers output rows instead of
// input rows. H200 host, AVX-512, 2026-11-21, single-kernel harness, 3
// interleaved rounds, medians, vertical first wherever the output is
// shorter / horizontal first, NCHW:
// 500x400 -> 256x256 bicubic 0.70, bilinear 0.88, bilinear+aa 0.71,
// bicubic+aa 0.83; 1080x1920 -> 540x960 bicubic 0.80, bilinear 0.91,
// bilinear+aa 0.74, bicubic+aa 0.94 (4x3 of it, 16 threads: 0.71-0.86). At
// milder ratios it lost: 345x456 -> 270x270 (0.78 of the rows) 0.94-1.20,
// 300x400 -> 270x360 1.03-1.12. Interleaved images lost almost everywhere
// (1.1-1.7x; 0.84-0.91 only at 540x960 without antialias): the vertical
// pass deinterleaves there, then the transposing loads read its planar
// rows again. Their vertical pass runs instead along flat rows of values,
// no shuffles, in a kernel of their own (the generator's interleaved_rows:
// `when` is then true, the output has no other order and the horizontal
// tiles read the pixels' channels apart from those rows, as they read an
// interleaved input's); runtime/src/resize.cpp has its measurements. The
// final build against vertical_first_below=0 (a noisy night,
// RESULTS.md@89f6099): bicubic 0.67 / 0.80 / 0.73 (500x400 -> 256x256,
// 1080x1920 -> 540x960, 4x3 of it at 16 threads), bilinear 0.75 / 0.97 /
// 0.84, bilinear+aa 0.78 / 0.79 / 0.86, bicubic+aa 0.79 / 1.29 / 0.99 (the
// 1.29 was 0.92-0.94 in two earlier runs).
// The threshold moved from 0.6 to 0.7 (generators/pass_order.h, shared
// with the wrapper's choice of the interleaved kernels): H100 host,
// Sapphire Rapids entry, 2026-11-25, single-kernel harness, interleaved
// rounds, 0.6 -> 0.7, NCHW: 1x3x500x400 -> 340x300 (0.68 of the rows)
// bicubic 433-451 -> 380-397 us (4 of 4 rounds faster), bilinear+aa
// 626-781 -> 564-824 us (3 of 4); 4x3x1080x1920 -> 720x1280 (0.67) at 16
// threads bicubic 1677-1858 -> 1354-1491 us, bilinear+aa 2781-2837 ->
// 1596-1759 us; 1x3 of it at 1 thread bilinear+aa 5783-7611 -> 4933-6931
// us, bicubic 3505-3722 -> 3617-3994 us (the one loss, 3-7%).
void schedule_resize_filtered_x86(FilteredResizeFuncs f, const Target &target,
                                  const ResizeKnobs &knobs) {
    // Accumulators are 32-bit (int32 for uint8, float32): vectorise at that width.
    const int vec = vector_width(target, Int(32), knobs.vector_multiplier);
    // The tables, outputs fastest where the horizontal taps are gathered (below).
    schedule_tap_tables(f.tables, f.maxima, f.constant_taps, knobs.horizontal_gathers && f.constant_taps, target);

    // Rows per vector of the horizontal pass (also the tile edge), H200 host
    // (16-core x86, AVX-512), 1 thread, 2026-11-21, 1x3x345x456 -> 270x270,
    // nchw/nhwc: float32 without antialias 8 rows 178/194 us vs 16 rows
    // 259/392 us (two taps do too little work to pay for 16 x 16
    // transposes); every other case is faster at 16 (uint8 bilinear 171 vs
    // 189 us, bicubic+aa 382 vs 849 us, float32 bicubic+aa 417 vs 496 us).
    // AVX2 and SSE4.1 use their natural 8 and 4. The generator counts the
    // interleaved_rows bilinear+aa kernels as light too (their horizontal
    // pass covers output rows, 2-4 taps per column at the ratios they
    // serve): H200 machine's host, Sapphire Rapids entry, 2026-11-25, single-kernel
    // harness, interleaved rounds, 16 -> 8 rows: 1x3x500x400 -> 256x256, 1
    // thread, 359-385 -> 328-357 us (5 of 5 rounds faster); 4x3x1080x1920
    // -> 540x960, 16 threads, 1347-1493 -> 1182-1387 us (6 of 6); H100
    // host, 1x3x1080x1920 -> 720x1280 6830-8897 -> 4861-5359 us (2 of 2).
    // Bicubic+aa was mixed there (1 thread 486-690 vs 490-750 us). The
    // general kernel's bilinear+aa at 8 gained on NHWC (1x3x345x456 ->
    // 270x270 607-663 -> 591-611 us) but lost on batches of 4 in NCHW
    // (1943-2500 -> 2107-2603 us), so it keeps 16.
    const int v = horizontal_lanes(target, knobs);

    if (f.vertical_first.when.defined()) {
        FilteredResizeFuncs::VerticalFirst vf = f.vertical_first;
        const bool only_order = Internal::is_const_one(vf.when);
        // The output copies the pass' tiles of its task. Everything is
        // computed per task, so one parallel loop covers every image's
        // strips (Images::in_tasks) rather than one loop per image. H200
        // host, AVX-512, 2026-11-22 (later), single-kernel harness, 5
        // interleaved rounds, 4x3x1080x1920 -> 540x960 nchw float32 at 16
        // threads, medians, a loop per image -> one loop: bilinear 996 ->
        // 873 us, bicubic+aa 1736 -> 1527 us, bicubic 948 -> 944 us (4 of 5
        // rounds faster); 1 thread even.
        OutputLoops copy;
        copy.planar_lanes = copy.interleaved_lanes = vec;
        copy.rows = knobs.rows_per_task;
        copy.images = OutputLoops::Images::in_tasks;
        copy.pixels = knobs.interleaved_pixels;
        Stage nest = only_order ? Stage(f.output) : f.output.specialize(vf.when);
        // The output a scalar loop over pixels (the two branches below),
        // each task's `rows` of the vertical pass computed ahead of it.
        auto pixels_over_rows = [&](Func rows) {
            OutputLoops pixels = copy;
            pixels.planar_lanes = pixels.interleaved_lanes = 1;
            const Var task = schedule_output_loops(nest, f.x, f.y, f.c, f.n, f.layout, pixels).task;
            rows.compute_at(f.output, task).vectorize(f.x, vec * 2, TailStrategy::GuardWithIf);
        };
        if (vf.pixel_vectors.sum.defined()) {
            // A pixel at a time, its channels one vector (the generator's
            // pixel_vectors): each tap a dense load from the task's flat
            // rows at the column table's offset, a broadcast weight and a
            // multiply-add; the output stores the pixel's channels (RGB:
            // an 8-byte and a 4-byte store). Bilinear is 14 instructions a
            // pixel on the AVX2 entry, where the tiles transpose twice and
            // the gathers insert lane by lane. Build machine (AMD Zen 3),
            // AVX2 entry, 2026-11-28 (evening), same-process pairs, 1
            // thread, min of 40-100 calls, the tiles -> pixel vectors, us:
            // RGB 1x3x500x400 -> 256x256 bilinear 189-258 -> 132-186,
            // bicubic 221-222 -> 207-210, 1x3x1080x1920 -> 540x960
            // bilinear 2738-3361 -> 1863-2306, bicubic 3145-3278 ->
            // 2549-2655; RGBA 500x400 -> 256x256 bilinear 279-287 ->
            // 130-134, bicubic 333-469 -> 212-291. H200 machine's host
            // (Intel), 3 rounds: SSE4.1 bilinear 256-359 -> 191-268,
            // 1080x1920 3368-3656 -> 2308-2400, bicubic 320-452 -> 259-377,
            // 1080x1920 3195-4410 -> 2337-3437; AVX-512 Skylake bilinear
            // 251-298 -> 197-270, 1080x1920 2547-2966 -> 1894-2243; bicubic
            // 1080x1920 2724-3564 -> 2187-3183 but 500x400 332-342 ->
            // 384-445 (Sapphire Rapids 281-328 -> 251-378), so bicubic keeps
            // the tiles on the AVX-512 entries (generators/pass_order.h).
            // With antialias a pixel's tap loop lost to the tiles (AVX2
            // entry, RGB 500x400 -> 256x256 bilinear+aa 510-514 -> 514-550,
            // bicubic+aa 717-733 -> 637-860; Sapphire Rapids bicubic+aa at
            // 345x456 -> 270x270 1.3x slower than the general kernel), as
            // did pixels summed four at a time, taps outermost, over a row
            // buffer (392-396 -> 430-465 us, bilinear+aa 345x456, AVX2).
            // runtime/src/resize.cpp has the general kernel against these.
            pixels_over_rows(vf.flat_rows);
            if (!f.constant_taps) {
                vf.sum_y.compute_at(vf.flat_rows, f.x).vectorize(f.x);
                vf.sum_y.update().vectorize(f.x);
            }
            auto &pv = vf.pixel_vectors;
            pv.sum.compute_at(f.output, f.x).bound(pv.lane, 0, pv.lanes).vectorize(pv.lane);
            if (!f.constant_taps) pv.sum.update().vectorize(pv.lane);
        } else if (knobs.horizontal_gathers && f.constant_taps) {
            // The horizontal pass as each output row's scalar loop along x,
            // its taps read from the task's strip of the vertical pass at
            // the column table's indices, which LLVM's loop vectorizer turns
            // into hardware gathers (vgatherdps; interleaved outputs
            // vgatherqps per channel, stored interleaved by permutes): two
            // gathers per 8 bilinear outputs, no transposes. The tables are
            // stored outputs fastest, so each tap's indices and weights are
            // dense loads (the tables loop above). The Sapphire Rapids entry
            // (llvm_gathers) on the H200 machine's host (model 207),
            // 2026-11-26, single-kernel harness, 3-5 interleaved rounds, us,
            // tiles -> gathers, bilinear float32, vertical pass first up to
            // 1.0 of the rows (generators/pass_order.h):
            // - NCHW, 1 thread: 1x3x345x456 -> 270x270 (horizontal pass
            //   first before) 241-324 -> 227-269; 1x3x500x400 -> 256x256
            //   306-362 -> 193-261. 16 threads, 4x3x1080x1920 -> 540x960
            //   966-976 -> 700-743.
            // - NHWC RGB (the interleaved_rows kernel; the general kernel at
            //   345x456, whose horizontal pass runs first): 1x3x345x456 ->
            //   270x270 228-277 -> 180-239, 4x3 of it 886-1060 -> 723-880,
            //   1x3x500x400 -> 256x256 235-243 -> 189-207; 16 threads,
            //   4x3x1080x1920 -> 540x960 828-906 -> 630-697. Those kernels
            //   run pixel vectors since 2026-11-28 (evening; the branch
            //   above), even with these gathers there (1 thread, three
            //   shapes, 194-292 -> 188-290 us; 16 threads 734-843 ->
            //   774-868).
            // Bicubic (four gathers per output vector) came out even or
            // slower at 345x456 (NCHW 287-296 -> 292-420 us) and even at
            // 500x400, so it keeps the tiles. 16 lanes (LLVM picks 8 there)
            // measured within the noise of 8.
            pixels_over_rows(vf.flat_rows.defined() ? vf.flat_rows : vf.resized_y);
        } else {
            const Var task = schedule_output_loops(nest, f.x, f.y, f.c, f.n, f.layout, copy).task;
            const Expr whole = f.in_width >= v && f.out_height >= v && f.out_width >= v;
            HorizontalPass second{vf.resized, vf.sum_x, vf.resized_y, LoopLevel(f.output, task), whole, false,
                                  vec * 2, f.constant_taps ? Func() : vf.sum_y};
            second.source_rows = vf.flat_rows;
            schedule_horizontal_tiles(second, f, v, knobs);
        }
        if (only_order) return;
    }

    // The output's loops. Horizontal pass first, each image's pass is
    // computed at its n; with `parallel_images` that loop is parallel too,
    // around the image's own parallel loops (nested tasks, which Halide's
    // thread pool runs side by side), so the last round of one image's
    // tasks no longer leaves threads idle: 8 fork-joins per call of 4
    // images were 21-37% of the 16-thread wall time (Halide's profiler,
    // RESULTS.md@89f6099 2026-11-22). H200 host, AVX-512, 16 threads,
    // 2026-11-22 (later), single-kernel harness, 3-4 interleaved rounds,
    // off -> on: 4x3x1080x1920 -> 540x960 nhwc uint8 bilinear 662-707 ->
    // 560-633 us, bilinear+aa 1010-1061 -> 806-845 us, bicubic+aa
    // 1322-1477 -> 1112-1235 us, float32 bilinear 1184-1291 -> 1028-1091
    // us, bicubic+aa 2496-2745 -> 2234-2551 us; 4x3x345x456 -> 270x270
    // 25-38% faster in both layouts (uint8 bilinear nhwc 196-202 -> 119-124
    // us); the planar 1080x1920 rows, whose plane tasks already balance the
    // pool, moved within the noise (uint8 bilinear 700-787 -> 655-753 us),
    // as did every 1-thread time. Four images' intermediates are live at
    // once (3 MB each for uint8 here, 12 MB for float32), which loses with
    // few threads per image (float32 2x slower at 2 threads, 1.5x at 4):
    // there the wrapper calls the kernel once per image
    // (runtime/src/resize.cpp has the numbers).
    const int vertical = vec * std::max(1, knobs.vertical_vectors);
    OutputLoops out;
    out.planar_lanes = out.interleaved_lanes = vertical;
    out.rows = knobs.rows_per_task;
    // Planar images take tasks of 64 output rows (the generator's
    // planar_rows_per_task), interleaved ones keep 16. Sapphire Rapids entry
    // on the H100 host, 2026-11-25 (evening), single-kernel harness, 3-4
    // interleaved rounds, 16 -> 64 rows, 16 threads, NCHW: bilinear uint8
    // 4x3x1080x1920 -> 540x960 891-920 -> 782-810 us, 4x3x345x456 ->
    // 270x270 265-276 -> 145-151 us, 1x3 of it 100-104 -> 64-67 us;
    // bilinear+aa uint8 4x3x345x456 301-311 -> 187-201 us, 4x3x1080x1920
    // 1129-1151 -> 1089-1120 us; bicubic uint8 500x400 -> 256x256 123-130 ->
    // 91-93 us, -> 1024x1024 338-359 -> 297-321 us; bilinear float32
    // 4x3x345x456 320-353 -> 205-217 us, 1x3 107-111 -> 74-78 us. 1 thread:
    // bicubic uint8 256x256 351-356 -> 283-287 us (the build machine: 186
    // us either way), bilinear+aa uint8 within the noise. NHWC lost at 64
    // (bilinear float32 1x3 73-75 -> 94-96 us, bilinear+aa uint8
    // 4x3x1080x1920 1130-1199 -> 1283-1298 us, bicubic uint8 256x256 95-99
    // -> 103-106 us), hence the split. 128 rows helped
    // bilinear uint8 4x3x345x456 (133-145 -> 118-128 us) and hurt float32
    // 1x3 (68-71 -> 77-82 us); 32 lost to 64 on both.
    out.planar_rows = knobs.planar_rows_per_task;
    out.images = knobs.parallel_images ? OutputLoops::Images::in_parallel : OutputLoops::Images::in_turn;
    out.pixels = knobs.interleaved_pixels;
    // Rows at least a vector wide: the last vector shifted inwards (the
    // tap pairs' comment below says why).
    const bool pairs_per_vector = f.constant_taps && !f.vertical_pairs.empty();
    if (pairs_per_vector) {
        OutputLoops whole = out;
        whole.tail = TailStrategy::ShiftInwards;
        schedule_output_loops(f.output.specialize(f.out_width >= vertical), f.x, f.y, f.c, f.n, f.layout, whole);
    }
    const OutputLoopVars loops = schedule_output_loops(f.output, f.x, f.y, f.c, f.n, f.layout, out);

    const Expr whole = f.in_width >= v && f.in_height >= v && f.out_width >= v;
    HorizontalPass first{f.resized_x, f.sum_x, f.input, LoopLevel(f.output, f.n), whole, true};
    first.paired = f.paired;
    first.plane_tasks_from = knobs.horizontal_plane_tasks_from;
    schedule_horizontal_tiles(first, f, v, knobs);

    // The vertical pass: without antialias its sum is pure, inlined into the
    // output's vectors, whose tails are then predicated vector code; a
    // reduction computed per output vector ends each row in a scalar loop
    // (14 of the seed case's 270 columns took a quarter of the vertical
    // pass on the build machine). With the horizontal index table, H200
    // host, AVX-512, 1 thread, 2026-11-21, 1x3x345x456 -> 270x270
    // nchw/nhwc: bicubic f32 250 -> 220 / 274 -> 243 us, bilinear f32 182
    // -> 179 / 205 -> 194 us, bicubic u8 248 -> 234 us (RESULTS.md@89f6099).
    // vertical_vectors 1, 2 and 4 measured within 3-4% of each other.
    //
    // uint8 sums the vertical taps two at a time (the generator's
    // vertical_pairs): each pair, computed per output vector and kept in
    // registers, is one multiply-add of two interleaved rows' int16 values
    // (vpermt2w + vpmaddwd on AVX-512), where the chain of single taps
    // zero-extended each row twice (vpmovzxbw, vpmovzxwd) for a multiply-add
    // against zero halves. With antialias the pairs are a reduction over
    // the tap tables, per vector of the row sums. Without antialias, rows
    // at least a vector wide end in a vector shifted inwards (above): after
    // a guarded tail, each pair's production sat in a test that its vector
    // is not empty, which kept LLVM from hoisting the pair's row indices
    // out of the row (build machine, 5 rounds, bicubic 500x400 -> 1024x1024
    // nchw 930-991 -> 893-916 us; guarded, the AVX2 and SSE4.1 variants
    // lost on planar rows). Sapphire Rapids variant on the H100 host (model
    // 207), 2026-11-25 afternoon, single-kernel harness, 1 thread unless
    // noted, 4-5 interleaved rounds, pairs off -> on (RESULTS.md@89f6099 has
    // every row): bicubic 500x400 -> 1024x1024 nchw 1614-1938 -> 1393-1757
    // us, nhwc 1668-1879 -> 1494-1987 us (faster in 4 of 5 rounds each);
    // -> 256x256 nchw 255-295 -> 241-279 us; bilinear 345x456 -> 270x270
    // nchw 162-237 -> 151-177 us, 300x400 -> 600x700 473-519 -> 467-480
    // us; bicubic+aa 345x456 -> 270x270 nchw 264-324 -> 250-259 us (an
    // earlier run). Slower: bilinear 4x3x1080x1920 -> 540x960 nhwc at 16
    // threads, 801-843 -> 853-899 us (memory-bound; even in nchw). Build
    // machine (AMD Zen 5), forced variants, bicubic to 1024x1024 nchw:
    // AVX-512 Skylake 1258-1284 -> 897-949 us, AVX2 1195-1226 -> 983-996
    // us, SSE4.1 1988-2487 -> 1496-1942 us; bicubic+aa 345x456 -> 270x270
    // nchw AVX2 298 -> 261 us, SSE4.1 584 -> 433 us. A pixel's channels
    // (interleaved rows) are unrolled in the pairs' loop as in the
    // output's: build machine, AVX-512 Skylake variant, NHWC, 3 rounds,
    // bilinear 300x400 -> 600x700 361-366 -> 342 us, bicubic 500x400 ->
    // 1024x1024 1192-1258 -> 1113-1151 us; the H100 host within its noise
    // (5 rounds: bilinear to 1024x1024 faster in 4, bicubic in 3, the
    // 4x3x1080x1920 16-thread rows in 2 of 4).
    if (f.constant_taps) {
        if (pairs_per_vector) {
            for (Func pair : f.vertical_pairs) {
                pair.compute_at(f.output, f.x).vectorize(f.x, vertical, TailStrategy::GuardWithIf).unroll(f.c);
            }
        }
        return;
    }
    for (Func pair : f.vertical_pairs) {
        pair.compute_at(f.sum_y, f.x).vectorize(f.x, vec, TailStrategy::RoundUp);
    }
    if (knobs.vertical_row_sums) {
        // With antialias, a whole output row's sums (every channel) at once,
        // taps outermost: each tap's row index and weight are loaded once
        // for the row instead of once per output vector. H200 host, AVX-512,
        // 1 thread, 2026-11-21, single-kernel harness, best of 3 rounds,
        // 1x3x345x456 -> 270x270 nchw/nhwc (4x3 of it): bilinear+aa u8
        // 279 -> 205 / 295 -> 235 us (1030 -> 774 / 1108 -> 877), bicubic+aa
        // u8 355 -> 261 / 385 -> 295 us (1360 -> 984 / 1449 -> 1078),
        // bilinear+aa f32 511 -> 463 / 530 -> 494 us, bicubic+aa f32
        // 572 -> 525 / 589 -> 572 us.
        // Rows are rounded up to whole vectors: a guarded tail is a scalar
        // loop in a reduction (a quarter of the pass at 270 columns). The
        // horizontal pass then covers the rounded width too.
        f.sum_y.compute_at(f.output, loops.row).vectorize(f.x, vec, TailStrategy::RoundUp);
        f.sum_y.update().reorder(f.x, f.c, f.ry).vectorize(f.x, vec, TailStrategy::RoundUp);
    } else {
        f.sum_y.compute_at(f.output, f.x).vectorize(f.x);
        f.sum_y.update().vectorize(f.x);
    }
}

// The vertical pass alone: tasks of output rows in parallel (with the
// planes and images), each output row one dense vector loop along the row,
// its taps' rows read at the same columns; uint8 computes each pair of taps
// per output vector (pmaddwd), float32 multiplies and adds tap by tap.
// Without antialias the sum is inlined, its taps (or one or two pairs)
// written out; with antialias it is a reduction over the taps (pairs),
// computed per block of `vertical_vectors` output vectors. Rows at least a
// block (a vector) wide end in a block shifted inwards, so that every
// vector's sums are whole vectors too (a reduction's guarded tail is a
// scalar loop per tap: 3.3x the two-pass kernel's time on the build machine
// when sums covered whole rows); narrower rows take guarded vectors.
// float32 sums 4 vectors per tap: one vector's adds wait on each other (4
// cycles each), four overlap. Single-kernel harness, 3 interleaved rounds,
// 1 thread, nchw, us:
// - build machine (AMD EPYC, AVX2 entry), 2026-11-27, bicubic+aa
//   1x3x345x456, 1, 2, 4, 8 vectors: -> 270x456 355-403, 178-247,
//   148-199, 160-195; -> 456x456 452-467, 315-325, 189-245, 231-238;
// - H200 machine's host (Sapphire Rapids entry), 2026-11-27, 1, 2, 4, 8
//   vectors: bilinear+aa 1x3x345x456 -> 270x456 161-215, 139-177,
//   150-171, 155-173, 1x3x1080x1920 -> 540x1920 2530-2570, 1662-1898,
//   1560-2005, 1675-2329; bicubic+aa (1, 4, 8) -> 270x456 199-259,
//   182-198, 152-185, 1x3x1080x1920 -> 540x1920 3957-4286, 2250-2562,
//   2186-2500.
// uint8 lost with more (its pairs stored per block): build machine,
// bilinear+aa -> 270x456 202-211 at 1, 287-292 at 2, 252-262 at 4; H200
// host, 1 and 2 vectors, bilinear+aa 1x3x1080x1920 -> 540x1920 866-1177
// and 1166-1695, bicubic+aa 1248-1812 and 1660-2236.
void schedule_resize_vertical_x86(VerticalResizeFuncs f, const Target &target, const ResizeKnobs &knobs) {
    schedule_tap_tables(f.tables, f.maxima, f.constant_taps, false, target);
    const int vec = vector_width(target, f.output.type(), knobs.vector_multiplier);
    const int vectors = f.constant_taps ? 1 : knobs.vertical_vectors;
    Var xo("xo"), xi("xi"), yo("yo"), yi("yi"), plane("plane"), task("task"), xv("xv");
    const Expr width = f.output.output_buffer().dim(0).extent();
    auto loops = [&](Stage s, int lanes, TailStrategy tail) {
        s.split(f.x, xo, xi, lanes, tail)
            .split(xi, xv, xi, vec)
            .vectorize(xi)
            .split(f.y, yo, yi, knobs.rows_per_task, TailStrategy::GuardWithIf)
            .reorder(xi, xv, xo, yi, yo, f.c, f.n)
            .fuse(yo, f.c, plane)
            .fuse(plane, f.n, task)
            .parallel(task);
    };
    if (vectors > 1) loops(f.output.specialize(width >= vec * vectors), vec * vectors, TailStrategy::ShiftInwards);
    loops(f.output.specialize(width >= vec), vec, TailStrategy::ShiftInwards);
    loops(f.output, vec, TailStrategy::GuardWithIf);
    if (f.constant_taps) {
        for (Func pair : f.pairs) pair.compute_at(f.output, xo).vectorize(f.x, vec, TailStrategy::GuardWithIf);
    } else {
        // Each tap's row is read for `vectors` output vectors at once, so
        // that their sums (float32 adds, each waiting on the last) overlap.
        f.sum.compute_at(f.output, xo).vectorize(f.x, vec, TailStrategy::GuardWithIf);
        f.sum.update()
            .split(f.x, xv, f.x, vec, TailStrategy::GuardWithIf)
            .reorder(f.x, xv, f.r)
            .vectorize(f.x)
            .unroll(xv);
        for (Func pair : f.pairs) pair.compute_at(f.sum, f.r).vectorize(f.x, vec, TailStrategy::GuardWithIf);
    }
}

void schedule_resize_taps_x86(const std::vector<Func> &tables) {
    // O(width) scalar work once per shape (the wrapper caches the result).
    for (Func table : tables) table.compute_root();
}

int horizontal_rows_per_store(const Target &target, const ResizeKnobs &knobs, Type source) {
    return lines_per_store(knobs.tile_store_bytes, horizontal_lanes(target, knobs), source);
}

}  // namespace hres
