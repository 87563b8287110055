// hres::grid_sample and hres::affine_grid_sample: argument checks, the call
// described for the dispatcher (dispatch.h), and the kernel it chooses.
#include "dispatch.h"
#include "internal.h"

#include <atomic>
#include <limits>

namespace hres {

namespace {

// The largest padded copy worth making. glibc's malloc keeps freed
// blocks up to 32 MiB for reuse (its largest mmap threshold); beyond that the
// copy's pages come fresh from the system, and fault in, at every call. On
// the H100 host a 100 MB copy (f32 4x3x1080x1920) made the 16-thread sampler
// 1.3-1.8x slower than sampling in place (schedules/grid_sample_x86.cpp).
std::atomic<size_t> copy_limit{size_t(32) << 20};

// Bytes of the padded copy of `in`: 4 columns and 4 rows of margin on each
// side (the bicubic windows' reach); SIZE_MAX if that overflows.
size_t padded_copy_bytes(const Image &in) {
    const size_t element = in.dtype == DType::f32 ? 4 : 1;
    size_t bytes = 0;
    if (__builtin_mul_overflow(size_t(in.w + 8), size_t(in.h + 8), &bytes) ||
        __builtin_mul_overflow(bytes, size_t(in.c) * size_t(in.n), &bytes) ||
        __builtin_mul_overflow(bytes, element, &bytes)) {
        return SIZE_MAX;
    }
    return bytes;
}

bool sampling_mode(Interp mode) {
    return mode == Interp::bilinear || mode == Interp::nearest || mode == Interp::bicubic;
}

// The kernels take PyTorch's padding enum values (generators/boundary.h).
int padding_value(Padding padding) {
    switch (padding) {
    case Padding::zeros: return 0;
    case Padding::border: return 1;
    case Padding::reflection: return 2;
    }
    return -1;
}

// The call as the dispatcher sees it (nearest: on the views it copies).
internal::Call describe(internal::Op op, const Image &in, const Image &out, const GridSampleOptions &options) {
    using namespace internal;
    Call call{op, in.device, in.dtype, options.mode, false, options.padding, layout_of(in, out)};
    auto fact = [&](uint32_t f, bool holds) { call.facts |= holds ? f : 0; };
    fact(Fact::copy_fits, padded_copy_bytes(in) <= copy_limit.load());
    fact(Fact::word_span, element_span(in) >= 4);
    fact(Fact::three_channels, in.c == 3);
    return call;
}

// Runs the kernel the table chooses; `params` is the grid or theta.
Status sample(internal::Op op, const char *name, internal::CopyViews &views, halide_buffer_t *params,
              const GridSampleOptions &options) {
    const internal::Kernel *kernel = internal::choose(describe(op, views.in, views.out, options));
    if (!kernel) return internal::no_kernel(name);
    return internal::run_kernel(name, [&] {
        return kernel->run.sample(views.input.get(), params, padding_value(options.padding), options.align_corners,
                                  views.output.get());
    });
}

// Checks shared by both entry points; `params` names the float array
// (grid / theta) holding `count` floats.
Status check_sampling(const char *op, const Image &in, const Image &out, const float *params, const char *name,
                      int64_t count, const GridSampleOptions &options) {
    const std::string prefix = std::string(op) + ": ";
    if (Status s = internal::check_pair(in, out); !s) return Status::error(prefix + s.message());
    if (!sampling_mode(options.mode)) {
        return Status::error(prefix + "mode must be bilinear, nearest or bicubic, not " + to_string(options.mode));
    }
    if (padding_value(options.padding) < 0) return Status::error(prefix + "invalid padding mode value");
    if (params == nullptr) return Status::error(prefix + name + " pointer is null");
    if (count > std::numeric_limits<int32_t>::max()) {
        return Status::error(prefix + name + " has more than 2^31-1 elements");
    }
    if (internal::overlaps(params, size_t(count) * sizeof(float), out)) {
        return Status::error(prefix + name + " and output memory overlap");
    }
    return {};
}

}  // namespace

size_t set_padded_copy_limit(size_t bytes) { return copy_limit.exchange(bytes); }

Status grid_sample(const Image &in, const float *grid, const Image &out, const GridSampleOptions &options) {
    const int64_t count = out.n * out.h * out.w * 2;  // sizes are checked before count is used
    if (Status s = check_sampling("grid_sample", in, out, grid, "grid", count, options); !s) return s;
    // Nearest copies pixels; the other modes compute with them.
    internal::CopyViews views(in, out, options.mode == Interp::nearest);
    internal::DenseFloats grid_view(grid, in.device, {2, out.w, out.h, out.n});
    return sample(internal::Op::grid_sample, "grid_sample", views, grid_view.get(), options);
}

Status affine_grid_sample(const Image &in, const float *theta, const Image &out, const GridSampleOptions &options) {
    const int64_t count = out.n * 6;
    if (Status s = check_sampling("affine_grid_sample", in, out, theta, "theta", count, options); !s) return s;
    // Nearest copies pixels; the other modes compute with them.
    internal::CopyViews views(in, out, options.mode == Interp::nearest);
    internal::DenseFloats theta_view(theta, in.device, {3, 2, out.n});
    return sample(internal::Op::affine_grid_sample, "affine_grid_sample", views, theta_view.get(), options);
}

}  // namespace hres
