// Times one AOT-compiled hres kernel (x86) on a synthetic image: the driver
// of bench/tune/kernel_ab.sh, which builds it once per schedule variant.
//
//   kernel_timer N C H W OH OW LAYOUT(nchw|nhwc) THREADS SECONDS
//
// Prints "median <us> checksum <sum>": the checksum tells variants that
// compute different outputs apart (a schedule must not change results).
// Built with -DKERNEL_KIND=1 (resize_nearest), 2 (resize_filtered) or 3
// (affine_grid_sample, a 10-degree rotation; padding zeros, or the
// HRES_TIMER_PADDING environment variable's 0/1/2 = zeros/border/reflection;
// align_corners where HRES_TIMER_ALIGN_CORNERS is set) or 4 (flip, OH x OW
// the input's size: horizontal, or vertical where HRES_TIMER_VERTICAL is set),
// -DPIXEL=uint8_t or float, and the kernel's header as k.h (function k).
//
// With -DPAIR, a second build of the kernel (k2.h, function k2) too, and
//   kernel_timer N C H W OH OW LAYOUT THREADS CALLS
// calls k and k2 in turn CALLS times each in this one process, so that a
// noisy host's slow and fast phases hit both alike, and prints each one's
// minimum, 10th percentile and median and whether their outputs are equal
// (bench/tune/kernel_ab.sh pair).
#include "HalideBuffer.h"
#include "HalideRuntime.h"
#include "k.h"
#ifdef PAIR
#include "k2.h"
#endif
#include "scratch.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

Halide::Runtime::Buffer<PIXEL> image(std::vector<PIXEL> &store, int n, int c, int h, int w, bool nhwc) {
    store.resize(size_t(n) * c * h * w);
    halide_dimension_t dims[4];
    if (nhwc) {
        dims[0] = {0, w, c}, dims[1] = {0, h, w * c}, dims[2] = {0, c, 1}, dims[3] = {0, n, h * w * c};
    } else {
        dims[0] = {0, w, 1}, dims[1] = {0, h, w}, dims[2] = {0, c, h * w}, dims[3] = {0, n, h * w * c};
    }
    return Halide::Runtime::Buffer<PIXEL>(store.data(), 4, dims);
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 10) {
        std::fprintf(stderr, "usage: kernel_timer N C H W OH OW nchw|nhwc THREADS SECONDS\n");
        return 2;
    }
    const int n = std::atoi(argv[1]), c = std::atoi(argv[2]), h = std::atoi(argv[3]), w = std::atoi(argv[4]);
    const int oh = std::atoi(argv[5]), ow = std::atoi(argv[6]);
    const bool nhwc = std::string(argv[7]) == "nhwc";
    halide_set_num_threads(std::atoi(argv[8]));
    hres::internal::install_scratch_allocator();  // as the library does
    const double seconds = std::atof(argv[9]);

    std::vector<PIXEL> in_store, out_store;
    auto in = image(in_store, n, c, h, w, nhwc);
    auto out = image(out_store, n, c, oh, ow, nhwc);
    for (size_t i = 0; i < in_store.size(); i++) {
        const int v = int((i * 7919) % 251);
        in_store[i] = sizeof(PIXEL) == 1 ? PIXEL(v) : PIXEL(v / 250.0);
    }
#if KERNEL_KIND == 3
    Halide::Runtime::Buffer<float> theta(3, 2, n);
    const char *padding_env = std::getenv("HRES_TIMER_PADDING");
    const int padding = padding_env ? std::atoi(padding_env) : 0;
    const bool align_corners = std::getenv("HRES_TIMER_ALIGN_CORNERS") != nullptr;
    const float t[6] = {0.8952f, -0.1579f, 0.05f, 0.1579f, 0.8952f, -0.03f};
    for (int b = 0; b < n; b++) {
        for (int i = 0; i < 6; i++) theta(i % 3, i / 3, b) = t[i];
    }
#endif
    auto call_kernel = [&](auto kernel, Halide::Runtime::Buffer<PIXEL> &result) {
#if KERNEL_KIND == 1
        return kernel(in, 0.0, 0.0, result);
#elif KERNEL_KIND == 2
        return kernel(in, false, 0.0, 0.0, result);
#elif KERNEL_KIND == 4
        const bool vertical = std::getenv("HRES_TIMER_VERTICAL") != nullptr;
        return kernel(in, !vertical, vertical, result);
#else
        return kernel(in, theta, padding, align_corners, result);
#endif
    };
    auto call = [&] { return call_kernel(k, out); };
#ifdef PAIR
    std::vector<PIXEL> out2_store;
    auto out2 = image(out2_store, n, c, oh, ow, nhwc);
    const int calls = std::max(1, std::atoi(argv[9]));
    std::vector<double> each[2];
    for (int i = 0; i < calls; i++) {
        for (int v = 0; v < 2; v++) {
            const auto t0 = std::chrono::steady_clock::now();
            if (int r = v == 0 ? call() : call_kernel(k2, out2); r != 0) {
                std::fprintf(stderr, "kernel %s failed: %d\n", v == 0 ? "k" : "k2", r);
                return 1;
            }
            each[v].push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
        }
    }
    for (int v = 0; v < 2; v++) {
        std::sort(each[v].begin(), each[v].end());
        std::printf("%s min %.1f p10 %.1f median %.1f us\n", v == 0 ? "v0" : "v1", each[v][0],
                    each[v][each[v].size() / 10], each[v][each[v].size() / 2]);
    }
    std::printf("outputs %s\n", out_store == out2_store ? "equal" : "DIFFER");
    return out_store == out2_store ? 0 : 1;
#endif
    if (int r = call(); r != 0) {
        std::fprintf(stderr, "kernel failed: %d\n", r);
        return 1;
    }
    std::vector<double> times;
    const auto start = std::chrono::steady_clock::now();
    while (times.size() < 7 ||
           (times.size() < 5000 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds)) {
        const auto t0 = std::chrono::steady_clock::now();
        call();
        times.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    }
    std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
    double sum = 0;
    for (PIXEL v : out_store) sum += double(v);
    std::printf("median %.1f checksum %.9g\n", times[times.size() / 2], sum);
    return 0;
}
