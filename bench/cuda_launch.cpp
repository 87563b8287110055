// Where the time of a small CUDA call goes (a measuring tool, not a test).
//
// bench_hres --device cuda times calls in batches between stream
// synchronisations, as a stream of calls runs (batches of at least 2 ms,
// about 500 small calls). A batch costs the larger of two times: the
// host's, enqueueing the calls, and the GPU's, running them. This prints
// both, per call, for
//   * an empty kernel launched through the driver API alone: the floor any
//     one-launch call pays on this machine;
//   * the same with the parameters of hres's flip kernel, passed one pointer
//     each or packed in one buffer, and wrapped in the driver calls Halide
//     21's runtime makes around a launch (which hres no longer makes:
//     runtime/src/cuda.cpp, "Kernel launches");
//   * hres's flip kernel called as a Halide pipeline, buffers wrapped once:
//     what the pipeline and the launch path add to the launch;
//   * hres::flip and a few seed resizes through the wrapper: what the
//     argument checks, the buffer views and the cached tap tables add;
// and, host only, the driver calls the launch path makes.
// RESULTS.md@89f6099 has the numbers and what they mean for the targets. On a
// machine without a GPU, tests/support/stub_libcuda.c stands in for the driver,
// so that the host's share alone can be timed and profiled.
//
//   bench_cuda_launch [ROUNDS] [BATCHES]
// Each round times every case in turn; each cell is the best round's median
// (the host is shared and noisy).
#include "hres/hres.h"

#include "hres_flip_u8_cuda.h"
#include "internal.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using CUresult = int;

// The driver entry points used here, loaded at run time as the library does.
struct Driver {
    CUresult (*cuDevicePrimaryCtxRetain)(void **, int);
    CUresult (*cuCtxSetCurrent)(void *);
    CUresult (*cuCtxPushCurrent)(void *);
    CUresult (*cuCtxPopCurrent)(void **);
    CUresult (*cuCtxGetCurrent)(void **);
    CUresult (*cuCtxGetId)(void *, unsigned long long *);
    CUresult (*cuModuleLoadData)(void **, const void *);
    CUresult (*cuModuleGetFunction)(void **, void *, const char *);
    CUresult (*cuLaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *,
                               void **, void **);
    CUresult (*cuStreamSynchronize)(void *);
    CUresult (*cuStreamCreate)(void **, unsigned);
};

template<typename F>
bool bind(void *library, const char *name, F *fn) {
    *fn = reinterpret_cast<F>(dlsym(library, name));
    return *fn != nullptr;
}

bool load(Driver *d) {
    void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    return library && bind(library, "cuDevicePrimaryCtxRetain", &d->cuDevicePrimaryCtxRetain) &&
           bind(library, "cuCtxSetCurrent", &d->cuCtxSetCurrent) &&
           bind(library, "cuCtxPushCurrent_v2", &d->cuCtxPushCurrent) &&
           bind(library, "cuCtxPopCurrent_v2", &d->cuCtxPopCurrent) &&
           bind(library, "cuCtxGetCurrent", &d->cuCtxGetCurrent) && bind(library, "cuCtxGetId", &d->cuCtxGetId) &&
           bind(library, "cuModuleLoadData", &d->cuModuleLoadData) &&
           bind(library, "cuModuleGetFunction", &d->cuModuleGetFunction) &&
           bind(library, "cuLaunchKernel", &d->cuLaunchKernel) &&
           bind(library, "cuStreamSynchronize", &d->cuStreamSynchronize) &&
           bind(library, "cuStreamCreate", &d->cuStreamCreate);
}

// A kernel that does nothing, as PTX for the driver's JIT.
constexpr char kEmptyKernel[] =
    ".version 7.0\n.target sm_50\n.address_size 64\n"
    ".visible .entry empty(.param .u64 unused)\n{\n ret;\n}\n";

// The same, taking the parameters Halide's flip kernel takes: two pointers,
// 21 32-bit scalars and two flags (the flip kernel's PTX signature).
std::string many_params_kernel() {
    std::string ptx = ".version 7.0\n.target sm_50\n.address_size 64\n.visible .entry many(";
    for (int i = 0; i < 25; i++) {
        ptx += i < 2 ? ".param .u64 p" : i < 23 ? ".param .u32 p" : ".param .u8 p";
        ptx += std::to_string(i) + (i < 24 ? ", " : ")\n{\n ret;\n}\n");
    }
    return ptx;
}

// As bench_hres batches the small calls (20 until 2026-11-29 (afternoon):
// the sections before it in RESULTS.md@89f6099 were timed so).
constexpr int kCallsPerBatch = 500;
int batches = 40;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// A case: one call, and the wait that ends a batch of them.
struct Case {
    std::string what;
    std::function<bool()> call;
    std::function<void()> wait;
    double enqueue = 1e30, total = 1e30;  // best medians so far, us per call
};

// One round of a case: per call, the host's enqueueing and the whole batch
// (enqueue + wait).
void time_case(Case &c) {
    std::vector<double> enqueue, total;
    for (int b = 0; b < batches + 10; b++) {
        const auto t0 = Clock::now();
        for (int i = 0; i < kCallsPerBatch; i++) {
            if (!c.call()) {
                std::printf("%s: call failed\n", c.what.c_str());
                std::exit(1);
            }
        }
        const auto t1 = Clock::now();
        c.wait();
        const auto t2 = Clock::now();
        if (b < 10) continue;  // warm-up (module loads, table uploads)
        enqueue.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / kCallsPerBatch);
        total.push_back(std::chrono::duration<double, std::micro>(t2 - t0).count() / kCallsPerBatch);
    }
    c.enqueue = std::min(c.enqueue, median(enqueue));
    c.total = std::min(c.total, median(total));
}

void host_only(const char *what, const std::function<void()> &call) {
    std::vector<double> ns;
    for (int b = 0; b < 200; b++) {
        const auto t0 = Clock::now();
        for (int i = 0; i < 1000; i++) call();
        ns.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / 1000);
    }
    std::printf("| %s | %.0f ns |\n", what, median(ns));
}

// A device image of `dtype`, NCHW, left uninitialised (only times are read).
hres::Image device_image(hres::DType dtype, int n, int c, int h, int w) {
    void *data = nullptr;
    if (!hres::cuda_malloc(hres::dtype_size(dtype) * n * c * h * w, &data)) {
        std::printf("cuda_malloc failed\n");
        std::exit(1);
    }
    return hres::nchw(data, dtype, n, c, h, w, hres::Device::cuda);
}

}  // namespace

int main(int argc, char **argv) {
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
    if (argc > 2) batches = std::max(10, std::atoi(argv[2]));
    Driver d{};
    if (!load(&d) || !hres::cuda_available()) {
        std::printf("bench_cuda_launch: needs a CUDA GPU and its driver\n");
        return 1;
    }
    std::printf("GPU: %s; batches of %d calls between synchronisations, median of %d batches, best of %d "
                "rounds\n\n",
                hres::cuda_device_name().c_str(), kCallsPerBatch, batches, rounds);
    // The primary context current, as a CUDA runtime or PyTorch user has it.
    void *primary = nullptr;
    if (d.cuDevicePrimaryCtxRetain(&primary, 0) != 0 || d.cuCtxSetCurrent(primary) != 0) {
        std::printf("cannot make the primary context current\n");
        return 1;
    }
    void *module = nullptr, *empty = nullptr;
    if (d.cuModuleLoadData(&module, kEmptyKernel) != 0 || d.cuModuleGetFunction(&empty, module, "empty") != 0) {
        std::printf("cannot load the empty kernel\n");
        return 1;
    }
    const std::string many_ptx = many_params_kernel();
    void *many_module = nullptr, *many = nullptr;
    if (d.cuModuleLoadData(&many_module, many_ptx.c_str()) != 0 ||
        d.cuModuleGetFunction(&many, many_module, "many") != 0) {
        std::printf("cannot load the 25-parameter kernel\n");
        return 1;
    }
    unsigned long long unused = 0;
    void *empty_args[] = {&unused};
    // The 25 parameters, one pointer each (as Halide's runtime passes them)
    // and packed into one buffer at their alignments.
    unsigned long long pointers[2] = {};
    unsigned scalars[21] = {};
    unsigned char flags[2] = {};
    void *many_args[25];
    for (int i = 0; i < 25; i++) {
        many_args[i] = i < 2 ? (void *)&pointers[i] : i < 23 ? (void *)&scalars[i - 2] : (void *)&flags[i - 23];
    }
    alignas(8) unsigned char packed[104] = {};
    size_t packed_size = 102;
    void *packed_extra[] = {(void *)1, packed, (void *)2, &packed_size, (void *)0};
    const auto driver_wait = [&] { d.cuStreamSynchronize(nullptr); };
    const auto hres_wait = [] { (void)hres::cuda_synchronize(); };

    std::vector<Case> cases;
    cases.push_back({"empty kernel, driver API, 1 block of 32", [&] {
        return d.cuLaunchKernel(empty, 1, 1, 1, 32, 1, 1, 0, nullptr, empty_args, nullptr) == 0;
    }, driver_wait});
    cases.push_back({"empty kernel, driver API, 1176 blocks of 256", [&] {
        return d.cuLaunchKernel(empty, 1176, 1, 1, 256, 1, 1, 0, nullptr, empty_args, nullptr) == 0;
    }, driver_wait});
    // The stream kind: the legacy default stream above (PyTorch's default
    // too), the per-thread default stream, streams of the caller's.
    void *per_thread = reinterpret_cast<void *>(2);  // CU_STREAM_PER_THREAD
    void *blocking = nullptr, *non_blocking = nullptr;
    if (d.cuStreamCreate(&blocking, 0) != 0 || d.cuStreamCreate(&non_blocking, 1) != 0) {
        std::printf("cannot create streams\n");
        return 1;
    }
    for (auto [what, stream] : {std::pair{"empty kernel on the per-thread default stream", per_thread},
                                std::pair{"empty kernel on a created stream", blocking},
                                std::pair{"empty kernel on a created non-blocking stream", non_blocking}}) {
        cases.push_back({what, [&d, &empty, &empty_args, stream = stream] {
            return d.cuLaunchKernel(empty, 1, 1, 1, 32, 1, 1, 0, stream, empty_args, nullptr) == 0;
        }, [&d, stream = stream] { d.cuStreamSynchronize(stream); }});
    }

    cases.push_back({"empty kernel of 25 parameters, driver API, 1176 blocks of 256", [&] {
        return d.cuLaunchKernel(many, 1176, 1, 1, 256, 1, 1, 0, nullptr, many_args, nullptr) == 0;
    }, driver_wait});
    cases.push_back({"the same, parameters packed in one buffer", [&] {
        return d.cuLaunchKernel(many, 1176, 1, 1, 256, 1, 1, 0, nullptr, nullptr, packed_extra) == 0;
    }, driver_wait});
    // The driver calls Halide 21's runtime makes around one launch (its
    // Context pushes and pops the context in halide_cuda_initialize_kernels,
    // halide_cuda_run and halide_cuda_finalize_kernels; halide_cuda_run looks
    // the function up by name and allocates the argument arrays).
    cases.push_back({"the same, as Halide 21's runtime calls the driver", [&] {
        void *old = nullptr, *f = nullptr;
        d.cuCtxPushCurrent(primary);
        d.cuCtxPopCurrent(&old);
        d.cuCtxPushCurrent(primary);
        d.cuModuleGetFunction(&f, many_module, "many");
        void **args = static_cast<void **>(std::malloc(26 * sizeof(void *)));
        auto *handles = static_cast<unsigned long long *>(std::malloc(25 * sizeof(unsigned long long)));
        for (int i = 0; i < 25; i++) args[i] = many_args[i];
        const bool ok = d.cuLaunchKernel(f, 1176, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr) == 0;
        std::free(handles);
        std::free(args);
        d.cuCtxPopCurrent(&old);
        d.cuCtxPushCurrent(primary);
        d.cuCtxPopCurrent(&old);
        return ok;
    }, driver_wait});

    const hres::Image flip_in = device_image(hres::DType::u8, 1, 3, 224, 224);
    const hres::Image flip_out = device_image(hres::DType::u8, 1, 3, 224, 224);
    // The wrapper's own views (runtime/src/internal.h), made once.
    hres::internal::HalideView in(flip_in), out(flip_out);
    cases.push_back({"hflip 1x3x224x224 u8: the Halide pipeline, buffers wrapped once",
                     [&] { return hres_flip_u8_cuda(in.get(), true, false, out.get()) == 0; }, hres_wait});
    cases.push_back({"hflip 1x3x224x224 u8: hres::flip",
                     [&] { return hres::flip(flip_in, flip_out, hres::FlipAxes::horizontal).ok(); }, hres_wait});
    cases.push_back({"hflip 1x3x224x224 u8: hres::flip on a created non-blocking stream", [&] {
        hres::ScopedCudaStream on(non_blocking);
        return hres::flip(flip_in, flip_out, hres::FlipAxes::horizontal).ok();
    }, [&] { d.cuStreamSynchronize(non_blocking); }});

    struct Resize {
        const char *what;
        hres::DType dtype;
        int n, h, w, oh, ow;
        hres::Interp mode;
        bool antialias;
        hres::Image src, dst;
        hres::ResizeOptions options;
    };
    constexpr hres::DType f32 = hres::DType::f32, u8 = hres::DType::u8;
    constexpr hres::Interp nearest = hres::Interp::nearest, bilinear = hres::Interp::bilinear;
    Resize resizes[] = {
        {"nearest f32 1x3x300x400 -> 600x700: hres::resize", f32, 1, 300, 400, 600, 700, nearest, false},
        {"bilinear f32 1x3x345x456 -> 270x270: hres::resize", f32, 1, 345, 456, 270, 270, bilinear, false},
        // uint8 takes its tap tables from the wrapper's device cache.
        {"bilinear u8 1x3x345x456 -> 270x270: hres::resize", u8, 1, 345, 456, 270, 270, bilinear, false},
        {"bilinear+aa f32 1x3x345x456 -> 270x270: hres::resize", f32, 1, 345, 456, 270, 270, bilinear, true},
        {"bilinear+aa f32 4x3x345x456 -> 270x270: hres::resize", f32, 4, 345, 456, 270, 270, bilinear, true},
    };
    for (Resize &r : resizes) {
        r.src = device_image(r.dtype, r.n, 3, r.h, r.w);
        r.dst = device_image(r.dtype, r.n, 3, r.oh, r.ow);
        r.options.mode = r.mode;
        r.options.antialias = r.antialias;
        cases.push_back({r.what, [&r] { return hres::resize(r.src, r.dst, r.options).ok(); }, hres_wait});
    }

    for (int round = 0; round < rounds; round++) {
        for (Case &c : cases) time_case(c);
    }
    std::printf("| per call | enqueue us | enqueue + run us |\n|---|---|---|\n");
    for (const Case &c : cases) std::printf("| %s | %.2f | %.2f |\n", c.what.c_str(), c.enqueue, c.total);

    for (const Resize &r : resizes) {
        (void)hres::cuda_free(r.src.data);
        (void)hres::cuda_free(r.dst.data);
    }
    (void)hres::cuda_free(flip_in.data);
    (void)hres::cuda_free(flip_out.data);

    std::printf("\n| host only, per call | time |\n|---|---|\n");
    host_only("cuCtxPushCurrent + cuCtxPopCurrent", [&] {
        void *old = nullptr;
        d.cuCtxPushCurrent(primary);
        d.cuCtxPopCurrent(&old);
    });
    host_only("cuCtxGetCurrent + cuCtxGetId (hres, twice per call)", [&] {
        void *current = nullptr;
        unsigned long long id = 0;
        d.cuCtxGetCurrent(&current);
        d.cuCtxGetId(current, &id);
    });
    host_only("cuModuleGetFunction", [&] {
        void *f = nullptr;
        d.cuModuleGetFunction(&f, module, "empty");
    });
    return 0;
}
