// Schedules of the resize pipelines. generators/resize_generator.cpp states the
// algorithms and hands its named Funcs here; nothing in generators/ schedules.
#pragma once

#include "Halide.h"
#include "cuda_loops.h"
#include "layout.h"

#include <functional>
#include <vector>

namespace hres {

// Knobs exposed as GeneratorParams (see resize_generator.cpp) so tuning tools
// can vary them without editing code. The tuned defaults live in
// kernels/knobs.toml; the defaults here only stand for "the schedule's own
// choice".
struct ResizeKnobs {
    int rows_per_task;      // output rows per parallel task
    int vector_multiplier;  // vector width = multiplier * natural width of the pixel type
    // nearest only: lanes of the gathers (0 = the vector width above, 1 = scalar)
    int gather_lanes = 0;              // planar layouts
    int interleaved_gather_lanes = 0;  // interleaved layouts, 3 or 4 channels
    int planar_pixel_lanes = 0;        // planar 3 or 4 channels, channels innermost (0 = off)
    // nearest upscaling only: copies of planar 3/4-channel rows run the
    // channels innermost, this many lanes (0 = a plane per task)
    int reuse_pixel_lanes = 0;
    // nearest, planar: tile edge of the gather across rows (0 = off)
    int tile_lanes = 0;
    // ... whose rows and columns the generator picks this many at a time
    // (picked_in_groups): one vector register of stores each
    int tile_group = 1;
    // nearest, windows of input columns: output rows per window (unrolled)
    int window_rows = 1;
    // bilinear/bicubic, the horizontal pass' transposed tiles: the bytes each
    // store of a staged block or tile writes, several of its rows or
    // columns at once (0 = one per store)
    int tile_store_bytes = 0;
    // bilinear/bicubic only: rows per vector (and tile edge) of the
    // horizontal pass (0 = the vector width)
    int horizontal_lanes = 0;
    // bilinear/bicubic: the horizontal pass does little work per column
    // (the generator's call), so its default tiles are at most 8 rows
    bool light_horizontal_taps = false;
    // bilinear/bicubic, horizontal pass first: planar inputs at least this
    // wide run that pass in tasks of one plane's strip (else all planes of a
    // strip together; 0 = never)
    int horizontal_plane_tasks_from = 0;
    // bilinear/bicubic only: vectors of outputs per tap of the vertical pass
    int vertical_vectors = 1;
    // bilinear/bicubic with antialias: the vertical sums of a whole output
    // row at once, taps outermost (else per output vector, taps innermost)
    bool vertical_row_sums = false;
    // bilinear/bicubic: the images of a batch in parallel, around each
    // image's parallel loops (nested tasks)
    bool parallel_images = false;
    // output rows per parallel task of planar images (0 = rows_per_task):
    // bilinear/bicubic with the horizontal pass first; nearest's uint8
    // tiles and reused rows
    int planar_rows_per_task = 0;
    // float32 without antialias, vertical pass first: the horizontal pass
    // as scalar loops along x, left to LLVM's loop vectorizer (hardware
    // gathers; schedules/x86_loops.h), instead of transposed tiles
    bool horizontal_gathers = false;
    // bilinear/bicubic: the densely interleaved channel counts that get
    // branches of their own (any other runs the generic-stride branch)
    std::vector<int> interleaved_pixels = kPixelBranches;
};

// nearest, uint8 RGB read as pixel words (the generator's interleaved_rows).
struct NearestWordsFuncs {
    Halide::Func output, words;       // words (x, y, n): an output pixel's bytes
    Halide::Func source_x, source_y;  // index tables
    Halide::Var x, y, c, n;
    LayoutConditions layout;
};

struct NearestResizeFuncs {
    Halide::Func output;
    Halide::Func gathered_rows;       // input rows gathered along x (output width)
    Halide::Func source_x, source_y;  // index tables
    Halide::Expr reuse_rows;          // output rows repeat input rows (upscaling)
    Halide::Var x, y, c, n;
    LayoutConditions layout;
    // The gather across rows: each output row's input row, whole, and its
    // columns picked; the output takes them where `across_rows`.
    Halide::Func picked_rows, picked;
    Halide::Expr across_rows;
    Halide::Expr in_width;
    // Outputs picked from windows of input columns (generators/columns.h):
    // the windows' tables, and the conditions under which the output takes
    // each size of pick, in the order to test them (none: not built).
    std::vector<Halide::Func> window_tables;
    std::vector<Halide::Expr> windowed;
    int window_lanes = 0;  // outputs per window: the pick's vector lanes
};

struct FilteredResizeFuncs {
    Halide::Func output;
    Halide::Func input;               // the input image (schedules stage it through wrappers)
    Halide::Func resized_x;           // the horizontal pass (PyTorch's intermediate)
    // Accumulators of the two passes. Without antialias both are pure (their
    // constant taps written out); with antialias both are reductions over
    // the tap tables.
    Halide::Func sum_x, sum_y;
    std::vector<Halide::Func> tables; // per-axis tap tables
    // uint8 only: the whole-axis maxima that set each pass's fixed-point
    // precision (each also in `tables`), with the RVar over the axis' outputs
    // their update reduces along.
    struct Maximum {
        Halide::Func func;
        Halide::RVar over;
    };
    std::vector<Maximum> maxima;
    bool constant_taps;               // no antialias: tap counts known at compile time, sums pure
    // Input and output extents: x86 tiles whole v x v blocks only where the
    // horizontal pass' source and result are at least v wide and tall.
    Halide::Expr in_width, in_height, out_width, out_height;
    Halide::RVar rx, ry;
    Halide::Var x, y, c, n;
    LayoutConditions layout;
    // float32 on x86: the passes the other way round, vertical first, which
    // the output runs where `when` holds (undefined: not built).
    struct VerticalFirst {
        Halide::Expr when;
        Halide::Func sum_y, resized_y;  // the vertical pass over the input: input-wide, output-high
        Halide::Func sum_x, resized;    // then the horizontal pass over resized_y: the output's values
        // Interleaved kernels: the vertical pass over flat rows of values
        // (x indexes values), which resized_y reads pixel by pixel; then
        // `when` is true and the output has no other order.
        Halide::Func flat_rows;
        // Interleaved kernels: the horizontal pass as one vector per output
        // pixel (sum (x, y, lane, n), `lanes` wide), which the output reads
        // (undefined: the output reads `resized`).
        struct PixelVectors {
            Halide::Func sum;
            Halide::Var lane;
            int lanes = 0;
        };
        PixelVectors pixel_vectors;
    };
    VerticalFirst vertical_first;
    // uint8 on x86: sum_x is a reduction over pairs of taps (even without
    // antialias), reading `columns`, adjacent input columns side by side
    // (j, x, y, c, n) (undefined: not built). Where `source` (the input with
    // its columns clamped) is defined, the pairs are read from it per tap
    // pair; otherwise they are stored.
    struct PairedTaps {
        Halide::Func source, columns;
        Halide::RVar lane, pair;  // lane j of pair p is tap 2p + j
        // The input's rows that `source` clamps the columns of, picked
        // horizontal_rows_per_store() at a time (generators/columns.h), as
        // the schedule stores them (undefined: `source` reads the input).
        Halide::Func rows;
    };
    PairedTaps paired;
    // uint8 on x86: sum_y's taps summed two at a time (none: not built).
    // Without antialias each pair is a pure Func (x, y, c, n) that sum_y
    // adds up; with antialias one Func (x, p, y, c, n) over which sum_y
    // reduces (ry is then the RVar over pairs).
    std::vector<Halide::Func> vertical_pairs;
    // CUDA: the most input rows that any `rows` consecutive output rows read
    // (a bound of the vertical taps' window, generators/filters.h).
    std::function<Halide::Expr(int rows)> input_rows_read;
    // CUDA with antialias: the same passes once more, for the narrow blocks
    // (cuda_loops.h, GpuKnobs::narrow_grid, under which the output reads
    // them; undefined: not built). A block computes its horizontal pass
    // with its own threads, and a Func's threads cannot differ by branch.
    struct NarrowBlocks {
        Halide::Func resized_x, sum_x, sum_y;
    };
    NarrowBlocks narrow;
};

// The vertical pass alone (uint8 resizes that keep the width; x86, planar).
struct VerticalResizeFuncs {
    Halide::Func output;
    Halide::Func sum;                  // the accumulator
    // Its taps two at a time: without antialias pure Funcs (x, y, c, n) that
    // sum adds up, with antialias one Func (x, p, y, c, n) it reduces over.
    std::vector<Halide::Func> pairs;
    std::vector<Halide::Func> tables;  // the vertical tap tables
    Halide::Var x, y, c, n;
    bool constant_taps;                // no antialias: sum is pure, and inlined
    Halide::RVar r;                    // with antialias: the tap pairs sum reduces over
    std::vector<FilteredResizeFuncs::Maximum> maxima;
};

// The CUDA filtered resize's own knobs, beside the shared loop knobs.
struct FilteredGpuKnobs : GpuKnobs {
    // With antialias: tap loops unrolled by this factor (with a guarded
    // tail), so that a thread's loads of several taps are in flight at once
    // (0 or 1 = not unrolled)...
    int tap_unroll = 0;
    // ... and consecutive rows of the horizontal pass per thread, summed
    // together tap by tap (each tap's weight loaded once for them).
    int horizontal_rows = 1;
};

void schedule_resize_nearest_cuda(NearestResizeFuncs f, const GpuKnobs &knobs);
void schedule_resize_filtered_cuda(FilteredResizeFuncs f, const FilteredGpuKnobs &knobs);
void schedule_resize_nearest_x86(NearestResizeFuncs f, const Halide::Target &target,
                                 const ResizeKnobs &knobs);
void schedule_resize_nearest_words_x86(NearestWordsFuncs f, const ResizeKnobs &knobs, int lanes);
// resize_taps (host only): the tables once each, ahead of the outputs.
void schedule_resize_taps_x86(const std::vector<Halide::Func> &tables);
void schedule_resize_filtered_x86(FilteredResizeFuncs f, const Halide::Target &target,
                                  const ResizeKnobs &knobs);
void schedule_resize_vertical_x86(VerticalResizeFuncs f, const Halide::Target &target, const ResizeKnobs &knobs);
// The rows of a `source`-typed image that a staged block of the x86
// horizontal pass stores per vector register, with these knobs (the pass
// runs first; uint8 or float32 with `light_horizontal_taps` as set).
int horizontal_rows_per_store(const Halide::Target &target, const ResizeKnobs &knobs, Halide::Type source);

// The generators' one call each (schedules/targets.cpp): the target's
// schedule; a variant that has none there is refused.
void schedule_resize_nearest(const NearestResizeFuncs &f, const Halide::Target &target, const ResizeKnobs &x86,
                             const GpuKnobs &gpu);
void schedule_resize_nearest_words(const NearestWordsFuncs &f, const Halide::Target &target,
                                   const ResizeKnobs &x86, int lanes);
void schedule_resize_filtered(const FilteredResizeFuncs &f, const Halide::Target &target, const ResizeKnobs &x86,
                              const FilteredGpuKnobs &gpu);
void schedule_resize_vertical(const VerticalResizeFuncs &f, const Halide::Target &target, const ResizeKnobs &x86);

}  // namespace hres
