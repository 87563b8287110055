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
#include "hres_resize_nearest_exact_f32.h"
#include "hres_resize_nearest_exact_u8.h"
#include "hres_resize_nearest_f32.h"
#include "hres_resize_nearest_u8.h"
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

#include <cmath>

namespace hres {

namespace {

using NearestKernel = int (*)(halide_buffer_t *, double, double, halide_buffer_t *);
using FilteredKernel = int (*)(halide_buffer_t *, bool, double, double, halide_buffer_t *);

// [device][dtype] -> kernel
constexpr NearestKernel kNearest[2][2] = {
    {hres_resize_nearest_u8, hres_resize_nearest_f32},
    {hres_resize_nearest_u8_cuda, hres_resize_nearest_f32_cuda}};
constexpr NearestKernel kNearestExact[2][2] = {
    {hres_resize_nearest_exact_u8, hres_resize_nearest_exact_f32},
    {hres_resize_nearest_exact_u8_cuda, hres_resize_nearest_exact_f32_cuda}};
// [device][bicubic][antialias][dtype] -> kernel
constexpr FilteredKernel kFiltered[2][2][2][2] = {
    {{{hres_resize_bilinear_u8, hres_resize_bilinear_f32},
      {hres_resize_bilinear_aa_u8, hres_resize_bilinear_aa_f32}},
     {{hres_resize_bicubic_u8, hres_resize_bicubic_f32},
      {hres_resize_bicubic_aa_u8, hres_resize_bicubic_aa_f32}}},
    {{{hres_resize_bilinear_u8_cuda, hres_resize_bilinear_f32_cuda},
      {hres_resize_bilinear_aa_u8_cuda, hres_resize_bilinear_aa_f32_cuda}},
     {{hres_resize_bicubic_u8_cuda, hres_resize_bicubic_f32_cuda},
      {hres_resize_bicubic_aa_u8_cuda, hres_resize_bicubic_aa_f32_cuda}}},
};

Status check_scale(double scale, const char *name) {
    if (std::isnan(scale) || std::isinf(scale) || scale < 0) {
        return Status::error(std::string(name) + " must be 0 (derive from sizes) or a positive finite factor");
    }
    return {};
}

}  // namespace

Status resize(const Image &in, const Image &out, const ResizeOptions &options) {
    using internal::HalideView;
    if (Status s = internal::check_pair(in, out); !s) return Status::error("resize: " + s.message());
    if (Status s = check_scale(options.scale_h, "scale_h"); !s) return Status::error("resize: " + s.message());
    if (Status s = check_scale(options.scale_w, "scale_w"); !s) return Status::error("resize: " + s.message());

    const int dtype = internal::dtype_index(in);
    const int device = internal::device_index(in);
    HalideView input(in), output(out);
    switch (options.mode) {
    case Interp::nearest:
    case Interp::nearest_exact: {
        if (options.align_corners) {
            return Status::error("resize: align_corners is only defined for bilinear and bicubic");
        }
        if (options.antialias) {
            return Status::error("resize: antialias is only defined for bilinear and bicubic");
        }
        NearestKernel kernel = options.mode == Interp::nearest ? kNearest[device][dtype] : kNearestExact[device][dtype];
        return internal::run_kernel("resize", [&] {
            return kernel(input.get(), options.scale_h, options.scale_w, output.get());
        });
    }
    case Interp::bilinear:
    case Interp::bicubic: {
        FilteredKernel kernel = kFiltered[device][options.mode == Interp::bicubic][options.antialias][dtype];
        return internal::run_kernel("resize", [&] {
            return kernel(input.get(), options.align_corners, options.scale_h, options.scale_w, output.get());
        });
    }
    }
    return Status::error("resize: invalid interpolation mode value");
}

}  // namespace hres
