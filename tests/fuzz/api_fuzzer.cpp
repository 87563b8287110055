// libFuzzer target for the library's API, built and run by scripts/fuzz.sh
// under AddressSanitizer and UndefinedBehaviorSanitizer. Each input is one
// call: an op (resize in every mode, with antialias, align_corners and scale
// factors; grid_sample and affine_grid_sample with grids and thetas that may
// hold NaN and +-inf; flip), a dtype, small shapes (zero and negative ones
// too), and views of any strides: NCHW or NHWC order, padded rows, planes and
// pixels, every other element, zero, overlapping and negative strides, null
// data. A call must either fail with a message and leave its output as it
// was, or succeed; a successful resize or flip must equal the scalar
// reference (uint8 bit for bit, float32 within 2e-5), and a sampler's
// output of a finite grid must be finite.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <string>
#include <vector>

#include "hres/hres.h"
#include "reference/resize_reference.h"
#include "reference/sample_reference.h"

namespace {

std::string call_text;  // the call being made, for the report

[[noreturn]] void fail(const char *what) {
    std::fprintf(stderr, "api_fuzzer: %s\n  in %s\n", what, call_text.c_str());
    std::abort();
}

std::string describe(const char *name, const hres::Image &im) {
    char text[200];
    std::snprintf(text, sizeof text, "%s %s %lldx%lldx%lldx%lld strides %lld,%lld,%lld,%lld%s", name,
                  hres::to_string(im.dtype), (long long)im.n, (long long)im.c, (long long)im.h, (long long)im.w,
                  (long long)im.stride_n, (long long)im.stride_c, (long long)im.stride_h, (long long)im.stride_w,
                  im.data ? "" : " null");
    return text;
}

struct View {
    hres::Image image;
    std::vector<uint8_t> memory;  // the buffer the view points into
};

// A view of n x c x h x w elements of `dtype` with strides the fuzzer picks.
View make_view(FuzzedDataProvider &fdp, hres::DType dtype, int64_t n, int64_t c, int64_t h, int64_t w) {
    View v;
    hres::Image &im = v.image;
    im.dtype = dtype;
    im.n = n, im.c = c, im.h = h, im.w = w;
    const bool channels_last = fdp.ConsumeBool();
    const int64_t step = fdp.ConsumeIntegralInRange<int64_t>(1, 2);  // every other element
    const int64_t pad_row = fdp.ConsumeIntegralInRange<int64_t>(0, 3), pad_plane = fdp.ConsumeIntegralInRange<int64_t>(0, 3);
    const int64_t ew = std::max<int64_t>(w, 1), eh = std::max<int64_t>(h, 1), ec = std::max<int64_t>(c, 1);
    if (channels_last) {
        im.stride_c = step;
        im.stride_w = ec * step + fdp.ConsumeIntegralInRange<int64_t>(0, 1);  // pixel slots
        im.stride_h = ew * im.stride_w + pad_row;
        im.stride_n = eh * im.stride_h + pad_plane;
    } else {
        im.stride_w = step;
        im.stride_h = ew * step + pad_row;
        im.stride_c = eh * im.stride_h + pad_plane;
        im.stride_n = ec * im.stride_c + pad_plane;
    }
    switch (fdp.ConsumeIntegralInRange<int>(0, 12)) {  // mostly valid views
    case 0: im.stride_w = 0; break;
    case 1: im.stride_n = 0; break;
    case 2: im.stride_h = 1; break;
    case 3: im.stride_c = -1; break;
    default: break;
    }
    int64_t span = 1;
    for (auto [extent, stride] : {std::pair{im.n, im.stride_n}, {im.c, im.stride_c}, {im.h, im.stride_h}, {im.w, im.stride_w}}) {
        if (extent > 0 && stride > 0) span += (extent - 1) * stride;
    }
    v.memory.resize(size_t(span) * hres::dtype_size(dtype) + 64);
    for (size_t i = 0; i < v.memory.size(); i++) v.memory[i] = uint8_t(fdp.ConsumeIntegral<uint8_t>() + i * 37);
    if (dtype == hres::DType::f32) {  // values in [0, 1], where the float tolerance applies
        auto *f = reinterpret_cast<float *>(v.memory.data());
        for (size_t i = 0; i < v.memory.size() / 4; i++) f[i] = float((i * 2654435761u) % 1000) / 999.0f;
    }
    im.data = fdp.ConsumeIntegralInRange<int>(0, 40) == 0 ? nullptr : v.memory.data();
    return v;
}

bool valid(const hres::Image &im) {
    return im.data && im.n > 0 && im.c > 0 && im.h > 0 && im.w > 0 && im.stride_n >= 0 && im.stride_c >= 0 &&
           im.stride_h >= 0 && im.stride_w >= 0;
}

// The view's elements in NCHW order.
template<typename T>
std::vector<T> logical(const hres::Image &im) {
    std::vector<T> out;
    const T *data = static_cast<const T *>(im.data);
    for (int64_t b = 0; b < im.n; b++)
        for (int64_t ch = 0; ch < im.c; ch++)
            for (int64_t y = 0; y < im.h; y++)
                for (int64_t x = 0; x < im.w; x++)
                    out.push_back(data[b * im.stride_n + ch * im.stride_c + y * im.stride_h + x * im.stride_w]);
    return out;
}

template<typename T>
void expect_equal(const std::vector<T> &got, const std::vector<T> &want) {
    if (got.size() != want.size()) fail("output size differs from the reference");
    for (size_t i = 0; i < got.size(); i++) {
        const double d = std::fabs(double(got[i]) - double(want[i]));
        if (!(d <= (std::is_same_v<T, uint8_t> ? 0.0 : 2e-5))) {
            std::fprintf(stderr, "element %zu: %g, reference %g\n", i, double(got[i]), double(want[i]));
            fail("output differs from the scalar reference");
        }
    }
}

template<typename T>
void check_resize(const hres::Image &in, const hres::Image &out, const hres::ResizeOptions &o) {
    hres_ref::ResizeParams p{hres_ref::Mode(int(o.mode)), o.antialias, o.align_corners, o.scale_h, o.scale_w,
                             in.stride_c == 1};
    std::vector<T> want;
    try {
        want = hres_ref::resize(logical<T>(in), int(in.n), int(in.c), int(in.h), int(in.w), int(out.h), int(out.w), p);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "reference: %s\n", e.what());
        fail("the scalar reference refused a call the library ran");
    }
    expect_equal(logical<T>(out), want);
}

template<typename T>
void check_flip(const hres::Image &in, const hres::Image &out, hres::FlipAxes axes) {
    expect_equal(logical<T>(out), hres_ref::flip(logical<T>(in), int(in.n), int(in.c), int(in.h), int(in.w),
                                                 hres_ref::FlipAxes(int(axes))));
}

float fuzzed_float(FuzzedDataProvider &fdp) {
    switch (fdp.ConsumeIntegralInRange<int>(0, 15)) {
    case 0: return std::numeric_limits<float>::quiet_NaN();
    case 1: return std::numeric_limits<float>::infinity();
    case 2: return -std::numeric_limits<float>::infinity();
    case 3: return 1e30f;
    default: return fdp.ConsumeFloatingPointInRange<float>(-1.5f, 1.5f);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    FuzzedDataProvider fdp(data, size);
    const int op = fdp.ConsumeIntegralInRange<int>(0, 3);  // resize, grid_sample, affine_grid_sample, flip
    const hres::DType dtype = fdp.ConsumeBool() ? hres::DType::u8 : hres::DType::f32;
    auto extent = [&](int most) { return int64_t(fdp.ConsumeIntegralInRange<int>(-1, most)); };
    const int64_t n = extent(2), c = extent(5), h = extent(9), w = extent(9);
    int64_t oh = op == 3 ? h : extent(11), ow = op == 3 ? w : extent(11);
    // Resize options first: with scale factors the output size is mostly
    // PyTorch's, trunc(in * s). Sizes no scale could give (which ATen takes)
    // only where they are defined: the nearest modes, whose picks are exact
    // for any scale; the filters' weights need not be (an antialiased
    // window may hold almost no weight, normalised up to anything).
    hres::ResizeOptions o;
    const hres::Interp modes[] = {hres::Interp::nearest, hres::Interp::nearest_exact, hres::Interp::bilinear,
                                  hres::Interp::bicubic};
    if (op == 0) {
        o.mode = fdp.ConsumeIntegralInRange<int>(0, 40) == 0 ? hres::Interp(7) : modes[fdp.ConsumeIntegralInRange<int>(0, 3)];
        o.antialias = fdp.ConsumeBool();
        o.align_corners = fdp.ConsumeBool();
        if (fdp.ConsumeBool()) {
            o.scale_h = fdp.ConsumeIntegralInRange<int>(0, 12) == 0 ? -1.0 : fdp.ConsumeFloatingPointInRange<double>(0.1, 4.0);
            o.scale_w = fdp.ConsumeFloatingPointInRange<double>(0.1, 4.0);
            const bool nearest = o.mode == hres::Interp::nearest || o.mode == hres::Interp::nearest_exact;
            if (!(nearest && fdp.ConsumeBool())) {
                if (h > 0 && o.scale_h > 0) oh = int64_t(std::trunc(double(h) * o.scale_h));
                if (w > 0) ow = int64_t(std::trunc(double(w) * o.scale_w));
            }
        }
    }
    View in = make_view(fdp, dtype, n, c, h, w);
    View out = make_view(fdp, dtype, fdp.ConsumeIntegralInRange<int>(0, 8) == 0 ? n + 1 : n, c, oh, ow);
    if (fdp.ConsumeIntegralInRange<int>(0, 30) == 0 && !out.memory.empty()) out.image.data = in.image.data;  // aliased
    const std::vector<uint8_t> before = out.memory;
    hres::Status s;
    bool finite_params = true;
    std::vector<float> params;
    if (op == 0) {
        call_text = "resize " + std::string(hres::to_string(o.mode)) + (o.antialias ? " antialias" : "") +
                    (o.align_corners ? " align_corners" : "") + " scales " + std::to_string(o.scale_h) + "," +
                    std::to_string(o.scale_w) + ": " + describe("in", in.image) + "; " + describe("out", out.image);
        s = hres::resize(in.image, out.image, o);
        if (s.ok()) {
            if (dtype == hres::DType::u8) check_resize<uint8_t>(in.image, out.image, o);
            else check_resize<float>(in.image, out.image, o);
        }
    } else if (op == 1 || op == 2) {
        hres::GridSampleOptions o;
        o.mode = modes[fdp.ConsumeIntegralInRange<int>(0, 3)];  // nearest_exact is rejected
        o.padding = hres::Padding(fdp.ConsumeIntegralInRange<int>(0, 3));  // 3: invalid
        o.align_corners = fdp.ConsumeBool();
        const size_t count = op == 1 ? size_t(std::max<int64_t>(n, 0) * std::max<int64_t>(oh, 0) * std::max<int64_t>(ow, 0) * 2)
                                     : size_t(std::max<int64_t>(n, 0) * 6);
        for (size_t i = 0; i < count; i++) {
            params.push_back(fuzzed_float(fdp));
            finite_params = finite_params && std::isfinite(params.back());
        }
        const float *p = params.empty() || fdp.ConsumeIntegralInRange<int>(0, 40) == 0 ? nullptr : params.data();
        s = op == 1 ? hres::grid_sample(in.image, p, out.image, o) : hres::affine_grid_sample(in.image, p, out.image, o);
        if (s.ok() && finite_params && dtype == hres::DType::f32 && o.mode != hres::Interp::bicubic && op == 1) {
            for (float v : logical<float>(out.image)) {
                if (!std::isfinite(v)) fail("a finite grid sampled a non-finite value");
            }
        }
    } else {
        const hres::FlipAxes axes = hres::FlipAxes(fdp.ConsumeIntegralInRange<int>(0, 3));  // 3: invalid
        s = hres::flip(in.image, out.image, axes);
        if (s.ok()) {
            if (dtype == hres::DType::u8) check_flip<uint8_t>(in.image, out.image, axes);
            else check_flip<float>(in.image, out.image, axes);
        }
    }
    if (!s.ok()) {
        if (s.message().empty()) fail("an error without a message");
        if (out.memory != before) fail("a rejected call wrote to its output");
    } else if (!valid(in.image) || !valid(out.image)) {
        fail("a call with an invalid view succeeded");
    }
    return 0;
}
