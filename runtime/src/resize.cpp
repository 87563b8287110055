// hres::resize: argument checks, the call described for the dispatcher
// (dispatch.h), and the kernel it chooses run in its calling form (CUDA tap
// tables, planar rows, a batch in turn).
#include "dispatch.h"
#include "internal.h"
#include "tuned.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace hres {

namespace {

using internal::EntryPoint;

// One axis of a filtered resize, as resize_taps takes it.
struct Axis {
    int in, out;
    bool align_corners;
    double scale;  // explicit factor, or 0

    // Rows of the weight table to allocate: the filter's support without
    // antialias (the kernel reads exactly that many); with antialias at
    // least resize_taps' tap count, ceil(support) * 2 + 1 with support the
    // stretched half-width (docs/SEMANTICS.md 5.1), plus 2 for float32 rounding of
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
Status resize_tabled_cuda(const internal::Kernel &kernel, halide_buffer_t *input, halide_buffer_t *output,
                          const Image &in, const Image &out, const ResizeOptions &options) {
    const bool bicubic = options.mode == Interp::bicubic, antialias = options.antialias;
    const EntryPoint::Taps taps = internal::kKernels[kernel.tables].run.taps;
    const Axis axes[2] = {{int(in.w), int(out.w), options.align_corners, options.scale_w},
                          {int(in.h), int(out.h), options.align_corners, options.scale_h}};
    const TableLayout layout(axes, bicubic, antialias);
    // The shape's key: its fields' bytes, on the stack (formatted as text,
    // the scales in hexadecimal, it was about a fifth of the call's host
    // time; perf with a stub driver, build machine).
    char key[6 * sizeof(int) + 2 * sizeof(double)];
    size_t key_size = 0;
    auto add = [&](const auto &field) {
        std::memcpy(key + key_size, &field, sizeof(field));
        key_size += sizeof(field);
    };
    const int row = int(&kernel - internal::kKernels);  // the mode, antialias and dtype
    for (int field : {row, axes[0].in, axes[0].out, axes[1].in, axes[1].out,
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
                return kernel.run.tabled(input, options.align_corners, options.scale_h, options.scale_w,
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
// images as they are, densely interleaved ones (any channel count; the
// vertical kernels' rule requires one of these layouts) as planar images of
// one channel whose rows are the flat runs of w * c values (that pass never
// mixes a row's values).
std::pair<Image, Image> planar_rows(const Image &in, const Image &out) {
    if (internal::layout_of(in, out) == internal::Layout::planar) return {in, out};
    auto flat = [](Image image) {
        image.w *= image.c;
        image.c = 1;
        image.stride_w = 1;
        image.stride_c = image.w;
        return image;
    };
    return {flat(in), flat(out)};
}

// Where a float32 NHWC rows kernel (RGB, or RGBA) runs its vertical pass
// first, as its generator reads it from the knob table (vertical_first_below,
// with the facts the kernel has on this x86 entry; knob targets are the
// entries, in the same order), looked up once per entry, filter, antialias
// and channel count.
float rows_kernel_vertical_first_below(int entry, bool bicubic, bool antialias, bool rgba) {
    static const std::vector<float> below = [] {
        namespace kf = knobs::fact;
        std::vector<float> table;
        for (int e = 0; e < internal::kX86EntryCount; e++) {
            for (int combo = 0; combo < 8; combo++) {
                const bool cubic = combo & 1, aa = combo & 2, four = combo & 4;
                const std::string kernel = std::string("resize_") + (cubic ? "bicubic" : "bilinear") +
                                           (aa ? "_aa" : "") + "_f32_" + (four ? "rgba" : "rgb") + "_rows";
                uint32_t facts = kf::flat_rows | (cubic ? kf::bicubic : 0) | (aa ? kf::antialias : 0) |
                                 (internal::kX86Entries[e].llvm_gathers ? kf::llvm_gathers : 0);
                auto value = [&](const char *knob) {
                    return tuned_default("resize_filtered", knob, kernel.c_str(), e, facts).value_or(0);
                };
                facts |= (value("horizontal_gathers") > 0 ? kf::gathers : 0) |
                         (value("pixel_vectors") > 0 ? kf::pixel_vectors : 0);
                table.push_back(float(value("vertical_first_below")));
            }
        }
        return table;
    }();
    return below[8 * entry + (bicubic ? 1 : 0) + (antialias ? 2 : 0) + (rgba ? 4 : 0)];
}

// The call as the dispatcher sees it (nearest: on the views its kernels copy).
internal::Call describe(const Image &in, const Image &out, const ResizeOptions &options) {
    using namespace internal;
    Call call{Op::resize, in.device, in.dtype, options.mode, options.antialias};
    call.layout = layout_of(in, out);
    const bool bicubic = options.mode == Interp::bicubic;
    auto fact = [&](uint32_t f, bool holds) { call.facts |= holds ? f : 0; };
    fact(Fact::keeps_width, in.w == out.w && horizontal_pass_is_identity(in.dtype, bicubic, options));
    fact(Fact::rows_not_up, out.h <= in.h);
    fact(Fact::two_columns, in.w >= 2);
    // Narrower than a tile (16 lanes on the AVX-512 entries) the grouped row
    // picks do not fold into dense loads (2026-11-26).
    constexpr int kTile = 16;
    fact(Fact::tile_wide, in.w >= kTile && out.w >= kTile);
    if (in.device == Device::cpu && in.dtype == DType::f32 && options.mode != Interp::nearest &&
        options.mode != Interp::nearest_exact) {
        const float below = rows_kernel_vertical_first_below(call.cpu.entry, bicubic, options.antialias,
                                                             call.layout == Layout::rgba);
        fact(Fact::vertical_first, float(out.h) <= below * float(in.h));
    }
    return call;
}

}  // namespace

Status resize(const Image &in, const Image &out, const ResizeOptions &options) {
    using internal::HalideView;
    if (Status s = internal::check_pair(in, out); !s) return Status::error("resize: " + s.message());
    if (Status s = check_scale(options.scale_h, "scale_h"); !s) return Status::error("resize: " + s.message());
    if (Status s = check_scale(options.scale_w, "scale_w"); !s) return Status::error("resize: " + s.message());
    const bool nearest = options.mode == Interp::nearest || options.mode == Interp::nearest_exact;
    if (!nearest && options.mode != Interp::bilinear && options.mode != Interp::bicubic) {
        return Status::error("resize: invalid interpolation mode value");
    }
    if (nearest && options.align_corners) {
        return Status::error("resize: align_corners is only defined for bilinear and bicubic");
    }
    if (nearest && options.antialias) {
        return Status::error("resize: antialias is only defined for bilinear and bicubic");
    }
    const bool channels_last = pytorch_channels_last_kernel(in, out);  // decided on the caller's images

    if (nearest) {
        internal::CopyViews views(in, out);
        const internal::Kernel *kernel = internal::choose(describe(views.in, views.out, options));
        if (!kernel) return internal::no_kernel("resize");
        return internal::run_kernel("resize", [&] {
            return kernel->run.nearest(views.input.get(), options.scale_h, options.scale_w, channels_last,
                                       views.output.get());
        });
    }
    const internal::Kernel *kernel = internal::choose(describe(in, out, options));
    if (!kernel) return internal::no_kernel("resize");
    auto run = [&](const Image &source, const Image &result) {
        HalideView input(source), output(result);
        return internal::run_kernel("resize", [&] {
            return kernel->run.filtered(input.get(), options.align_corners, options.scale_h, options.scale_w,
                                        channels_last, output.get());
        });
    };
    switch (kernel->run.form) {
    case internal::Form::resize_tabled: {
        HalideView input(in), output(out);
        return resize_tabled_cuda(*kernel, input.get(), output.get(), in, out, options);
    }
    case internal::Form::resize_vertical: {
        const std::pair<Image, Image> rows = planar_rows(in, out);
        return run(rows.first, rows.second);
    }
    default: break;
    }
    // The x86 kernels run a batch's images in parallel, each image's passes
    // nested inside; with few threads per image every image's intermediate
    // is live at once, which loses (float32 bilinear 4x3x1080x1920 ->
    // 540x960 at 2 threads took 2x as long; H200 host, 2026-11-22), so
    // there the images go one call each.
    constexpr int kThreadsPerImage = 4;
    if (!kernel->splits_batch || in.n <= 1 || internal::pool_threads() >= kThreadsPerImage * in.n) {
        return run(in, out);
    }
    for (int64_t i = 0; i < in.n; i++) {
        if (Status s = run(internal::batch_item(in, i), internal::batch_item(out, i)); !s) return s;
    }
    return {};
}

}  // namespace hres
