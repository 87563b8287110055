// The driver calls a CUDA call makes, counted by the stub driver
// (support/stub_libcuda.c) that ctest puts in libcuda.so.1's place for this
// binary, so that it runs on any machine, GPU or not. hres loads and
// launches its kernels itself (runtime/src/cuda.cpp, "Kernel launches"); a
// call after the first makes one cuLaunchKernel, loads no module and looks
// no function up, and enters no context where the caller's is current (the
// primary context, entered per launch, where none is). The stub runs
// nothing: outputs are not checked here (test_cuda and the CUDA suites do
// that on a GPU).
#include "hres/hres.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace {

struct Stub {
    long (*calls)(const char *) = nullptr;
    int (*set_current)(void *) = nullptr;
    int (*get_current)(void **) = nullptr;
};

// The stub hres loaded, or a reason to skip (the real driver was found).
::testing::AssertionResult load_stub(Stub *stub) {
    if (!hres::cuda_available()) return ::testing::AssertionFailure() << hres::cuda_status().message();
    void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!library) return ::testing::AssertionFailure() << "libcuda.so.1 is not loaded";
    stub->calls = reinterpret_cast<long (*)(const char *)>(dlsym(library, "stub_calls"));
    stub->set_current = reinterpret_cast<int (*)(void *)>(dlsym(library, "cuCtxSetCurrent"));
    stub->get_current = reinterpret_cast<int (*)(void **)>(dlsym(library, "cuCtxGetCurrent"));
    if (!stub->calls) return ::testing::AssertionFailure() << "libcuda.so.1 is a real driver, not the stub";
    return ::testing::AssertionSuccess();
}

// Driver calls per call of `call`, over `calls` calls after a first one.
struct PerCall {
    double launches, pushes, pops, module_loads, function_lookups;
};

PerCall count(const Stub &stub, const std::function<hres::Status()> &call, int calls = 50) {
    EXPECT_TRUE(call().ok());  // the first call loads the kernels
    const char *names[] = {"cuLaunchKernel", "cuCtxPushCurrent_v2", "cuCtxPopCurrent_v2", "cuModuleLoadDataEx",
                           "cuModuleGetFunction"};
    long before[5], after[5];
    for (int i = 0; i < 5; i++) before[i] = stub.calls(names[i]);
    for (int i = 0; i < calls; i++) EXPECT_TRUE(call().ok());
    for (int i = 0; i < 5; i++) after[i] = stub.calls(names[i]);
    const auto per_call = [&](int i) { return double(after[i] - before[i]) / calls; };
    return {per_call(0), per_call(1), per_call(2), per_call(3), per_call(4)};
}

// Device images of the stub (host memory), NCHW.
struct DeviceImages {
    std::vector<hres::CudaBuffer> buffers;
    hres::Image make(hres::DType dtype, int n, int c, int h, int w) {
        std::vector<unsigned char> zeros(hres::dtype_size(dtype) * n * c * h * w);
        buffers.emplace_back();
        EXPECT_TRUE(buffers.back().upload(zeros.data(), zeros.size()).ok());
        return hres::nchw(buffers.back().get(), dtype, n, c, h, w, hres::Device::cuda);
    }
};

TEST(CudaLaunchPath, OneLaunchPerCallInTheCallersContext) {
    Stub stub;
    if (::testing::AssertionResult loaded = load_stub(&stub); !loaded) GTEST_SKIP() << loaded.message();
    DeviceImages images;
    const hres::Image flip_in = images.make(hres::DType::u8, 1, 3, 224, 224);
    const hres::Image flip_out = images.make(hres::DType::u8, 1, 3, 224, 224);
    const hres::Image src = images.make(hres::DType::f32, 1, 3, 345, 456);
    const hres::Image dst = images.make(hres::DType::f32, 1, 3, 270, 270);
    const hres::Image src8 = images.make(hres::DType::u8, 1, 3, 345, 456);
    const hres::Image dst8 = images.make(hres::DType::u8, 1, 3, 270, 270);
    const float theta[6] = {0.9f, 0.1f, 0.0f, -0.1f, 0.9f, 0.05f};
    struct Case {
        const char *what;
        std::function<hres::Status()> call;
        bool scratch;  // Halide's runtime allocates device scratch per call (and enters the context for it)
    };
    const Case cases[] = {
        {"flip u8", [&] { return hres::flip(flip_in, flip_out, hres::FlipAxes::horizontal); }, false},
        {"bilinear f32", [&] { return hres::resize(src, dst, {hres::Interp::bilinear}); }, false},
        {"bilinear u8 (tap tables)", [&] { return hres::resize(src8, dst8, {hres::Interp::bilinear}); }, false},
        {"bilinear+aa f32", [&] { return hres::resize(src, dst, {hres::Interp::bilinear, true}); }, true},
        {"affine bicubic f32", [&] {
             return hres::affine_grid_sample(src, theta, dst, {hres::Interp::bicubic});
         }, false},
    };
    void *context = nullptr;
    ASSERT_EQ(stub.get_current(&context), 0);
    ASSERT_NE(context, nullptr);  // the stub starts with a context current
    for (const Case &c : cases) {
        SCOPED_TRACE(c.what);
        const PerCall n = count(stub, c.call);
        EXPECT_EQ(n.launches, 1.0);
        EXPECT_EQ(n.module_loads, 0.0);
        EXPECT_EQ(n.function_lookups, 0.0);
        EXPECT_EQ(n.pushes, n.pops);
        if (!c.scratch) EXPECT_EQ(n.pushes, 0.0);
    }

    // No context current: hres enters the primary context for each launch
    // (halide_cuda_initialize_kernels and halide_cuda_run) and leaves it.
    ASSERT_EQ(stub.set_current(nullptr), 0);
    const PerCall n = count(stub, cases[0].call);
    EXPECT_EQ(n.launches, 1.0);
    EXPECT_EQ(n.pushes, 2.0);
    EXPECT_EQ(n.pops, 2.0);
    EXPECT_EQ(n.module_loads, 0.0);
    ASSERT_EQ(stub.set_current(context), 0);
}

}  // namespace
