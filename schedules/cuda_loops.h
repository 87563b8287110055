// The output loop nests every CUDA schedule shares: one thread per output
// pixel (or per element), in 2-D blocks over x and y.
#pragma once

#include "Halide.h"
#include "layout.h"

namespace hres {

// Knobs exposed as GeneratorParams (gpu_tile_width, gpu_tile_height) by every
// generator, so tuning tools can vary them without editing code.
struct GpuKnobs {
    int tile_width;           // output pixels per block along x (threads along x)
    int tile_height;          // threads along y
    int rows_per_thread = 1;  // gpu_plane_threads: output rows per thread (a block covers tile_height times this)
    // gpu_plane_threads: rows per thread on small grids, fewer than
    // `few_outputs` output elements (N*H*W*C; N*H*W for interleaved pixels),
    // where taller tiles would leave multiprocessors idle.
    int rows_per_thread_few = 0;  // 0 = always rows_per_thread
    int few_outputs = 0;
    // gpu_plane_threads: densely interleaved 3/4-channel images (NHWC) run a
    // pixel's channels in one thread rather than a plane per block, with
    // interleaved_rows rows per thread (0 = rows_per_thread)...
    bool interleaved_pixels = false;
    int interleaved_rows = 0;
    // ... with this many rows per thread on small grids, or, if 0, a plane
    // per block there.
    int interleaved_rows_few = 0;
    // Planar (NCHW) images of 3 or 4 channels with at least this many output
    // pixels (N*H*W) run a pixel's channels in one thread too, with the rows
    // per thread of interleaved pixels (0 = never).
    int planar_pixels_from = 0;
    // gpu_plane_threads: planar images (unit x strides in input and output)
    // run plane tiles of their own, where a pixel's neighbours along x lie
    // at constant offsets (a tap is one load, not an index multiply and a
    // load). h200, 4x3x345x456 -> 270x270 bilinear+aa f32 NCHW 12.7 -> 12.2
    // us, the other rows even (RESULTS.md@89f6099 2026-11-29).
    bool planar_planes = false;
    // gpu_plane_threads: plane tiles of narrow_tile_height threads along y
    // and narrow_rows rows per thread where narrow_grid holds (undefined:
    // never), ahead of every other branch. A pipeline whose blocks compute a
    // producer with their own threads defines it once more for the narrow
    // blocks and selects between the two by this very Expr: Halide resolves
    // the select in each specialisation (a Func's threads cannot differ by
    // branch).
    Halide::Expr narrow_grid;
    int narrow_rows = 0;
    int narrow_tile_height = 0;
};

// Loop names shared by every specialisation of an output, so producers can be
// placed per block (at xo) or per thread (at xi) whatever branch runs.
struct GpuLoops {
    Halide::Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    Halide::Var row{"row"};  // gpu_plane_threads: a thread's rows, innermost
};

// Grids of many small planes: fewer than `few_outputs` output pixels
// (width * height * batch) but at least as many elements (times channels).
Halide::Expr many_small_planes(Halide::Expr width, Halide::Expr height, Halide::Expr channels, Halide::Expr batch,
                               int few_outputs);

// Blocks of pixels with every channel of a pixel in its thread (unrolled for 3
// and 4 channels) and the batch as the third block dimension: per-pixel work
// (coordinates, taps, weights) is done once for all channels, and in NHWC
// memory a warp reads and writes whole runs of interleaved pixels.
void gpu_pixel_threads(Halide::Func f, const Halide::Var &x, const Halide::Var &y, const Halide::Var &c,
                       const Halide::Var &n, const LayoutConditions &layout, const GpuKnobs &knobs,
                       const GpuLoops &loops);

// Blocks of one plane: channel and batch fused into the third block
// dimension, each thread computing `rows_per_thread` elements of a column
// (loop `row`, unrolled). For pipelines whose per-block intermediates would
// grow with the channel count. With knobs.interleaved_pixels, NHWC images of
// 3 or 4 channels run the channels of a pixel in its thread (unrolled, outside
// `row`) and blocks over (x, y, n); with knobs.planar_pixels_from, so do large
// NCHW images of 3 or 4 channels.
void gpu_plane_threads(Halide::Func f, const Halide::Var &x, const Halide::Var &y, const Halide::Var &c,
                       const Halide::Var &n, const LayoutConditions &layout, const GpuKnobs &knobs,
                       const GpuLoops &loops);

}  // namespace hres
