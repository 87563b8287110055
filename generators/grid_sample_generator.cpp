// grid_sample and affine_grid_sample: torch.nn.functional.grid_sample on
// N x C x H x W images (docs/SEMANTICS.md 6), with the sampling grid either read from
// memory or computed inside the kernel from one 2x3 matrix per image exactly
// as torch.nn.functional.affine_grid builds it (docs/SEMANTICS.md 7), so that the fused
// affine sampler never writes the grid.
//
// Both generators state where each output pixel samples (sample_x, sample_y:
// normalised coordinates) and hand that to sample_image(), the one statement
// of the sampling algorithm. Pixels are float32 or uint8 (`input.type`); uint8
// is sampled in float32 and rounded half to even with saturation, as
// torchvision does around grid_sample.
#include "Halide.h"

#include <optional>

#include "boundary.h"
#include "coords.h"
#include "filters.h"
#include "knobs.h"
#include "layout.h"
#include "sample_forms.h"
#include "schedules/grid_sample_schedules.h"

namespace {

using namespace Halide;
using namespace hres;

enum class SampleMode { bilinear, nearest, bicubic };

const std::map<std::string, SampleMode> kSampleModes = {
    {"bilinear", SampleMode::bilinear}, {"nearest", SampleMode::nearest}, {"bicubic", SampleMode::bicubic}};

// The padding mode a kernel variant copies the input with (none: no copy).
enum class PaddedCopy { none, zeros, border };

const std::map<std::string, PaddedCopy> kPaddedCopies = {
    {"none", PaddedCopy::none}, {"zeros", PaddedCopy::zeros}, {"border", PaddedCopy::border}};

// grid_sample at output (x, y, c, n), which samples normalised coordinates
// (sample_x, sample_y)(x, y, n) of the image `pixels` (float32, or for nearest
// any type), read from `padded` where that is defined (bicubic under zeros or
// border padding only), its taps read in the forms given (sample_forms.h).
Sampled sample_image(Func pixels, Func padded, Expr width, Expr height, Func sample_x, Func sample_y,
                     SampleMode mode, Expr padding, Expr align_corners, const TapForms &forms, Var x, Var y, Var c,
                     Var n) {
    const bool row_windows = forms.row_windows;
    const ByteWords *words = forms.words;
    const Func &word_offsets = forms.pixel_words;
    Sampled s{Func("footprint"), Expr(), Func("window"), Expr(), padded, Func("offsets"), Func("tap_coordinates"),
              Func("byte_words"), forms.ahead};
    Expr ux = grid_unnormalize(sample_x(x, y, n), width, align_corners);
    Expr uy = grid_unnormalize(sample_y(x, y, n), height, align_corners);
    auto read = [&](Expr xi, Expr yi) { return read_or_zero(pixels, xi, yi, c, n, width, height); };
    const Func &f = s.footprint;
    auto fp = [&](int i) { return f(x, y, n)[i]; };
    RowWindows windows(s, pixels, width, height, mode == SampleMode::bicubic ? 4 : 2, forms.window_reads,
                       forms.windows_by_offset, x, y, c, n);
    // `value` from the taps read one by one; with row windows, picked from
    // the windows where the input is wide enough for them.
    auto set_value = [&](const std::function<Expr(const std::function<Expr(Expr, int, Expr)> &)> &sum) {
        s.value = sum([&](Expr t, int, Expr u) { return read(t, u); });
        if (row_windows) {
            windows.define();
            s.value = select(s.window_fits && forms.windows_where,
                             sum([&](Expr t, int j, Expr u) { return windows.tap(t, j, u); }), s.value);
        }
    };

    switch (mode) {
    case SampleMode::nearest: {
        // Round half to even, after padding (docs/SEMANTICS.md 6.3).
        Expr px = pad_coordinate(ux, width, padding, align_corners);
        Expr py = pad_coordinate(uy, height, padding, align_corners);
        Expr xi = tap_index(round(px), width), yi = tap_index(round(py), height);
        if (words) {
            s.value = nearest_by_words(s, *words, xi, yi, width, height, x, y, c, n);
        } else if (forms.tap_reads) {
            s.value = nearest_by_offset(s, pixels, *forms.tap_reads, xi, yi, width, height, x, y, c, n);
        } else {
            s.footprint(x, y, n) = {s.with_ahead(xi, x, y, n), yi};
            s.value = read(fp(0), fp(1));
        }
        break;
    }
    case SampleMode::bilinear: {
        Expr px = pad_coordinate(ux, width, padding, align_corners);
        Expr py = pad_coordinate(uy, height, padding, align_corners);
        Expr x0 = floor(px), y0 = floor(py);
        Expr east = strict_float(px - x0), south = strict_float(py - y0);
        Expr west = strict_float(1.0f - east), north = strict_float(1.0f - south);
        // The four corner weights as PyTorch forms them: products first.
        std::vector<Expr> values = {tap_index(x0, width), tap_index(y0, height),
                                    unfused_product(north, west), unfused_product(north, east),
                                    unfused_product(south, west), unfused_product(south, east)};
        if (row_windows) windows.add_values(values, {values[0]}, {values[1], values[1] + 1});
        const int offsets_at = int(values.size());
        if (word_offsets.defined()) {
            // Tap k's offset into the words' dense buffer (x + y * width + n
            // * width * height), from which each gather lane loads its
            // address.
            for (int k = 0; k < 4; k++) {
                Expr tx = clamp_tap(values[0] + k % 2, width), ty = clamp_tap(values[1] + k / 2, height);
                values.push_back(index_bits((n * height + ty) * width + tx));
            }
        }
        values[0] = s.with_ahead(values[0], x, y, n);
        s.footprint(x, y, n) = Tuple(values);
        // tap(kx, j): column x0 + kx of row y0 + j.
        auto sum = [&](const std::function<Expr(int, int)> &tap) {
            return strict_float(unfused_product(tap(0, 0), fp(2)) + unfused_product(tap(1, 0), fp(3)) +
                                unfused_product(tap(0, 1), fp(4)) + unfused_product(tap(1, 1), fp(5)));
        };
        if (words) {
            s.value = sum(bilinear_by_words(s, *words, fp(0), fp(1), width, height, x, y, c, n));
        } else if (word_offsets.defined()) {
            s.value = sum([&](int kx, int j) {
                Expr word = word_offsets(promised_index(fp(offsets_at + 2 * j + kx), 0, width - 1), 0, 0);
                return zero_outside(cast<float>(word_byte(word, c)), fp(0) + kx, fp(1) + j, width, height);
            });
        } else {
            set_value([&](const std::function<Expr(Expr, int, Expr)> &tap) {
                return sum([&](int kx, int j) { return tap(fp(0) + kx, j, fp(1) + j); });
            });
        }
        break;
    }
    case SampleMode::bicubic: {
        // The sampling position itself is not padded; each of the 4x4 taps is
        // (docs/SEMANTICS.md 6.3), then truncated to an index.
        Expr x0 = floor(ux), y0 = floor(uy);
        std::vector<Expr> cx = cubic_coefficients(strict_float(ux - x0), -0.75f);
        std::vector<Expr> cy = cubic_coefficients(strict_float(uy - y0), -0.75f);
        std::vector<Expr> values;
        if (s.padded.defined()) {
            // The taps from x0 - 1, y0 - 1 on: zeros padding leaves them
            // there, and border's clamp into the image is the copy's edge.
            windows.add_padded_values(values, strict_float(x0 - 1.0f), strict_float(y0 - 1.0f));
        } else {
            for (int k = 0; k < 4; k++) {
                Expr tap = strict_float(x0 + float(k - 1));
                values.push_back(tap_index(pad_coordinate(tap, width, padding, align_corners), width));
            }
            for (int k = 0; k < 4; k++) {
                Expr tap = strict_float(y0 + float(k - 1));
                values.push_back(tap_index(pad_coordinate(tap, height, padding, align_corners), height));
            }
        }
        const int weights = int(values.size());
        values.insert(values.end(), cx.begin(), cx.end());
        values.insert(values.end(), cy.begin(), cy.end());
        if (row_windows && !s.padded.defined()) {
            windows.add_values(values, {values[0], values[1], values[2], values[3]},
                               {values[4], values[5], values[6], values[7]});
        }
        values[0] = s.with_ahead(values[0], x, y, n);
        s.footprint(x, y, n) = Tuple(values);
        // Rows first, taps left to right, as PyTorch sums; tap(k, j) is the
        // value of tap k of row j.
        auto sum = [&](const std::function<Expr(int, int)> &tap) {
            Expr total;
            for (int j = 0; j < 4; j++) {
                Expr row;
                for (int k = 0; k < 4; k++) {
                    Expr term = unfused_product(tap(k, j), fp(weights + k));
                    row = row.defined() ? row + term : term;
                }
                Expr term = unfused_product(row, fp(weights + 4 + j));
                total = total.defined() ? total + term : term;
            }
            return strict_float(total);
        };
        if (s.padded.defined()) {
            if (words) {
                windows.define_words();
            } else if (row_windows) {
                windows.define();
            }
            s.value = sum([&](int k, int j) { return windows.padded_tap(k, j); });
        } else {
            set_value([&](const std::function<Expr(Expr, int, Expr)> &tap) {
                return sum([&](int k, int j) { return tap(fp(k), j, fp(4 + j)); });
            });
        }
        break;
    }
    }
    return s;
}

// The parts both generators share: parameters, inputs and outputs common to
// both, the pixel conversions, estimates and the call into schedules/.
template<typename T>
class SamplerBase : public Generator<T> {
public:
    GeneratorParam<SampleMode> mode{"mode", SampleMode::bilinear, kSampleModes};
    GeneratorParam<std::string> kernel{"kernel", ""};  // the kernel table's name for it (knob rows may name it)
    GeneratorParam<FixedLayout> fixed_layout{"fixed_layout", FixedLayout::any, kFixedLayouts};  // layout.h
    // x86 bicubic for one padding mode only, zeros or border (the wrapper
    // picks it there, for inputs small enough to copy): the row windows (or
    // where LLVM gathers, each tap) read a copy of the input padded as that
    // mode pads (Sampled::padded).
    GeneratorParam<PaddedCopy> padded_copy{"padded_copy", PaddedCopy::none, kPaddedCopies};
    // x86 uint8 nearest, bilinear, and bicubic with padded_copy: kernels for
    // densely interleaved RGB images only (interleaved_rows = 3; 0 = any
    // layout; bicubic with padded_copy also RGBA, 4) or for planar ones only
    // (planar_words), which read their taps as 32-bit byte words
    // (ByteWords), gathered in hardware where LLVM gathers (the wrapper
    // takes them there, and the bicubic ones on every entry: a window's four
    // taps in one word).
    GeneratorParam<int> interleaved_rows{"interleaved_rows", 0};
    GeneratorParam<bool> planar_words{"planar_words", false};
    // x86, not over a padded copy: while a row is sampled, the next row's
    // taps are prefetched into the cache (prefetch_taps). A kernel variant
    // of float32 bilinear, which the wrapper takes on AMD's cores.
    GeneratorParam<bool> prefetch_ahead{"prefetch_ahead", false};
    // x86 uint8 bilinear, RGB images (3 channels, any layout): each input
    // pixel's channels are packed into one 32-bit word first (pixel_words),
    // so that a tap is one gather rather than one per channel. A kernel
    // variant the wrapper takes where the taps are not byte words gathered
    // in hardware.
    GeneratorParam<bool> pixel_words{"pixel_words", false};

    // Knobs (kernels/knobs.toml has their tuned defaults and records).
    // The forms the algorithm takes:
    // bilinear and bicubic: each tap row read as one window of adjacent
    // pixels (1), or every tap on its own (0) ...
    GeneratorParam<int> row_windows{"row_windows", kTuned};
    // ... in every layout (1), or all but interleaved RGB, which gathers every tap (0) ...
    GeneratorParam<int> rgb_row_windows{"rgb_row_windows", kTuned};
    // ... addressed by element offsets that the footprint stores per tap
    // row (OffsetReads) rather than by the rows' indices: in planar images
    // (1), in every layout that allows offsets (2), or none (0).
    GeneratorParam<int> window_offsets{"window_offsets", kTuned};
    // nearest: taps read by element offset (1, nearest_by_offset) or by coordinates (0).
    GeneratorParam<int> tap_offsets{"tap_offsets", kTuned};
    // pixel_words: taps read by element offsets that the footprint stores (1), or by coordinates (0).
    GeneratorParam<int> pixel_word_offsets{"pixel_word_offsets", kTuned};
    // The x86 schedule's:
    GeneratorParam<int> rows_per_task{"rows_per_task", kTuned};
    GeneratorParam<int> vector_multiplier{"vector_multiplier", kTuned};
    // Lanes per gather, 0 = vector width, 1 = scalar.
    GeneratorParam<int> gather_lanes{"gather_lanes", kTuned};
    // Interleaved RGB and the byte-word kernels: output pixels per footprint
    // buffer, 0 = whole rows.
    GeneratorParam<int> interleaved_chunk{"interleaved_chunk", kTuned};
    // Planar RGB: whether each pixel's channels are gathered together
    // (inside the x vector) rather than plane after plane.
    GeneratorParam<int> planar_channels_inner{"planar_channels_inner", kTuned};
    // Row windows stored with each tap position's pixels adjacent (1), which
    // LLVM turns into shuffles in registers, or each pixel's taps adjacent
    // (0), read back from memory.
    GeneratorParam<int> window_pixels_inner{"window_pixels_inner", kTuned};
    GeneratorParam<int> gpu_tile_width{"gpu_tile_width", kTuned};  // CUDA: output pixels per thread block
    GeneratorParam<int> gpu_tile_height{"gpu_tile_height", kTuned};

protected:
    Var x{"x"}, y{"y"}, c{"c"}, n{"n"};

    // The knobs for this target and kernel (with_windows: the row_windows
    // fact, once they are decided).
    Tuned tuned(Type pixel, bool with_windows = false) const {
        namespace fact = knobs::fact;
        const bool byte_words = interleaved_rows > 0 || planar_words;
        return Tuned("grid_sample", kernel, this->get_target(),
                     (pixel == UInt(8) ? fact::uint8 : 0) | (mode == SampleMode::bicubic ? fact::bicubic : 0) |
                         (mode == SampleMode::nearest ? fact::nearest : 0) | (byte_words ? fact::byte_words : 0) |
                         (prefetch_ahead ? fact::prefetch_ahead : 0) |
                         (with_windows && uses_row_windows(pixel) ? fact::row_windows : 0));
    }

    bool uses_row_windows(Type pixel) const {
        return mode != SampleMode::nearest && tuned(pixel).on(row_windows);
    }

    // Where the row windows are read: every layout, or all but interleaved
    // RGB (decided by the schedule's layout branches).
    Expr row_windows_where(const LayoutConditions &layout, Type pixel) const {
        return tuned(pixel).on(rgb_row_windows) ? Halide::Internal::const_true() : !layout.interleaved(3);
    }

    // The layouts whose row windows are read at element offsets (the knob
    // window_offsets): 0 none, 1 planar, 2 every layout that allows offsets.
    int window_offset_layouts(Type pixel) const {
        if (!uses_row_windows(pixel) || padded_copy != PaddedCopy::none) return 0;
        return tuned(pixel)(window_offsets);
    }

    bool uses_tap_offsets(Type pixel) const {
        return mode == SampleMode::nearest && tuned(pixel).on(tap_offsets);
    }

    // Defines `output` from the normalised sampling coordinates.
    template<typename In, typename Out>
    Sampled define_output(In &input, Out &output, Func sample_x, Func sample_y, Expr padding,
                          Expr align_corners) {
        const bool byte_words = interleaved_rows > 0 || planar_words;
        if (byte_words) {
            // RGBA only over the padded copy, where the words are windows
            // of the (planar) copy, not pixels of the input.
            const bool pixels_ok = interleaved_rows == 3 || (interleaved_rows == 4 && padded_copy != PaddedCopy::none);
            _halide_user_assert(pixels_ok != planar_words &&
                                (mode != SampleMode::bicubic || padded_copy != PaddedCopy::none) &&
                                input.type() == UInt(8))
                << "interleaved_rows=3 and planar_words are uint8 nearest and bilinear kernels, and bicubic "
                   "with padded_copy (there also interleaved_rows=4)";
            if (planar_words) {
                accept_planar(input);
                accept_planar(output);
            } else {
                accept_interleaved(input, interleaved_rows);
                accept_interleaved(output, interleaved_rows);
            }
        } else {
            accept_layout(input, fixed_layout);
            accept_layout(output, fixed_layout);
        }
        // Nearest copies pixels in their own type: for uint8, sampling in
        // float32 and rounding back gives the same value, at a cost (H200
        // host, AVX-512, 1 thread, 2026-11-21, single-kernel harness, 4
        // interleaved rounds, affine 2x3x345x456: nchw 577-587 -> 493-502
        // us, nhwc 597-624 -> 543-578 us).
        const bool copies = mode == SampleMode::nearest;
        Func pixels("pixels");
        Func packed("pixel_words");
        if (!pixel_words) {
            pixels(x, y, c, n) = copies ? Expr(input(x, y, c, n)) : cast<float>(input(x, y, c, n));
        } else {
            _halide_user_assert(mode == SampleMode::bilinear && input.type() == UInt(8) && !byte_words)
                << "pixel_words is a uint8 bilinear kernel";
            // RGB only: the schedule's RGB branches sum a pixel's channels
            // together, so each tap's word is gathered once for the three;
            // elsewhere the channels run apart and each would gather it again
            // (RGBA even, two channels 1.1x slower, build machine, 2026-11-28).
            input.dim(2).set_bounds(0, 3);
            // Channel c in byte c, as layout.h's word_byte reads it back.
            packed(x, y, n) = cast<uint32_t>(input(x, y, 0, n)) | (cast<uint32_t>(input(x, y, 1, n)) << 8) |
                              (cast<uint32_t>(input(x, y, 2, n)) << 16);
            pixels(x, y, c, n) = cast<float>(word_byte(packed(x, y, n), c));
        }
        Expr width = input.dim(0).extent(), height = input.dim(1).extent();
        Func padded("padded");
        if (padded_copy != PaddedCopy::none) {
            _halide_user_assert(mode == SampleMode::bicubic) << "padded_copy is a variant of bicubic";
            const Padding copied = padded_copy == PaddedCopy::zeros ? Padding::zeros : Padding::border;
            this->add_requirement(is_padding(padding, copied), "this kernel is the variant for padding mode",
                                  static_cast<int>(copied), "but padding is", padding);
            padded(x, y, c, n) = padded_image(input, width, height, copied)(x, y, c, n);
        }
        const int offset_windows = window_offset_layouts(input.type());
        const bool word_offsets = pixel_words && tuned(input.type()).on(pixel_word_offsets);
        std::optional<OffsetReads> reads;
        if (uses_tap_offsets(input.type()) || byte_words || offset_windows > 0) reads = OffsetReads::of(input, fixed_layout);
        Expr windows_by_offset;  // the layout condition of offset_windows
        if (offset_windows > 0) windows_by_offset = offset_windows == 1 ? reads->x_stride == 1 : reads->usable();
        std::optional<ByteWords> words;
        if (byte_words) {
            Func bytes("bytes");
            bytes(x, y, c, n) = input(x, y, c, n);
            Expr last = reads->pixel(width - 1, height - 1, input.dim(3).extent() - 1) +
                        (input.dim(2).extent() - 1) * reads->c_stride;
            words = ByteWords{bytes, *reads, last, planar_words};
        }
        // The next row's taps, from its sampling coordinates (clamped into
        // the output, so that the grid is read inside its bounds): a hint
        // only, so the padding mode is not applied.
        Func ahead("ahead");
        if (prefetch_ahead) {
            _halide_user_assert(padded_copy == PaddedCopy::none)
                << "prefetch_ahead is a variant of kernels without padded_copy";
            Expr xs = min(x, output.dim(0).max()), next = min(y + 1, output.dim(1).max());
            Expr u = grid_unnormalize(sample_x(xs, next, n), width, align_corners);
            Expr v = grid_unnormalize(sample_y(xs, next, n), height, align_corners);
            ahead(x, y, n) = prefetch_taps(input, OffsetReads::of(input, fixed_layout), u, v, width, height, n,
                                           mode == SampleMode::bicubic ? 4 : 2);
        }
        const TapForms forms{uses_row_windows(input.type()),
                             row_windows_where(layout_of(input, output, fixed_layout), input.type()),
                             offset_windows > 0 ? &*reads : nullptr,
                             windows_by_offset,
                             uses_tap_offsets(input.type()) ? &*reads : nullptr,
                             words ? &*words : nullptr,
                             word_offsets ? packed : Func(),
                             ahead};
        Sampled s = sample_image(pixels, padded, width, height, sample_x, sample_y, mode, padding, align_corners,
                                 forms, x, y, c, n);
        if (pixel_words) s.pixel_words = packed;
        if (word_offsets) {
            // Read only at promised offsets: the whole image, stated.
            for (int d = 0; d < 4; d++) input.dim(d).set_min(0);
            packed.bound(x, 0, width).bound(y, 0, height).bound(n, 0, input.dim(3).extent());
        }
        if (output.type() == UInt(8) && !copies) {
            // round() is half to even; NaN cannot arise from uint8 pixels.
            output(x, y, c, n) = cast<uint8_t>(clamp(round(s.value), 0.0f, 255.0f));
        } else {
            output(x, y, c, n) = s.value;
        }
        // The seed benchmark shape (BENCH.md): 2x3x345x456 sampled at its own size.
        input.set_estimates({{0, 456}, {0, 345}, {0, 3}, {0, 2}});
        output.set_estimates({{0, 456}, {0, 345}, {0, 3}, {0, 2}});
        return s;
    }

    template<typename In, typename Out>
    void schedule(In &input, Out &output, const Sampled &s, Expr padding, const std::vector<Func> &tables,
                  bool reads_grid) {
        if (this->using_autoscheduler()) return;
        // Zeros and border padding leave a much shorter footprint than
        // reflection's mirroring, worth specialised loops.
        // (A padded copy's footprint does not depend on it.)
        std::vector<Expr> padding_cases;
        if (padded_copy == PaddedCopy::none) {
            padding_cases = {is_padding(padding, Padding::zeros), is_padding(padding, Padding::border)};
        }
        GridSampleFuncs funcs{output, s.footprint, tables, x, y, c, n, layout_of(input, output, fixed_layout), padding_cases,
                              s.window, s.window_fits, s.padded, s.offsets, s.tap_coordinates, s.words,
                              planar_words, interleaved_rows, reads_grid, s.ahead, s.pixel_words};
        const Tuned tuned = this->tuned(input.type(), true);
        // Not with planar byte words, which are computed per channel.
        const bool channels_inner = !planar_words && tuned.on(planar_channels_inner);
        const GridSampleKnobs x86{tuned(rows_per_task),        tuned(vector_multiplier),
                                  tuned(gather_lanes),         tuned(interleaved_chunk),
                                  channels_inner,              tuned.on(window_pixels_inner)};
        schedule_grid_sample(funcs, this->get_target(), x86, {tuned(gpu_tile_width), tuned(gpu_tile_height)});
    }
};

// grid_sample with an explicit N x H_out x W_out x 2 grid of (x, y) pairs.
class GridSample : public SamplerBase<GridSample> {
public:
    Input<Buffer<void, 4>> input{"input"};
    Input<Buffer<float, 4>> grid{"grid"};  // (xy, x, y, n): dense N,H,W,2 memory
    Input<int> padding{"padding"};         // boundary.h's Padding
    Input<bool> align_corners{"align_corners"};
    Output<Buffer<void, 4>> output{"output"};

    void generate() {
        const KnownTarget known(using_autoscheduler(), get_target());  // coords.h
        Func sample_x("sample_x"), sample_y("sample_y");
        sample_x(x, y, n) = grid(0, x, y, n);
        sample_y(x, y, n) = grid(1, x, y, n);
        Sampled s = define_output(input, output, sample_x, sample_y, padding, align_corners);

        grid.set_estimates({{0, 2}, {0, 456}, {0, 345}, {0, 2}});
        padding.set_estimate(0);
        align_corners.set_estimate(false);
        schedule(input, output, s, padding, {}, true);
    }
};

// grid_sample of affine_grid(theta, size): the grid is computed per pixel.
class AffineGridSample : public SamplerBase<AffineGridSample> {
public:
    Input<Buffer<void, 4>> input{"input"};
    Input<Buffer<float, 3>> theta{"theta"};  // (column, row, n): dense N,2,3 memory
    Input<int> padding{"padding"};
    Input<bool> align_corners{"align_corners"};
    Output<Buffer<void, 4>> output{"output"};

    void generate() {
        const KnownTarget known(using_autoscheduler(), get_target());  // coords.h
        Expr out_w = output.dim(0).extent(), out_h = output.dim(1).extent();
        // affine_grid's batched product [x y 1] . theta^T, rounded as PyTorch's
        // CPU kernel rounds it: x*t0 first, fused with y*t1, then + t2. The
        // base coordinates and the x products are per-column and per-row tables.
        Func column_terms("column_terms"), row_base("row_base");
        Expr bx = affine_base(x, out_w, align_corners);
        column_terms(x, n) = {strict_float(bx * theta(0, 0, n)), strict_float(bx * theta(0, 1, n))};
        row_base(y) = affine_base(y, out_h, align_corners);
        Func sample_x("sample_x"), sample_y("sample_y");
        sample_x(x, y, n) = strict_float(
            fused_multiply_add_f32(row_base(y), theta(1, 0, n), column_terms(x, n)[0]) + theta(2, 0, n));
        sample_y(x, y, n) = strict_float(
            fused_multiply_add_f32(row_base(y), theta(1, 1, n), column_terms(x, n)[1]) + theta(2, 1, n));
        Sampled s = define_output(input, output, sample_x, sample_y, padding, align_corners);

        theta.set_estimates({{0, 3}, {0, 2}, {0, 2}});
        padding.set_estimate(0);
        align_corners.set_estimate(false);
        schedule(input, output, s, padding, {column_terms, row_base}, false);
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(GridSample, grid_sample)
HALIDE_REGISTER_GENERATOR(AffineGridSample, affine_grid_sample)
