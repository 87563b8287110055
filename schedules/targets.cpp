// Each generator's one call into schedules/: the schedule of the target it
// compiles. A new target (an ARM schedule, say) adds its branch here, its
// schedule files and its rows of kernels/knobs.toml; the algorithms stay.
#include "flip_schedules.h"
#include "grid_sample_schedules.h"
#include "resize_schedules.h"

namespace hres {

using namespace Halide;

namespace {

// The x86 schedules serve every CPU target the kernel table builds.
bool cuda(const Target &target) { return target.has_gpu_feature(); }

void x86_only(const Target &target, const char *kernel) {
    _halide_user_assert(!cuda(target)) << kernel << " has an x86 schedule only";
}

}  // namespace

void schedule_resize_nearest(const NearestResizeFuncs &f, const Target &target, const ResizeKnobs &x86,
                             const GpuKnobs &gpu) {
    if (cuda(target)) {
        schedule_resize_nearest_cuda(f, gpu);
    } else {
        schedule_resize_nearest_x86(f, target, x86);
    }
}

void schedule_resize_nearest_words(const NearestWordsFuncs &f, const Target &target, const ResizeKnobs &x86,
                                   int lanes) {
    x86_only(target, "resize_nearest with interleaved_rows");
    schedule_resize_nearest_words_x86(f, x86, lanes);
}

void schedule_resize_filtered(const FilteredResizeFuncs &f, const Target &target, const ResizeKnobs &x86,
                              const FilteredGpuKnobs &gpu) {
    if (f.vertical_first.flat_rows.defined()) x86_only(target, "resize_filtered with interleaved_rows");
    if (cuda(target)) {
        schedule_resize_filtered_cuda(f, gpu);
    } else {
        schedule_resize_filtered_x86(f, target, x86);
    }
}

void schedule_resize_vertical(const VerticalResizeFuncs &f, const Target &target, const ResizeKnobs &x86) {
    x86_only(target, "resize_vertical");
    schedule_resize_vertical_x86(f, target, x86);
}

void schedule_grid_sample(const GridSampleFuncs &f, const Target &target, const GridSampleKnobs &x86,
                          const GpuKnobs &gpu) {
    if (f.words.defined() || f.pixel_words.defined() || f.padded.defined() || f.ahead.defined()) {
        x86_only(target, "the byte-word, pixel-word, padded-copy and prefetching samplers");
    }
    if (cuda(target)) {
        schedule_grid_sample_cuda(f, gpu);
    } else {
        schedule_grid_sample_x86(f, target, x86);
    }
}

void schedule_flip(const FlipFuncs &f, const Target &target, const FlipKnobs &x86, const GpuKnobs &gpu) {
    if (f.interleaved_rows > 0) x86_only(target, "flip with interleaved_rows");
    if (cuda(target)) {
        schedule_flip_cuda(f, gpu);
    } else {
        schedule_flip_x86(f, target, x86);
    }
}

}  // namespace hres
