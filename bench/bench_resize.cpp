// Benchmark of the seed resize cases of shared/BENCH.md: median microseconds
// per call for hres (both dtypes and layouts, 1 thread and all threads) and,
// side by side in the same process, OpenCV's cv::resize where it was found at
// configure time. Ratios are only meaningful within one run on one machine.
//
//   bench_resize [--filter TEXT] [--min-time SECONDS] [--threads N]
//
// Prints a Markdown table (one row per case and thread count) on stdout.
#include "hres/hres.h"

#ifdef HRES_HAVE_OPENCV
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Case {
    int n, c, h, w, oh, ow;
    hres::Interp mode;
    bool antialias, align_corners;
};

// The resize rows of BENCH.md (each is run for u8/f32 x NCHW/NHWC).
const Case kCases[] = {
    {1, 3, 500, 400, 256, 256, hres::Interp::nearest, false, false},
    {1, 3, 300, 400, 600, 700, hres::Interp::nearest, false, false},
    {1, 3, 500, 400, 256, 256, hres::Interp::nearest_exact, false, false},
    {1, 3, 300, 400, 600, 700, hres::Interp::nearest_exact, false, false},
    {1, 3, 345, 456, 270, 270, hres::Interp::bilinear, true, false},
    {1, 3, 345, 456, 270, 270, hres::Interp::bilinear, false, false},
    {1, 3, 345, 456, 270, 270, hres::Interp::bicubic, true, false},
    {4, 3, 345, 456, 270, 270, hres::Interp::bilinear, true, false},
    {4, 3, 345, 456, 270, 270, hres::Interp::bilinear, false, false},
    {4, 3, 345, 456, 270, 270, hres::Interp::bicubic, true, false},
    {1, 3, 500, 400, 256, 256, hres::Interp::bicubic, false, true},
    {1, 3, 500, 400, 256, 256, hres::Interp::bicubic, false, false},
    {1, 3, 500, 400, 1024, 1024, hres::Interp::bicubic, false, true},
    {1, 3, 500, 400, 1024, 1024, hres::Interp::bicubic, false, false},
};

double g_min_time = 0.3;  // seconds of timed calls per measurement

// Median of per-call times: one warm-up call, then calls until g_min_time has
// passed (at least 7, at most 2000).
double median_us(const std::function<void()> &call) {
    using clock = std::chrono::steady_clock;
    call();
    std::vector<double> times;
    const auto start = clock::now();
    while (times.size() < 7 ||
           (times.size() < 2000 && std::chrono::duration<double>(clock::now() - start).count() < g_min_time)) {
        const auto t0 = clock::now();
        call();
        times.push_back(std::chrono::duration<double, std::micro>(clock::now() - t0).count());
    }
    std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
    return times[times.size() / 2];
}

std::string mode_name(const Case &k) {
    std::string s = hres::to_string(k.mode);
    if (k.antialias) s += "+aa";
    if (k.align_corners) s += " ac";
    return s;
}

#ifdef HRES_HAVE_OPENCV
// OpenCV's closest mode: INTER_AREA stands in for antialiased bilinear (it
// matches the mode, not the numbers); OpenCV has no antialiased bicubic and no
// align_corners.
int opencv_mode(const Case &k) {
    if (k.align_corners || (k.antialias && k.mode == hres::Interp::bicubic) || k.n != 1) return -1;
    switch (k.mode) {
    case hres::Interp::nearest: return cv::INTER_NEAREST;
    case hres::Interp::nearest_exact: return cv::INTER_NEAREST_EXACT;
    case hres::Interp::bilinear: return k.antialias ? cv::INTER_AREA : cv::INTER_LINEAR;
    case hres::Interp::bicubic: return cv::INTER_CUBIC;
    }
    return -1;
}
#endif

}  // namespace

int main(int argc, char **argv) {
    std::string filter;
    int all_threads = int(std::thread::hardware_concurrency());
    for (int i = 1; i < argc; i++) {
        const std::string arg = argv[i];
        if (arg == "--filter" && i + 1 < argc) {
            filter = argv[++i];
        } else if (arg == "--min-time" && i + 1 < argc) {
            g_min_time = std::atof(argv[++i]);
        } else if (arg == "--threads" && i + 1 < argc) {
            all_threads = std::atoi(argv[++i]);
        } else {
            std::fprintf(stderr, "usage: bench_resize [--filter TEXT] [--min-time SECONDS] [--threads N]\n");
            return 2;
        }
    }

    std::printf("hres resize benchmark: isa %s, all threads = %d, median us per call\n\n",
                hres::to_string(hres::active_isa()), all_threads);
    std::printf("| input -> output | mode | dtype | layout | threads | hres us | OpenCV us | hres/OpenCV |\n");
    std::printf("|---|---|---|---|---|---|---|---|\n");

    std::mt19937 rng(1);
    for (const Case &k : kCases) {
        for (hres::DType dtype : {hres::DType::u8, hres::DType::f32}) {
            for (bool nhwc : {false, true}) {
                char shape[96];
                std::snprintf(shape, sizeof(shape), "%dx%dx%dx%d -> %dx%d", k.n, k.c, k.h, k.w, k.oh, k.ow);
                const std::string label = std::string(shape) + " " + mode_name(k) + " " + hres::to_string(dtype) +
                                          (nhwc ? " nhwc" : " nchw");
                if (!filter.empty() && label.find(filter) == std::string::npos) continue;

                const size_t esize = hres::dtype_size(dtype);
                std::vector<uint8_t> in(size_t(k.n) * k.c * k.h * k.w * esize);
                std::vector<uint8_t> out(size_t(k.n) * k.c * k.oh * k.ow * esize);
                if (dtype == hres::DType::u8) {
                    for (auto &b : in) b = uint8_t(rng());
                } else {
                    float *f = reinterpret_cast<float *>(in.data());
                    for (size_t i = 0; i < in.size() / 4; i++) f[i] = float(rng() % 1000) / 999.0f;
                }
                auto make = nhwc ? hres::nhwc : hres::nchw;
                const hres::Image src = make(in.data(), dtype, k.n, k.c, k.h, k.w, hres::Device::cpu);
                const hres::Image dst = make(out.data(), dtype, k.n, k.c, k.oh, k.ow, hres::Device::cpu);
                const hres::ResizeOptions options{k.mode, k.antialias, k.align_corners, 0, 0};

                std::vector<int> thread_counts{1};
                if (all_threads > 1) thread_counts.push_back(all_threads);
                for (int threads : thread_counts) {
                    hres::set_num_threads(threads);
                    hres::Status status;
                    const double ours = median_us([&] { status = hres::resize(src, dst, options); });
                    if (!status.ok()) {
                        std::fprintf(stderr, "hres failed on %s: %s\n", label.c_str(), status.message().c_str());
                        return 1;
                    }
                    double peer = -1;
#ifdef HRES_HAVE_OPENCV
                    // OpenCV works on interleaved (HWC) images in either case.
                    if (int interp = opencv_mode(k); interp >= 0) {
                        cv::setNumThreads(threads);
                        const int type = dtype == hres::DType::u8 ? CV_8UC(k.c) : CV_32FC(k.c);
                        cv::Mat cv_in(k.h, k.w, type, in.data());
                        cv::Mat cv_out(k.oh, k.ow, type, out.data());
                        peer = median_us([&] { cv::resize(cv_in, cv_out, cv_out.size(), 0, 0, interp); });
                    }
#endif
                    char peer_text[32] = "-", ratio_text[32] = "-";
                    if (peer > 0) {
                        std::snprintf(peer_text, sizeof(peer_text), "%.1f", peer);
                        std::snprintf(ratio_text, sizeof(ratio_text), "%.2f", ours / peer);
                    }
                    std::printf("| %s | %s | %s | %s | %d | %.1f | %s | %s |\n", shape, mode_name(k).c_str(),
                                hres::to_string(dtype), nhwc ? "nhwc" : "nchw", threads, ours, peer_text,
                                ratio_text);
                    std::fflush(stdout);
                }
            }
        }
    }
    return 0;
}
