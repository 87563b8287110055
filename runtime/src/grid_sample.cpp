// hres::grid_sample and hres::affine_grid_sample: argument checks and dispatch
// over (device, mode, dtype) to the kernels of generators/grid_sample_generator.cpp.
#include "internal.h"

#include "hres_affine_grid_sample_bicubic_f32.h"
#include "hres_affine_grid_sample_bicubic_u8.h"
#include "hres_affine_grid_sample_bicubic_padded_border_f32.h"
#include "hres_affine_grid_sample_bicubic_padded_border_u8.h"
#include "hres_affine_grid_sample_bicubic_padded_border_u8_planar_words.h"
#include "hres_affine_grid_sample_bicubic_padded_border_u8_rgb_words.h"
#include "hres_affine_grid_sample_bicubic_padded_border_u8_rgba_words.h"
#include "hres_affine_grid_sample_bicubic_padded_zeros_f32.h"
#include "hres_affine_grid_sample_bicubic_padded_zeros_u8.h"
#include "hres_affine_grid_sample_bicubic_padded_zeros_u8_planar_words.h"
#include "hres_affine_grid_sample_bicubic_padded_zeros_u8_rgb_words.h"
#include "hres_affine_grid_sample_bicubic_padded_zeros_u8_rgba_words.h"
#include "hres_affine_grid_sample_bilinear_f32.h"
#include "hres_affine_grid_sample_bilinear_f32_prefetched.h"
#include "hres_affine_grid_sample_bilinear_u8.h"
#include "hres_affine_grid_sample_bilinear_u8_pixel_words.h"
#include "hres_affine_grid_sample_nearest_f32.h"
#include "hres_affine_grid_sample_nearest_u8.h"
#include "hres_affine_grid_sample_bilinear_u8_planar_words.h"
#include "hres_affine_grid_sample_bilinear_u8_rgb_words.h"
#include "hres_affine_grid_sample_nearest_u8_planar_words.h"
#include "hres_affine_grid_sample_nearest_u8_rgb_words.h"
#include "hres_grid_sample_bicubic_f32.h"
#include "hres_grid_sample_bicubic_u8.h"
#include "hres_grid_sample_bicubic_padded_border_f32.h"
#include "hres_grid_sample_bicubic_padded_border_u8.h"
#include "hres_grid_sample_bicubic_padded_border_u8_planar_words.h"
#include "hres_grid_sample_bicubic_padded_border_u8_rgb_words.h"
#include "hres_grid_sample_bicubic_padded_border_u8_rgba_words.h"
#include "hres_grid_sample_bicubic_padded_zeros_f32.h"
#include "hres_grid_sample_bicubic_padded_zeros_u8.h"
#include "hres_grid_sample_bicubic_padded_zeros_u8_planar_words.h"
#include "hres_grid_sample_bicubic_padded_zeros_u8_rgb_words.h"
#include "hres_grid_sample_bicubic_padded_zeros_u8_rgba_words.h"
#include "hres_grid_sample_bilinear_f32.h"
#include "hres_grid_sample_bilinear_f32_prefetched.h"
#include "hres_grid_sample_bilinear_u8.h"
#include "hres_grid_sample_bilinear_u8_pixel_words.h"
#include "hres_grid_sample_nearest_f32.h"
#include "hres_grid_sample_nearest_u8.h"
#include "hres_grid_sample_bilinear_u8_planar_words.h"
#include "hres_grid_sample_bilinear_u8_rgb_words.h"
#include "hres_grid_sample_nearest_u8_planar_words.h"
#include "hres_grid_sample_nearest_u8_rgb_words.h"
#include "hres_affine_grid_sample_bicubic_f32_cuda.h"
#include "hres_affine_grid_sample_bicubic_u8_cuda.h"
#include "hres_affine_grid_sample_bilinear_f32_cuda.h"
#include "hres_affine_grid_sample_bilinear_u8_cuda.h"
#include "hres_affine_grid_sample_nearest_f32_cuda.h"
#include "hres_affine_grid_sample_nearest_u8_cuda.h"
#include "hres_grid_sample_bicubic_f32_cuda.h"
#include "hres_grid_sample_bicubic_u8_cuda.h"
#include "hres_grid_sample_bilinear_f32_cuda.h"
#include "hres_grid_sample_bilinear_u8_cuda.h"
#include "hres_grid_sample_nearest_f32_cuda.h"
#include "hres_grid_sample_nearest_u8_cuda.h"

#include <atomic>
#include <limits>

namespace hres {

namespace {

// Both kernel families share one signature: (input, grid or theta, padding,
// align_corners, output).
using SampleKernel = int (*)(halide_buffer_t *, halide_buffer_t *, int, bool, halide_buffer_t *);

// [device][mode][dtype], modes in the order of mode_index().
constexpr SampleKernel kGridSample[2][3][2] = {
    {{hres_grid_sample_bilinear_u8, hres_grid_sample_bilinear_f32},
     {hres_grid_sample_nearest_u8, hres_grid_sample_nearest_f32},
     {hres_grid_sample_bicubic_u8, hres_grid_sample_bicubic_f32}},
    {{hres_grid_sample_bilinear_u8_cuda, hres_grid_sample_bilinear_f32_cuda},
     {hres_grid_sample_nearest_u8_cuda, hres_grid_sample_nearest_f32_cuda},
     {hres_grid_sample_bicubic_u8_cuda, hres_grid_sample_bicubic_f32_cuda}},
};
constexpr SampleKernel kAffineGridSample[2][3][2] = {
    {{hres_affine_grid_sample_bilinear_u8, hres_affine_grid_sample_bilinear_f32},
     {hres_affine_grid_sample_nearest_u8, hres_affine_grid_sample_nearest_f32},
     {hres_affine_grid_sample_bicubic_u8, hres_affine_grid_sample_bicubic_f32}},
    {{hres_affine_grid_sample_bilinear_u8_cuda, hres_affine_grid_sample_bilinear_f32_cuda},
     {hres_affine_grid_sample_nearest_u8_cuda, hres_affine_grid_sample_nearest_f32_cuda},
     {hres_affine_grid_sample_bicubic_u8_cuda, hres_affine_grid_sample_bicubic_f32_cuda}},
};

// x86 bicubic under zeros or border padding, reading a copy of the input
// padded so (generators/grid_sample_generator.cpp), [padding][dtype],
// paddings in the order of padding_value().
constexpr SampleKernel kGridSamplePadded[2][2] = {
    {hres_grid_sample_bicubic_padded_zeros_u8, hres_grid_sample_bicubic_padded_zeros_f32},
    {hres_grid_sample_bicubic_padded_border_u8, hres_grid_sample_bicubic_padded_border_f32},
};
constexpr SampleKernel kAffineGridSamplePadded[2][2] = {
    {hres_affine_grid_sample_bicubic_padded_zeros_u8, hres_affine_grid_sample_bicubic_padded_zeros_f32},
    {hres_affine_grid_sample_bicubic_padded_border_u8, hres_affine_grid_sample_bicubic_padded_border_f32},
};
// The same for uint8 images of one layout, each window read as one byte
// word, [layout][padding], layouts as padded_word_layout() numbers them.
constexpr SampleKernel kGridSamplePaddedWords[3][2] = {
    {hres_grid_sample_bicubic_padded_zeros_u8_rgb_words, hres_grid_sample_bicubic_padded_border_u8_rgb_words},
    {hres_grid_sample_bicubic_padded_zeros_u8_planar_words, hres_grid_sample_bicubic_padded_border_u8_planar_words},
    {hres_grid_sample_bicubic_padded_zeros_u8_rgba_words, hres_grid_sample_bicubic_padded_border_u8_rgba_words}};
constexpr SampleKernel kAffineGridSamplePaddedWords[3][2] = {
    {hres_affine_grid_sample_bicubic_padded_zeros_u8_rgb_words,
     hres_affine_grid_sample_bicubic_padded_border_u8_rgb_words},
    {hres_affine_grid_sample_bicubic_padded_zeros_u8_planar_words,
     hres_affine_grid_sample_bicubic_padded_border_u8_planar_words},
    {hres_affine_grid_sample_bicubic_padded_zeros_u8_rgba_words,
     hres_affine_grid_sample_bicubic_padded_border_u8_rgba_words}};

// The layouts of the padded copy's byte-word kernels: internal::WordLayout's
// (NHWC RGB 0, planar 1), and NHWC RGBA 2, whose words are windows of the
// planar copy too; -1 for the rest.
int padded_word_layout(const Image &in, const Image &out) {
    if (internal::WordLayout layout = internal::u8_word_layout(in, out); layout != internal::WordLayout::none) {
        return static_cast<int>(layout);
    }
    return internal::dense_u8_pixels(in, out, 4) ? 2 : -1;
}

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

int mode_index(Interp mode) {
    switch (mode) {
    case Interp::bilinear: return 0;
    case Interp::nearest: return 1;
    case Interp::bicubic: return 2;
    case Interp::nearest_exact: break;
    }
    return -1;
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

// x86 uint8 nearest and bilinear kernels of one layout that read their taps
// as 32-bit byte words (generators/grid_sample_generator.cpp): [layout][mode],
// layouts as internal::WordLayout numbers them (NHWC RGB, planar), modes
// bilinear then nearest (mode_index()).
using WordKernels = SampleKernel[2][2];

// The kernels of one operation.
struct SampleKernels {
    const SampleKernel (&general)[2][3][2];  // [device][mode][dtype]
    const SampleKernel (&padded)[2][2];      // bicubic on a padded copy: [padding][dtype]
    const SampleKernel (&padded_words)[3][2];  // the same, uint8 as byte words: [layout][padding]
    const WordKernels &words;
    SampleKernel prefetched;  // x86 float32 bilinear prefetching the next row's taps
    SampleKernel pixel_words;  // x86 uint8 bilinear of RGB images, pixels packed into words
};
constexpr WordKernels kGridSampleWords = {
    {hres_grid_sample_bilinear_u8_rgb_words, hres_grid_sample_nearest_u8_rgb_words},
    {hres_grid_sample_bilinear_u8_planar_words, hres_grid_sample_nearest_u8_planar_words}};
constexpr WordKernels kAffineGridSampleWords = {
    {hres_affine_grid_sample_bilinear_u8_rgb_words, hres_affine_grid_sample_nearest_u8_rgb_words},
    {hres_affine_grid_sample_bilinear_u8_planar_words, hres_affine_grid_sample_nearest_u8_planar_words}};
constexpr SampleKernels kGridSampleKernels{kGridSample,
                                           kGridSamplePadded,
                                           kGridSamplePaddedWords,
                                           kGridSampleWords,
                                           hres_grid_sample_bilinear_f32_prefetched,
                                           hres_grid_sample_bilinear_u8_pixel_words};
constexpr SampleKernels kAffineGridSampleKernels{kAffineGridSample,
                                                 kAffineGridSamplePadded,
                                                 kAffineGridSamplePaddedWords,
                                                 kAffineGridSampleWords,
                                                 hres_affine_grid_sample_bilinear_f32_prefetched,
                                                 hres_affine_grid_sample_bilinear_u8_pixel_words};

// The kernel for a call: a padded-copy variant where one takes it (CPU
// bicubic, zeros or border padding, a copy within the limit); else the
// [device][mode][dtype] entry. uint8 NHWC RGB and RGBA and planar images
// read the padded copy's windows as byte words on every entry (gathered in
// hardware on the Sapphire Rapids entry, a scalar loop of word copies
// elsewhere, which beat the float windows' per-pixel conversions and
// transposes: 1.2-1.7x on the build machine's AVX2 and SSE4.1 entries;
// schedules/grid_sample_x86.cpp). On the Sapphire Rapids entry uint8 NHWC
// RGB and planar images read their nearest and bilinear taps as byte words
// gathered in hardware too (schedules/grid_sample_x86.cpp has the numbers;
// a word of the input needs 4 elements of it). On the other entries uint8
// bilinear of RGB images in those layouts packs each pixel into a word
// first, gathered once for the three channels: 1.4-1.8x faster on the AVX2
// entry on AMD's and Intel's cores (on the Sapphire Rapids entry the byte
// words stay ahead: NHWC RGB 1.3x at 1 thread, planar batches 1.1x at 16
// threads; schedules/grid_sample_x86.cpp).
// On AMD's cores float32 bilinear prefetches the next row's taps
// (kernel_choice.h).
SampleKernel pick_kernel(const SampleKernels &kernels, const Image &in, const Image &out,
                         const GridSampleOptions &options) {
    const int dtype = internal::dtype_index(in);
    const bool cpu = in.device == Device::cpu;
    const int mode = mode_index(options.mode);
    if (cpu && options.mode == Interp::bicubic &&
        (options.padding == Padding::zeros || options.padding == Padding::border) &&
        padded_copy_bytes(in) <= copy_limit.load()) {
        if (const int layout = padded_word_layout(in, out); layout >= 0) {
            return kernels.padded_words[layout][padding_value(options.padding)];
        }
        return kernels.padded[padding_value(options.padding)][dtype];
    }
    const int words = static_cast<int>(internal::word_layout(in, out));  // a [layout] index, or -1
    if (words >= 0 && options.mode != Interp::bicubic && internal::element_span(in) >= 4) {
        return kernels.words[words][mode];
    }
    const bool rgb_u8 = in.c == 3 && internal::u8_word_layout(in, out) != internal::WordLayout::none;
    if (rgb_u8 && options.mode == Interp::bilinear) return kernels.pixel_words;
    if (cpu && in.dtype == DType::f32 && options.mode == Interp::bilinear && internal::amd_kernels()) {
        return kernels.prefetched;
    }
    return kernels.general[internal::device_index(in)][mode][dtype];
}

// Checks shared by both entry points; `params` names the float array
// (grid / theta) holding `count` floats.
Status check_sampling(const char *op, const Image &in, const Image &out, const float *params, const char *name,
                      int64_t count, const GridSampleOptions &options) {
    const std::string prefix = std::string(op) + ": ";
    if (Status s = internal::check_pair(in, out); !s) return Status::error(prefix + s.message());
    if (mode_index(options.mode) < 0) {
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
    SampleKernel kernel = pick_kernel(kGridSampleKernels, views.in, views.out, options);
    return internal::run_kernel("grid_sample", [&] {
        return kernel(views.input.get(), grid_view.get(), padding_value(options.padding), options.align_corners,
                      views.output.get());
    });
}

Status affine_grid_sample(const Image &in, const float *theta, const Image &out, const GridSampleOptions &options) {
    const int64_t count = out.n * 6;
    if (Status s = check_sampling("affine_grid_sample", in, out, theta, "theta", count, options); !s) return s;
    // Nearest copies pixels; the other modes compute with them.
    internal::CopyViews views(in, out, options.mode == Interp::nearest);
    internal::DenseFloats theta_view(theta, in.device, {3, 2, out.n});
    SampleKernel kernel = pick_kernel(kAffineGridSampleKernels, views.in, views.out, options);
    return internal::run_kernel("affine_grid_sample", [&] {
        return kernel(views.input.get(), theta_view.get(), padding_value(options.padding), options.align_corners,
                      views.output.get());
    });
}

}  // namespace hres
