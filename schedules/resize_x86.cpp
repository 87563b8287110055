// x86 resize schedules, one for the AVX-512, AVX2 and SSE4.1 entries (widths
// follow the target). Tables are computed once per call (O(width + height)),
// output rows are tasks for Halide's thread pool, x is vectorised: planar
// (NCHW) at unit stride, interleaved (NHWC) images of 3 or 4 channels with c
// unrolled inside the x vector, so stores interleave in registers. Machines:
// bench/machines.md keys. Records: RESULTS.md@89f6099 (git show
// 89f6099:bench/RESULTS.md) by section, bench/runs/.
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

// The loops of `in_t`, a strip of v rows stored rows fastest, and of the v x v
// `block`s it transposes. Whole blocks (`whole`) load densely, `rows` rows per
// vector (`lines`: that loop split outer and inner); partial blocks of dense
// rows (`dense_rows`) are guarded vectors; other partial blocks, and in_t's
// transposes of them, are scalar: guarded, their strided lanes were a branch
// each, three quarters of the general uint8 bicubic kernel's LLVM IR and most
// of its build time (build-zen3, RESULTS.md@89f6099 2026-11-26 (night,
// later)). Earlier specialisations of in_t take precedence; the caller
// specialises whole blocks further through `whole_blocks`.
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

// Planar nearest across rows, as the filtered horizontal pass: each task
// stores its strip's input rows (picked_rows, dense loads) transposed, an
// output column is one dense load of the column it copies, and v x v tiles are
// turned back: per v x v outputs a share of two transposes and v vector
// copies, not v x v scalar loads. Tiles round up; only inputs narrower than v
// take partial blocks (scalar: guarded, 4-7x slower). Staged tiles store
// `group` lines per register, picked `group` at a time (picked_in_groups) so
// each is a dense load and the transposes' reads are served by store
// forwarding (a plain vector over table-picked rows is a gather: lost 4x).
// h100 1x3x500x400 -> 256x256, a line per store -> 4: best 56.3 -> 38.1 us.
// RESULTS.md@89f6099 2026-11-26 (noon), (night, later).
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
// vector is a window's block of outputs; `rows` output rows are unrolled in
// the loop over blocks sharing its offsets and bit tests. Upscaling along x,
// h100 1x3x300x400 -> 600x700 f32: gathers 667-808 -> picks 486-625 us
// (RESULTS.md@89f6099 2026-11-24; there: 4 rows per window lost at 16 threads,
// 8-column windows miss a 2x upscale's 10, the 10-column pick landed for
// build-zen4, 206 -> 183 us). Shrinking along x by up to about 2, AMD's AVX2
// kernels use shifted windows, one per lane (dense loads), partial last blocks
// gathering (guarded, the tree ran lane by lane): build-zen3 500x400 ->
// 256x256 73 -> 58 us; lost on SSE4.1 at 270x270 (1.07x) and on h200
// (1.05-1.3x); hence AMD's 8-lane entry only. RESULTS.md@89f6099 2026-11-28
// (night, later).
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

// Nearest is a gather, out(x, y) = in(source_x(x), source_y(y)): along x
// (planar float32), of whole pixels (interleaved), or by the transposes of
// schedule_nearest_tiles (planar uint8). Planar gathers take 8 lanes,
// interleaved pixels a scalar loop with c unrolled (build-zen3 500x400 ->
// 256x256 u8: 98 us, 118 at 32 lanes, 152 scalar; interleaved 84 vs 269 us;
// commit 9b16880). Planar RGB/RGBA run channels innermost, one index for all
// planes (RESULTS.md@89f6099 2026-11-21 (morning)). AMD's AVX2 and SSE4.1
// entries take planar_pixel_lanes=1 float32 kernels
// (the vendor rule of kernels/kernels.toml): build-zen3 109-121 -> 81-103 us, h200 137 ->
// 192 us (2026-11-28 (morning)). On Sapphire Rapids (llvm_gathers) LLVM makes
// float32's scalar pixel loops a vgatherdps per channel, column windows off,
// as these beat them (h100 126-161 -> 86-119 us; 2026-11-25); elsewhere
// Halide's gathers stay: Skylake to Ice Lake microcode makes hardware gathers
// slow, and Halide tells LLVM so.
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
    // Planar uint8 across rows (schedule_nearest_tiles), tiles of 16: h100
    // 1x3x500x400 -> 256x256 gathers 115 -> tiles 66 us. Lost
    // (RESULTS.md@89f6099 2026-11-22 (night)): tiles of 32; float32 tiles, 2x
    // (a 4-byte lane's gather costs what a byte's does; transposes move 4x the
    // bytes); on build-cascadelake (no VBMI) tiles only broke even shrinking
    // (1.3-1.5x faster upscaling). The scalar pixel loop lost on build-zen3
    // too (2026-11-28 (morning)). Planar uint8 (tiles, reused rows) takes
    // 64-row tasks (planar_rows_per_task): 16-row tasks of small images cost
    // the pool more to hand out than their copies (h200 16 threads 43-58 ->
    // 18-19 us; RESULTS.md@89f6099 2026-11-27).
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
    // Upscaling vertically (uint8; `reuse`): each task gathers its strip's
    // input rows once, pixel by pixel, then copies them to the output rows
    // that repeat them: h200 1x3x300x400 -> 600x700 nhwc 288-296 -> 184-188 us
    // (RESULTS.md@89f6099 2026-11-21 (midday); 64-pixel copies, plane tasks
    // lost). float32 gathers directly: its reuse lost on the Intel hosts every
    // time (that section, 2026-11-24, 2026-11-25 (afternoon), 2026-11-27 (late
    // night)), though the AMD build machines gained.
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

// uint8 RGB as pixel words: a scalar loop gathers each output vector's words
// (vpgatherdd at byte offsets, by LLVM's loop vectorizer) into a buffer of
// constant size (else LLVM cannot tell it from the input, the combined load
// having no alias information, and does not vectorise), then splits them into
// channels in registers (vpmovdb, vpermt2b). h200 Sapphire Rapids entry, NHWC
// 500x400 -> 256x256, scalar pixel copies 48-50 -> 33-34 us at 64 words per
// vector (32 and 16 slower). Upscaling in y the general kernel's `reuse` stays
// ahead: the wrapper takes this only where the output has no more rows than
// the input. RESULTS.md@89f6099 2026-11-26 (later).
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

// Tap tables, once per call (float64 for uint8), vectorised across outputs
// (scalar: 6-9% of the seed antialiased u8 rows, build-cascadelake; h200 198
// -> 182 us; RESULTS.md@89f6099 2026-11-21 (overnight)). Passes read a weight
// as a scalar broadcast (tap k of one output), so tables keep (k, i) storage;
// `outputs_fastest` (for gathered taps) stores outputs fastest.
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
    // uint8 without antialias: the whole-axis maximum setting the precision
    // reads each output's peak. A scalar float64 loop, it was 9% of bicubic
    // 500x400 -> 256x256, vectorised 5% (build-cascadelake; RESULTS.md@89f6099
    // 2026-11-22 (evening)); with the peaks in a table (filters.h) all tables
    // take 2.1% (build-zen3, 2026-11-26 (night)). With antialias it reads the
    // weight table (outputs strided by the tap count), so it stays scalar.
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

// The horizontal pass across rows, not along x: tap k of output x reads one
// source column for every lane (a dense load and a broadcast weight; Halide
// scalarises x86 gathers, which were most of the time). The strip's source
// rows are stored transposed (in_t) and the result turned back: v x v tiles of
// constant storage vectorised in both dimensions (a dense load, a shuffle, a
// dense store), the result narrowed first (uint8: a quarter of the bytes).
// Partial tiles take guarded vectors, but transposes and interleaved blocks
// (strided lanes: a branch each) are scalar: 1.2-1.5x on inputs shorter than a
// tile (h100; RESULTS.md@89f6099 2026-11-26 (night, later)).
// Store forwarding: x86 forwards a store only to a load inside it and
// transposes read whole registers, so staging stores `tile_store_bytes` at
// once: source blocks several rows, uint8 results several columns (from the
// stored sums); float32 results read taps at data-dependent columns, a column
// per store. h200 u8 NCHW bilinear 345x456 -> 270x270 142.7-155.5 ->
// 108.0-121.5 us; with antialias it lost (16 threads bicubic+aa 1346-1364 ->
// 1400-1470 us), so it is off there. RESULTS.md@89f6099 2026-11-26 (day).
// Interleaved blocks: a vector over rows of one channel is a gather (Halide
// stages a strided load per row only), so the uint8 NHWC RGB kernels
// (interleaved_rows) read rows through grouped picks (`paired.rows`: a dense
// load per row, split three ways), and form their antialiased pairs per tap
// pair, as grouped rows need (h100 bilinear 127.5-136.2 -> 120.6-120.9 us;
// RESULTS.md@89f6099 2026-11-26 (evening)). The general kernels keep a row per
// store: read that way in every layout, planar batches lost 4-20% (2026-11-26
// (afternoon)).
void schedule_horizontal_tiles(HorizontalPass p, FilteredResizeFuncs f, int v, const ResizeKnobs &knobs) {
    Var xo("xo"), yo("yo"), xi("xi"), yi("yi"), task("task");
    auto rows_per_store = [&](Type t) { return lines_per_store(knobs.tile_store_bytes, v, t); };
    // The pass' image: v x v tiles in tasks of a strip of v rows and all
    // planes (an interleaved strip loads them together). Wide planar inputs
    // take a task per strip and plane, 3x the tasks, so the last round idles
    // less: h200 16 threads 4x3x1080x1920 -> 540x960 u8 bilinear 1031-1071 ->
    // 961-1011 us. At 4x3x345x456 the 2 us tasks lost (349-360 -> 455-490 us),
    // hence the width bound. RESULTS.md@89f6099 2026-11-22.
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
        // Plane tasks are for planar layouts, and the condition says so.
        // Stated as "not interleaved RGB or RGBA", it left conditions Halide
        // could not fold in the general uint8 kernels without an RGB branch
        // (rgb_branches), and every tile tested run-time flags (h100,
        // bicubic+aa 4x3x345x456 NCHW: 1271-1741 us against 955-975 with the
        // branch; now even). RESULTS.md@89f6099 2026-11-26 (late).
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
        // A tap pair's 2 x v products are one vector, summed lane pair by lane
        // pair (VectorReduce: pmaddwd, vpdpwssd on Zen 4 and Sapphire Rapids);
        // the tile's columns are unrolled in the loop over pairs, v
        // accumulators in registers. Per pair and column: a table load, a
        // zero-extending load, a weight-pair broadcast, a multiply-add, an
        // add. With the narrowing, h200 bilinear 345x456 -> 270x270 259 -> 174
        // us. RESULTS.md@89f6099 2026-11-21 (overnight).
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
    // Pairs of adjacent columns (stored_pairs): stored per strip, one
    // interleave of two v-row vectors per input column; or formed per tap pair
    // and output column from two loads of the clamped strip (no stores, fewer
    // interleaves when shrinking). Without antialias the latter (h200 16
    // threads 4x3x1080x1920 -> 540x960 nhwc bilinear 885-961 -> 792-817 us);
    // with antialias (3-5 pairs) stored won (bicubic+aa 1379-1446 vs 1559-1674
    // us). Storing pairs of the clamped strip lost everywhere (bilinear
    // 143-155 -> 175-199 us). RESULTS.md@89f6099 2026-11-22.
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

// Separable filters, horizontal pass first, per image (H_in x W_out x C,
// within L2 on the machines we measure: 1.1 MB for the float32 seed case) in
// strips of rows, the vertical pass streaming over it. Per output strip it
// would need the strip's input rows, which bounds inference cannot derive from
// the data-dependent tap tables. Across rows, not gathered along x: build-zen3
// bicubic+aa f32 1713 -> 663 us (RESULTS.md@89f6099 2026-11-21 (later)).
// Planar float32 shrunk in y to at most `vertical_first_below` of its rows
// (0.7; 1.0 for bilinear where the horizontal pass gathers) runs the vertical
// pass first: each output task needs exactly its own rows of it, and the
// costlier horizontal pass covers output rows (h200 500x400 -> 256x256
// bicubic: 0.70x the time). Lost: milder ratios (345x456 -> 270x270:
// 0.94-1.20x) and interleaved images (1.1-1.7x: the vertical pass
// deinterleaves, then transposing loads read its rows), RESULTS.md@89f6099
// 2026-11-21 (late night). Those run it along flat rows in kernels of their
// own (interleaved_rows: `when` is then true, the output has no other order,
// the tiles read the pixels' channels apart; runtime/src/resize.cpp).
// Threshold 0.6 -> 0.7 (kernels/knobs.toml, shared with the wrapper):
// h100 16 threads 4x3x1080x1920 -> 720x1280 bicubic 1677-1858 -> 1354-1491 us,
// one 3-7% loss (2026-11-25 (late night)).
void schedule_resize_filtered_x86(FilteredResizeFuncs f, const Target &target,
                                  const ResizeKnobs &knobs) {
    // Accumulators are 32-bit (int32 for uint8, float32): vectorise at that width.
    const int vec = vector_width(target, Int(32), knobs.vector_multiplier);
    // The tables, outputs fastest where the horizontal taps are gathered (below).
    schedule_tap_tables(f.tables, f.maxima, f.constant_taps, knobs.horizontal_gathers && f.constant_taps, target);

    // Rows per vector of the horizontal pass (the tile edge). float32 without
    // antialias takes 8: two taps do too little work for 16 x 16 transposes
    // (h200 345x456 -> 270x270 173 vs 267 us; RESULTS.md@89f6099 2026-11-21
    // (afternoon)); all else was faster at 16; AVX2 and SSE4.1 take 8 and 4.
    // The interleaved_rows bilinear+aa kernels count as light too (h200
    // 359-385 -> 328-357 us; bicubic+aa mixed, the general kernel lost on NCHW
    // batches: 2026-11-25 (late night)). Lost: float32 bicubic at 16
    // (2026-11-26 (day)); uint8 at 32, 1.3-2.5x (2026-11-27 (late night)).
    const int v = horizontal_lanes(target, knobs);

    if (f.vertical_first.when.defined()) {
        FilteredResizeFuncs::VerticalFirst vf = f.vertical_first;
        const bool only_order = Internal::is_const_one(vf.when);
        // The output copies its task's pass tiles. All is per task, so one
        // parallel loop covers every image's strips (Images::in_tasks): h200
        // 16 threads 4x3x1080x1920 -> 540x960 f32 bilinear 996 -> 873 us; 1
        // thread even. RESULTS.md@89f6099 2026-11-22 (later).
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
            // A pixel at a time, its channels one vector (pixel_vectors): a
            // tap is a dense load from the task's flat rows at the column
            // table's offset, a broadcast weight and a multiply-add; the pixel
            // is stored whole. Bilinear is 14 instructions a pixel on AVX2,
            // where the tiles transpose twice: build-zen3 RGB 500x400 ->
            // 256x256 bilinear, tiles 189-258 -> 132-186 us. Lost: bicubic on
            // the AVX-512 entries (h200 332-342 -> 384-445 us; the knob
            // pixel_vectors); with antialias, a pixel's tap loop
            // (1.3x) and four pixels at a time over a row buffer (392-396 ->
            // 430-465 us); pixel vectors for planar RGB. RESULTS.md@89f6099
            // 2026-11-28 (evening); runtime/src/resize.cpp compares the
            // general kernel.
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
            // taps read from the task's vertical-pass strip at the column
            // table's indices, which LLVM's loop vectorizer makes hardware
            // gathers (vgatherdps; interleaved outputs vgatherqps per channel,
            // then permutes): two per 8 bilinear outputs, no transposes;
            // tables stored outputs fastest make a tap's indices and weights
            // dense loads. Sapphire Rapids entry, float32 bilinear, vertical
            // pass first up to 1.0 of the rows: h200 500x400 -> 256x256, tiles
            // -> gathers 306-362 -> 193-261 us (RESULTS.md@89f6099
            // 2026-11-26). NHWC RGB: pixel vectors since 2026-11-28 (evening),
            // about even. Bicubic (four gathers a vector) was even or slower:
            // it keeps the tiles. 16 lanes: as 8.
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

    // Output loops. Horizontal pass first, each image's pass is computed at
    // its n; `parallel_images` makes that loop parallel around the image's own
    // (nested tasks, run side by side by Halide's pool), so one image's last
    // round leaves no thread idle (8 fork-joins a 4-image call: 21-37% of
    // 16-thread time): h200 4x3x1080x1920 -> 540x960 nhwc u8 bilinear 662-707
    // -> 560-633 us; planar and 1 thread even (RESULTS.md@89f6099 2026-11-22
    // (later)). Four live intermediates (3 MB each for uint8, 12 MB float32)
    // lose with few threads per image (float32 2x slower at 2 threads); there
    // the wrapper calls the kernel per image (runtime/src/resize.cpp).
    const int vertical = vec * std::max(1, knobs.vertical_vectors);
    OutputLoops out;
    out.planar_lanes = out.interleaved_lanes = vertical;
    out.rows = knobs.rows_per_task;
    // Planar images take tasks of 64 output rows (planar_rows_per_task),
    // interleaved ones 16. h100 16 threads NCHW, 16 -> 64 rows: bilinear u8
    // 4x3x345x456 -> 270x270 265-276 -> 145-151 us. NHWC lost at 64
    // (bilinear+aa u8 4x3x1080x1920 1130-1199 -> 1283-1298 us), hence the
    // split; 128 rows were mixed, 32 lost to 64; build-zen5 1 thread even.
    // RESULTS.md@89f6099 2026-11-25 (evening).
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

    // Vertical pass: without antialias the sum is pure, inlined into the
    // output's vectors, so row tails are predicated vectors (a reduction ended
    // rows in a scalar loop: 14 of 270 columns, a quarter of the pass,
    // build-zen3). h200 bicubic f32 250 -> 220 us; vertical_vectors 1, 2, 4
    // within 3-4%. RESULTS.md@89f6099 2026-11-21 (afternoon).
    // uint8 sums taps in pairs (vertical_pairs), each per output vector in
    // registers: one multiply-add of two interleaved rows' int16 values
    // (vpermt2w + vpmaddwd), where single taps zero-extended each row twice;
    // with antialias a reduction over the tap tables. Without antialias, rows
    // at least a vector wide end in a vector shifted inwards: after a guarded
    // tail each pair sat in a test that its vector is not empty, so LLVM
    // recomputed its row indices in every vector (AVX2, SSE4.1 lost on planar
    // rows). h100 bicubic 500x400 -> 1024x1024 nchw 1614-1938 -> 1393-1757 us;
    // one loss, bilinear 4x3x1080x1920 nhwc 16 threads, 6% (memory-bound).
    // Channels are unrolled in the pairs' loop (build-zen5 NHWC bicubic
    // 1192-1258 -> 1113-1151 us). RESULTS.md@89f6099 2026-11-25 (afternoon).
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
        // taps outermost: each tap's row index and weight are loaded once per
        // row, not per output vector (h200 345x456 -> 270x270 bilinear+aa u8
        // 279 -> 205 us; RESULTS.md@89f6099 2026-11-21 (overnight)). Rows
        // round up to whole vectors: a guarded tail is a scalar loop in a
        // reduction (a quarter of the pass at 270 columns). The horizontal
        // pass then covers the rounded width too.
        f.sum_y.compute_at(f.output, loops.row).vectorize(f.x, vec, TailStrategy::RoundUp);
        f.sum_y.update().reorder(f.x, f.c, f.ry).vectorize(f.x, vec, TailStrategy::RoundUp);
    } else {
        f.sum_y.compute_at(f.output, f.x).vectorize(f.x);
        f.sum_y.update().vectorize(f.x);
    }
}

// The vertical pass alone: tasks of output rows (planes, images too) in
// parallel, each row one dense vector loop, its taps' rows read at the same
// columns; uint8 pairs taps per output vector, float32 tap by tap. With
// antialias the sum is a reduction per block of `vertical_vectors` vectors
// (else inlined). Rows at least a block wide end in a block shifted inwards,
// so every sum is a whole vector (a guarded tail is a scalar loop per tap: a
// first form, summing whole rows, took 3.3x the two-pass time on build-zen3,
// RESULTS.md@89f6099 2026-11-27 (late)); narrower rows are guarded. float32
// sums 4 vectors per tap so their adds (4 cycles each) overlap: build-zen3
// bicubic+aa 345x456 -> 270x456 355-403 -> 148-199 us (8: 160-195). uint8 lost
// at 2 (pairs stored per block; h200 bilinear+aa 866-1177 -> 1166-1695 us).
// RESULTS.md@89f6099 2026-11-27 (night).
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
