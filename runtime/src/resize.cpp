// hres::resize: argument checks and dispatch over (device, mode, antialias, dtype) to
// the kernels built by the variant loop in generators/CMakeLists.txt.
#include "internal.h"

#include "hres_resize_bicubic_aa_f32.h"
#include "hres_resize_bicubic_aa_u8.h"
#include "hres_resize_bicubic_f32.h"
#include "hres_resize_bicubic_u8.h"
#include "hres_resize_bilinear_aa_f32.h"
#include "hres_resize_bilinear_aa_u8.h"
#include "hres_resize_bilinear_f32.h"
#include "hres_resize_bilinear_u8.h"
#include "hres_resize_bicubic_aa_f32_rgb_rows.h"
#include "hres_resize_bicubic_aa_f32_rgba_rows.h"
#include "hres_resize_bicubic_f32_rgb_rows.h"
#include "hres_resize_bicubic_f32_rgba_rows.h"
#include "hres_resize_bicubic_aa_u8_rgb_rows.h"
#include "hres_resize_bicubic_u8_rgb_rows.h"
#include "hres_resize_bilinear_aa_f32_rgb_rows.h"
#include "hres_resize_bilinear_aa_f32_rgba_rows.h"
#include "hres_resize_bilinear_f32_rgb_rows.h"
#include "hres_resize_bilinear_f32_rgba_rows.h"
#include "hres_resize_bilinear_aa_u8_rgb_rows.h"
#include "hres_resize_bilinear_u8_rgb_rows.h"
#include "hres_resize_vertical_bicubic_aa_f32.h"
#include "hres_resize_vertical_bicubic_aa_u8.h"
#include "hres_resize_vertical_bicubic_f32.h"
#include "hres_resize_vertical_bicubic_u8.h"
#include "hres_resize_vertical_bilinear_aa_f32.h"
#include "hres_resize_vertical_bilinear_aa_u8.h"
#include "hres_resize_vertical_bilinear_f32.h"
#include "hres_resize_vertical_bilinear_u8.h"
#include "hres_resize_nearest_exact_f32.h"
#include "hres_resize_nearest_exact_f32_scalar_pixels.h"
#include "hres_resize_nearest_exact_u8.h"
#include "hres_resize_nearest_exact_u8_rgb_words.h"
#include "hres_resize_nearest_f32.h"
#include "hres_resize_nearest_f32_scalar_pixels.h"
#include "hres_resize_nearest_u8.h"
#include "hres_resize_nearest_u8_rgb_words.h"
#include "hres_resize_bicubic_aa_f32_cuda.h"
#include "hres_resize_bicubic_aa_u8_cuda.h"
#include "hres_resize_bicubic_f32_cuda.h"
#include "hres_resize_bicubic_u8_cuda.h"
#include "hres_resize_bilinear_aa_f32_cuda.h"
#include "hres_resize_bilinear_aa_u8_cuda.h"
#include "hres_resize_bilinear_f32_cuda.h"
#include "hres_resize_bilinear_u8_cuda.h"
#include "hres_resize_nearest_exact_f32_cuda.h"
#include "hres_resize_nearest_exact_u8_cuda.h"
#include "hres_resize_nearest_f32_cuda.h"
#include "hres_resize_nearest_u8_cuda.h"
#include "hres_resize_taps_bicubic_aa_f32.h"
#include "hres_resize_taps_bicubic_aa_u8.h"
#include "hres_resize_taps_bicubic_u8.h"
#include "hres_resize_taps_bilinear_aa_f32.h"
#include "hres_resize_taps_bilinear_aa_u8.h"
#include "hres_resize_taps_bilinear_u8.h"

#include "pass_order.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

namespace hres {

namespace {

// Each takes the scale factors and which of PyTorch's kernels it reproduces
// (pytorch_channels_last_kernel).
using NearestKernel = int (*)(halide_buffer_t *, double, double, bool, halide_buffer_t *);
using FilteredKernel = int (*)(halide_buffer_t *, bool, double, double, bool, halide_buffer_t *);
// CUDA kernels built with host_tables: per axis (x, then y) start, weight, shift.
using TabledKernel = int (*)(halide_buffer_t *, bool, double, double, bool, halide_buffer_t *, halide_buffer_t *, int,
                             halide_buffer_t *, halide_buffer_t *, int, halide_buffer_t *);
// resize_taps: in extent, out extent, align_corners, scale -> start, weight, shift, taps.
using TapsKernel = int (*)(int, int, bool, double, halide_buffer_t *, halide_buffer_t *, halide_buffer_t *,
                           halide_buffer_t *);

// [device][dtype] -> kernel
constexpr NearestKernel kNearest[2][2] = {
    {hres_resize_nearest_u8, hres_resize_nearest_f32},
    {hres_resize_nearest_u8_cuda, hres_resize_nearest_f32_cuda}};
constexpr NearestKernel kNearestExact[2][2] = {
    {hres_resize_nearest_exact_u8, hres_resize_nearest_exact_f32},
    {hres_resize_nearest_exact_u8_cuda, hres_resize_nearest_exact_f32_cuda}};
// x86 float32, planar pixels copied by a scalar loop (AMD's AVX2 and SSE4.1
// entries): [exact].
constexpr NearestKernel kNearestScalarPixels[2] = {hres_resize_nearest_f32_scalar_pixels,
                                                   hres_resize_nearest_exact_f32_scalar_pixels};
// x86 uint8 NHWC RGB, pixels read as 32-bit words: [exact].
constexpr NearestKernel kNearestRgbWords[2] = {hres_resize_nearest_u8_rgb_words,
                                               hres_resize_nearest_exact_u8_rgb_words};

// [bicubic][antialias][dtype] -> kernel; the CUDA variants that take host
// tables (generators/CMakeLists.txt) are in kTabled instead.
constexpr FilteredKernel kFiltered[2][2][2] = {
    {{hres_resize_bilinear_u8, hres_resize_bilinear_f32}, {hres_resize_bilinear_aa_u8, hres_resize_bilinear_aa_f32}},
    {{hres_resize_bicubic_u8, hres_resize_bicubic_f32}, {hres_resize_bicubic_aa_u8, hres_resize_bicubic_aa_f32}}};
// x86 float32, NHWC RGB and RGBA only, vertical pass first along flat rows:
// [RGBA][bicubic][antialias].
constexpr FilteredKernel kFilteredPixelRows[2][2][2] = {
    {{hres_resize_bilinear_f32_rgb_rows, hres_resize_bilinear_aa_f32_rgb_rows},
     {hres_resize_bicubic_f32_rgb_rows, hres_resize_bicubic_aa_f32_rgb_rows}},
    {{hres_resize_bilinear_f32_rgba_rows, hres_resize_bilinear_aa_f32_rgba_rows},
     {hres_resize_bicubic_f32_rgba_rows, hres_resize_bicubic_aa_f32_rgba_rows}}};
// x86 uint8, NHWC RGB only, source blocks staged several rows per store:
// [bicubic][antialias].
constexpr FilteredKernel kFilteredRgbBlocks[2][2] = {
    {hres_resize_bilinear_u8_rgb_rows, hres_resize_bilinear_aa_u8_rgb_rows},
    {hres_resize_bicubic_u8_rgb_rows, hres_resize_bicubic_aa_u8_rgb_rows}};
// Resizes that keep the width, the vertical pass alone, planar rows:
// [bicubic][antialias][dtype].
constexpr FilteredKernel kVertical[2][2][2] = {
    {{hres_resize_vertical_bilinear_u8, hres_resize_vertical_bilinear_f32},
     {hres_resize_vertical_bilinear_aa_u8, hres_resize_vertical_bilinear_aa_f32}},
    {{hres_resize_vertical_bicubic_u8, hres_resize_vertical_bicubic_f32},
     {hres_resize_vertical_bicubic_aa_u8, hres_resize_vertical_bicubic_aa_f32}}};
constexpr FilteredKernel kFilteredCuda[2][2][2] = {
    {{nullptr, hres_resize_bilinear_f32_cuda}, {nullptr, nullptr}},
    {{nullptr, hres_resize_bicubic_f32_cuda}, {nullptr, nullptr}}};
constexpr TabledKernel kTabledCuda[2][2][2] = {
    {{hres_resize_bilinear_u8_cuda, nullptr}, {hres_resize_bilinear_aa_u8_cuda, hres_resize_bilinear_aa_f32_cuda}},
    {{hres_resize_bicubic_u8_cuda, nullptr}, {hres_resize_bicubic_aa_u8_cuda, hres_resize_bicubic_aa_f32_cuda}}};
constexpr TapsKernel kTaps[2][2][2] = {
    {{hres_resize_taps_bilinear_u8, nullptr}, {hres_resize_taps_bilinear_aa_u8, hres_resize_taps_bilinear_aa_f32}},
    {{hres_resize_taps_bicubic_u8, nullptr}, {hres_resize_taps_bicubic_aa_u8, hres_resize_taps_bicubic_aa_f32}}};

// One axis of a filtered resize, as resize_taps takes it.
struct Axis {
    int in, out;
    bool align_corners;
    double scale;  // explicit factor, or 0

    // Rows of the weight table to allocate: the filter's support without
    // antialias (the kernel reads exactly that many); with antialias at
    // least resize_taps' tap count, ceil(support) * 2 + 1 with support the
    // stretched half-width (SPEC.md 5.1), plus 2 for float32 rounding of
    // the support (a count beyond the rows is an error, below).
    int rows(bool bicubic, bool antialias) const {
        if (!antialias) return bicubic ? 4 : 2;
        double s = align_corners ? (out > 1 ? double(in - 1) / double(out - 1) : 0.0)
                                 : (scale > 0 ? 1.0 / scale : double(in) / double(out));
        const double support = (bicubic ? 2.0 : 1.0) * std::max(s, 1.0);
        return int(std::ceil(support)) * 2 + 3;
    }
};

// The tap tables of both axes in one block of 4-byte elements, each table
// 256-byte aligned: start_x, weight_x, start_y, weight_y.
struct TableLayout {
    int rows[2];
    size_t offset[4];  // bytes
    size_t bytes;
    TableLayout(const Axis (&axes)[2], bool bicubic, bool antialias) {
        size_t at = 0;
        auto take = [&](size_t elements) {
            const size_t here = at;
            at += (elements * 4 + 255) / 256 * 256;
            return here;
        };
        for (int a = 0; a < 2; a++) {
            rows[a] = axes[a].rows(bicubic, antialias);
            offset[2 * a] = take(size_t(axes[a].out));
            offset[2 * a + 1] = take(size_t(rows[a]) * size_t(axes[a].out));
        }
        bytes = at;
    }
};

// halide_buffer_t views of the tables at `base` (host or device memory). The
// weight tables' rows: every allocated row for resize_taps to fill, or
// `taps` (its count, per axis) for the kernel, which loops over that many.
struct TableViews {
    halide_dimension_t dims[4][2];
    halide_buffer_t start[2], weight[2];
    TableViews(unsigned char *base, const TableLayout &layout, const Axis (&axes)[2], Device device,
               const int32_t *taps = nullptr) {
        for (int a = 0; a < 2; a++) {
            dims[2 * a][0] = halide_dimension_t(0, axes[a].out, 1);
            start[a] = halide_buffer_t();
            start[a].type = halide_type_t(halide_type_int, 32);
            start[a].dimensions = 1;
            start[a].dim = dims[2 * a];
            internal::attach(&start[a], base + layout.offset[2 * a], device);
            dims[2 * a + 1][0] = halide_dimension_t(0, taps ? taps[a] : layout.rows[a], 1);
            dims[2 * a + 1][1] = halide_dimension_t(0, axes[a].out, layout.rows[a]);
            weight[a] = halide_buffer_t();
            weight[a].type = halide_type_t(halide_type_float, 32);
            weight[a].dimensions = 2;
            weight[a].dim = dims[2 * a + 1];
            internal::attach(&weight[a], base + layout.offset[2 * a + 1], device);
        }
    }
    ~TableViews() {
        for (int a = 0; a < 2; a++) {
            internal::detach(&start[a]);
            internal::detach(&weight[a]);
        }
    }
    TableViews(const TableViews &) = delete;
    TableViews &operator=(const TableViews &) = delete;
};

// Which of PyTorch's two CPU kernels for nearest and bilinear resizing a
// call gets (UpSampleKernel.cpp, _use_vectorized_kernel_cond_2d): its
// "channels-last" kernel for channels-last inputs of more than 3 channels
// and for outputs of H + W <= 128, else its generic kernel. They round
// coordinates differently at ties (docs/SEMANTICS.md, "Ties"), so every
// resize kernel is told which one it reproduces: decided here, on the
// caller's images, as the kernels may see other views of them.
bool pytorch_channels_last_kernel(const Image &in, const Image &out) {
    return (in.stride_c == 1 && in.c > 3) || out.h + out.w <= 128;
}

// A filtered resize on CUDA with tables from the host (resize_taps), cached on
// the device per shape: the fixed-point precision of uint8 is a maximum over a
// whole axis, and antialias weights are per-output loops, both better done
// once per shape than in every block of every call.
Status resize_tabled_cuda(TabledKernel kernel, TapsKernel taps, bool bicubic, bool antialias, int dtype,
                          halide_buffer_t *input, halide_buffer_t *output, const Image &in, const Image &out,
                          const ResizeOptions &options) {
    const Axis axes[2] = {{int(in.w), int(out.w), options.align_corners, options.scale_w},
                          {int(in.h), int(out.h), options.align_corners, options.scale_h}};
    const TableLayout layout(axes, bicubic, antialias);
    // The shape's key: its fields' bytes, on the stack (formatted as text,
    // the scales in hexadecimal, it was about a fifth of the call's host
    // time; perf with a stub driver, build machine).
    char key[8 * sizeof(int) + 2 * sizeof(double)];
    size_t key_size = 0;
    auto add = [&](const auto &field) {
        std::memcpy(key + key_size, &field, sizeof(field));
        key_size += sizeof(field);
    };
    for (int field : {int(bicubic), int(antialias), dtype, axes[0].in, axes[0].out, axes[1].in, axes[1].out,
                      int(options.align_corners)}) {
        add(field);
    }
    add(options.scale_w);
    add(options.scale_h);
    // The shifts and tap counts travel with the cached bytes, after the
    // tables (at a multiple of 256 bytes, as each table starts).
    struct Scalars {
        int32_t shift[2], taps[2];  // per axis, x then y
    };
    const size_t scalars_at = layout.bytes;
    auto fill = [&](void *host) -> Status {
        auto *base = static_cast<unsigned char *>(host);
        auto *scalars = reinterpret_cast<Scalars *>(base + scalars_at);
        TableViews views(base, layout, axes, Device::cpu);
        for (int a = 0; a < 2; a++) {
            halide_dimension_t none[1];
            halide_buffer_t shift_buffer, taps_buffer;
            for (auto [buffer, value] : {std::pair{&shift_buffer, &scalars->shift[a]}, {&taps_buffer, &scalars->taps[a]}}) {
                *buffer = halide_buffer_t();
                buffer->type = halide_type_t(halide_type_int, 32);
                buffer->dimensions = 0;
                buffer->dim = none;
                buffer->host = reinterpret_cast<uint8_t *>(value);
            }
            if (Status s = internal::run_kernel("resize", [&] {
                    return taps(axes[a].in, axes[a].out, axes[a].align_corners, axes[a].scale, &views.start[a],
                                &views.weight[a], &shift_buffer, &taps_buffer);
                });
                !s) {
                return s;
            }
            const int32_t count = scalars->taps[a];
            if (count < 1 || count > layout.rows[a]) {
                return Status::error("resize: internal error: " + std::to_string(count) + " taps for a table of " +
                                     std::to_string(layout.rows[a]) + " rows");
            }
        }
        return {};
    };
    return internal::with_device_tables(
        {key, key_size}, scalars_at + sizeof(Scalars), fill, [&](void *device, const unsigned char *host) {
            Scalars scalars;
            std::memcpy(&scalars, host + scalars_at, sizeof(scalars));
            TableViews views(static_cast<unsigned char *>(device), layout, axes, Device::cuda, scalars.taps);
            return internal::run_kernel("resize", [&] {
                return kernel(input, options.align_corners, options.scale_h, options.scale_w,
                              pytorch_channels_last_kernel(in, out), &views.start[0],
                              &views.weight[0], scalars.shift[0], &views.start[1], &views.weight[1],
                              scalars.shift[1], output);
            });
        });
}

Status check_scale(double scale, const char *name) {
    if (std::isnan(scale) || std::isinf(scale) || scale < 0) {
        return Status::error(std::string(name) + " must be 0 (derive from sizes) or a positive finite factor");
    }
    return {};
}

// Whether a resize that keeps the width leaves every row's values as they
// are along x (generators/filters.h, which holds the rule): PyTorch's uint8,
// antialiased and float32 bilinear paths take an unchanged axis as the
// identity; float32 bicubic without antialias evaluates its formula, which
// is the identity where the axis' scale is exactly 1 (no explicit factor,
// or one that is 1 in float32, or align_corners, which ignores it).
bool horizontal_pass_is_identity(DType dtype, bool bicubic, const ResizeOptions &options) {
    if (dtype == DType::u8 || options.antialias || !bicubic) return true;
    return options.align_corners || options.scale_w <= 0 || static_cast<float>(1.0 / options.scale_w) == 1.0f;
}

// Two images as a pass along y alone sees them, rows of unit stride: planar
// images as they are, densely interleaved ones (any channel count) as
// planar images of one channel whose rows are the flat runs of w * c values
// (that pass never mixes a row's values); nothing where the two do not
// both have one of these layouts.
std::optional<std::pair<Image, Image>> planar_rows(const Image &in, const Image &out) {
    if (in.stride_w == 1 && out.stride_w == 1) return std::pair{in, out};
    auto interleaved = [](const Image &image) { return image.stride_c == 1 && image.stride_w == image.c; };
    if (!interleaved(in) || !interleaved(out)) return std::nullopt;
    auto flat = [](Image image) {
        image.w *= image.c;
        image.c = 1;
        image.stride_w = 1;
        image.stride_c = image.w;
        return image;
    };
    return std::pair{flat(in), flat(out)};
}

}  // namespace

Status resize(const Image &in, const Image &out, const ResizeOptions &options) {
    using internal::HalideView;
    if (Status s = internal::check_pair(in, out); !s) return Status::error("resize: " + s.message());
    if (Status s = check_scale(options.scale_h, "scale_h"); !s) return Status::error("resize: " + s.message());
    if (Status s = check_scale(options.scale_w, "scale_w"); !s) return Status::error("resize: " + s.message());

    const int dtype = internal::dtype_index(in);
    const int device = internal::device_index(in);
    const bool channels_last = pytorch_channels_last_kernel(in, out);  // decided on the caller's images
    switch (options.mode) {
    case Interp::nearest:
    case Interp::nearest_exact: {
        if (options.align_corners) {
            return Status::error("resize: align_corners is only defined for bilinear and bicubic");
        }
        if (options.antialias) {
            return Status::error("resize: antialias is only defined for bilinear and bicubic");
        }
        internal::CopyViews views(in, out);
        const int copied = internal::dtype_index(views.in);
        NearestKernel kernel = options.mode == Interp::nearest ? kNearest[device][copied] : kNearestExact[device][copied];
        // uint8 NHWC RGB on the Sapphire Rapids entry reads each pixel as
        // one 32-bit word, gathered in hardware (0.7x the general kernel's
        // time at 500x400 -> 256x256: schedules/resize_x86.cpp). Upscaling
        // in y the general kernel copies its gathered rows and stays ahead;
        // the words kernel needs inputs at least 2 pixels wide.
        if (internal::word_layout(views.in, views.out) == internal::WordLayout::rgb && views.in.w >= 2 &&
            views.out.h <= views.in.h) {
            kernel = kNearestRgbWords[options.mode == Interp::nearest_exact];
        }
        if (!device && views.in.dtype == DType::f32 && internal::amd_kernels()) {
            kernel = kNearestScalarPixels[options.mode == Interp::nearest_exact];
        }
        return internal::run_kernel("resize", [&] {
            return kernel(views.input.get(), options.scale_h, options.scale_w, channels_last, views.output.get());
        });
    }
    case Interp::bilinear:
    case Interp::bicubic: {
        const bool bicubic = options.mode == Interp::bicubic;
        // Resizes that keep the width: PyTorch skips the horizontal pass
        // (SPEC.md 5.3) or weighs it as the identity, and these kernels
        // leave it out, over planar rows (the two-pass kernels run an
        // identity pass over every input row). bench/RESULTS.md (2026-11-27,
        // late; night for float32) has the numbers.
        if (!device && in.w == out.w && horizontal_pass_is_identity(in.dtype, bicubic, options)) {
            if (std::optional<std::pair<Image, Image>> rows = planar_rows(in, out)) {
                HalideView source(rows->first), result(rows->second);
                return internal::run_kernel("resize", [&] {
                    return kVertical[bicubic][options.antialias][dtype](source.get(), options.align_corners,
                                                                        options.scale_h, options.scale_w,
                                                                        channels_last, result.get());
                });
            }
        }
        HalideView input(in), output(out);
        FilteredKernel kernel = (device ? kFilteredCuda : kFiltered)[bicubic][options.antialias][dtype];
        if (!kernel) {
            return resize_tabled_cuda(kTabledCuda[bicubic][options.antialias][dtype],
                                      kTaps[bicubic][options.antialias][dtype], bicubic, options.antialias, dtype,
                                      input.get(), output.get(), in, out, options);
        }
        // The x86 kernels run a batch's images in parallel, each image's
        // passes nested inside (schedules/resize_x86.cpp, parallel_images,
        // has the gains at 16 threads). With few threads per image every
        // image's intermediate is live at once, which loses, so there the
        // images go one call each. H200 host, AVX-512, 2026-11-22,
        // single-kernel harness, 3 interleaved rounds, 4x3x1080x1920 ->
        // 540x960 nhwc, images one after another -> in parallel: float32
        // bilinear 2 threads 6432-7584 -> 12678-16407 us, 4 threads
        // 3270-3592 -> 4995-5620 us, 8 threads 1749-1958 -> 1978-2278 us;
        // uint8 bilinear 2 threads 3135-3587 -> 3815-4495 us, 4 and 8 even.
        //
        // NHWC RGB and RGBA float32 whose output has at most
        // kVerticalFirstBelow (0.7) of the input's rows, the planar kernels'
        // threshold too (generators/pass_order.h), take the kernels that
        // run the vertical pass first along flat rows of values
        // (interleaved_rows in generators/resize_generator.cpp): the
        // horizontal pass, the one that shuffles, then covers output rows
        // only, and each task computes just its own rows of the vertical
        // pass, so no image-sized intermediate is live and the batch needs
        // no splitting. Single-kernel harness, interleaved rounds, general
        // kernel -> this one, us:
        // - H100 host (Sapphire Rapids entry), 2026-11-25, RGB, 1 thread:
        //   1x3x500x400 -> 256x256 (5 rounds) bilinear 286-305 -> 235-237,
        //   bicubic 361-367 -> 259-263, bilinear+aa 530-575 -> 353-362,
        //   bicubic+aa 640-671 -> 479-494; 1x3x1080x1920 -> 720x1280 (0.67
        //   of the rows, 3 rounds) bilinear even (3110-3581 / 3099-3506),
        //   bicubic 3992-5256 -> 3533-3556, bilinear+aa 5968-7270 ->
        //   4944-5008, bicubic+aa 6542-8881 -> 5749-5819; 1x3x345x456 ->
        //   270x270 (0.78) even.
        // - Same host, RGB 4x3x1080x1920 -> 540x960, 16 threads (3 rounds):
        //   bilinear 1002-1050 -> 777-796, bicubic 1093-1177 -> 796-879,
        //   bilinear+aa 1627-1802 -> 1058-1404, bicubic+aa 1886-2069 ->
        //   1456-1793; 1 thread (2 rounds) bilinear 10976-12897 ->
        //   9467-9836, bicubic+aa 24033-24353 -> 20502-21036.
        // - Same host, RGBA: 1x4x500x400 -> 256x256, 1 thread (4 rounds),
        //   bilinear 403-417 -> 313-330, bicubic 541-635 -> 374-456,
        //   bilinear+aa 781-889 -> 540-566, bicubic+aa 974-1216 -> 776-1125
        //   (mixed); 4x4x1080x1920 -> 540x960, 16 threads, 3 rounds: 1555-1632
        //   -> 1104-1230, 3782-4165 -> 3194-3358 (bicubic+aa), the others
        //   alike. The build machine's AVX2 entry (AMD Zen 3) lost on RGBA
        //   bilinear+aa at 1 thread (1375-1450 -> 1579-1695) and won the rest.
        // - Upscaling lost (build machine, AVX2 entry: 300x400 -> 600x700
        //   RGB bilinear 469-484 -> 724-838).
        // Bilinear without antialias on the Sapphire Rapids entry gathered its
        // horizontal taps in hardware, and took these kernels wherever the
        // output has no more rows than the input: H200 machine's host,
        // 2026-11-26, 1x3x345x456 -> 270x270 RGB, 1 thread, 228-277 ->
        // 180-239 us (schedules/resize_x86.cpp has the rest).
        // Since 2026-11-28 (evening) their horizontal pass runs pixel vectors
        // without antialias (schedules/resize_x86.cpp), which made them
        // faster wherever the output has no more rows than the input,
        // except bicubic on the AVX-512 entries, which keeps the tiles and
        // 0.7.
        // Build machine (AMD Zen 3), AVX2 entry, same-process pairs, 1
        // thread, min of 60-100 calls, general kernel -> pixel vectors, us:
        // RGB 1x3x345x456 -> 270x270 (0.78 of the rows) bilinear 324 -> 188,
        // bicubic 275 -> 225; -> 345x270 (1.0) bilinear 239 -> 173,
        // bicubic 375 -> 392; RGBA 1x4x345x456 -> 270x270 bilinear 342-371
        // -> 137-140, bicubic 400-587 -> 231-319, -> 345x270 bilinear
        // 386-426 -> 171-174. H200 machine's host (Intel), 3 rounds: AVX2
        // bilinear 367-446 -> 240-250 (0.78), 352-484 -> 270-306 (1.0),
        // bicubic 359-512 -> 242-399 (0.78), 334-535 -> 292-472 (1.0);
        // SSE4.1 bilinear 249-326 -> 190-230 (0.78), 265-362 -> 227-313
        // (1.0), bicubic 329-455 -> 266-350 (0.78); AVX-512 Skylake bilinear
        // 251-277 -> 198-240 (0.78), 237-299 -> 220-310 (1.0), bicubic at
        // 1.0 292-342 -> 309-516; Sapphire Rapids bilinear even with its
        // gathers (194-219 -> 193-236 at 0.78). Bicubic between 0.8 and 1.0
        // of the rows (345x456 -> 345x270 and -> 300x270, 500x400 ->
        // 480x256), 3 rounds each side: build machine AVX2 RGB 267-372 ->
        // 249-345 (0.87), 284-289 -> 281-289 (1.0), 333-354 -> 361-362
        // (0.96), RGBA 419-613 -> 253-379 (every shape); H200 machine's
        // host AVX2 RGB 362-719 -> 285-636, RGBA 473-903 -> 313-606, SSE4.1
        // RGB 373-827 -> 321-791, RGBA 568-1048 -> 352-739.
        const auto below = [&] {  // asks the CPU's features: only for x86 calls
            const bool gathered =
                horizontal_pass_gathers(!bicubic, options.antialias, internal::sapphire_rapids_entry_runs());
            return interleaved_vertical_first_below(!bicubic, options.antialias, active_isa() == Isa::avx512,
                                                    gathered);
        };
        const bool pixel_rows = !device && in.dtype == DType::f32 && internal::dense_pixels(in) &&
                                internal::dense_pixels(out) && float(out.h) <= below() * float(in.h);
        if (pixel_rows) kernel = kFilteredPixelRows[in.c == 4][bicubic][options.antialias];
        // NHWC RGB uint8 takes the kernels whose source blocks are read
        // through grouped row picks, four rows per vector register store
        // (interleaved_rows in generators/): the general kernel stages an
        // interleaved block a row per store (a vector over several rows of
        // a channel would be a gather there). Planar images keep the general
        // kernel: read through the picks in every layout (bca8abc, since
        // reverted), their batches lost 4-20% at 1 thread. H100 machine's
        // host, Sapphire Rapids entry, 2026-11-26, single-kernel harness,
        // three runs of 3-7 interleaved rounds, general -> RGB kernel, us:
        // 1 thread, bilinear 1x3x345x456 -> 270x270 132-161 -> 121-142 and
        // 142-198 -> 134-146 (every round), 500x400 -> 256x256 155-179 ->
        // 149-154, 4x3x345x456 532-632 -> 521-734 (4 of 6 rounds); bicubic
        // 345x456 168-249 -> 160-240, 500x400 -> 256x256 even (188-293 /
        // 191-285), -> 1024x1024 even; bilinear+aa 345x456 253-357 -> 234-313,
        // 4x3x345x456 1372-1497 -> 951-1276 (mixed in another run),
        // bicubic+aa 500x400 -> 256x256 375-529 -> 352-429. 16 threads,
        // 4x3x1080x1920 -> 540x960: bilinear 562-630 -> 548-562, bilinear+aa
        // 1182-1264 -> 982-1059, bicubic+aa 1587-1656 -> 1383-1488 (every
        // round). bench/RESULTS.md has the rest (RGBA gained as well:
        // generators/CMakeLists.txt).
        // The general uint8 kernels have no RGB branch of their own (build
        // time: generators/CMakeLists.txt), so RGB images the RGB kernels
        // do not take run its generic-stride branch. Inputs or outputs
        // narrower than a tile (16 on the AVX-512 entries) do not: there the
        // picks do not fold into dense loads, and the generic branch was
        // faster. Inputs shorter than a tile do. H100 machine's host,
        // Sapphire Rapids entry, 2026-11-26, single-kernel harness, two runs
        // of 5 interleaved rounds, 1 thread, NHWC, us, general kernel with
        // its RGB branch (before) / generic branch / RGB kernel, bilinear
        // and bicubic+aa:
        // - 1x3x20x30 -> 7x9: 3.8-7.5 / 6.3-11.3 / 8.2-12.5, 8.6-15.8 /
        //   10.0-30.2 / 11.6-19.7;
        // - 1x3x1000x10 -> 500x5: 80-174 / 185-319 / 268-414, 132-230 /
        //   182-332 / 319-481;
        // - 1x3x12x12 -> 40x40: 5.2-10.4 / 9.4-17.1 / 8.3-13.8, 12.7-21.4 /
        //   16.5-28.1 / 16.1-27.2;
        // - 1x3x10x1000 -> 5x500: 45-90 / 62-102 / 57-93, 185-324 / 193-340
        //   / 152-278;
        // - 1x3x15x200 -> 30x400: 38-61 / 60-92 / 25-40, 95-157 / 114-184 /
        //   65-73.
        // So narrow RGB images lost up to 2x against the general kernel's
        // own branch, which cost a third of its compile time.
        constexpr int kTile = 16;
        const bool rgb_blocks = !device && in.dtype == DType::u8 && in.c == 3 && internal::dense_pixels(in) &&
                                internal::dense_pixels(out) && in.w >= kTile && out.w >= kTile;
        if (rgb_blocks) kernel = kFilteredRgbBlocks[bicubic][options.antialias];
        constexpr int kThreadsPerImage = 4;
        const bool images_in_turn =
            !device && !pixel_rows && in.n > 1 && internal::pool_threads() < kThreadsPerImage * in.n;
        auto run = [&](halide_buffer_t *source, halide_buffer_t *result) {
            return internal::run_kernel("resize", [&] {
                return kernel(source, options.align_corners, options.scale_h, options.scale_w, channels_last,
                              result);
            });
        };
        if (!images_in_turn) return run(input.get(), output.get());
        for (int64_t i = 0; i < in.n; i++) {
            HalideView one_input(internal::batch_item(in, i)), one_output(internal::batch_item(out, i));
            if (Status s = run(one_input.get(), one_output.get()); !s) return s;
        }
        return {};
    }
    }
    return Status::error("resize: invalid interpolation mode value");
}

}  // namespace hres
