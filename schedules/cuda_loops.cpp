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

void gpu_plane_threads(Func f, const Var &x, const Var &y, const Var &c, const Var &n, const GpuKnobs &knobs,
                       const GpuLoops &loops) {
    auto plane_tiles = [&](Stage s, int rows_per_thread) {
        Var plane("plane"), rows("rows");
        const int r = std::max(rows_per_thread, 1);
        s.fuse(c, n, plane)
            .split(x, loops.xo, loops.xi, knobs.tile_width, TailStrategy::GuardWithIf)
            .split(y, loops.yo, rows, knobs.tile_height * r, TailStrategy::GuardWithIf)
            .split(rows, loops.yi, loops.row, r)
            .reorder(loops.row, loops.xi, loops.yi, loops.xo, loops.yo, plane)
            .gpu_blocks(loops.xo, loops.yo, plane)
            .gpu_threads(loops.xi, loops.yi)
            .unroll(loops.row);
    };
    if (knobs.rows_per_thread_few > 0 && knobs.rows_per_thread_few != knobs.rows_per_thread) {
        const OutputImageParam out = f.output_buffer();
        const int tile_rows = knobs.tile_height * std::max(knobs.rows_per_thread, 1);
        Expr tiles = ((out.dim(0).extent() + knobs.tile_width - 1) / knobs.tile_width) *
                     ((out.dim(1).extent() + tile_rows - 1) / tile_rows) * out.dim(2).extent() * out.dim(3).extent();
        plane_tiles(f.specialize(tiles < knobs.few_tiles), knobs.rows_per_thread_few);
    }
    plane_tiles(f, knobs.rows_per_thread);
}

}  // namespace hres
