// Schedules of the grid-sampling pipelines (generators/grid_sample_generator.cpp).
#pragma once

#include "Halide.h"
#include "cuda_loops.h"
#include "layout.h"

#include <vector>

namespace hres {

// Knobs exposed as GeneratorParams so tuning tools can vary them without edits.
struct GridSampleKnobs {
    int rows_per_task;      // output rows per parallel task
    int vector_multiplier;  // vector width = multiplier * natural float32 width
    int gather_lanes;       // lanes of the output (gather) loop: 0 = the vector width, 1 = scalar
    int interleaved_chunk;  // interleaved RGB: output pixels per footprint buffer, 0 = whole rows
    bool planar_channels_inner;  // planar RGB: a pixel's channels gathered together
    bool window_pixels_inner;    // row windows stored pixel-adjacent per tap position (else tap-adjacent per pixel)
};

struct GridSampleFuncs {
    Halide::Func output;
    Halide::Func footprint;            // per-pixel tap indices and weights (a Tuple)
    std::vector<Halide::Func> tables;  // per-call tables (the affine generator's row/column terms)
    Halide::Var x, y, c, n;
    LayoutConditions layout;
    // Conditions on the run-time padding mode under which the footprint
    // simplifies (the general footprint serves the rest).
    std::vector<Halide::Expr> padding_cases;
    // x86 bilinear and bicubic: the row windows the output picks its taps
    // from, and the condition (the input is at least a window wide) under
    // which it does (undefined otherwise).
    Halide::Func window;
    Halide::Expr window_fits;
    // The padded-copy variants: the padded copy of the input the windows read
    // (undefined otherwise; window_fits is then undefined: they always fit).
    Halide::Func padded;
    // Tap offsets (x86): the per-channel offsets the gathers load their
    // addresses from, and the taps' coordinates for other layouts (undefined
    // otherwise).
    Halide::Func offsets, tap_coordinates;
    // Taps read as byte words (uint8): each tap's bytes as one word,
    // gathered per chunk of pixels (undefined otherwise), per channel and
    // chunk in the kernels for planar images only.
    Halide::Func words;
    bool planar_words = false;
    // The channels of the NHWC pixels the byte-word kernels are built for
    // (3, or 4 over the padded copy); 0 in every other kernel.
    int interleaved_words = 0;
    // The footprint reads an explicit grid (grid_sample; the affine sampler
    // computes its coordinates).
    bool reads_grid = false;
    // Prefetches of the next row's taps (x, y, n), which the footprint
    // consumes (undefined where not prefetched).
    Halide::Func ahead;
    // uint8 RGB pixels packed into words (x, y, n) before the sampling
    // gathers them (undefined where not packed).
    Halide::Func pixel_words;
};

void schedule_grid_sample_cuda(GridSampleFuncs f, const GpuKnobs &knobs);
void schedule_grid_sample_x86(GridSampleFuncs f, const Halide::Target &target, const GridSampleKnobs &knobs);
// The generators' one call (schedules/targets.cpp): the target's schedule.
void schedule_grid_sample(const GridSampleFuncs &f, const Halide::Target &target, const GridSampleKnobs &x86,
                          const GpuKnobs &gpu);

}  // namespace hres
