// CUDA specifics, beyond the reference and corpus suites that ctest also runs
// on the GPU (test_resize.cuda, test_sample.cuda):
//  * every CUDA kernel against the same kernel on the CPU: uint8 resize
//    (antialias included, which PyTorch's CUDA lacks) bit-identical, float32
//    within 1e-5, uint8 sampling off by at most 1 where float rounding decides;
//  * device pointers from the CUDA runtime API (cudaMalloc) and two kernels
//    queued on a stream the caller created, in the caller's context;
//  * contexts the caller creates and destroys, and calls from several
//    threads at once (hres loads and launches the kernels itself: cuda.cpp);
//  * without a GPU: CUDA calls fail with a clear Status, nothing aborts;
//  * the tap tables the antialiased CUDA kernels take from the host
//    (resize_taps, on any machine): every tap inside the image, and the
//    tables applied as the kernels apply them equal to the scalar reference.
// Tests that need a GPU skip (GTEST_SKIP) on machines without one.
#include "support/harness.h"

#include "HalideRuntime.h"
#include "hres_resize_taps_bicubic_aa_f32.h"
#include "hres_resize_taps_bicubic_aa_u8.h"
#include "hres_resize_taps_bilinear_aa_f32.h"
#include "hres_resize_taps_bilinear_aa_u8.h"
#include "reference/resize_reference.h"

#ifdef HRES_TEST_CUDART
#include <cuda_runtime.h>
#endif

#include <dlfcn.h>

#include <random>
#include <thread>

namespace hres_test {
namespace {

constexpr double kFloatTolerance = 1e-5;

#define REQUIRE_GPU()                                                   \
    do {                                                                \
        if (!hres::cuda_available()) GTEST_SKIP() << "no CUDA GPU here"; \
    } while (0)

// Runs `op` on the CPU and, through device copies, on the GPU, with the
// same host input; returns both outputs.
template<typename T, typename Op>
void cpu_and_cuda(const std::vector<T> &in, const hres::Image &in_view, std::vector<T> *cpu, std::vector<T> *gpu,
                  const hres::Image &out_view, const std::vector<float> &params, Op op) {
    hres::Image out = out_view;
    out.data = cpu->data();
    hres::Image src = in_view;
    src.data = const_cast<T *>(in.data());
    ASSERT_TRUE(op(src, params.empty() ? nullptr : params.data(), out).ok());

    test_device() = hres::Device::cuda;
    out.data = gpu->data();
    hres::Status s = on_test_device(src, out, params.empty() ? nullptr : params.data(), params.size(), op);
    test_device() = hres::Device::cpu;
    ASSERT_TRUE(s.ok()) << s.message();
}

// uint8 sampling computes in float and rounds: CPU and GPU may round a value
// apart (by 1) only where it lies within float rounding of a .5 boundary.
// `exact` is the float32 kernel's value on the same input (the oracle).
::testing::AssertionResult near_ties(const std::vector<uint8_t> &got, const std::vector<uint8_t> &want,
                                     const std::vector<float> &exact) {
    for (size_t i = 0; i < got.size(); i++) {
        const int d = std::abs(int(got[i]) - int(want[i]));
        if (d == 0) continue;
        const double distance = std::fabs(exact[i] - std::floor(exact[i]) - 0.5);
        if (d > 1 || distance > 1e-3) {
            return ::testing::AssertionFailure() << "element " << i << ": " << int(got[i]) << " vs " << int(want[i])
                                                 << " (float value " << exact[i] << ")";
        }
    }
    return ::testing::AssertionSuccess();
}

template<typename T>
void compare_all_kernels(uint32_t seed) {
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 24; trial++) {
        const int n = 1 + rng() % 2, c = 1 + rng() % 4, h = 1 + rng() % 90, w = 1 + rng() % 90;
        const int oh = 1 + rng() % 90, ow = 1 + rng() % 90;
        const Layout layout = rng() % 2 ? Layout::nhwc : Layout::nchw;
        SCOPED_TRACE(testing::Message() << "trial " << trial << ": " << n << "x" << c << "x" << h << "x" << w << " -> "
                                        << oh << "x" << ow << " " << name(layout));
        std::vector<T> in = random_pixels<T>(rng, size_t(n) * c * h * w);
        const hres::Image src = view(in, n, c, h, w, layout);
        std::vector<T> cpu(size_t(n) * c * oh * ow), gpu(cpu.size());
        const hres::Image dst = view(cpu, n, c, oh, ow, layout);

        // Every resize mode.
        for (hres::Interp mode : {hres::Interp::nearest, hres::Interp::nearest_exact, hres::Interp::bilinear,
                                  hres::Interp::bicubic}) {
            const bool filtered = mode == hres::Interp::bilinear || mode == hres::Interp::bicubic;
            for (int variant = 0; variant < (filtered ? 3 : 1); variant++) {
                const hres::ResizeOptions o{mode, variant == 1, variant == 2};
                SCOPED_TRACE(testing::Message() << "resize " << hres::to_string(mode) << (o.antialias ? " aa" : "")
                                                << (o.align_corners ? " align_corners" : ""));
                cpu_and_cuda(in, src, &cpu, &gpu, dst, {},
                             [&](const hres::Image &i, const float *, const hres::Image &r) { return hres::resize(i, r, o); });
                EXPECT_TRUE(images_match(gpu, cpu, c, oh, ow, std::is_same_v<T, float> ? kFloatTolerance : 0.0));
            }
        }

        // grid_sample and the affine sampler, every mode and padding.
        std::uniform_real_distribution<float> coord(-1.3f, 1.3f), coef(-1.2f, 1.2f);
        std::vector<float> grid(size_t(n) * oh * ow * 2), theta(size_t(n) * 6);
        for (float &g : grid) g = coord(rng);
        for (float &t : theta) t = coef(rng);
        for (hres::Interp mode : {hres::Interp::bilinear, hres::Interp::nearest, hres::Interp::bicubic}) {
            for (hres::Padding padding : {hres::Padding::zeros, hres::Padding::border, hres::Padding::reflection}) {
                const hres::GridSampleOptions o{mode, padding, bool(rng() % 2)};
                for (bool affine : {false, true}) {
                    SCOPED_TRACE(testing::Message() << (affine ? "affine " : "grid ") << hres::to_string(mode) << " "
                                                    << hres::to_string(padding) << (o.align_corners ? " ac" : ""));
                    cpu_and_cuda(in, src, &cpu, &gpu, dst, affine ? theta : grid,
                                 [&](const hres::Image &i, const float *p, const hres::Image &r) {
                                     return affine ? hres::affine_grid_sample(i, p, r, o) : hres::grid_sample(i, p, r, o);
                                 });
                    if constexpr (std::is_same_v<T, float>) {
                        EXPECT_TRUE(images_match(gpu, cpu, c, oh, ow, kFloatTolerance));
                    } else {
                        std::vector<float> in_f(in.begin(), in.end()), exact(cpu.size());
                        hres::Image fsrc = view(in_f, n, c, h, w, layout), fdst = view(exact, n, c, oh, ow, layout);
                        const float *p = affine ? theta.data() : grid.data();
                        ASSERT_TRUE((affine ? hres::affine_grid_sample(fsrc, p, fdst, o)
                                            : hres::grid_sample(fsrc, p, fdst, o)).ok());
                        EXPECT_TRUE(near_ties(gpu, cpu, exact));
                    }
                }
            }
        }

        // Flips, bit-exact.
        std::vector<T> fcpu(in.size()), fgpu(in.size());
        for (hres::FlipAxes axes : {hres::FlipAxes::horizontal, hres::FlipAxes::vertical, hres::FlipAxes::both}) {
            SCOPED_TRACE(hres::to_string(axes));
            cpu_and_cuda(in, src, &fcpu, &fgpu, view(fcpu, n, c, h, w, layout), {},
                         [&](const hres::Image &i, const float *, const hres::Image &r) { return hres::flip(i, r, axes); });
            EXPECT_TRUE(images_match(fgpu, fcpu, c, h, w, 0.0));
        }
    }
}

TEST(Cuda, EveryKernelMatchesCpuUint8) {
    REQUIRE_GPU();
    compare_all_kernels<uint8_t>(11);
}

TEST(Cuda, EveryKernelMatchesCpuFloat32) {
    REQUIRE_GPU();
    compare_all_kernels<float>(12);
}

// Antialiased resizes on grids of each of the schedule's block shapes
// (schedules/cuda_loops.cpp): few outputs (two rows per thread), many small
// planes (the narrow blocks, with passes of their own), and large images (a
// pixel's channels per thread), the seed case among them; uint8 (which
// PyTorch's CUDA lacks) bit-identical to the CPU, float32 within 1e-5.
template<typename T>
void antialiased_grids(uint32_t seed) {
    struct Shape {
        int n, c, h, w, oh, ow;
    };
    const Shape shapes[] = {{1, 3, 345, 456, 270, 270},    // few outputs
                            {4, 3, 345, 456, 270, 270},    // many small planes (the seed case)
                            {2, 3, 1500, 1300, 300, 400},  // many small planes, windows of 5 rows
                            {1, 4, 1200, 1400, 800, 700}};  // large
    std::mt19937 rng(seed);
    for (const Shape &k : shapes) {
        std::vector<T> in = random_pixels<T>(rng, size_t(k.n) * k.c * k.h * k.w);
        std::vector<T> cpu(size_t(k.n) * k.c * k.oh * k.ow), gpu(cpu.size());
        for (Layout layout : {Layout::nchw, Layout::nhwc}) {
            for (hres::Interp mode : {hres::Interp::bilinear, hres::Interp::bicubic}) {
                SCOPED_TRACE(testing::Message() << k.n << "x" << k.c << "x" << k.h << "x" << k.w << " -> " << k.oh
                                                << "x" << k.ow << " " << name(layout) << " " << hres::to_string(mode));
                const hres::ResizeOptions o{mode, true, false};
                cpu_and_cuda(in, view(in, k.n, k.c, k.h, k.w, layout), &cpu, &gpu,
                             view(cpu, k.n, k.c, k.oh, k.ow, layout), {},
                             [&](const hres::Image &i, const float *, const hres::Image &r) { return hres::resize(i, r, o); });
                EXPECT_TRUE(images_match(gpu, cpu, k.c, k.oh, k.ow, std::is_same_v<T, float> ? kFloatTolerance : 0.0));
            }
        }
    }
}

TEST(Cuda, AntialiasedGridsUint8BitIdentical) {
    REQUIRE_GPU();
    antialiased_grids<uint8_t>(5);
}

TEST(Cuda, AntialiasedGridsFloat32MatchCpu) {
    REQUIRE_GPU();
    antialiased_grids<float>(6);
}

// The tap tables of the uint8 and antialiased kernels are cached on the device
// per shape and options: calls that differ only in align_corners, an explicit
// scale or antialias must each get their own tables, in any order, and more
// shapes than the cache keeps (it drops a context's entries at 256) must stay
// right.
TEST(Cuda, CachedTablesFollowEachCallsShapeAndOptions) {
    REQUIRE_GPU();
    std::mt19937 rng(21);
    std::vector<uint8_t> in = random_pixels<uint8_t>(rng, 2 * 3 * 37 * 53);
    const hres::Image src = view(in, 2, 3, 37, 53, Layout::nhwc);
    std::vector<hres::ResizeOptions> variants;
    for (hres::Interp mode : {hres::Interp::bilinear, hres::Interp::bicubic}) {
        variants.push_back({mode, false, false});
        variants.push_back({mode, false, true});
        variants.push_back({mode, true, false});
        hres::ResizeOptions scaled{mode, false, false};
        scaled.scale_h = 0.61;
        scaled.scale_w = 0.43;
        variants.push_back(scaled);
    }
    auto check = [&](const hres::ResizeOptions &o, int oh, int ow) {
        std::vector<uint8_t> cpu(size_t(2) * 3 * oh * ow), gpu(cpu.size());
        cpu_and_cuda(in, src, &cpu, &gpu, view(cpu, 2, 3, oh, ow, Layout::nhwc), {},
                     [&](const hres::Image &i, const float *, const hres::Image &r) { return hres::resize(i, r, o); });
        EXPECT_TRUE(images_match(gpu, cpu, 3, oh, ow, 0.0))
            << hres::to_string(o.mode) << (o.antialias ? " aa" : "") << (o.align_corners ? " ac" : "") << " scale "
            << o.scale_h << " -> " << oh << "x" << ow;
    };
    for (int round = 0; round < 2; round++) {
        for (size_t v = 0; v < variants.size(); v++) check(variants[round ? variants.size() - 1 - v : v], 22, 23);
    }
    for (int ow = 1; ow <= 300; ow++) {
        check(variants[ow % variants.size()], 1 + ow % 40, ow);
    }
}

// Large downscale factors (thumbnails): windows of dozens of input rows per
// output row, with and without antialias, both dtypes.
template<typename T>
void large_downscale(std::mt19937 &rng, const hres::ResizeOptions &o, Layout layout) {
    std::vector<T> in = random_pixels<T>(rng, 3 * 1500 * 1300), cpu(3 * 19 * 23), gpu(cpu.size());
    cpu_and_cuda(in, view(in, 1, 3, 1500, 1300, layout), &cpu, &gpu, view(cpu, 1, 3, 19, 23, layout), {},
                 [&](const hres::Image &i, const float *, const hres::Image &r) { return hres::resize(i, r, o); });
    EXPECT_TRUE(images_match(gpu, cpu, 3, 19, 23, std::is_same_v<T, float> ? kFloatTolerance : 0.0));
}

TEST(Cuda, LargeDownscalesMatchCpu) {
    REQUIRE_GPU();
    std::mt19937 rng(9);
    for (hres::Interp mode : {hres::Interp::bilinear, hres::Interp::bicubic}) {
        for (bool antialias : {false, true}) {
            const hres::ResizeOptions o{mode, antialias, false};
            SCOPED_TRACE(testing::Message() << hres::to_string(mode) << (antialias ? " antialias" : ""));
            large_downscale<uint8_t>(rng, o, Layout::nhwc);
            large_downscale<float>(rng, o, Layout::nchw);
        }
    }
}

#ifdef HRES_TEST_CUDART
// A checked CUDA runtime API call.
#define CUDART(call) ASSERT_EQ((call), cudaSuccess) << #call

// Pointers from cudaMalloc, in the primary context the runtime API made
// current: hres must use that context, not one of its own.
TEST(Cuda, RuntimeApiDevicePointers) {
    REQUIRE_GPU();
    std::mt19937 rng(7);
    const int h = 123, w = 77, oh = 64, ow = 50;
    std::vector<float> in = random_pixels<float>(rng, 3 * h * w), want(3 * oh * ow), got(want.size());
    const hres::ResizeOptions o{hres::Interp::bicubic, true, false};
    ASSERT_TRUE(hres::resize(hres::nchw(in.data(), hres::DType::f32, 1, 3, h, w),
                             hres::nchw(want.data(), hres::DType::f32, 1, 3, oh, ow), o).ok());
    float *d_in = nullptr, *d_out = nullptr;
    CUDART(cudaMalloc(&d_in, in.size() * sizeof(float)));
    CUDART(cudaMalloc(&d_out, got.size() * sizeof(float)));
    CUDART(cudaMemcpy(d_in, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
    hres::Status s = hres::resize(hres::nchw(d_in, hres::DType::f32, 1, 3, h, w, hres::Device::cuda),
                                  hres::nchw(d_out, hres::DType::f32, 1, 3, oh, ow, hres::Device::cuda), o);
    EXPECT_TRUE(s.ok()) << s.message();
    CUDART(cudaDeviceSynchronize());
    CUDART(cudaMemcpy(got.data(), d_out, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CUDART(cudaFree(d_in));
    CUDART(cudaFree(d_out));
    EXPECT_TRUE(images_match(got, want, 3, oh, ow, kFloatTolerance));
}

// Two dependent kernels (resize, then a flip of its output) on a stream the
// caller created; only that stream is synchronised before reading back.
TEST(Cuda, TwoKernelsOnUserStream) {
    REQUIRE_GPU();
    std::mt19937 rng(8);
    const int n = 2, c = 3, h = 200, w = 300, oh = 150, ow = 111;
    std::vector<uint8_t> in = random_pixels<uint8_t>(rng, size_t(n) * c * h * w);
    std::vector<uint8_t> resized(size_t(n) * c * oh * ow), want(resized.size()), got(resized.size());
    const hres::ResizeOptions o{hres::Interp::bilinear, true, false};
    ASSERT_TRUE(hres::resize(hres::nhwc(in.data(), hres::DType::u8, n, c, h, w),
                             hres::nhwc(resized.data(), hres::DType::u8, n, c, oh, ow), o).ok());
    ASSERT_TRUE(hres::flip(hres::nhwc(resized.data(), hres::DType::u8, n, c, oh, ow),
                           hres::nhwc(want.data(), hres::DType::u8, n, c, oh, ow), hres::FlipAxes::both).ok());

    cudaStream_t stream;
    CUDART(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    uint8_t *d_in = nullptr, *d_mid = nullptr, *d_out = nullptr;
    CUDART(cudaMalloc(&d_in, in.size()));
    CUDART(cudaMalloc(&d_mid, resized.size()));
    CUDART(cudaMalloc(&d_out, got.size()));
    CUDART(cudaMemcpyAsync(d_in, in.data(), in.size(), cudaMemcpyHostToDevice, stream));
    {
        hres::ScopedCudaStream on(stream);
        EXPECT_EQ(hres::cuda_stream(), static_cast<void *>(stream));
        hres::Status s = hres::resize(hres::nhwc(d_in, hres::DType::u8, n, c, h, w, hres::Device::cuda),
                                      hres::nhwc(d_mid, hres::DType::u8, n, c, oh, ow, hres::Device::cuda), o);
        EXPECT_TRUE(s.ok()) << s.message();
        s = hres::flip(hres::nhwc(d_mid, hres::DType::u8, n, c, oh, ow, hres::Device::cuda),
                       hres::nhwc(d_out, hres::DType::u8, n, c, oh, ow, hres::Device::cuda), hres::FlipAxes::both);
        EXPECT_TRUE(s.ok()) << s.message();
    }
    EXPECT_EQ(hres::cuda_stream(), nullptr);
    CUDART(cudaMemcpyAsync(got.data(), d_out, got.size(), cudaMemcpyDeviceToHost, stream));
    CUDART(cudaStreamSynchronize(stream));
    CUDART(cudaFree(d_in));
    CUDART(cudaFree(d_mid));
    CUDART(cudaFree(d_out));
    CUDART(cudaStreamDestroy(stream));
    EXPECT_TRUE(images_match(got, want, c, oh, ow, 0.0));
}
#endif

// Contexts the caller creates with the driver API, one after another (the
// driver may give the second the first one's handle), then none current:
// kernels and tap tables are loaded in each context, and a thread without a
// current context runs in device 0's primary context.
TEST(Cuda, ContextsTheCallerCreates) {
    REQUIRE_GPU();
    void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(library, nullptr);
    using Create = int (*)(void **, unsigned, int);
    using Destroy = int (*)(void *);
    using Pop = int (*)(void **);
    using Push = int (*)(void *);
    const auto create = reinterpret_cast<Create>(dlsym(library, "cuCtxCreate_v2"));
    const auto destroy = reinterpret_cast<Destroy>(dlsym(library, "cuCtxDestroy_v2"));
    const auto pop = reinterpret_cast<Pop>(dlsym(library, "cuCtxPopCurrent_v2"));
    const auto push = reinterpret_cast<Push>(dlsym(library, "cuCtxPushCurrent_v2"));
    ASSERT_TRUE(create && destroy && pop && push);
    std::vector<void *> saved;  // what earlier tests left current, put back at the end
    for (void *context = nullptr; pop(&context) == 0 && context; context = nullptr) saved.push_back(context);

    std::mt19937 rng(9);
    const int n = 2, c = 3, h = 97, w = 131, oh = 40, ow = 57;
    std::vector<uint8_t> in = random_pixels<uint8_t>(rng, size_t(n) * c * h * w);
    const hres::Image src = view(in, n, c, h, w, Layout::nchw);
    std::vector<uint8_t> cpu(size_t(n) * c * oh * ow), gpu(cpu.size()), fcpu(in.size()), fgpu(in.size());
    const auto check = [&](const char *where) {
        SCOPED_TRACE(where);
        for (hres::Interp mode : {hres::Interp::bilinear, hres::Interp::bicubic, hres::Interp::nearest_exact}) {
            const hres::ResizeOptions o{mode, mode != hres::Interp::nearest_exact, false};
            cpu_and_cuda(in, src, &cpu, &gpu, view(cpu, n, c, oh, ow, Layout::nchw), {},
                         [&](const hres::Image &i, const float *, const hres::Image &r) { return hres::resize(i, r, o); });
            EXPECT_TRUE(images_match(gpu, cpu, c, oh, ow, 0.0)) << hres::to_string(mode);
        }
        cpu_and_cuda(in, src, &fcpu, &fgpu, view(fcpu, n, c, h, w, Layout::nchw), {},
                     [&](const hres::Image &i, const float *, const hres::Image &r) {
                         return hres::flip(i, r, hres::FlipAxes::both);
                     });
        EXPECT_TRUE(images_match(fgpu, fcpu, c, h, w, 0.0));
    };
    for (const char *round : {"first created context", "second created context"}) {
        void *context = nullptr;
        ASSERT_EQ(create(&context, 0, 0), 0);
        check(round);
        EXPECT_EQ(destroy(context), 0);
    }
    check("no context current");
    for (auto it = saved.rbegin(); it != saved.rend(); ++it) EXPECT_EQ(push(*it), 0);
    dlclose(library);
}

// Several threads calling at once, each with its own kernels (some loaded
// for the first time) and its own device buffers, on the default stream.
TEST(Cuda, CallsFromSeveralThreads) {
    REQUIRE_GPU();
    constexpr int kThreads = 6, kCalls = 20;
    const int n = 1, c = 3, h = 150, w = 170, oh = 96, ow = 64;
    struct Work {
        hres::DType dtype;
        hres::ResizeOptions options;
    };
    const Work work[kThreads] = {
        {hres::DType::u8, {hres::Interp::bilinear, true, false}}, {hres::DType::f32, {hres::Interp::bicubic, true, true}},
        {hres::DType::u8, {hres::Interp::nearest, false, false}}, {hres::DType::f32, {hres::Interp::bilinear, false, true}},
        {hres::DType::u8, {hres::Interp::bicubic, false, false}}, {hres::DType::f32, {hres::Interp::nearest_exact}},
    };
    std::mt19937 rng(10);
    // Inputs and CPU results as float32 values (uint8 ones held exactly),
    // stored in each thread's dtype.
    std::vector<std::vector<float>> inputs(kThreads), wants(kThreads), gots(kThreads);
    for (int t = 0; t < kThreads; t++) {
        const bool u8 = work[t].dtype == hres::DType::u8;
        std::vector<uint8_t> in8 = random_pixels<uint8_t>(rng, size_t(n) * c * h * w), out8(size_t(n) * c * oh * ow);
        std::vector<float> inf = random_pixels<float>(rng, in8.size()), outf(out8.size());
        if (u8) {
            inf.assign(in8.begin(), in8.end());
            ASSERT_TRUE(hres::resize(view(in8, n, c, h, w, Layout::nhwc), view(out8, n, c, oh, ow, Layout::nhwc),
                                     work[t].options).ok());
            outf.assign(out8.begin(), out8.end());
        } else {
            ASSERT_TRUE(hres::resize(view(inf, n, c, h, w, Layout::nhwc), view(outf, n, c, oh, ow, Layout::nhwc),
                                     work[t].options).ok());
        }
        inputs[t] = inf;
        wants[t] = outf;
    }
    std::vector<std::string> failures(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back([&, t] {
            const hres::DType dtype = work[t].dtype;
            const size_t element = hres::dtype_size(dtype), in_count = inputs[t].size(), out_count = wants[t].size();
            std::vector<uint8_t> in_bytes(in_count * element), out_bytes(out_count * element);
            for (size_t i = 0; i < in_count; i++) {
                if (dtype == hres::DType::u8) in_bytes[i] = uint8_t(inputs[t][i]);
                else std::memcpy(&in_bytes[i * element], &inputs[t][i], element);
            }
            hres::CudaBuffer din, dout;
            hres::Status s = din.upload(in_bytes.data(), in_bytes.size());
            if (s) s = dout.upload(out_bytes.data(), out_bytes.size());
            for (int call = 0; s && call < kCalls; call++) {
                s = hres::resize(hres::nhwc(din.get(), dtype, n, c, h, w, hres::Device::cuda),
                                 hres::nhwc(dout.get(), dtype, n, c, oh, ow, hres::Device::cuda), work[t].options);
            }
            if (s) s = hres::cuda_download(out_bytes.data(), dout.get(), out_bytes.size());
            if (!s) {
                failures[t] = s.message();
                return;
            }
            gots[t].resize(out_count);
            for (size_t i = 0; i < out_count; i++) {
                if (dtype == hres::DType::u8) gots[t][i] = out_bytes[i];
                else std::memcpy(&gots[t][i], &out_bytes[i * element], element);
            }
        });
    }
    for (std::thread &thread : threads) thread.join();
    for (int t = 0; t < kThreads; t++) {
        SCOPED_TRACE(testing::Message() << "thread " << t);
        EXPECT_EQ(failures[t], "");
        const double tolerance = work[t].dtype == hres::DType::u8 ? 0.0 : kFloatTolerance;
        EXPECT_TRUE(images_match(gots[t], wants[t], c, oh, ow, tolerance));
    }
}

// Without a GPU every CUDA entry point reports why, and nothing aborts.
TEST(Cuda, WithoutGpuCallsFailCleanly) {
    if (hres::cuda_available()) GTEST_SKIP() << "a GPU is present";
    float in[4] = {0, 1, 2, 3}, out[1] = {0};
    const hres::Image src = hres::nchw(in, hres::DType::f32, 1, 1, 2, 2, hres::Device::cuda);
    const hres::Image dst = hres::nchw(out, hres::DType::f32, 1, 1, 1, 1, hres::Device::cuda);
    const float theta[6] = {1, 0, 0, 0, 1, 0};
    const hres::Status statuses[] = {
        hres::resize(src, dst, {hres::Interp::bilinear}),
        hres::affine_grid_sample(src, theta, dst, {}),
        hres::flip(src, hres::nchw(out, hres::DType::f32, 1, 1, 2, 2, hres::Device::cuda), hres::FlipAxes::both),
    };
    for (const hres::Status &s : statuses) {
        EXPECT_FALSE(s.ok());
        EXPECT_NE(s.message().find("CUDA"), std::string::npos) << s.message();
    }
    void *p = nullptr;
    EXPECT_FALSE(hres::cuda_malloc(16, &p).ok());
    EXPECT_EQ(p, nullptr);
    EXPECT_FALSE(hres::cuda_synchronize().ok());
    EXPECT_TRUE(hres::cuda_device_name().empty());
}

// Mixed devices are refused whatever the machine.
TEST(Cuda, MixedDevicesRejected) {
    float in[4] = {0, 1, 2, 3}, out[1] = {0};
    hres::Status s = hres::resize(hres::nchw(in, hres::DType::f32, 1, 1, 2, 2),
                                  hres::nchw(out, hres::DType::f32, 1, 1, 1, 1, hres::Device::cuda), {});
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find("different devices"), std::string::npos) << s.message();
}

// resize_taps: in extent, out extent, align_corners, scale -> start, weight,
// shift, taps.
using TapsPipeline = int (*)(int, int, bool, double, halide_buffer_t *, halide_buffer_t *, halide_buffer_t *,
                             halide_buffer_t *);

// One axis' tables from resize_taps, applied to `row` as the antialiased
// CUDA kernels apply them: exactly `taps` taps per output from start(i), no
// clamping (the kernels promise Halide that every tap lies in the image).
template<typename T>
::testing::AssertionResult tables_resample_row(TapsPipeline taps_kernel, const std::vector<T> &row, int out,
                                               bool align_corners, double scale, std::vector<T> *result) {
    const int in = int(row.size());
    const int rows = in + 3;  // at least any tap count (at most in)
    std::vector<int32_t> start(out);
    std::vector<float> weight(size_t(rows) * out);
    int32_t shift = 0, taps = 0;
    halide_dimension_t start_dim(0, out, 1), weight_dims[2] = {{0, rows, 1}, {0, out, rows}};
    halide_buffer_t start_buf{}, weight_buf{}, shift_buf{}, taps_buf{};
    start_buf.type = halide_type_t(halide_type_int, 32);
    start_buf.dimensions = 1;
    start_buf.dim = &start_dim;
    start_buf.host = reinterpret_cast<uint8_t *>(start.data());
    weight_buf.type = halide_type_t(halide_type_float, 32);
    weight_buf.dimensions = 2;
    weight_buf.dim = weight_dims;
    weight_buf.host = reinterpret_cast<uint8_t *>(weight.data());
    for (auto [buf, value] : {std::pair{&shift_buf, &shift}, std::pair{&taps_buf, &taps}}) {
        buf->type = halide_type_t(halide_type_int, 32);
        buf->host = reinterpret_cast<uint8_t *>(value);
    }
    if (int e = taps_kernel(in, out, align_corners, scale, &start_buf, &weight_buf, &shift_buf, &taps_buf); e != 0) {
        return ::testing::AssertionFailure() << "resize_taps failed: " << e;
    }
    if (taps < 1 || taps > in) return ::testing::AssertionFailure() << taps << " taps for " << in << " pixels";
    result->resize(out);
    for (int i = 0; i < out; i++) {
        if (start[i] < 0 || start[i] + taps > in) {
            return ::testing::AssertionFailure() << "output " << i << ": taps " << start[i] << ".."
                                                 << start[i] + taps - 1 << " outside 0.." << in - 1;
        }
        if constexpr (std::is_same_v<T, float>) {
            float sum = 0.0f;
            for (int k = 0; k < taps; k++) sum = std::fma(row[start[i] + k], weight[size_t(i) * rows + k], sum);
            (*result)[i] = sum;
        } else {
            int32_t sum = int32_t(1) << (shift - 1);
            for (int k = 0; k < taps; k++) sum += int32_t(row[start[i] + k]) * int32_t(weight[size_t(i) * rows + k]);
            (*result)[i] = uint8_t(std::clamp(sum >> shift, 0, 255));
        }
    }
    return ::testing::AssertionSuccess();
}

template<typename T>
void tables_match_reference(uint32_t seed, TapsPipeline bilinear, TapsPipeline bicubic) {
    std::mt19937 rng(seed);
    const int sizes[] = {1, 2, 3, 4, 5, 7, 9, 16, 31, 100, 270, 345, 456};
    for (int in : sizes) {
        for (int out : sizes) {
            for (int variant = 0; variant < 3; variant++) {
                const bool align_corners = variant == 1;
                // An explicit factor near in/out (PyTorch: out = trunc(in * scale)).
                const double scale = variant == 2 ? double(out) / in * (0.9 + 0.2 * (rng() % 1000) / 1000.0) : 0.0;
                std::vector<T> row = random_pixels<T>(rng, size_t(in));
                for (bool cubic : {false, true}) {
                    SCOPED_TRACE(testing::Message() << in << " -> " << out << (cubic ? " bicubic" : " bilinear")
                                                    << (align_corners ? " align_corners" : "") << " scale " << scale);
                    std::vector<T> got;
                    ASSERT_TRUE(tables_resample_row(cubic ? bicubic : bilinear, row, out, align_corners, scale, &got));
                    hres_ref::ResizeParams p{cubic ? hres_ref::Mode::bicubic : hres_ref::Mode::bilinear, true,
                                             align_corners, 0.0, scale};
                    const std::vector<T> want = hres_ref::resize(row, 1, 1, 1, in, 1, out, p);
                    EXPECT_TRUE(images_match(got, want, 1, 1, out, std::is_same_v<T, float> ? kFloatTolerance : 0.0));
                }
            }
        }
    }
}

TEST(CudaTapTables, FittedInsideTheImageFloat32) {
    tables_match_reference<float>(20261129, hres_resize_taps_bilinear_aa_f32, hres_resize_taps_bicubic_aa_f32);
}

TEST(CudaTapTables, FittedInsideTheImageUint8) {
    tables_match_reference<uint8_t>(20261130, hres_resize_taps_bilinear_aa_u8, hres_resize_taps_bicubic_aa_u8);
}

}  // namespace
}  // namespace hres_test
