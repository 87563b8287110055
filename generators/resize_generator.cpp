// resize: torch.nn.functional.interpolate on N x C x H x W images (docs/SEMANTICS.md 1-5).
//
// Buffers are indexed (x, y, c, n) with free strides on x and c, so one library
// serves NCHW and NHWC memory. The pixel type comes from the `input.type` and
// `output.type` generator params (uint8 or float32), set by the kernel table
// (kernels/kernels.toml).
#include "Halide.h"

#include <algorithm>
#include <functional>

#include "boundary.h"
#include "columns.h"
#include "coords.h"
#include "filtered_forms.h"
#include "filters.h"
#include "knobs.h"
#include "layout.h"
#include "nearest_forms.h"
#include "schedules/resize_schedules.h"

namespace {

using namespace Halide;
using namespace hres;

// The seed benchmark shape (BENCH.md): 1x3x345x456 -> 270x270.
template<typename In, typename Out>
void set_seed_estimates(In &input, Out &output) {
    input.set_estimates({{0, 456}, {0, 345}, {0, 3}, {0, 1}});
    output.set_estimates({{0, 270}, {0, 270}, {0, 3}, {0, 1}});
}

// nearest and nearest-exact: a pure gather (docs/SEMANTICS.md 2).
class ResizeNearest : public Generator<ResizeNearest> {
public:
    GeneratorParam<bool> exact{"exact", false};  // nearest-exact
    GeneratorParam<std::string> kernel{"kernel", ""};  // the kernel table's name for it (knob rows may name it)
    GeneratorParam<FixedLayout> fixed_layout{"fixed_layout", FixedLayout::any, kFixedLayouts};  // layout.h
    // x86 uint8: a kernel for densely interleaved RGB images only (3; 0 =
    // any layout) that reads each output pixel as one 32-bit word at a byte
    // offset, which LLVM's loop vectorizer gathers in hardware (the
    // Sapphire Rapids entry, where the wrapper takes it).
    GeneratorParam<int> interleaved_rows{"interleaved_rows", 0};

    // Knobs (kernels/knobs.toml has their tuned defaults and records).
    GeneratorParam<int> rows_per_task{"rows_per_task", kTuned};
    // Planar images: output rows per parallel task of the tiles and of the
    // reused rows (both below; 0 = rows_per_task).
    GeneratorParam<int> planar_rows_per_task{"planar_rows_per_task", kTuned};
    GeneratorParam<int> vector_multiplier{"vector_multiplier", kTuned};
    // Lanes of the gathers along x (1 = scalar), planar images and interleaved ones.
    GeneratorParam<int> gather_lanes{"gather_lanes", kTuned};
    GeneratorParam<int> interleaved_gather_lanes{"interleaved_gather_lanes", kTuned};
    // Planar 3/4-channel images, channels innermost: lanes of the gathers
    // (0 = channels outermost like other planar images).
    GeneratorParam<int> planar_pixel_lanes{"planar_pixel_lanes", kTuned};
    // Upscaling vertically: gather repeated input rows once per task, then
    // copy them (1 = on, 0 = off) ...
    GeneratorParam<int> reuse_rows{"reuse_rows", kTuned};
    // ... and copy planar 3/4-channel rows with the channels innermost, this
    // many lanes (0 = a plane per task).
    GeneratorParam<int> reuse_pixel_lanes{"reuse_pixel_lanes", kTuned};
    // Planar images: the gather vectorised across rows on transposed
    // strips, tiles of this many rows and columns (0 = gathered along x) ...
    GeneratorParam<int> tile_lanes{"tile_lanes", kTuned};
    // ... and the tiles' rows (of a strip) and columns (of a tile) picked
    // this many at a time, as one vector register of stores each.
    GeneratorParam<int> tile_group{"tile_group", kTuned};
    // Planar images: where a vector's outputs read at most this many
    // consecutive input columns (upscaling along x), each picks its column
    // from that window by selects instead of a gather (0 = off) ...
    GeneratorParam<int> window_columns{"window_columns", kTuned};
    GeneratorParam<int> window_rows{"window_rows", kTuned};  // rows per window of columns
    // ... and where a vector's outputs, each less its lane, read within this
    // many columns (shrinking by up to about 2 along x), each picks from a
    // window per lane, of dense loads (0 = off).
    GeneratorParam<int> shifted_columns{"shifted_columns", kTuned};
    GeneratorParam<int> gpu_tile_width{"gpu_tile_width", kTuned};  // CUDA: output pixels per thread block
    GeneratorParam<int> gpu_tile_height{"gpu_tile_height", kTuned};
    GeneratorParam<int> word_lanes{"word_lanes", kTuned};  // interleaved_rows: lanes of words per vector

    Input<Buffer<void, 4>> input{"input"};
    Input<double> scale_h{"scale_h"};  // explicit scale factors, <= 0 when not given
    Input<double> scale_w{"scale_w"};
    // PyTorch would run its channels-last kernel, not its generic one: the
    // two round coordinates differently at ties (the wrapper decides,
    // runtime/src/resize.cpp: pytorch_channels_last_kernel; coords.h).
    Input<bool> channels_last{"channels_last"};
    Output<Buffer<void, 4>> output{"output"};

    void generate() {
        const KnownTarget known(using_autoscheduler(), get_target());  // coords.h
        const bool fixed = input.type() == UInt(8);
        const Tuned tuned("resize_nearest", kernel, get_target(),
                          (fixed ? knobs::fact::uint8 : 0) |
                              (planar_pixel_lanes == 1 ? knobs::fact::scalar_pixel_copies : 0));
        const bool pixel_words = interleaved_rows > 0;
        if (pixel_words) {
            _halide_user_assert(interleaved_rows == 3 && fixed) << "interleaved_rows is a uint8 RGB kernel";
            accept_interleaved(input, 3);
            accept_interleaved(output, 3);
        } else {
            accept_layout(input, fixed_layout);
            accept_layout(output, fixed_layout);
        }
        // After the output's definition (either form below).
        auto set_estimates = [&] {
            set_seed_estimates(input, output);
            scale_h.set_estimate(0.0);
            scale_w.set_estimate(0.0);
            channels_last.set_estimate(false);
        };
        Var x("x"), y("y"), c("c"), n("n");
        Expr in_w = input.dim(0).extent(), in_h = input.dim(1).extent();
        Expr out_w = output.dim(0).extent(), out_h = output.dim(1).extent();


        Func source_x("source_x"), source_y("source_y");
        // The indices are in range by construction. Columns are read once
        // per output pixel: the promise tells bounds inference their range
        // without clamping each again (boundary.h); rows once per output
        // row, so their clamp costs nothing.
        source_x(x) = index_bits(nearest_source(x, in_w, out_w, scale_w, exact, channels_last));
        source_y(y) = nearest_source(y, in_h, out_h, scale_h, exact, channels_last);
        auto column_of = [&](Expr i) { return promised_index(source_x(i), 0, in_w - 1); };
        auto row_of = [&](Expr j) { return clamp_tap(source_y(j), in_h); };
        Expr column = column_of(x);
        Expr direct = input(column, row_of(y), c, n);
        if (pixel_words) {
            // The output pixel as a word (layout.h) from byte 3 * column of
            // its input row, which is the buffer's `last` here: a word never
            // reaches past its row (inputs at least 2 pixels wide: the
            // wrapper's choice). Offset x * 3 + c of an interleaved row.
            Func words("pixel_words");
            auto row_byte = [&](Expr offset) { return input(offset / 3, row_of(y), offset % 3, n); };
            words(x, y, n) = byte_word(row_byte, 3 * column, 3 * in_w - 1);
            output(x, y, c, n) = word_byte(words(x, y, n), c);
            set_estimates();
            if (!using_autoscheduler()) {
                schedule_resize_nearest_words({output, words, source_x, source_y, x, y, c, n, layout_of(input, output, fixed_layout)},
                                              get_target(), {tuned(rows_per_task), tuned(vector_multiplier)},
                                              tuned(word_lanes));
            }
            return;
        }
        // Equal forms of that gather (nearest_forms.h), one per kind of
        // schedule, which specialises on the conditions below; the
        // conditions are the layout and sizes alone, which the simplifier
        // decides in every specialisation (were they not, the output would
        // evaluate every form). CUDA threads gather a pixel each: nothing to
        // share between them.
        const LayoutConditions layout = layout_of(input, output, fixed_layout);
        // 1. Transposed tiles, planar images (uint8: float32 lost, the
        // schedule's comment). Their vectors start at multiples of `group`
        // from the output's first row and column, which the picks can tell
        // only where that is 0 (the wrapper's buffers start there).
        const int tile = tuned(tile_lanes);
        const int group = tile <= 0 ? 1 : std::max(1, tuned(tile_group));
        if (group > 1) {
            output.dim(0).set_min(0);
            output.dim(1).set_min(0);
        }
        TransposedTiles tiles;
        tiles.define(input, column_of, row_of, out_w, out_h, group, x, y, c, n);
        Expr across_rows = on_cuda(false, layout.planar());
        // 2. Reused rows, upscaling vertically: consecutive output rows copy
        // the same input row, so `reuse` gathers each such row once and
        // copies it (its rows bounded by a window, as bounds inference cannot
        // see the table's values). float32 rows copied cost more than they
        // saved on the H200 host (the schedule's comment has the numbers).
        // 3. Otherwise `direct`.
        const bool reuse_on = tuned.on(reuse_rows);
        Expr reuse = reuse_on ? on_cuda(false, out_h > in_h) : Halide::Internal::const_false();
        auto [lowest, highest] = nearest_source_bounds(y, in_h, out_h, scale_h, exact, channels_last);
        Func gathered_rows("gathered_rows");
        gathered_rows(x, y, c, n) = input(column, y, c, n);
        Expr reused = gathered_rows(x, clamp(source_y(y), lowest, highest), c, n);
        Expr per_pixel = reuse_on ? select(reuse, reused, direct) : direct;
        Expr gathered = tile > 0 ? select(across_rows, tiles.pixels(x, y, c, n), per_pixel) : per_pixel;
        // 4. Column picks, planar images upscaled (or shrunk by up to about
        // 2) along x; not combined with the uint8 forms above.
        const int lanes = get_target().natural_vector_size(input.type());
        const int window_max = tile > 0 || reuse_on ? 0 : tuned(window_columns);
        ColumnPicks picks;
        Expr windowed = gathered;
        if (window_max >= 2) {
            auto source_column = [&](Expr i) { return index_from_bits(source_x(i)); };
            auto row_column = [&](Expr j) { return input(j, row_of(y), c, n); };
            windowed = picks.define(gathered, source_column, row_column, output.dim(0).min(), output.dim(0).extent(),
                                    in_w, lanes, window_max, tuned(shifted_columns), layout.planar(), x);
        }
        output(x, y, c, n) = windowed;
        set_estimates();

        if (!using_autoscheduler()) {
            NearestResizeFuncs funcs{output, gathered_rows, source_x, source_y, reuse, x, y, c, n, layout};
            funcs.picked_rows = tiles.rows;
            funcs.picked = tiles.pixels;
            funcs.across_rows = across_rows;
            funcs.in_width = in_w;
            funcs.window_tables = picks.tables;
            for (const ColumnPicks::Pick &pick : picks.picks) funcs.windowed.push_back(pick.fits());
            funcs.window_lanes = lanes;
            ResizeKnobs knobs{tuned(rows_per_task), tuned(vector_multiplier), tuned(gather_lanes),
                              tuned(interleaved_gather_lanes)};
            knobs.planar_pixel_lanes = tuned(planar_pixel_lanes);
            knobs.reuse_pixel_lanes = tuned(reuse_pixel_lanes);
            knobs.tile_lanes = tile;
            knobs.tile_group = group;
            knobs.window_rows = tuned(window_rows);
            knobs.planar_rows_per_task = tuned(planar_rows_per_task);
            schedule_resize_nearest(funcs, get_target(), knobs, {tuned(gpu_tile_width), tuned(gpu_tile_height)});
        }
    }
};

// bilinear and bicubic, with or without antialias: two separable passes,
// horizontal first, as PyTorch's CPU kernels do (docs/SEMANTICS.md 3-5). uint8 runs
// PyTorch's 16-bit fixed-point arithmetic with a uint8 intermediate, so its
// order is fixed; float32 on x86 also states the vertical pass first, which
// runs on planar images that shrink enough in y, and in a kernel of its own
// (interleaved_rows) on interleaved ones.
class ResizeFiltered : public Generator<ResizeFiltered> {
public:
    GeneratorParam<Filter> filter{"filter", Filter::linear,
                                  {{"bilinear", Filter::linear}, {"bicubic", Filter::cubic}}};
    GeneratorParam<bool> antialias{"antialias", false};
    GeneratorParam<std::string> kernel{"kernel", ""};  // the kernel table's name for it (knob rows may name it)
    GeneratorParam<FixedLayout> fixed_layout{"fixed_layout", FixedLayout::any, kFixedLayouts};  // layout.h
    // With antialias: tap loops of this many taps (0 = the filter's bound for
    // the call), for the autoschedulable form (filters.h, antialias_taps).
    GeneratorParam<int> fixed_taps{"fixed_taps", 0};
    // x86: a kernel for densely interleaved (NHWC) images of this many
    // channels only (0 = any layout). float32 always runs the vertical pass
    // first, along each row's flat run of values; the wrapper takes it where
    // the output is short enough. uint8 stages its source blocks several
    // rows per store, read through grouped row picks (the pairs formed per
    // tap pair); the wrapper takes it for such images at least a tile
    // wide. runtime/src/resize.cpp has the measurements.
    GeneratorParam<int> interleaved_rows{"interleaved_rows", 0};
    // The tap tables as inputs (computed by resize_taps on the host) rather
    // than computed by the pipeline: the CUDA uint8 and antialiased kernels,
    // whose tables would otherwise be rebuilt per block or copied per call.
    GeneratorParam<bool> host_tables{"host_tables", false};

    // Knobs (kernels/knobs.toml has their tuned defaults and records).
    // The forms the algorithm takes:
    // uint8: the horizontal taps summed two at a time, from pairs of
    // adjacent input columns (1), or tap by tap (0) ...
    GeneratorParam<int> tap_pairs{"tap_pairs", kTuned};
    // ... the pairs stored per strip (1), or formed per tap pair (0).
    GeneratorParam<int> stored_pairs{"stored_pairs", kTuned};
    // uint8: the vertical taps summed two at a time, each pair computed
    // per output vector (1), or tap by tap (0); with antialias only where
    // vertical_row_sums is on.
    GeneratorParam<int> vertical_pairs{"vertical_pairs", kTuned};
    // The horizontal taps (and the vertical ones with antialias) read from
    // index tables (1), or computed where they are used (0).
    GeneratorParam<int> index_tables{"index_tables", kTuned};
    // With antialias: tap loops as long as the span bound (1) or PyTorch's
    // (0) (filters.h, antialias_taps; equal results). Kernels built with
    // host_tables loop over the count of the host's tables instead
    // (resize_taps' span_taps).
    GeneratorParam<int> span_taps{"span_taps", kTuned};
    // float32: the vertical pass first where the output has at most this
    // fraction of the input's rows (0 = never; planar inputs); the wrapper
    // picks the interleaved_rows kernels by the same value.
    GeneratorParam<float> vertical_first_below{"vertical_first_below", float(kTuned)};
    // float32 without antialias, vertical pass first: the horizontal pass as
    // scalar loops along x that LLVM's loop vectorizer turns into hardware
    // gathers (1), or transposed tiles (0).
    GeneratorParam<int> horizontal_gathers{"horizontal_gathers", kTuned};
    // float32 interleaved_rows kernels: the horizontal pass as one vector
    // per output pixel, its channels (RGB padded to 4 lanes), each tap one
    // dense load from the vertical pass' flat row at the column table's
    // offset (1), or as the other kernels run it (0: tiles or gathers).
    GeneratorParam<int> pixel_vectors{"pixel_vectors", kTuned};
    // The x86 schedule's:
    GeneratorParam<int> rows_per_task{"rows_per_task", kTuned};
    // Horizontal pass first: output rows per task of planar images (0 = rows_per_task).
    GeneratorParam<int> planar_rows_per_task{"planar_rows_per_task", kTuned};
    GeneratorParam<int> vector_multiplier{"vector_multiplier", kTuned};
    // Rows per vector of the horizontal pass (0: at most 8 where its taps
    // are few, float32 without antialias and the interleaved_rows
    // bilinear+aa kernels, else the vector width).
    GeneratorParam<int> horizontal_lanes{"horizontal_lanes", kTuned};
    // Horizontal pass first: planar inputs at least this many columns wide
    // run that pass in parallel tasks of one plane's strip, narrower ones
    // (and interleaved) of all planes' (0 = never).
    GeneratorParam<int> horizontal_plane_tasks_from{"horizontal_plane_tasks_from", kTuned};
    GeneratorParam<int> vertical_vectors{"vertical_vectors", kTuned};  // vectors of outputs per vertical tap
    // Horizontal pass first: the batch's images in parallel, each image's
    // passes nested inside (1), or one image after another (0).
    GeneratorParam<int> parallel_images{"parallel_images", kTuned};
    // With antialias: the vertical sums of a whole output row at once, taps
    // outermost (1), or per output vector (0).
    GeneratorParam<int> vertical_row_sums{"vertical_row_sums", kTuned};
    // Bytes per store of the horizontal pass' staged blocks and tiles,
    // several rows or columns each (0 = one row or column per store).
    GeneratorParam<int> tile_store_bytes{"tile_store_bytes", kTuned};
    // Any-layout kernels: branches of their own for densely interleaved RGB
    // (1), or RGB left to the generic-stride branch (0: uint8, whose RGB
    // images all run the interleaved_rows kernels; it saves a third of the
    // kernel's compile time).
    GeneratorParam<int> rgb_branches{"rgb_branches", kTuned};
    // The CUDA schedule's: threads per block along x and y, output rows per
    // thread, and on grids of fewer than gpu_few_outputs output elements.
    GeneratorParam<int> gpu_tile_width{"gpu_tile_width", kTuned};
    GeneratorParam<int> gpu_tile_height{"gpu_tile_height", kTuned};
    GeneratorParam<int> gpu_rows_per_thread{"gpu_rows_per_thread", kTuned};
    GeneratorParam<int> gpu_rows_per_thread_few{"gpu_rows_per_thread_few", kTuned};
    GeneratorParam<int> gpu_few_outputs{"gpu_few_outputs", kTuned};
    // NHWC 3/4-channel images run a pixel's channels per thread (1) or a
    // plane per block (0); on small grids with gpu_interleaved_rows_few
    // rows per thread, or a plane per block if that is 0.
    GeneratorParam<int> gpu_interleaved_pixels{"gpu_interleaved_pixels", kTuned};
    // Rows per thread of those pixels on larger grids (0 = as planes).
    GeneratorParam<int> gpu_interleaved_rows{"gpu_interleaved_rows", kTuned};
    GeneratorParam<int> gpu_interleaved_rows_few{"gpu_interleaved_rows_few", kTuned};
    // NCHW 3/4-channel images of at least this many output pixels (N*H*W)
    // run a pixel's channels per thread as NHWC pixels do (0 = a plane per
    // block always).
    GeneratorParam<int> gpu_planar_pixels_from{"gpu_planar_pixels_from", kTuned};
    // Planar images (unit x strides) run plane tiles of their own (1), whose
    // taps are addressed by constant offsets, or the generic-stride ones (0).
    GeneratorParam<int> gpu_planar_planes{"gpu_planar_planes", kTuned};
    // With antialias: tap loops unrolled by this factor.
    GeneratorParam<int> gpu_tap_unroll{"gpu_tap_unroll", kTuned};
    // With antialias: consecutive rows of the horizontal pass per thread,
    // summed together tap by tap.
    GeneratorParam<int> gpu_horizontal_rows{"gpu_horizontal_rows", kTuned};
    // With antialias, on grids of many small planes (cuda_loops.h,
    // many_small_planes): plane tiles of gpu_narrow_tile_height threads
    // along y and gpu_narrow_rows rows per thread (0 = as other plane tiles).
    GeneratorParam<int> gpu_narrow_rows{"gpu_narrow_rows", kTuned};
    GeneratorParam<int> gpu_narrow_tile_height{"gpu_narrow_tile_height", kTuned};

    Input<Buffer<void, 4>> input{"input"};
    Input<bool> align_corners{"align_corners"};
    Input<double> scale_h{"scale_h"};  // explicit scale factors, <= 0 when not given
    Input<double> scale_w{"scale_w"};
    // PyTorch would run its channels-last kernel, not its generic one: the
    // two round coordinates differently at ties (the wrapper decides,
    // runtime/src/resize.cpp: pytorch_channels_last_kernel; coords.h).
    Input<bool> channels_last{"channels_last"};
    Output<Buffer<void, 4>> output{"output"};

    // With host_tables, after the inputs above: per axis the first input
    // index of each output (int32), the weights (k, output) as float32 and
    // the uint8 fixed-point precision (0 for float32).
    struct GivenTables {
        Input<Buffer<int32_t, 1>> *start;
        Input<Buffer<float, 2>> *weight;
        Input<int> *shift;
    };
    GivenTables given_x{}, given_y{};

    void configure() {
        if (!host_tables) return;
        for (auto [given, axis] : {std::pair{&given_x, "x"}, std::pair{&given_y, "y"}}) {
            given->start = add_input<Buffer<int32_t, 1>>(std::string("start_") + axis);
            given->weight = add_input<Buffer<float, 2>>(std::string("weight_") + axis);
            given->shift = add_input<int>(std::string("shift_") + axis);
        }
    }

    void generate() {
        const KnownTarget known(using_autoscheduler(), get_target());  // coords.h
        const int flat_channels = interleaved_rows;
        const Type pixel = input.type();
        const bool fixed = pixel == UInt(8);
        const bool grouped_rows = fixed && flat_channels > 0;  // the uint8 NHWC rows kernels
        namespace fact = knobs::fact;
        Tuned tuned("resize_filtered", kernel, get_target(),
                    (fixed ? fact::uint8 : 0) | (antialias ? fact::antialias : 0) |
                        (filter == Filter::cubic ? fact::bicubic : 0) | (flat_channels > 0 ? fact::flat_rows : 0) |
                        (grouped_rows ? fact::grouped_rows : 0));
        const bool gathers = !fixed && !antialias && tuned.on(horizontal_gathers);
        const bool pixel_vectors_on = flat_channels > 0 && !fixed && tuned.on(pixel_vectors);
        tuned = tuned.with(fact::gathers, gathers).with(fact::pixel_vectors, pixel_vectors_on);
        const float first_below = tuned(vertical_first_below);
        const bool pairs_stored = tuned.on(stored_pairs);
        if (flat_channels > 0) {
            _halide_user_assert(!host_tables && !(fixed && pairs_stored))
                << "interleaved_rows is a kernel of its own tables, for uint8 with pairs formed per tap pair";
            accept_interleaved(input, flat_channels);
            accept_interleaved(output, flat_channels);
        } else {
            accept_layout(input, fixed_layout);
            accept_layout(output, fixed_layout);
        }
        Var x("x"), y("y"), c("c"), n("n"), k("k");
        const Passes passes{antialias, filter, x, y, c, n};

        // Each axis' taps (filters.h).
        AxisSpec axis_x{"x", input.dim(0).extent(), output.dim(0).extent(), align_corners, scale_w, channels_last};
        AxisSpec axis_y{"y", input.dim(1).extent(), output.dim(1).extent(), align_corners, scale_h, channels_last};
        const bool span = tuned.on(span_taps);
        AxisTaps taps_x = antialias ? antialias_taps(axis_x, filter, pixel, x, k, span, fixed_taps)
                                    : interpolating_taps(axis_x, filter, pixel, x, k);
        AxisTaps taps_y = antialias ? antialias_taps(axis_y, filter, pixel, y, k, span, fixed_taps)
                                    : interpolating_taps(axis_y, filter, pixel, y, k);
        if (host_tables) {
            // With antialias the tables are fitted inside the image
            // (resize_taps), for as many taps as their weight tables have rows.
            auto count = [&](const GivenTables &given) { return antialias ? given.weight->dim(0).extent() : Expr(); };
            taps_x = with_given_tables(taps_x, *given_x.start, *given_x.weight, *given_x.shift, axis_x.in,
                                       count(given_x));
            taps_y = with_given_tables(taps_y, *given_y.start, *given_y.weight, *given_y.shift, axis_y.in,
                                       count(given_y));
        }
        // Index tables where a schedule evaluates the horizontal taps per
        // pixel tile (x86). Vertical taps are per row: without antialias
        // their clamps are hoisted out of the row's vectors, and a table's
        // promise (an impure call to Halide) would keep those vectors' tails
        // from being predicated. With antialias the vertical sum is a
        // reduction over a tap loop, whose clamps were recomputed per tap (8
        // scalar ops) where a table load will do; a reduction's vectors have
        // no predicated tails anyway (the schedule rounds its rows up).
        if (tuned.on(index_tables)) {
            taps_x = with_index_table(taps_x, k);
            if (antialias) taps_y = with_index_table(taps_y, k);
        }
        const FilteredGpuKnobs gpu = gpu_knobs(tuned);

        // The passes, horizontal first, as PyTorch sums them.
        RDom rx(0, taps_x.taps, "rx"), ry(0, taps_y.taps, "ry");
        const bool paired = fixed && tuned.on(tap_pairs);
        ColumnPairs pairs_x(taps_x);
        const bool pairs_y = fixed && tuned.on(vertical_pairs) && (!antialias || tuned.on(vertical_row_sums));
        std::vector<Func> tap_pairs_y;
        RDom rpair_y(0, (taps_y.taps + 1) / 2, "rpair_y");
        const RVar r_y = antialias && pairs_y ? rpair_y.x : ry.x;  // the vertical reduction's taps or pairs
        Func sum_x("sum_x"), resized_x("resized_x"), sum_y("sum_y");
        VerticalFirst first;
        NarrowBlocks narrow;
        Expr vertical_first;  // undefined where only the horizontal-first order is built
        auto input_column = [&](Expr tap) { return input(tap, y, c, n); };
        auto resized_row = [&](Expr tap) { return resized_x(x, tap, c, n); };
        if (fixed) {
            // acc = 2^(p-1) + sum(pixel * w16); y = clamp(acc >> p, 0, 255)
            // (docs/SEMANTICS.md 3.2). p shifts as unsigned: Halide shifts by
            // a signed amount either way (a left and a right shift and a
            // select per vector); 6-7% of the uint8 bilinear/bicubic time on
            // the build machine.
            auto resized_value = [&](Expr sum) {
                return cast<uint8_t>(clamp(sum >> cast<uint32_t>(taps_x.shift()), 0, 255));
            };
            Expr init_x = cast<int32_t>(1) << (taps_x.shift() - 1);
            if (paired) {
                const int group =
                    grouped_rows ? horizontal_rows_per_store(get_target(), x86_knobs(tuned), input.type()) : 0;
                pairs_x.define(input, axis_x.in, axis_y.in, pairs_stored, group, passes);
                pairs_x.define_sum(sum_x, taps_x, init_x, fixed_point_product, passes);
            } else {
                passes.sum(sum_x, taps_x, rx, input_column, init_x, fixed_point_product);
            }
            resized_x(x, y, c, n) = resized_value(sum_x(x, y, c, n));
            Expr init_y = cast<int32_t>(1) << (taps_y.shift() - 1);
            passes.sum(sum_y, taps_y, r_y, resized_row, init_y, fixed_point_product, pairs_y ? &tap_pairs_y : nullptr);
            Expr sum = narrow.vertical_sum(gpu.narrow_grid, sum_y(x, y, c, n), taps_x, taps_y, rx, ry, input_column,
                                           init_x, init_y, fixed_point_product, resized_value, passes);
            output(x, y, c, n) = cast<uint8_t>(clamp(sum >> cast<uint32_t>(taps_y.shift()), 0, 255));
        } else {
            // Sequential float32 sums, taps in order, as PyTorch accumulates.
            passes.sum(sum_x, taps_x, rx, input_column, 0.0f, float_product);
            resized_x(x, y, c, n) = sum_x(x, y, c, n);
            passes.sum(sum_y, taps_y, ry, resized_row, 0.0f, float_product);
            if (first_below <= 0 && flat_channels == 0) {
                output(x, y, c, n) = narrow.vertical_sum(gpu.narrow_grid, sum_y(x, y, c, n), taps_x, taps_y, rx, ry,
                                                         input_column, 0.0f, 0.0f, float_product,
                                                         [](Expr sum) { return sum; }, passes);
            } else if (flat_channels > 0) {
                // The only order of this kernel (the wrapper picks it for
                // images that shrink enough in y).
                first.define_flat_rows(input, flat_channels, axis_x.in, pixel_vectors_on, taps_y, ry, passes);
                Expr resized = first.define_columns(taps_x, rx, passes);
                vertical_first = Halide::Internal::const_true();
                output(x, y, c, n) =
                    pixel_vectors_on ? first.define_pixel_vectors(flat_channels, taps_x, rx, passes) : resized;
            } else {
                first.define_rows(input, taps_y, ry, passes);
                Expr resized = first.define_columns(taps_x, rx, passes);
                // The input's rows must be planar: interleaved images lost
                // here (schedules/resize_x86.cpp), and RGB ones take the NHWC
                // rows kernel instead. Only the input's stride is tested:
                // with the output's too (planar()), Halide kept the
                // vertical-first tiles behind per-branch `used` flags and
                // lost 1.03-1.4x (H200 host, 2026-11-21).
                vertical_first = layout_of(input, output, fixed_layout).planar_input() &&
                                 cast<float>(axis_y.out) <= cast<float>(axis_y.in) * first_below;
                output(x, y, c, n) = select(vertical_first, resized, sum_y(x, y, c, n));
            }
        }

        set_seed_estimates(input, output);
        align_corners.set_estimate(false);
        scale_h.set_estimate(0.0);
        scale_w.set_estimate(0.0);
        channels_last.set_estimate(false);
        if (host_tables) {
            // The seed shape's tables: 270 outputs per axis; the filter's
            // taps `support` (2 or 4), and with antialias at 456 -> 270
            // ceil(support * 1.69) * 2 + 1, which is support * 2 + 1.
            const int support = filter == Filter::cubic ? 4 : 2, count = antialias ? support * 2 + 1 : support;
            for (const GivenTables &given : {given_x, given_y}) {
                given.start->set_estimates({{0, 270}});
                given.weight->set_estimates({{0, count}, {0, 270}});
                given.shift->set_estimate(fixed ? 16 : 0);
            }
        }

        if (!using_autoscheduler()) {
            std::vector<Func> tables = taps_x.tables;
            tables.insert(tables.end(), taps_y.tables.begin(), taps_y.tables.end());
            FilteredResizeFuncs funcs{output, input, resized_x, sum_x, sum_y, tables, {}, !antialias,
                                      input.dim(0).extent(), input.dim(1).extent(), output.dim(0).extent(),
                                      output.dim(1).extent(), rx.x, r_y, x, y, c, n, layout_of(input, output, fixed_layout)};
            funcs.input_rows_read = taps_y.window_extent;
            if (paired) funcs.paired = {pairs_x.clamped, pairs_x.columns, pairs_x.pair.x, pairs_x.pair.y, pairs_x.rows};
            funcs.vertical_pairs = tap_pairs_y;
            funcs.vertical_first = {vertical_first, first.sum_y, first.resized_y, first.sum_x, first.resized};
            if (gpu.narrow_grid.defined()) funcs.narrow = {narrow.resized_x, narrow.sum_x, narrow.sum_y};
            if (flat_channels > 0) funcs.vertical_first.flat_rows = first.flat_rows;
            if (pixel_vectors_on) funcs.vertical_first.pixel_vectors = {first.pixel_sum, first.lane, kPixelLanes};
            for (const AxisTaps *taps : {&taps_x, &taps_y}) {
                if (taps->largest.defined()) funcs.maxima.push_back({taps->largest, taps->largest_over});
            }
            schedule_resize_filtered(funcs, get_target(), x86_knobs(tuned), gpu);
        }
    }

private:
    // The x86 schedule's knobs, resolved.
    ResizeKnobs x86_knobs(const Tuned &tuned) const {
        const bool fixed = input.type() == UInt(8);
        ResizeKnobs knobs{tuned(rows_per_task), tuned(vector_multiplier)};
        knobs.planar_rows_per_task = tuned(planar_rows_per_task);
        knobs.horizontal_lanes = tuned(horizontal_lanes);
        knobs.light_horizontal_taps = !fixed && (!antialias || (interleaved_rows > 0 && filter == Filter::linear));
        knobs.horizontal_plane_tasks_from = tuned(horizontal_plane_tasks_from);
        knobs.vertical_vectors = tuned(vertical_vectors);
        knobs.vertical_row_sums = tuned.on(vertical_row_sums);
        knobs.horizontal_gathers = !fixed && !antialias && tuned.on(horizontal_gathers);
        knobs.parallel_images = tuned.on(parallel_images);
        if (!tuned.on(rgb_branches)) {
            std::vector<int> &pixels = knobs.interleaved_pixels;
            pixels.erase(std::remove(pixels.begin(), pixels.end(), 3), pixels.end());
        }
        knobs.tile_store_bytes = tuned(tile_store_bytes);
        return knobs;
    }

    // The CUDA schedule's knobs, resolved.
    FilteredGpuKnobs gpu_knobs(const Tuned &tuned) const {
        FilteredGpuKnobs gpu{{tuned(gpu_tile_width), tuned(gpu_tile_height), tuned(gpu_rows_per_thread)}};
        gpu.rows_per_thread_few = tuned(gpu_rows_per_thread_few);
        gpu.few_outputs = tuned(gpu_few_outputs);
        gpu.interleaved_pixels = tuned.on(gpu_interleaved_pixels);
        gpu.interleaved_rows = tuned(gpu_interleaved_rows);
        gpu.interleaved_rows_few = tuned(gpu_interleaved_rows_few);
        gpu.planar_pixels_from = tuned(gpu_planar_pixels_from);
        gpu.planar_planes = tuned.on(gpu_planar_planes);
        gpu.tap_unroll = tuned(gpu_tap_unroll);
        gpu.horizontal_rows = tuned(gpu_horizontal_rows);
        if (antialias && tuned.on(gpu_narrow_rows)) {
            gpu.narrow_rows = tuned(gpu_narrow_rows);
            gpu.narrow_tile_height = tuned(gpu_narrow_tile_height);
            gpu.narrow_grid = many_small_planes(output.dim(0).extent(), output.dim(1).extent(),
                                                output.dim(2).extent(), output.dim(3).extent(), gpu.few_outputs);
        }
        return gpu;
    }
};

// The vertical pass alone, for resizes that keep the width: PyTorch skips
// the pass along an unchanged dimension (docs/SEMANTICS.md 5.3) or, for float32
// without antialias, weighs it as the identity, where the two-pass kernels
// run an identity horizontal pass over every input row (uint8: 2-3x eager's
// time on NHWC images, RESULTS.md@89f6099, 2026-11-27 late; float32: more
// than a resize along both axes, 2026-11-27 night). Each output row sums
// its taps' input rows directly, with the two-pass kernels' tap tables and
// arithmetic, so results are the same bit for bit. Planar rows only: a pass
// along y alone never mixes a row's values, so the wrapper hands densely
// interleaved images over as planar ones of one channel, each row one flat
// run of values.
class ResizeVertical : public Generator<ResizeVertical> {
public:
    GeneratorParam<Filter> filter{"filter", Filter::linear,
                                  {{"bilinear", Filter::linear}, {"bicubic", Filter::cubic}}};
    GeneratorParam<bool> antialias{"antialias", false};
    GeneratorParam<std::string> kernel{"kernel", ""};  // the kernel table's name for it (knob rows may name it)

    // Knobs (kernels/knobs.toml has their tuned defaults and records).
    GeneratorParam<int> rows_per_task{"rows_per_task", kTuned};
    GeneratorParam<int> vector_multiplier{"vector_multiplier", kTuned};
    // With antialias: output vectors per tap of the sum's loop.
    GeneratorParam<int> sum_vectors{"sum_vectors", kTuned};
    // With antialias: tap loops as long as the span bound (1) or PyTorch's (0).
    GeneratorParam<int> span_taps{"span_taps", kTuned};
    GeneratorParam<int> fixed_taps{"fixed_taps", 0};  // as ResizeFiltered's

    Input<Buffer<void, 4>> input{"input"};  // uint8 or float32
    Input<bool> align_corners{"align_corners"};
    Input<double> scale_h{"scale_h"};  // explicit scale factor, <= 0 when not given
    Input<double> scale_w{"scale_w"};  // unused (the width is unchanged): the two-pass kernels' signature
    // PyTorch would run its channels-last kernel, not its generic one: the
    // two round coordinates differently at ties (the wrapper decides,
    // runtime/src/resize.cpp: pytorch_channels_last_kernel; coords.h).
    Input<bool> channels_last{"channels_last"};
    Output<Buffer<void, 4>> output{"output"};

    void generate() {
        const KnownTarget known(using_autoscheduler(), get_target());  // coords.h
        const Type pixel = input.type();
        _halide_user_assert(pixel == output.type() && (pixel == UInt(8) || pixel == Float(32)))
            << "resize_vertical: uint8 or float32, the same in and out";
        const bool fixed = pixel == UInt(8);
        const Tuned tuned("resize_vertical", kernel, get_target(), fixed ? knobs::fact::uint8 : 0);
        accept_planar(input);
        accept_planar(output);
        Var x("x"), y("y"), c("c"), n("n"), k("k");
        AxisSpec axis_y{"y", input.dim(1).extent(), output.dim(1).extent(), align_corners, scale_h, channels_last};
        const bool span = tuned.on(span_taps);
        AxisTaps taps = antialias ? antialias_taps(axis_y, filter, pixel, y, k, span, fixed_taps)
                                  : interpolating_taps(axis_y, filter, pixel, y, k);
        if (antialias) taps = with_index_table(taps, k);

        // uint8: acc = 2^(p-1) + sum(pixel * w16); y = clamp(acc >> p, 0,
        // 255) (docs/SEMANTICS.md 3.2). The taps two at a time, each pair a Func of
        // its own that the schedule computes per output vector: x86
        // multiplies two int16 pairs and adds the products in one
        // instruction (pmaddwd), which Halide emits for an Add of two
        // widening multiplies, where a sum inlined whole is re-nested into
        // single products (as the two-pass kernels' vertical_pairs). Integer
        // sums: the order changes nothing. With antialias the sum reduces
        // over pairs (taps past an output's own weigh 0, filters.h).
        // float32: the two-pass kernels' float32 sum of the same products.
        Func sum("sum");
        Expr init = fixed ? cast<int32_t>(1) << (taps.shift() - 1) : Expr(0.0f);
        std::vector<Func> pairs;
        RDom r(0, fixed ? (taps.taps + 1) / 2 : taps.taps, "r");
        define_tap_sum(sum, taps, r.x, [&](Expr tap) { return input(x, tap, c, n); }, init,
                       fixed ? fixed_point_product : float_product, antialias, filter, fixed ? &pairs : nullptr, x,
                       y, c, n);
        if (fixed) {
            output(x, y, c, n) = cast<uint8_t>(clamp(sum(x, y, c, n) >> cast<uint32_t>(taps.shift()), 0, 255));
        } else {
            output(x, y, c, n) = sum(x, y, c, n);
        }

        set_seed_estimates(input, output);
        align_corners.set_estimate(false);
        scale_h.set_estimate(0.0);
        scale_w.set_estimate(0.0);
        channels_last.set_estimate(false);
        if (!using_autoscheduler()) {
            VerticalResizeFuncs funcs{output, sum, pairs, taps.tables, x, y, c, n, !antialias, r.x};
            if (taps.largest.defined()) funcs.maxima.push_back({taps.largest, taps.largest_over});
            ResizeKnobs knobs{tuned(rows_per_task), tuned(vector_multiplier)};
            knobs.vertical_vectors = std::max(1, tuned(sum_vectors));
            schedule_resize_vertical(funcs, get_target(), knobs);
        }
    }
};

// The tap tables of one axis of a filtered resize, computed on the host for
// the CUDA kernels built with host_tables (the wrapper caches them on the
// device per shape). The same functions as the kernels' own tables, so CUDA
// results equal the CPU's.
class ResizeTaps : public Generator<ResizeTaps> {
public:
    GeneratorParam<Filter> filter{"filter", Filter::linear,
                                  {{"bilinear", Filter::linear}, {"bicubic", Filter::cubic}}};
    GeneratorParam<bool> antialias{"antialias", false};
    GeneratorParam<Type> pixel{"pixel", UInt(8)};
    GeneratorParam<std::string> kernel{"kernel", ""};  // the kernel table's name for it (knob rows may name it)
    // With antialias: the kernels' tap loops as long as the span bound (1)
    // or PyTorch's (0), a knob (kernels/knobs.toml). The count travels with
    // the tables (taps, below).
    GeneratorParam<int> span_taps{"span_taps", kTuned};

    Input<int> in_extent{"in_extent"};
    Input<int> out_extent{"out_extent"};
    Input<bool> align_corners{"align_corners"};
    Input<double> scale{"scale"};  // explicit scale factor, <= 0 when not given
    Output<Buffer<int32_t, 1>> start{"start"};
    // (k, i); taps beyond an output's own ones weigh 0. The caller sizes k:
    // the filter's support without antialias, at least the tap count with.
    Output<Buffer<float, 2>> weight{"weight"};
    Output<int> shift{"shift"};  // uint8's fixed-point precision; 0 for float32
    // The taps per output the kernel loops over: the rows of `weight` it
    // reads. With antialias the tables are fitted inside the image for
    // them (filters.h, fit_inside): every tap reads a pixel of the image.
    Output<int> taps{"taps"};

    void generate() {
        const KnownTarget known(using_autoscheduler(), get_target());  // coords.h
        Var i("i"), k("k");
        AxisSpec axis{"a", in_extent, out_extent, align_corners, scale};
        const Tuned tuned("resize_taps", kernel, get_target(), pixel == UInt(8) ? knobs::fact::uint8 : 0);
        const bool span = tuned.on(span_taps);
        AxisTaps axis_taps = antialias ? fit_inside(antialias_taps(axis, filter, pixel, i, k, span), axis.in, k)
                                       : interpolating_taps(axis, filter, pixel, i, k);
        start(i) = axis_taps.start(i);
        weight(k, i) = cast<float>(axis_taps.weight(k, i));
        shift() = axis_taps.shift.defined() ? axis_taps.shift() : Expr(0);
        taps() = axis_taps.taps;

        in_extent.set_estimate(456);
        out_extent.set_estimate(270);
        align_corners.set_estimate(false);
        scale.set_estimate(0.0);
        start.set_estimates({{0, 270}});
        weight.set_estimates({{0, 4}, {0, 270}});

        if (!using_autoscheduler()) {
            schedule_resize_taps_x86(axis_taps.tables);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(ResizeNearest, resize_nearest)
HALIDE_REGISTER_GENERATOR(ResizeFiltered, resize_filtered)
HALIDE_REGISTER_GENERATOR(ResizeTaps, resize_taps)
HALIDE_REGISTER_GENERATOR(ResizeVertical, resize_vertical)
