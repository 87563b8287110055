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
// Tried and measured slower on the H200 host (RESULTS.md@89f6099): scalar
// gathers over a footprint of clamped indices, and masks ANDed into the
// pixels instead of selects.
#include "grid_sample_schedules.h"
#include "x86_loops.h"

namespace hres {

using namespace Halide;

void schedule_grid_sample_x86(GridSampleFuncs f, const Target &target, const GridSampleKnobs &knobs) {
    const int vec = vector_width(target, Float(32), knobs.vector_multiplier);
    // Gather lanes (the knob's default is 8): on the build machine (AMD EPYC
    // AVX2, 1 thread, 2x3x345x456 f32 bilinear, 2026-11-21) 8 lanes 3.4 ms,
    // 4 lanes 4.1 ms, scalar 11 ms (the per-lane index arithmetic is vector
    // work too). On the H200 host (AVX-512, 1 thread, same day, side by
    // side) 8 lanes beat the natural 16 and 4: f32 nchw bilinear 1.92 ms vs
    // 2.25 ms (16) and 2.51 ms (4), bicubic 6.1 vs 8.4 and 8.1 ms; nearest
    // within 5% of 16 lanes, 15% ahead of 4.
    // float32 bilinear and bicubic on the Sapphire Rapids entry (llvm_gathers:
    // scalar lanes, no row windows): LLVM's loop vectorizer gathers each tap
    // of 8 pixels in one instruction. H100 host, 2026-11-25, single-kernel
    // harness, 6 interleaved rounds, affine 2x3x345x456 at its own size,
    // padding zeros, 1 thread, nchw / nhwc: bilinear 2244-4413 -> 1690-2685 /
    // 3118-4139 -> 1690-2593 us (faster in 11 of 12 rounds), bicubic 9356-16908
    // -> 8142-11787 / 9697-13779 -> 8472-10471 us (5 of 6 rounds).
    // Keeping the windows, LLVM left the pixel loop scalar (2-3x slower).
    // float32 bicubic over the padded copy too since 2026-11-28 (each tap
    // read on its own, gathered by LLVM): H200 machine's host, both forms
    // linked into one process, min of 15 calls in turn, affine 2x3x345x456
    // at its own size, 1 thread, 4 rounds, row windows -> LLVM's gathers,
    // us: NCHW 4778-5285 -> 4373-4983, NHWC even (4566-6588 ->
    // 4569-6693); 1x3x1080x1920 at 16 threads NCHW 4089 -> 3351, NHWC
    // 3586 -> 3328.
    // Nearest did not gain there (nchw slower in 4 of 6 rounds), reading by
    // offset. Read by coordinates it does since 2026-11-26: H200 machine's
    // host, same harness and padding, Halide's 8-lane gathers by offset ->
    // LLVM's by coordinates, us: 1 thread, 6 rounds, nchw 624-722 ->
    // 511-621, nhwc 612-951 -> 484-655 (by offset 491-617); 1x3x1080x1920
    // at its own size, 16 threads, 3 rounds, nchw 472-507 -> 378-387, nhwc
    // 471-587 -> 410-443; border padding nchw 627-671 -> 516-525, reflection
    // nhwc 824-856 -> 682-691. uint8 does not vectorise (byte taps).
    const int lanes = knobs.gather_lanes > 0 ? knobs.gather_lanes : vec;
    for (Func table : f.tables) {
        table.compute_root();
    }
    // Every branch: rows in parallel tasks, one loop over every image's
    // strips; along a row, `chunk` pixels at a time (whole rows, or a
    // constant number): their footprint is computed, vectorised, into a
    // buffer, then every channel's gathers read it. One loop for the batch
    // instead of one per image, H200 host, AVX-512, 16 threads,
    // 2026-11-22, single-kernel harness, 4 interleaved rounds, affine
    // float32 4x3x1080x1920 at its own size: nearest nchw 2416-2487 ->
    // 1854-2232 us, nhwc 2764-2868 -> 2264-2529 us; bilinear nchw
    // 9793-10877 -> 8766-9626 us, nhwc 9915-10832 -> 9360-10185 us.
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
    // registers. With a constant chunk the footprint's buffers (bicubic has
    // 16) sit at constant stack offsets instead of taking a register, or a
    // spill, each. H200 host (AVX-512, 1 thread, 2x3x345x456 NHWC, side by
    // side, 2026-11-21): bicubic f32 8.6 -> 7.4 ms, u8 9.7 -> 8.1 ms with 32
    // pixels (64: 7.7 and 8.6 ms); bilinear and nearest gain nothing (up to
    // 35% slower for nearest u8), so they keep whole rows. The RGBA
    // byte-word kernels (bicubic over the padded copy) run this branch for
    // their four channels.
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
    // Planar RGB: the channels inside the x vector too, so the three gathers
    // of a tap share each lane's index (LLVM extracts it once). H200 host
    // (AVX-512, 1 thread, 2x3x345x456, 2026-11-21, single-kernel harness,
    // three interleaved rounds): nearest u8 865 -> 721-762 us, f32 818-828
    // -> 700-742 us; bilinear u8 2171-2258 -> 1900-1989 us, f32 2076-2204 ->
    // 1656-1747 us. Bicubic gathering each tap got 12-19% slower (16 taps'
    // indices for three channels at once spill); with row windows it gains
    // (below).
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
    // A whole row's footprint is a heap buffer: allocated once per task
    // rather than per row. H200 host (AVX-512, 1 thread, 2x3x345x456,
    // 2026-11-21, single-kernel harness, 3 interleaved rounds): nearest u8
    // 493-500 -> 478-482 us, f32 549-553 -> 521-523 us; bilinear u8 1739-1746
    // -> 1677-1698 us, f32 1523-1542 -> 1467-1498 us (nhwc alike); bicubic
    // planar 3-7%. Constant chunks keep theirs on the stack: allocated per
    // task, interleaved bicubic was 20% slower.
    if (knobs.interleaved_chunk <= 0) f.footprint.store_at(f.output, task);
    // Chunks at least a vector wide end in a vector shifted inwards. With a
    // guarded tail, each vector's grid loads (a stride of two floats) were
    // predicated gathers, a branch per lane and footprint value: two thirds
    // of grid_sample's uint8 bicubic kernel's code (build machine,
    // 2026-11-26, RESULTS.md@89f6099 has the compile times). Narrower rows
    // run a scalar loop there; the affine sampler, which loads no grid,
    // keeps a guarded vector for them (scalar, its 8x8 and 12x10 outputs
    // took 2-2.6x as long: H100 machine's host, same day).
    _halide_user_assert(knobs.interleaved_chunk <= 0 || knobs.interleaved_chunk >= vec)
        << "interleaved_chunk must be 0 or at least a vector (" << vec << " pixels on this target)\n";
    const Expr wide = row >= vec;
    for (const Expr &padding : f.padding_cases) {
        f.footprint.specialize(wide && padding).vectorize(f.x, vec, TailStrategy::ShiftInwards);
    }
    f.footprint.specialize(wide).vectorize(f.x, vec, TailStrategy::ShiftInwards);
    if (!f.reads_grid) f.footprint.vectorize(f.x, vec, TailStrategy::GuardWithIf);
    if (f.ahead.defined()) {
        // Prefetches of the next output row's taps (the generator's
        // prefetch_ahead), per chunk beside the footprint: lane 0 of each 8
        // pixels, whose taps span a few lines per tap row. Where an affine
        // map turns the image, a row's taps cross the input diagonally, a
        // few new lines per tap row, which no hardware prefetcher foresees;
        // on the build machine (AMD EPYC Zen 3, 512 KB L2) a float32 image
        // of 1.9 MB is read from L3 or memory, one miss at a time: a plain C
        // loop of the same taps ran 9-10 ms with its 2x3x345x456 inputs
        // rotated, 0.7 ms unrotated (L2), and 2.9 ms prefetching 32 pixels
        // ahead. Both forms linked into one process, min of 20 calls in
        // turn, affine 2x3x345x456 at its own size, zeros, 1 thread,
        // 2026-11-28, none -> next row's taps: AVX2 entry, bilinear NHWC
        // 4706-5913 -> 3673-3932 us, NCHW 4044-4373 -> 2591-3772 us,
        // 1x3x1080x1920 at 2 threads 23262 / 23073 -> 15324 / 17833 us;
        // bicubic (in place) NHWC 22284 -> 13698-17907 us, NCHW 17753-21375
        // -> 15456-18415 us; SSE4.1 bilinear NHWC 6581-8132 -> 4477-6139 us,
        // NCHW even (4042-5336 -> 4211-5879 min, medians 6005-6854 ->
        // 5865-6242). uint8, whose images fit in L2, lost 0-10% (bilinear)
        // and nearest 1.4-1.7x (its footprint is cheap, the prefetches'
        // addressing is not). On the H200 machine's host (Intel, 2 MB L2)
        // every entry lost, its own prefetchers being enough: bilinear
        // 1.2-1.5x slower (Sapphire Rapids entry NHWC 1802-2483 ->
        // 2268-3317 us), 1x3x1080x1920 at 16 threads 1.2-1.5x, bicubic
        // 1.0-1.2x. Hence a float32 bilinear variant that the wrapper takes
        // on AMD's AVX2 and SSE4.1 entries (runtime/src/kernel_choice.h).
        f.ahead.compute_at(f.output, xo).vectorize(f.x, 8, TailStrategy::RoundUp);
    }
    if (f.words.defined()) {
        // Byte words (the generator's ByteWords): per chunk of pixels (a
        // constant number, so the buffer has a constant size and LLVM knows
        // it apart from the input), a scalar loop that LLVM's loop vectorizer
        // turns into vpgatherdd at byte offsets; the output's vectors split
        // the words into bytes (and interleave RGB's channels).
        // RGB nearest, H200 machine's host, Sapphire Rapids entry,
        // 2026-11-26, single-kernel harness, affine 2x3x345x456 NHWC at its
        // own size, lane-by-lane gathers by offset -> words, us: 1 thread,
        // zeros 502-886 -> 329-474, border 516-891 -> 348-359, reflection
        // 713-732 -> 587-750; 1x3x1080x1920 at 16 threads 398-455 -> 246-276
        // (output vectors of 32: within the noise of 16).
        // Bilinear (RGB: a word per tap; planar: a word per tap row and
        // channel) and planar nearest, same host and harness, 2026-11-27,
        // Halide's 8-lane gathers by coordinates (by offset for nearest) ->
        // words, us: 1 thread, zeros, bilinear nchw 2745-3849 -> 1863-2956,
        // nhwc 2625-4476 -> 1469-1757, bilinear reflection nhwc 3721-5364 ->
        // 2286-2955, nearest nchw 523-1213 -> 497-693 (6 of 7 rounds
        // faster; reflection 816-1663 -> 816-1143, even); 16 threads,
        // bilinear 4x3x1080x1920 nchw 7372-15164 -> 4519-9509, nhwc
        // 6402-7138 -> 2883-3063, nearest 1x3x1080x1920 nchw 483-520 ->
        // 444-477. RESULTS.md@89f6099 (2026-11-27, evening) has the command
        // line's numbers for every padding.
        // Planar bicubic over the padded copy (a row's four taps in one
        // word), same harness, 5 rounds, Halide's row windows -> words, us:
        // 1 thread, zeros 5689-8332 -> 2893-4236, border 5699-9968 ->
        // 2957-5061; 1x3x1080x1920 at 16 threads 5079-5161 -> 3536-3669.
        // Chunks of 64 pixels instead of 32 (bicubic's default): even
        // (3160-4500 us). NHWC RGB, the same words (the copy is planar)
        // computed for the chunk's three channels at once, 5 rounds: zeros
        // 8097-8558 -> 3721-3838, border 6805-9075 -> 3568-3758;
        // 1x3x1080x1920 at 16 threads, 3 rounds, 4990-5292 -> 3175-3207.
        // On the entries without LLVM's gathers (all but Sapphire Rapids)
        // the words stay a scalar loop of 32-bit copies, which the padded
        // copy's bicubic kernels take there as well: against the float
        // windows (a conversion, a store and a strided read-back per pixel,
        // tap row and channel) both forms linked into one process, min of
        // 15 calls in turn, affine 2x3x345x456 at its own size, 1 thread,
        // 2026-11-28, windows -> words, us: build machine (AMD EPYC Zen 3)
        // AVX2 entry, zeros, NCHW 7395-12039 -> 4854-6415, NHWC 7181-10071
        // -> 4751-6007, border NCHW 7773-10832 -> 4794-6406, NHWC
        // 9765-10416 -> 5817-6081, 1x3x1080x1920 at 2 threads NCHW 37314
        // -> 26173, NHWC 44460 -> 26754; SSE4.1 entry NCHW 8321-10280 ->
        // 6487-6928, NHWC 8420-14320 -> 6664-9048. H200 machine's host
        // (Intel), zeros, NCHW / NHWC: AVX2 entry 5941-8515 -> 4008-6157 /
        // 5952-8796 -> 4109-7111, AVX-512 Skylake entry 4936-7417 ->
        // 3759-5958 / 4837-4857 -> 3418-3563, SSE4.1 7915-8358 ->
        // 6615-6639 / 8106-8207 -> 6331-6354; border on the AVX2 entry
        // 5699-5931 -> 3929-3939 / 5861-5935 -> 3964-4337; 16 threads on
        // the AVX2 entry, 1x3x1080x1920 4541 -> 4102 / 4600 -> 3844,
        // 4x3x1080x1920 15275 -> 12489 / 15572 -> 12878. NHWC RGBA (the
        // same words for four channels), build machine, AVX2 entry, zeros,
        // 9534-12429 -> 5646-8416.
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
        // Tap offsets (the generator's tap_offsets): each gather lane's
        // address is one scalar load from this buffer, where the gathers by
        // coordinates extracted every lane from a vector of computed indices
        // (vpextrd: a second shuffle-port op per lane, beside the insert),
        // and the footprint holds one offset instead of two indices. H100
        // host (AVX-512 Sapphire Rapids variant, affine nearest, single-kernel
        // harness, 6 interleaved rounds, 2026-11-22, a noisy host), by
        // coordinates -> by offset: 2x3x345x456 at 1 thread, u8 nchw
        // 694-1027 -> 497-892 us, nhwc 734-1113 -> 534-1082 us, f32 nchw
        // 789-1177 -> 690-1145 us, nhwc 1155-1440 -> 673-1112 us (border
        // padding, u8 nchw 735-833 -> 484-551 us); 1x3x1080x1920 at 16
        // threads, u8 nchw 475-522 -> 427-443 us, nhwc 530-590 -> 466-491
        // us, f32 nchw 567-632 -> 535-626 us, nhwc 724-796 -> 609-712 us.
        // uint8 bilinear read by offset (a prototype, 4 taps) did not gain:
        // best of 15 alternating runs, 2x3x345x456, 1 thread, nchw 2546 ->
        // 2357 us, nhwc 2441 -> 2505 us (interleaved taps by coordinates
        // share each lane's extracted index between the channels, a constant
        // displacement), so it keeps gathering by coordinates.
        f.offsets.compute_at(f.output, xo).vectorize(f.x, vec, TailStrategy::GuardWithIf);
        if (knobs.interleaved_chunk <= 0) f.offsets.store_at(f.output, task);
        // Computed only in the branches that read by coordinates.
        f.tap_coordinates.compute_at(f.output, xo).vectorize(f.x, vec, TailStrategy::GuardWithIf);
    }

    if (windows) {
        // Row windows (the generator's row_windows): per output vector, for
        // each pixel and tap row one dense load of the row's 2 or 4 adjacent
        // pixels (per channel), then one vector per tap position picked
        // from. This replaces 4 or 16 lane-by-lane gathers per channel,
        // whose index extracts and inserts all queue on one shuffle port. H200 host (AVX-512, 1 thread,
        // 2x3x345x456 affine, single-kernel harness, 4 interleaved rounds,
        // 2026-11-21): bicubic f32 nchw 6.1-6.8 -> 4.9-5.6 ms, nhwc 6.2-7.3
        // -> 4.7-5.4 ms, u8 nchw 6.8-7.9 -> 5.6-6.2 ms, nhwc 6.7-8.0 ->
        // 4.5-5.0 ms; bilinear f32 nchw 1.53-1.67 -> 1.41-1.53 ms, nhwc
        // 1.81-2.15 -> 1.49-1.78 ms. uint8 bilinear got slower (nhwc
        // 1.64-2.08 -> 2.13-2.59 ms), so it gathers per tap. Planar bicubic
        // with windows but the channels around rows was slower than before
        // (f32 7.2 -> 8.7 ms: every channel redid the windows' addressing);
        // with a pixel's channels inside the vector, 6.0-6.3 -> 5.0-5.5 ms.
        // Until the windows were stored pixels adjacent (below), float32
        // bilinear on the AVX2 entry read NHWC RGB's taps one by one
        // instead (the generator's rgb_row_windows, which folds the
        // condition in the RGB branch); since then the windows are faster
        // there too: both forms linked into one process, min of 15-20
        // calls in turn, affine 2x3x345x456 NHWC at its own size, zeros, 1
        // thread, 4 rounds, 2026-11-28, taps -> pixel-adjacent windows, us:
        // build machine (AMD's kernel, prefetching) 2567-2575 -> 2208-2453,
        // H200 machine's host 2639-5458 -> 2104-4350 (every round).
        // Before, both forms linked into one process, min of 20-30
        // calls in turn, 1 thread, affine 2x3x345x456 at its own size, zeros,
        // windows -> taps, 2026-11-28: build machine (AMD EPYC Zen 3) NHWC
        // 5984-6802 -> 4726-5769 us, grid_sample 6587-6650 -> 5909-6103 us,
        // NCHW 3705-6424 -> 3957-6440 us (even: it keeps them); H200
        // machine's host (Intel) NHWC 2175 / 2684 / 2651 -> 2075 / 2572 /
        // 2608 us, grid_sample 2681 / 3669 -> 2637 / 3556 us. The AVX-512
        // Skylake entry there lost without them (NHWC 2868 / 2490 -> 3377 /
        // 2750 us), as did SSE4.1 on both hosts (3638 / 7619 -> 4471 / 8717).
        // Stored with each tap position's pixels adjacent (the knob
        // window_pixels_inner), the buffer is a few whole vectors that
        // LLVM keeps in registers, building each from the pixels' window
        // loads by shuffles; stored pixel after pixel, each vector is read
        // back from memory across several stores, which cannot be
        // forwarded. Both forms linked into one process, min of 12-20
        // calls in turn, affine 2x3x345x456 at its own size, zeros, 1
        // thread, 2026-11-28, taps adjacent -> pixels adjacent, us: build
        // machine (AMD EPYC Zen 3) AVX2 entry, bicubic over the padded copy
        // NHWC 7983-12476 -> 6394-10490, NCHW 7545-11263 -> 5366-9498 (8 of
        // 8 rounds faster), bicubic in place NHWC 13387 / 13885 -> 11692 /
        // 11956, NCHW even, bilinear NCHW 2128 / 3267 -> 2019 / 3073. H200
        // machine's host (Intel), 3 rounds, NCHW / NHWC: bicubic over the
        // copy, AVX2 entry 6160-11675 -> 5224-10974 / 6046-8467 ->
        // 4986-6611, SSE4.1 8631-13857 -> 6531-11707 / 8414-11433 ->
        // 6216-8199 (5 of 6 faster), but the AVX-512 entries lost in every
        // round (Sapphire Rapids 5241-9705 -> 5943-12187 / 4660-4924 ->
        // 5125-5675, Skylake alike), which keep the taps adjacent (the
        // Sapphire Rapids entry has since left the copy's taps to LLVM's
        // gathers, above); bilinear on the AVX-512 Skylake entry 2081-3393
        // -> 1744-3004 / 2216-3850 -> 1846-2970, AVX2 NCHW 2194-3498 ->
        // 1931-3021. uint8 bicubic in place gained on SSE4.1 only (NCHW
        // 13616-25104 -> 11710-22045) and lost NHWC on the AVX-512 Skylake
        // entry (6422-9123 -> 8513-11442), so the other uint8 entries keep
        // the taps adjacent.
        // Addressed by element offsets (the generator's window_offsets:
        // the footprint stores each tap row's offset, computed in vectors,
        // where each lane's address was a row index loaded, multiplied by
        // the row stride and added to the start's, per lane and tap row;
        // the spills of those scalars went too). Both forms linked into one
        // process, min of 12-20 calls in turn, affine 2x3x345x456 at its own
        // size, zeros, 1 thread, 2026-11-28, rows -> offsets, us: build
        // machine (AMD EPYC Zen 3), 2-3 rounds, float32 bilinear
        // (prefetching) AVX2 entry NCHW 1983-3348 -> 1692-2433, NHWC
        // 2150-3158 -> 1741-2580, SSE4.1 NCHW 3490-3521 -> 3244-3292, NHWC
        // 3740-5335 -> 3500-4061; bicubic in place, AVX2, NCHW 11113-11119
        // -> 9955-10111, NHWC 10732-10786 -> 7844-8000. H200 machine's host
        // (Intel), 3 rounds: AVX-512 Skylake entry bilinear NCHW 2672-4064
        // -> 2064-3007, NHWC 1933-2915 -> 1899-2571, bicubic NCHW
        // 8358-13775 -> 7139-12403 but NHWC 6666-7822 -> 9172-10452; AVX2
        // entry (without prefetches) bilinear NCHW 1927-4519 -> 1723-3775,
        // NHWC mixed (2 of 3 faster), bicubic NCHW 9182-18220 -> 8638-16527
        // but NHWC 7878-8110 -> 8886-9079; SSE4.1 bilinear NCHW 3203-4567
        // -> 3080-4197 but NHWC 3238-3569 -> 3512-4042. uint8 bicubic lost
        // (build machine, SSE4.1 NCHW 10805 -> 11611, NHWC 13646 -> 16154;
        // AVX2 NHWC 11624 -> 13883). Hence float32 planar images, and every
        // layout in the prefetching kernels, which the wrapper takes on
        // AMD's cores.
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
        // uint8 RGB pixels packed into words (the generator's pixel_words),
        // once per call ahead of the sampling, strips of rows in parallel:
        // each bilinear tap is then one gather (Halide's, lane by lane) of
        // a word instead of three of a byte. Build machine (AMD EPYC Zen 3),
        // 2026-11-28, both forms linked into one process, min of 20-30
        // calls in turn, affine 2x3x345x456 at its own size, zeros, 1
        // thread, bytes -> words: AVX2 entry NHWC 2235-3176 -> 1422-1717 us,
        // NCHW 2216-3470 -> 1570-1981 us; SSE4.1 NHWC 4309 -> 3400 us, NCHW
        // 4092 -> 3701 us; 1x3x1080x1920 at 2 threads (AVX2) NHWC 10781 ->
        // 9293 us, NCHW 11423 -> 10287 us. H200 machine's host (Intel),
        // same harness and day, AVX2 entry: NHWC 4043-4274 -> 2204-2551 us,
        // NCHW 2584-2633 -> 1633-1655 us. On the Sapphire Rapids entry the
        // byte words (hardware gathers) stay ahead, packed words -> byte
        // words: NHWC 1759-2435 -> 1393-1875 us, planar 1698-2497 ->
        // 1833-2784 us at 1 thread but 5399 -> 4791 us at 4x3x1080x1920 and
        // 16 threads (runtime/src/grid_sample.cpp chooses). The gain needs
        // the RGB branches, which sum a pixel's channels together: with
        // channels apart (RGBA, two channels) each channel gathers the word
        // again (even, and 1.1x slower). Dense loads per plane, or one
        // interleaved load split three ways.
        // The taps read by element offsets that the footprint stores (the
        // generator's pixel_word_offsets): each gather lane's address is a
        // load from the footprint instead of a lane extracted from computed
        // indices. Both forms linked into one process, min of 12 calls in
        // turn, affine 2x3x345x456 at its own size, 1 thread, 2026-11-28,
        // coordinates -> offsets, us: build machine (AMD EPYC Zen 3), AVX2
        // entry, zeros NCHW 1415-1423 -> 1177-1189, NHWC 1424 -> 1282-1284,
        // border 1459 / 1537 -> 1233 / 1320, reflection 1916 / 1913 ->
        // 1779 / 1818; SSE4.1 3-5% slower (zeros NCHW 3198 -> 3303). H200
        // machine's host (Intel), 3 rounds: AVX-512 Skylake entry zeros
        // NCHW 2131-2597 -> 1839-2283, NHWC 2598-2682 -> 2067-2312,
        // reflection NHWC 3160-3469 -> 2660-3258; AVX2 entry even to
        // slower (zeros NHWC 1839-2644 -> 2105-2668), SSE4.1 slower
        // (reflection NHWC 5574-8491 -> 7261-10223). Hence the AVX2 and
        // AVX-512 entries: AMD's cores take the AVX2 one, Intel's only
        // without AVX-512.
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
        // The padded copy, written once per call ahead of the sampling:
        // strips of rows in parallel, each task all channels (one parallel
        // loop rather than one per channel), interleaved input one dense load
        // per vector split three ways (four in the RGBA byte-word kernels).
        // Planar whatever the input's layout.
        // Against the in-place windows, H100 host (AVX-512, affine 2x3x345x456
        // at its own size, single-kernel harness, 4 interleaved rounds,
        // 2026-11-22, a noisy host): 1 thread, f32 nchw 14.9-16.9 -> 6.8-9.7
        // ms, nhwc 11.0-15.5 -> 8.0-8.7 ms, u8 nchw 11.1-13.9 -> 5.4-9.4 ms,
        // nhwc 6.5-8.8 -> 5.6-8.2 ms; 16 threads, f32 nchw 1.51-2.09 ->
        // 1.10-1.31 ms, nhwc 0.85-1.01 -> 0.78-0.83 ms, u8 nchw 1.12-1.28 ->
        // 0.74-0.84 ms, nhwc 0.69-0.84 -> 0.66-0.78 ms (nhwc copied channel by
        // channel: 0.82-0.97 ms). 1x3x1080x1920 at 16 threads is about even,
        // but u8 nhwc 4.1-4.6 -> 4.7-4.9 ms. A 100 MB copy (f32 4x3x1080x1920)
        // made 16 threads 1.3-1.8x slower: the wrapper copies only inputs
        // whose copy stays under its limit. Border padding's copy (edges
        // repeated), same host and harness: 1 thread, f32 nchw 8.9-16.1 ->
        // 5.5-7.6 ms, u8 nchw 10.3-17.8 -> 5.7-7.9 ms, but u8 nhwc 6.4-8.1 ->
        // 7.0-10.2 ms; 1x3x1080x1920 at 16 threads, f32 nchw 6.1-6.5 ->
        // 3.6-4.1 ms, u8 nhwc 4.1-4.5 -> 4.5-5.3 ms.
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
