#include "cuda_loops.h"

#include <algorithm>

namespace hres {

using namespace Halide;

namespace {

// Guarded tiles: images smaller than a tile (down to 1x1) must work.
void tile(Stage s, const Var &x, const Var &y, const GpuKnobs &knobs, const GpuLoops &loops) {
    s.gpu_tile(x, y, loops.xo, loops.yo, loops.xi, loops.yi, knobs.tile_width, knobs.tile_height,
               TailStrategy::GuardWithIf);
}

}  // namespace

void gpu_pixel_threads(Func f, const Var &x, const Var &y, const Var &c, const Var &n,
                       const LayoutConditions &layout, const GpuKnobs &knobs, const GpuLoops &loops) {
    auto pixels = [&](Stage s, bool unroll_channels) {
        s.reorder(c, x, y, n);
        tile(s, x, y, knobs, loops);
        s.gpu_blocks(n);
        if (unroll_channels) s.unroll(c);
    };
    for (int channels : {3, 4}) {
        pixels(f.specialize(layout.channels == channels), true);
    }
    pixels(f, false);
}

Expr many_small_planes(Expr width, Expr height, Expr channels, Expr batch, int few_outputs) {
    // pixels < few <= pixels * channels, that is pixels * channels in [few,
    // few * channels), as one unsigned range check in which no term repeats:
    // Halide resolves a select on this condition (GpuKnobs::narrow_grid) in
    // a specialisation only if the Expr is the specialisation's own, and a
    // repeated term would be lifted into a `let` by the Func's definition
    // (the kernels then carried both passes, the wrong one skipped by
    // flags). Simplified first, as Halide simplifies the specialisation's.
    const Expr elements = cast<int64_t>(width) * height * batch * channels;
    const Expr span = (cast<int64_t>(channels) - 1) * few_outputs;
    return Internal::simplify(cast<uint64_t>(elements - few_outputs) < cast<uint64_t>(span));
}

void gpu_plane_threads(Func f, const Var &x, const Var &y, const Var &c, const Var &n,
                       const LayoutConditions &layout, const GpuKnobs &knobs, const GpuLoops &loops) {
    Var rows("rows");
    auto split_rows = [&](Stage s, int tile_height, int rows_per_thread) {
        const int r = std::max(rows_per_thread, 1);
        s.split(x, loops.xo, loops.xi, knobs.tile_width, TailStrategy::GuardWithIf)
            .split(y, loops.yo, rows, tile_height * r, TailStrategy::GuardWithIf)
            .split(rows, loops.yi, loops.row, r)
            .unroll(loops.row);
    };
    auto plane_tiles = [&](Stage s, int tile_height, int rows_per_thread) {
        Var plane("plane");
        split_rows(s, tile_height, rows_per_thread);
        s.fuse(c, n, plane)
            .reorder(loops.row, loops.xi, loops.yi, loops.xo, loops.yo, plane)
            .gpu_blocks(loops.xo, loops.yo, plane)
            .gpu_threads(loops.xi, loops.yi);
    };
    // Plane tiles, planar images (unit x strides) with tiles of their own.
    auto planes = [&](Stage s, int tile_height, int rows_per_thread) {
        if (knobs.planar_planes) plane_tiles(s.specialize(layout.planar()), tile_height, rows_per_thread);
        plane_tiles(s, tile_height, rows_per_thread);
    };
    // Narrow blocks first: a pipeline that builds their producers apart
    // selects them by this very condition, which Halide resolves in the
    // specialisations that follow it.
    if (knobs.narrow_grid.defined()) {
        planes(f.specialize(knobs.narrow_grid), knobs.narrow_tile_height, knobs.narrow_rows);
    }

    // A pixel's channels in one thread: with a plane per block, each thread
    // recomputes its pixel's taps per channel, and for interleaved pixels the
    // blocks of a tile's channels run far apart (the plane is the outermost
    // block dimension), so each input sector is fetched once per channel.
    auto pixel_tiles = [&](Stage s, int rows_per_thread) {
        split_rows(s, knobs.tile_height, rows_per_thread);
        s.reorder(loops.row, c, loops.xi, loops.yi, loops.xo, loops.yo, n)
            .gpu_blocks(loops.xo, loops.yo, n)
            .gpu_threads(loops.xi, loops.yi)
            .unroll(c);
    };
    // Small grids take rows_per_thread_few rows per thread, so that they
    // still fill the multiprocessors.
    const bool few_rows = knobs.rows_per_thread_few > 0 && knobs.rows_per_thread_few != knobs.rows_per_thread;
    const OutputImageParam out = f.output_buffer();
    const Expr pixels = out.dim(0).extent() * out.dim(1).extent() * out.dim(3).extent();
    auto small_grid = [&](bool per_plane) {
        return (per_plane ? pixels * out.dim(2).extent() : pixels) < knobs.few_outputs;
    };
    // Pixel tiles wherever `pixel_layout` holds: on small grids with
    // interleaved_rows_few rows per thread, or if that is 0 not there (the
    // plane tiles below take them).
    const int pixel_rows = knobs.interleaved_rows > 0 ? knobs.interleaved_rows : knobs.rows_per_thread;
    auto pixels_where = [&](Expr pixel_layout) {
        if (knobs.interleaved_rows_few > 0) {
            pixel_tiles(f.specialize(pixel_layout && small_grid(false)), knobs.interleaved_rows_few);
            pixel_tiles(f.specialize(pixel_layout), pixel_rows);
        } else {
            pixel_tiles(f.specialize(pixel_layout && !small_grid(false)), pixel_rows);
        }
    };
    for (int channels : {3, 4}) {
        if (knobs.interleaved_pixels) pixels_where(layout.interleaved(channels));
        if (knobs.planar_pixels_from > 0) {
            pixels_where(layout.planar() && layout.channels == channels && pixels >= knobs.planar_pixels_from);
        }
    }
    if (few_rows) planes(f.specialize(small_grid(true)), knobs.tile_height, knobs.rows_per_thread_few);
    planes(f, knobs.tile_height, knobs.rows_per_thread);
}

}  // namespace hres
