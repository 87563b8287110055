// CUDA schedule of grid_sample / affine_grid_sample: one kernel, one thread
// per output pixel. A thread computes its pixel's footprint (grid read or
// affine map, unnormalisation, padding, taps, weights) once into registers
// and gathers every channel with it. The affine generator's per-column and
// per-row terms are computed per block into shared memory (32 + 8 entries
// instead of one float64 product per pixel, which consumer GPUs run at 1/32
// or 1/64 rate). Measurements: RESULTS.md@89f6099.
#include "grid_sample_schedules.h"

namespace hres {

using namespace Halide;

void schedule_grid_sample_cuda(GridSampleFuncs f, const GpuKnobs &knobs) {
    GpuLoops loops;
    gpu_pixel_threads(f.output, f.x, f.y, f.c, f.n, f.layout, knobs, loops);
    f.footprint.compute_at(f.output, loops.xi);
    for (Func table : f.tables) {
        table.compute_at(f.output, loops.xo).gpu_threads(table.args()[0]);
    }
}

}  // namespace hres
