// x86 schedule of grid_sample / affine_grid_sample (AVX-512, AVX2, SSE4.1).
//
// The work per output pixel is a data-dependent gather of 1, 4 or 16 input
// pixels per channel; everything before the gather (grid read or affine map,
// unnormalisation, padding, tap indices and weights) depends on the pixel only.
// So the footprint is computed once per output row (or per chunk of one),
// vectorised, into a small buffer, and every channel's gathers read it. Rows
// are parallel tasks.
//
// Code size is kept in check on purpose (bicubic has 16 gathers per channel
// and every branch is compiled for four ISAs): whole vectors with the last one
// shifted inwards instead of a predicated tail, unrolled-channel branches
// only for RGB (interleaved, and planar without bicubic), and footprints
// specialised only for the padding modes where that pays.
//
// Figures: affine 2x3x345x456 at its own size, 1 thread, before -> after,
// unless stated; machines by their bench/machines.md keys; a date names the
// section of RESULTS.md@89f6099 that holds the full table. Lost (h200,
// 2026-11-21 (night)): scalar gathers over clamped indices, 1.0-1.7x slower;
// masks ANDed into the pixels instead of selects, 2-6% slower.
#include "grid_sample_schedules.h"
#include "x86_loops.h"

namespace hres {

using namespace Halide;

void schedule_grid_sample_x86(GridSampleFuncs f, const Target &target, const GridSampleKnobs &knobs) {
    const int vec = vector_width(target, Float(32), knobs.vector_multiplier);
    // 8 gather lanes, not AVX-512's 16 (the per-lane index arithmetic is
    // vector work too): h200, f32 bilinear 1.92 ms at 8, 2.25 at 16, 2.51 at
    // 4 (2026-11-21 (evening)); build-zen3 AVX2 3.4 ms at 8, 4.1 at 4, 11
    // scalar (2026-11-21, commit 2ea8e24). The Sapphire Rapids entry
    // (llvm_gathers) runs float32 as scalar lanes without row windows, for
    // LLVM's hardware gathers: h100, bilinear NCHW 2244-4413 -> 1690-2685 us
    // (2026-11-25; bicubic over the padded copy since 2026-11-28 (stop 58)).
    // Lost: windows kept (LLVM left the loop scalar, 2-3x); nearest read by
    // offset (slower in 4 of 6 rounds; by coordinates it gains, 2026-11-26
    // (later)). uint8 does not vectorise (byte taps).
    const int lanes = knobs.gather_lanes > 0 ? knobs.gather_lanes : vec;
    for (Func table : f.tables) {
        table.compute_root();
    }
    // Every branch: rows in parallel tasks, one loop over every image's
    // strips (not one per image: h200, 16 threads, f32 4x3x1080x1920 nearest
    // NCHW 2416-2487 -> 1854-2232 us, 2026-11-22 (later)); along a row,
    // `chunk` pixels at a time (whole rows, or a constant number) get their
    // footprint computed, vectorised, into a buffer every channel reads.
    Var yo("yo"), yi("yi"), xo("xo"), xi("xi"), task("task");
    auto loops = [&](Stage s, bool unroll_c, Expr chunk, TailStrategy tail, int width) {
        s.split(f.x, xo, xi, chunk, tail);
        if (unroll_c) {
            s.reorder(f.c, xi, xo, f.y, f.n).unroll(f.c);
        } else {
            s.reorder(xi, f.c, xo, f.y, f.n);
        }
        if (width > 1) s.vectorize(xi, width, TailStrategy::ShiftInwards);
        s.split(f.y, yo, yi, knobs.rows_per_task, TailStrategy::GuardWithIf).fuse(yo, f.n, task).parallel(task);
    };
    Expr row = f.output.output_buffer().dim(0).extent();
    const bool windows = f.window.defined();
    // Inputs narrower than the row windows: each tap read on its own,
    // scalar. The branches below follow it in one if/else chain, so Halide
    // knows the windows fit there.
    if (f.window_fits.defined()) loops(f.output.specialize(!f.window_fits), false, row, TailStrategy::GuardWithIf, 1);
    // Images narrower than a vector: scalar.
    loops(f.output.specialize(row < lanes), false, row, TailStrategy::GuardWithIf, 1);
    // Interleaved RGB: c inside the x vector, so stores interleave in
    // registers. A constant chunk puts the footprint's buffers (bicubic has
    // 16) at constant stack offsets, not a register or spill each: h200,
    // bicubic f32 NHWC 8.6 -> 7.4 ms at 32 pixels (2026-11-21 (night)).
    // Bilinear and nearest keep whole rows (no gain; nearest u8 up to 35%
    // slower). The RGBA byte-word kernels run this branch too.
    const int pixel_channels = f.interleaved_words > 0 ? f.interleaved_words : 3;
    if (knobs.interleaved_chunk > 0) {
        loops(f.output.specialize(f.layout.interleaved(pixel_channels) && row >= knobs.interleaved_chunk), true,
              knobs.interleaved_chunk, TailStrategy::ShiftInwards, lanes);
    } else {
        loops(f.output.specialize(f.layout.interleaved(pixel_channels)), true, row, TailStrategy::GuardWithIf,
              lanes);
    }
    // Planar byte words (planar images only): constant chunks too, so that
    // the words' buffer has a constant size.
    if (f.planar_words) {
        loops(f.output.specialize(f.layout.planar() && row >= knobs.interleaved_chunk), false,
              knobs.interleaved_chunk, TailStrategy::ShiftInwards, lanes);
    }
    // Planar RGB: the channels inside the x vector too, so a tap's three
    // gathers share each lane's index: h200, bilinear f32 2076-2204 ->
    // 1656-1747 us (2026-11-21 (morning)). Lost: bicubic gathering each tap,
    // 12-19% (its indices spill); with row windows it gains (below).
    if (knobs.planar_channels_inner) {
        loops(f.output.specialize(f.layout.planar() && f.layout.channels == 3 && row >= lanes), true, row,
              TailStrategy::ShiftInwards, lanes);
    }
    // Planar (and every other layout): channels around whole rows, so a row's
    // footprint serves all channels. The planar branch knows x's unit stride,
    // so its stores are dense vectors instead of one per lane.
    loops(f.output.specialize(f.layout.planar()), false, row, TailStrategy::GuardWithIf, lanes);
    loops(f.output, false, row, TailStrategy::GuardWithIf, lanes);

    // Footprints specialised per padding mode: otherwise every mode pays for
    // reflection's mirroring (a division per axis and tap).
    f.footprint.compute_at(f.output, xo);
    // A whole row's footprint is a heap buffer, allocated once per task, not
    // per row: h200, bilinear f32 1523-1542 -> 1467-1498 us (2026-11-21
    // (midday)). Constant chunks keep theirs on the stack (allocated per
    // task, interleaved bicubic was 20% slower).
    if (knobs.interleaved_chunk <= 0) f.footprint.store_at(f.output, task);
    // Chunks at least a vector wide end in a vector shifted inwards: with a
    // guarded tail each vector's grid loads (a stride of two floats) were
    // predicated gathers, two thirds of grid_sample's uint8 bicubic code
    // (build-zen3, 2026-11-26 (night, later)). Narrower rows run a scalar
    // loop there; the affine sampler loads no grid and keeps a guarded
    // vector for them (scalar, its 8x8 and 12x10 outputs took 2-2.6x as long).
    _halide_user_assert(knobs.interleaved_chunk <= 0 || knobs.interleaved_chunk >= vec)
        << "interleaved_chunk must be 0 or at least a vector (" << vec << " pixels on this target)\n";
    const Expr wide = row >= vec;
    for (const Expr &padding : f.padding_cases) {
        f.footprint.specialize(wide && padding).vectorize(f.x, vec, TailStrategy::ShiftInwards);
    }
    f.footprint.specialize(wide).vectorize(f.x, vec, TailStrategy::ShiftInwards);
    if (!f.reads_grid) f.footprint.vectorize(f.x, vec, TailStrategy::GuardWithIf);
    if (f.ahead.defined()) {
        // Prefetches of the next output row's taps (prefetch_ahead), per
        // chunk beside the footprint, lane 0 of each 8 pixels. A turned
        // image's row crosses the input diagonally, a few new lines per tap
        // row that no hardware prefetcher foresees: on build-zen3 (512 KB L2)
        // a 1.9 MB float32 image is read from L3 or memory one miss at a time.
        // AVX2 entry, bilinear f32 NHWC 4706-5913 -> 3673-3932 us (2026-11-28
        // (day)). Lost: uint8
        // (fits in L2) up to 10%, nearest 1.4-1.7x, every entry on h200 (2 MB
        // L2) 1.0-1.5x. Hence a float32 bilinear variant for AMD's AVX2 and
        // SSE4.1 entries (kernels/kernels.toml, vendor = "amd").
        f.ahead.compute_at(f.output, xo).vectorize(f.x, 8, TailStrategy::RoundUp);
    }
    if (f.words.defined()) {
        // Byte words (ByteWords): per chunk of pixels (a constant number, so
        // the buffer has a constant size and LLVM knows it apart from the
        // input), a scalar loop that LLVM turns into vpgatherdd at byte
        // offsets; the output's vectors split the words into bytes (and
        // interleave RGB). h200 Sapphire Rapids entry, RGB nearest 502-886 ->
        // 329-474 us (2026-11-26 (later); bilinear, bicubic: 2026-11-27
        // (evening)). Other entries keep a scalar loop of 32-bit copies, also
        // for bicubic over the padded copy instead of float windows (a
        // conversion, store and strided read-back per value): build-zen3 AVX2
        // NCHW 7395-12039 -> 4854-6415 us (2026-11-28 (afternoon)). Chunks of
        // 64 pixels instead of bicubic's 32: even.
        // Planar kernels compute their words per chunk and channel, so that
        // the buffer has a constant size (the output's loop over c lies
        // between the chunk's and the vector's: no channels_inner); NHWC
        // ones (RGB, and RGBA over the padded copy) per chunk (every channel
        // where the words have a c).
        _halide_user_assert(knobs.interleaved_chunk > 0) << "byte words need interleaved_chunk > 0\n";
        f.words.compute_at(f.output, f.planar_words ? f.c : xo).bound_storage(f.x, knobs.interleaved_chunk);
        // Several words per pixel (bilinear's taps, bicubic's tap rows): one
        // buffer per tap or row, the pixel's words formed in one iteration.
        const Var tap = f.words.args()[0];
        if (tap.name() != f.x.name()) f.words.reorder_storage(f.x, tap).unroll(tap);
    }
    if (f.offsets.defined()) {
        // Tap offsets (tap_offsets): each gather lane's address is one scalar
        // load from this buffer, not a lane extracted (vpextrd, a second
        // shuffle-port op) from computed indices. h100, nearest u8 NCHW
        // 694-1027 -> 497-892 us (2026-11-22 (afternoon)). Lost: uint8
        // bilinear (NHWC 2441 -> 2505 us), whose interleaved taps already
        // share each lane's index between the channels.
        f.offsets.compute_at(f.output, xo).vectorize(f.x, vec, TailStrategy::GuardWithIf);
        if (knobs.interleaved_chunk <= 0) f.offsets.store_at(f.output, task);
        // Computed only in the branches that read by coordinates.
        f.tap_coordinates.compute_at(f.output, xo).vectorize(f.x, vec, TailStrategy::GuardWithIf);
    }

    if (windows) {
        // Row windows (row_windows): per pixel and tap row one dense load of
        // the row's 2 or 4 adjacent pixels, then one vector per tap position
        // picked from them, instead of 4 or 16 lane-by-lane gathers per
        // channel queued on one shuffle port. h200, bicubic u8 NHWC 6.7-8.0 ->
        // 4.5-5.0 ms (2026-11-21 (afternoon)). Lost: uint8 bilinear (up to
        // 1.3x; it gathers per tap); planar bicubic with the channels around
        // rows (each channel redid the addressing).
        // window_pixels_inner: a tap position's pixels adjacent form whole
        // vectors that LLVM keeps in registers; stored pixel after pixel, each
        // vector is read back across several stores, which cannot be
        // forwarded. build-zen3 AVX2, bicubic over the padded copy NCHW
        // 7545-11263 -> 5366-9498 us (2026-11-28 (stop 58); since then AVX2's
        // NHWC RGB bilinear takes windows, not rgb_row_windows' taps). Lost,
        // so taps stay adjacent there: the AVX-512 entries (h200), and uint8
        // bicubic in place except on SSE4.1.
        // window_offsets: the footprint stores each tap row's offset, computed
        // in vectors, not a row index per lane times the stride (and spills).
        // build-zen3 AVX2, bicubic in place NHWC 10732-10786 -> 7844-8000 us
        // (2026-11-28 (stop 59)). Lost: h200 bicubic NHWC (AVX2, AVX-512
        // Skylake), SSE4.1 bilinear NHWC, uint8 bicubic. Hence float32 planar
        // images, and every layout in the prefetching kernels AMD's cores take.
        const std::vector<Var> a = f.window.args();
        const Var &i = a[0], &r = a[1], &x = a[2], &c = a[4];
        f.window.compute_at(f.output, xi)
            .reorder(i, x, c, r)
            .vectorize(i)
            .unroll(x)
            .unroll(c)
            .unroll(r);
        if (knobs.window_pixels_inner) {
            f.window.reorder_storage(x, i, r, c);
        } else {
            f.window.reorder_storage(i, x, r, c);
        }
    }

    if (f.pixel_words.defined()) {
        // uint8 RGB pixels packed into words (pixel_words) once per call,
        // strips of rows in parallel: a bilinear tap is then one gather of a
        // word, not three of a byte. build-zen3 AVX2, NHWC 2235-3176 ->
        // 1422-1717 us (2026-11-28 (midday)). The Sapphire Rapids entry's
        // byte words stay ahead but for planar at 1 thread
        // (runtime/src/grid_sample.cpp chooses). Needs the RGB branches: with
        // channels apart (RGBA, two channels) each channel gathers the word
        // again (even to 1.1x slower). Dense loads per plane, or one
        // interleaved load split three ways. Taps by element offsets that the
        // footprint stores (pixel_word_offsets): build-zen3 AVX2 NCHW
        // 1415-1423 -> 1177-1189 us (2026-11-28 (stop 59)); lost on SSE4.1 and
        // h200's AVX2 entry, so AMD takes AVX2, Intel only without AVX-512.
        Var strip("strip"), strip_rows("strip_rows"), strips("strips");
        f.pixel_words.compute_root()
            .split(f.y, strip, strip_rows, knobs.rows_per_task, TailStrategy::GuardWithIf)
            .fuse(strip, f.n, strips)
            .parallel(strips);
        for (const Expr &dense : {f.layout.planar_input(), f.layout.interleaved_input(3)}) {
            f.pixel_words.specialize(dense).vectorize(f.x, vec, TailStrategy::GuardWithIf);
        }
        f.pixel_words.vectorize(f.x, vec, TailStrategy::GuardWithIf);
    }

    if (f.padded.defined()) {
        // The padded copy, once per call ahead of the sampling: strips of
        // rows in parallel, each task all channels (one parallel loop, not
        // one per channel), interleaved input one dense load per vector split
        // three ways (four for RGBA); planar whatever the input's layout.
        // h100, bicubic f32 NCHW 14.9-16.9 -> 6.8-9.7 ms against the in-place
        // windows (2026-11-22 (morning after)). Lost: a 100 MB copy, 1.3-1.8x
        // at 16 threads (hence the wrapper's size limit); a copy channel by
        // channel (NHWC at 16 threads 0.82-0.97 against 0.66-0.78 ms).
        Var strip("strip"), strip_rows("strip_rows"), strips("strips");
        f.padded.compute_root()
            .split(f.y, strip, strip_rows, knobs.rows_per_task, TailStrategy::GuardWithIf)
            .fuse(strip, f.n, strips)
            .reorder(f.x, strip_rows, f.c, strips)
            .parallel(strips);
        f.padded.specialize(f.layout.planar()).vectorize(f.x, vec, TailStrategy::GuardWithIf);
        f.padded.specialize(f.layout.interleaved(pixel_channels))
            .reorder(f.c, f.x, strip_rows, strips)
            .unroll(f.c)
            .vectorize(f.x, vec, TailStrategy::GuardWithIf);
        f.padded.vectorize(f.x, vec, TailStrategy::GuardWithIf);
    }
}

}  // namespace hres
