// CUDA schedules of the resize pipelines: one kernel launch per call (per-call
// launches and allocations, not arithmetic, dominate small images on a GPU).
//
// Nearest: a gather, one thread per output pixel, the index maps inlined.
//
// Filtered: blocks of output tiles per plane (per pixel for NHWC, below).
// With antialias a block computes the horizontal pass over the input rows
// its tile reads (bounded by AxisTaps' windows) into a per-block scratch
// area, then each thread sums the vertical taps of its pixels; without, each
// thread sums its outputs' taps directly (the branch below). Each thread
// computes a few rows of a column (rows_per_thread): taller tiles mean fewer
// blocks and less overlap between neighbouring tiles' input windows. H200, 2026-11-21, per call, 1 -> 2 -> 4
// rows: 4x3x345x456 -> 270x270 bilinear f32 12.2 -> 10.2 -> 9.1 us,
// 500x400 -> 1024x1024 bicubic f32 41.5 -> 28.5 -> 21.6 us. With antialias
// (tables from the host; a standalone harness, two interleaved rounds, same
// GPU and day, f32 NCHW) 4 rows too, except on grids of few tiles, where
// they leave SMs idle: 1x3x345x456 -> 270x270 (135 tiles of 4 rows)
// bilinear 7.3 us at 2 rows vs 8.1-8.2 at 4, bicubic 8.6-8.7 vs 9.3-9.4
// (H200, 2026-11-29, cuda_ab.sh: 1 row 1.18-1.24x slower, 32 x 8 threads
// of 2, 3 or 4 rows 0.97-1.27x);
// 4x3 of it bilinear 20.1 -> 17.8 us at 4, bicubic 25.0 -> 22.5 us (such
// grids of many small planes run narrow blocks since, below);
// 1x3x1080x1920 -> 540x960 bilinear 40.4 -> 35.0 us, bicubic 51.8 -> 45.8;
// 4x3 of it bilinear 147.7 -> 133.1 us, bicubic 192.5 -> 173.0 us. Tables:
// see the branches below.
//
// NHWC images of 3 or 4 channels run a pixel's channels in one thread
// (cuda_loops.h), and without antialias the blocks are 32 x 8 threads
// instead of 32 x 16, small grids one row per thread. H200, 2026-11-21,
// bench_hres builds side by side (bench/tune/cuda_variant.sh), plane per
// block -> this, per call: bilinear 4x3x345x456 -> 270x270 f32 NHWC 8.1 ->
// 4.5 us, u8 7.2 -> 5.0 us, NCHW 6.9 -> 6.4 us; 4x3x1080x1920 -> 540x960
// NHWC f32 58.5 -> 40.9 us, u8 27.9 -> 14.3 us, NCHW f32 37.1 -> 33.2 us;
// bicubic 500x400 -> 1024x1024 NHWC 26.9 -> 14.8 us (f32), 23.9 -> 13.6 us
// (u8), 256x256 NHWC f32 4.8 -> 4.1 us. With antialias a pixel's channels
// share the block's horizontal pass: 540x960 NHWC 0.88-0.93x; on small
// grids (1x3 and 4x3 of 345x456 -> 270x270) they were 1.1-1.3x slower, as
// were 32 x 8 blocks, so small grids keep a plane per block there. Tried
// and slower (RESULTS.md@89f6099): each thread summing its outputs' taps
// with antialias too (1.3-2.6x), and a first form of rows summed together
// tap by tap (8-50x slower, some builds hitting illegal addresses, code
// removed). The horizontal pass's rows summed together in registers (the
// gpu_horizontal_rows branch below) is 0.80-0.88x for bicubic+aa.
//
// NCHW images of 3 or 4 channels with at least 2^17 output pixels run a
// pixel's channels in one thread as well (knob gpu_planar_pixels_from): the
// taps' indices and weights are computed once for the channels, whose loads
// are in flight together. H100, 2026-11-24, bench_hres builds side by side
// (bench/tune/cuda_ab.sh, best of 3 rounds, two sessions), plane per block ->
// pixels, per call: bilinear 4x3x345x456 -> 270x270 f32 6.5-6.6 -> 5.0-5.1
// us, bicubic 500x400 -> 1024x1024 f32 25.9-26.1 -> 20.0 us, u8 23.0 ->
// 18.2-18.3 us, bilinear 4x3x1080x1920 -> 540x960 u8 26.6 -> 19.8 us,
// bilinear+aa there u8 107 -> 98-99 us; but bilinear f32 there 45.1 -> 48.5
// us (both sessions). Smaller grids keep a plane per block: 1x3x345x456 ->
// 270x270 bilinear f32 went 4.4 -> 4.9 us (its 73k pixels, one row per
// thread, fill too few warps); with antialias, small grids keep planes
// anyway (above).
#include "resize_schedules.h"

#include <algorithm>

namespace hres {

using namespace Halide;

void schedule_resize_nearest_cuda(NearestResizeFuncs f, const GpuKnobs &knobs) {
    gpu_pixel_threads(f.output, f.x, f.y, f.c, f.n, f.layout, knobs, GpuLoops());
}

void schedule_resize_filtered_cuda(FilteredResizeFuncs f, const FilteredGpuKnobs &knobs) {
    GpuLoops loops;
    gpu_plane_threads(f.output, f.x, f.y, f.c, f.n, f.layout, knobs, loops);
    const LoopLevel block(f.output, loops.xo);

    if (f.tables.empty()) {
        // The tables are inputs (host_tables: uint8, and float32 with
        // antialias), computed once per shape on the host and cached on the
        // device by the wrapper. Before, uint8 reduced its per-axis precision
        // (a maximum over every output's weights) in every block, 2.2-7x the
        // float32 time, or copied host tables per call (57-86 us at
        // 270x270); float32 with antialias built its tables per block behind
        // barriers (H200, 2026-11-21; RESULTS.md@89f6099).
    } else if (!f.maxima.empty()) {
        // uint8 built without host_tables: the tables on the host, copied to
        // the device per call. Correct, but slow (see above).
        for (Func table : f.tables) table.compute_root();
    } else if (f.constant_taps) {
        // float32 without antialias: a tap's index and weight take a few
        // operations; they are inlined where used, which saves a table phase
        // and its barrier per block.
    } else {
        // float32 with antialias built without host_tables: per block, one
        // thread per output column / row, taps looped inside. (Inlining
        // indices and weights, keeping only the normalising sums per block,
        // was 10-20% slower: each weight is then a filter evaluation and a
        // division per tap; H200, 2026-11-21.)
        for (Func table : f.tables) {
            const Var i = table.args().back();
            table.compute_at(block).gpu_threads(i);
            for (int u = 0; u < table.num_update_definitions(); u++) {
                table.update(u).gpu_threads(i);
            }
        }
    }

    if (f.constant_taps) {
        f.sum_y.compute_at(f.output, loops.row);
        // Without antialias the horizontal sum is a pure Func
        // (generators/resize_generator.cpp), inlined, so each thread sums its
        // outputs' 2x2 (4x4) taps directly from L1/L2, as PyTorch's kernel
        // does: no scratch, no barrier. H200, standalone harness, two
        // interleaved rounds, 2026-11-21, block pass -> direct: bilinear
        // 1x3x345x456 -> 270x270 4.84 -> 4.28 us, 4x3 of it 8.96 -> 6.9 us
        // (NHWC 10.6 -> 8.2), 500x400 -> 256x256 5.1 -> 3.55 us,
        // 4x3x1080x1920 -> 540x960 68.1 -> 36.8 us (NHWC 85.1 -> 59.7);
        // bicubic 256x256 5.55 -> 4.54 us, 540x960 79.5 -> 54.3 us, but
        // upscaling to 1024x1024 22.8 -> 26.2 us, where the block pass
        // shares each horizontal sum between about two output rows. uint8
        // (bench_hres, same day): bilinear 270x270 5.1 -> 4.2 us, 4x3 8.4 ->
        // 6.7 us, 540x960 45 -> 27 us; bicubic 256x256 5.9 -> 4.4 us,
        // 1024x1024 20.2 -> 24.1 us. The vertical sum is pure too: its
        // taps written out.
        return;
    }

    // With antialias, the horizontal pass of a tile's window of input rows,
    // per block. In global memory (cached in L1/L2): a tile's window grows
    // with the downscale factor s (R output rows read about R*s + 8 input
    // rows), past shared memory's 48 KB for large factors (beyond which
    // Halide's launch fails). On the seed shapes shared memory was 2-7%
    // slower (H200, 2026-11-21), and 0.96-0.99x with the fitted tables and
    // two rows per thread below (H200, 2026-11-29, best of 3: 4x3x345x456 ->
    // 270x270 bilinear+aa f32 NCHW 12.2 -> 11.7 us, uint8 12.3 -> 12.2),
    // which would not pay for a second copy of the pass for large windows.
    //
    // Each thread of the pass computes `rows` consecutive rows (yr), summed
    // together tap by tap: each tap's index and weight are loaded once for
    // the rows, and the rows' input loads are in flight together (their sums
    // in registers; rows past the window are skipped by the guard, as
    // bounds inference trims sum_x to it). H200, 2026-11-21, side by side,
    // per call, 1 -> 2 rows (4 rows): bicubic+aa 1x3x345x456 -> 270x270
    // 8.4-9.0 -> 7.3-7.9 us (7.1-7.8), 4x3 of it 20.9-22.5 -> 18.1-19.9 us
    // (18.4-21.2), 4x3x1080x1920 -> 540x960 126-153 -> 103-131 us
    // (101-130); bilinear+aa then 0.98-1.07x at 2 rows (1.11x for 540x960
    // uint8 NHWC) and 1.03-1.21x at 4. Since the taps read fitted tables
    // unclamped (generators/filters.h, fit_inside), 2 rows pay for bilinear
    // too: H200, 2026-11-29, bench/tune/cuda_ab.sh, best of 3, 1 -> 2 rows:
    // 4x3x345x456 -> 270x270 bilinear+aa f32 NCHW 13.7 -> 12.7 us, uint8
    // 13.8 -> 12.9, NHWC 0.94-0.95x; 4x3x1080x1920 -> 540x960 f32 NCHW
    // 103.2 -> 84.8 us, NHWC 94.5 -> 82.5, uint8 NCHW 87.1 -> 67.3, NHWC
    // 71.9 -> 58.5 (best of 2); 1x3 rows even. 3 rows: bicubic 0.93-0.96x
    // on those rows but 1.08x at 540x960 f32 NCHW, bilinear even.
    const int rows = std::max(knobs.horizontal_rows, 1);
    auto block_passes = [&](Func resized_x, Func sum_x, Func sum_y, int tile_height, int block_rows) {
        Var yo("yo"), yi("yi"), yr("yr"), yt("yt");
        sum_y.compute_at(f.output, loops.row);
        resized_x.store_in(MemoryType::Heap);
        // Its buffer is sized for the tallest block's window of input rows
        // by one expression (generators/filters.h). Left to bounds
        // inference, the size was the largest of every block's window,
        // evaluated on the host in a loop over the grid before each launch:
        // with the wrapper's cheaper cache key (runtime/src/resize.cpp),
        // 2.3-3.0 -> 1.4 us of host time per call (bench/cuda_launch.cpp on
        // tests/support/stub_libcuda.c, build machine). H100, 2026-11-25,
        // bench_hres --device cuda, old and new alternating, 2 rounds:
        // 1x3x345x456 -> 270x270 antialiased rows 9.5-10.9 -> 7.3-9.4 us per
        // call (f32 nchw bilinear+aa 9.5 / 10.3 -> 9.2 / 7.3, bicubic+aa
        // 10.0 / 10.2 -> 8.6 / 8.3); the 4x3 and 4x3x1080x1920 rows, bound
        // by the GPU, within 0.5 us.
        resized_x.bound_storage(f.x, knobs.tile_width).bound_storage(f.y, f.input_rows_read(block_rows));
        if (rows == 1) {
            // (The branch below at one row is other code, not measured:
            // Halide cannot size one row's sums as a constant after the
            // split by 1.)
            resized_x.compute_at(block)
                .split(f.y, yo, yi, tile_height, TailStrategy::GuardWithIf)
                .reorder(f.x, yi, yo)
                .gpu_threads(f.x, yi);
            sum_x.compute_at(resized_x, f.x);
        } else {
            resized_x.compute_at(block)
                .split(f.y, yo, yt, tile_height * rows, TailStrategy::GuardWithIf)
                .split(yt, yi, yr, rows)
                .reorder(yr, f.x, yi, yo)
                .gpu_threads(f.x, yi)
                .unroll(yr);
            sum_x.compute_at(resized_x, f.x).store_in(MemoryType::Register).unroll(f.y);
            // Rows innermost, inside the taps (the tap split below keeps
            // them there).
            sum_x.update().reorder(f.y, f.rx).unroll(f.y);
        }
        // Both passes' tap loops unrolled (a guarded tail): a thread's loads
        // of several taps are in flight together instead of one per iteration.
        // H200, 2026-11-21, side by side, per call, not unrolled -> 4:
        // 1x3x345x456 -> 270x270 bilinear+aa 7.5-7.7 -> 7.0-7.3 us, bicubic+aa
        // 8.8-9.4 -> 8.3-9.0 us; 4x3 of it bilinear+aa 17.9-18.6 -> 15.9-17.1
        // us, bicubic+aa 22.6-23.8 -> 20.6-22.7 us; 4x3x1080x1920 -> 540x960
        // bilinear+aa 101-133 -> 83-127 us, bicubic+aa 145-173 -> 128-154 us.
        // Unrolled by 2 or 8: between, or slower on the bilinear rows. The best
        // factor covers a pixel's taps in few whole rounds: a bilinear+aa
        // downscale by up to 2 has at most 5 taps, bicubic+aa 7 or 9 at the seed
        // scales. H100, 2026-11-24, bench/tune/cuda_ab.sh, best of 4 rounds, 4
        // -> 5 / 3: bilinear+aa 4x3x345x456 -> 270x270 f32 nchw 16.4 -> 13.8 /
        // 18.5 us (u8 16.0 -> 14.0 / 18.0), 4x3x1080x1920 -> 540x960 f32 nchw
        // 126.9 -> 112.2 / 155.6 us; bicubic+aa 4x3x345x456 f32 nchw 18.5 ->
        // 18.2 / 18.2 us, 540x960 129.3 -> 136.3 / 124.6 us (every bicubic+aa
        // row 0.95-0.98x at 3). Hence 5 for bilinear, 3 for bicubic.
        if (knobs.tap_unroll > 1) {
            for (auto [sum, r] : {std::pair{sum_x, f.rx}, std::pair{sum_y, f.ry}}) {
                RVar ro("ro"), ri("ri");
                sum.update().split(r, ro, ri, knobs.tap_unroll, TailStrategy::GuardWithIf).unroll(ri);
            }
        }
    };
    const int block_rows = knobs.tile_height * std::max({1, knobs.rows_per_thread, knobs.rows_per_thread_few,
                                                         knobs.interleaved_rows, knobs.interleaved_rows_few});
    block_passes(f.resized_x, f.sum_x, f.sum_y, knobs.tile_height, block_rows);
    // Grids of many small planes (cuda_loops.h, many_small_planes: the seed's
    // 4x3x345x456 -> 270x270) run narrow blocks, 32 x 8 threads of 4 rows
    // each, with the passes built once more for them: at 48 registers up to
    // 5 of their blocks fit on a multiprocessor (1280 threads), where 32 x 16
    // threads of 4 rows fit 2 (1024 threads; ncu: 540 blocks in 2.05
    // waves). H200, 2026-11-29, bench/tune/cuda_ab.sh, best
    // of 4 (the unchanged build timed first and last: 0.99-1.02x on these
    // rows), 32 x 16 x 4 -> narrow: 4x3x345x456 -> 270x270 bilinear+aa f32
    // NCHW 11.3 -> 10.6 us (10.6 in a second run of 3 rounds), uint8 12.0 ->
    // 11.2, NHWC 0.93-0.94x, bicubic+aa 0.96-0.98x (f32 NHWC 0.99-1.00x).
    // Other narrow tiles, per call on the bilinear+aa rows: 3 rows 1.04-1.07x,
    // 5 rows 1.02-1.06x, 6 rows (the 0.98-wave grid) 1.05-1.11x, 8 rows
    // 0.98-1.02x, 32 x 16 threads of 2 rows 1.15-1.25x and of 3 rows
    // 1.11-1.15x. The 4x3x1080x1920 -> 540x960 rows (pixel tiles) within 1%.
    if (f.narrow.resized_x.defined()) {
        block_passes(f.narrow.resized_x, f.narrow.sum_x, f.narrow.sum_y, knobs.narrow_tile_height,
                     knobs.narrow_tile_height * knobs.narrow_rows);
    }
}

}  // namespace hres
