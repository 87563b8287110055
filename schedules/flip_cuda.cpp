// CUDA schedule of flip: a copy with mirrored indices, one thread per output
// pixel with its channels, bound by memory bandwidth and, for small images,
// by the launch itself (one kernel per call). The staging Func the x86
// schedule uses for interleaved rows is not needed here: it stays inlined.
#include "flip_schedules.h"

namespace hres {

using namespace Halide;

void schedule_flip_cuda(FlipFuncs f, const GpuKnobs &knobs) {
    gpu_pixel_threads(f.output, f.x, f.y, f.c, f.n, f.layout, knobs, GpuLoops());
}

}  // namespace hres
