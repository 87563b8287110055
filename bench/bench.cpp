// Benchmark of the seed cases of shared/BENCH.md: median microseconds per call
// for hres (both dtypes and layouts, at one thread count) and, side by
// side in the same process, OpenCV (cv::resize, cv::warpAffine, cv::flip)
// where it was found at configure time, plus memcpy of the same bytes for the
// large flips (its calls and hres's in turn). Ratios are only meaningful
// within one run on one machine.
//
//   bench_hres [--filter TEXT] [--seeds] [--min-time SECONDS] [--threads N] [--device cpu|cuda] [--list]
//              [--kernels] [--disable KERNEL[,KERNEL...]] [--isa auto|avx512|avx2|sse41]
//
// --seeds keeps only the seed rows (bold in BENCH.md), for more rounds of
// the rows the targets are set on in the same time.
//
// --list prints the case labels ("op NxCxHxW -> OHxOW mode dtype layout"),
// each followed by a tab and "seed" or "-", and times nothing: bench/compare.py
// takes its cases from there, so the case list lives only here.
//
// --filter keeps the cases whose label holds TEXT (or any of several texts
// separated by |).
//
// --kernels prints each case's label, a tab and the kernel of the kernel
// table that runs it (one call each, nothing timed). --disable skips those
// rows of the table (runtime/src/dispatch.h), so that a variant can be
// timed against what runs without it, in separate processes side by side.
//
// --device cuda times the CUDA kernels on device copies of the same data:
// per-call time including launch, from batches of calls between stream
// synchronisations (the way a stream of calls runs); no CPU peers then.
// bench/cuda_peers.py runs it beside PyTorch's CUDA kernels and NPP.
//
// One thread count per process (default 1): Halide's thread pool does not
// shrink once it has grown, so a 1-thread measurement after an all-threads
// one in the same process still runs on every core. Run it once per count.
//
// Images live in 64-byte aligned buffers (the command line's KernelBuffer),
// as PyTorch, OpenCV and NumPy allocate them: std::vector's large blocks
// start 16 bytes past a page, where every peer's vector accesses straddle
// cache lines (hres's interleaved uint8 horizontal flip lost 7-16% there:
// apps/hres/kernel_buffer.h).
//
// Prints a Markdown table (one row per case) on stdout.
#include "dispatch.h"
#include "hres/hres.h"
#include "kernel_buffer.h"

#ifdef HRES_HAVE_OPENCV
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

enum class Op { resize, affine, hflip, vflip };

struct Case {
    Op op;
    int n, c, h, w, oh, ow;
    hres::Interp mode = hres::Interp::nearest;
    bool antialias = false, align_corners = false;
    // The dtypes of this row that are seed rows (bold in BENCH.md: also timed
    // under torch.compile by bench/compare.py), e.g. "f32", "u8 f32", "".
    const char *seed = "";
};

constexpr auto kNearest = hres::Interp::nearest, kNearestExact = hres::Interp::nearest_exact,
               kBilinear = hres::Interp::bilinear, kBicubic = hres::Interp::bicubic;

// The rows of BENCH.md (each is run for u8/f32 x NCHW/NHWC).
const Case kCases[] = {
    {Op::resize, 1, 3, 500, 400, 256, 256, kNearest, false, false, "f32"},
    {Op::resize, 1, 3, 300, 400, 600, 700, kNearest, false, false, "f32"},
    {Op::resize, 1, 3, 500, 400, 256, 256, kNearestExact, false, false, "f32"},
    {Op::resize, 1, 3, 300, 400, 600, 700, kNearestExact, false, false, "f32"},
    {Op::resize, 1, 3, 345, 456, 270, 270, kBilinear, true, false, "u8 f32"},
    {Op::resize, 1, 3, 345, 456, 270, 270, kBilinear},
    {Op::resize, 1, 3, 345, 456, 270, 270, kBicubic, true},
    {Op::resize, 4, 3, 345, 456, 270, 270, kBilinear, true, false, "u8 f32"},
    {Op::resize, 4, 3, 345, 456, 270, 270, kBilinear},
    {Op::resize, 4, 3, 345, 456, 270, 270, kBicubic, true},
    {Op::resize, 1, 3, 500, 400, 256, 256, kBicubic, false, true, "f32"},
    {Op::resize, 1, 3, 500, 400, 256, 256, kBicubic, false, false, "f32"},
    {Op::resize, 1, 3, 500, 400, 1024, 1024, kBicubic, false, true, "f32"},
    {Op::resize, 1, 3, 500, 400, 1024, 1024, kBicubic, false, false, "f32"},
    // The fused affine sampler: affine_grid + grid_sample at the input size.
    {Op::affine, 2, 3, 345, 456, 345, 456, kBilinear, false, true, "f32"},
    {Op::affine, 2, 3, 345, 456, 345, 456, kNearest, false, true, "f32"},
    {Op::affine, 2, 3, 345, 456, 345, 456, kBicubic, false, true, "f32"},
    {Op::affine, 2, 3, 345, 456, 345, 456, kBilinear, false, false, "f32"},
    {Op::affine, 2, 3, 345, 456, 345, 456, kNearest, false, false, "f32"},
    {Op::affine, 2, 3, 345, 456, 345, 456, kBicubic, false, false, "f32"},
    {Op::hflip, 1, 3, 224, 224, 224, 224, kNearest, false, false, "u8"},
    {Op::vflip, 1, 3, 224, 224, 224, 224, kNearest, false, false, "u8"},
    {Op::hflip, 1, 3, 256, 256, 256, 256},
    {Op::vflip, 1, 3, 256, 256, 256, 256},
    // Large flips, compared with memcpy of the same bytes (BENCH.md's bandwidth goal).
    {Op::hflip, 1, 3, 1080, 1920, 1080, 1920},
    {Op::vflip, 1, 3, 1080, 1920, 1080, 1920},
    // Parallel scaling (BENCH.md: at least 70% parallel efficiency on
    // 4x3x1080x1920 with all threads): one of each kernel family.
    {Op::resize, 4, 3, 1080, 1920, 540, 960, kNearest},
    {Op::resize, 4, 3, 1080, 1920, 540, 960, kBilinear},
    {Op::resize, 4, 3, 1080, 1920, 540, 960, kBilinear, true},
    {Op::resize, 4, 3, 1080, 1920, 540, 960, kBicubic, true},
    {Op::affine, 4, 3, 1080, 1920, 1080, 1920, kBilinear},
    {Op::hflip, 4, 3, 1080, 1920, 1080, 1920},
    {Op::vflip, 4, 3, 1080, 1920, 1080, 1920},
    // Kernels of the table the rows above do not reach: resizes that keep
    // the width (the vertical pass alone), NHWC RGBA (float32 pixel rows).
    {Op::resize, 1, 3, 345, 456, 200, 456, kBilinear},
    {Op::resize, 1, 3, 345, 456, 200, 456, kBicubic, true},
    {Op::resize, 1, 4, 345, 456, 270, 270, kBilinear},
    {Op::resize, 1, 4, 345, 456, 270, 270, kBicubic},
};

// A rotation by 10 degrees, zoom 1.1 and a small shift, in affine_grid's
// normalised coordinates: a typical augmentation, with samples both inside
// and outside the image.
constexpr float kTheta[6] = {0.8952f, -0.1579f, 0.05f, 0.1579f, 0.8952f, -0.03f};

double g_min_time = 0.3;  // seconds of timed calls per measurement
bool g_cuda = false;      // --device cuda

// GPU per-call time: median over batches of calls, each batch ending in a
// stream synchronisation (the first batch, with the module load, is a
// warm-up). A batch is sized, doubling from 20 calls, to last at least 2 ms,
// so that what only a batch's end costs (the last kernel's run after its
// launch, and the synchronisation) weighs little, as in the way PyTorch is
// timed beside it (cuda_peers.py: torch.utils.benchmark's blocked_autorange
// sizes its blocks for a synchronisation under 1e-4 of a block, 10,000
// calls for the small rows). Fixed batches of 20 charged every small call
// 0.1-0.3 us of a batch's end that eager's blocks did not carry (both sizes
// side by side on the H200: RESULTS.md@89f6099, 2026-11-29 (afternoon)).
double median_us_batched(const std::function<void()> &call) {
    using clock = std::chrono::steady_clock;
    constexpr double kMinBatchUs = 2000.0;
    int calls = 20;
    auto batch = [&] {
        const auto t0 = clock::now();
        for (int i = 0; i < calls; i++) call();
        (void)hres::cuda_synchronize();
        return std::chrono::duration<double, std::micro>(clock::now() - t0).count();
    };
    batch();  // warm-up: the module load
    for (double us = batch(); us < kMinBatchUs && calls < (1 << 20); us = batch()) calls *= 2;
    std::vector<double> times;
    const auto start = clock::now();
    while (times.size() < 7 ||
           (times.size() < 500 && std::chrono::duration<double>(clock::now() - start).count() < g_min_time)) {
        times.push_back(batch() / calls);
    }
    std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
    return times[times.size() / 2];
}

// Medians of per-call times of `calls` timed in turn (a, b, a, b, ...): one
// warm-up call each, then rounds until g_min_time per call has passed (at
// least 7, at most 2000). In turn, a noisy host's slow and fast phases hit
// them all alike: for a ratio that is itself the target (the large flips
// against memcpy of the same bytes; on the build machine, 2 shared cores,
// the same flip's median moved 2x between consecutive cases, while memcpy
// had been timed in another phase).
std::vector<double> medians_in_turn(const std::vector<std::function<void()>> &calls) {
    using clock = std::chrono::steady_clock;
    for (const auto &call : calls) call();
    std::vector<std::vector<double>> times(calls.size());
    const double budget = g_min_time * double(calls.size());
    const auto start = clock::now();
    while (times[0].size() < 7 ||
           (times[0].size() < 2000 && std::chrono::duration<double>(clock::now() - start).count() < budget)) {
        for (size_t i = 0; i < calls.size(); i++) {
            const auto t0 = clock::now();
            calls[i]();
            times[i].push_back(std::chrono::duration<double, std::micro>(clock::now() - t0).count());
        }
    }
    std::vector<double> medians;
    for (auto &t : times) {
        std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
        medians.push_back(t[t.size() / 2]);
    }
    return medians;
}

// Median of per-call times (medians_in_turn of one call; CUDA in batches).
double median_us(const std::function<void()> &call) {
    // Asynchronous calls: time batches of calls between synchronisations.
    if (g_cuda) return median_us_batched(call);
    return medians_in_turn({call})[0];
}

const char *op_name(Op op) {
    switch (op) {
    case Op::resize: return "resize";
    case Op::affine: return "affine_grid_sample";
    case Op::hflip: return "hflip";
    case Op::vflip: return "vflip";
    }
    return "?";
}

std::string mode_name(const Case &k) {
    if (k.op == Op::hflip || k.op == Op::vflip) return "-";
    std::string s = hres::to_string(k.mode);
    if (k.antialias) s += "+aa";
    if (k.align_corners) s += " ac";
    return s;
}

hres::Status run_hres(const Case &k, const hres::Image &src, const hres::Image &dst, const float *theta) {
    switch (k.op) {
    case Op::resize: return hres::resize(src, dst, {k.mode, k.antialias, k.align_corners, 0, 0});
    case Op::affine: return hres::affine_grid_sample(src, theta, dst, {k.mode, hres::Padding::zeros, k.align_corners});
    case Op::hflip: return hres::flip(src, dst, hres::FlipAxes::horizontal);
    case Op::vflip: return hres::flip(src, dst, hres::FlipAxes::vertical);
    }
    return hres::Status::error("unknown op");
}

#ifdef HRES_HAVE_OPENCV
// OpenCV's closest interpolation: INTER_AREA stands in for antialiased
// bilinear (it matches the mode, not the numbers); OpenCV has no antialiased
// bicubic and no align_corners for resize. -1: no peer.
int opencv_interp(const Case &k) {
    if (k.n != 1 && k.op != Op::affine) return -1;
    if (k.op == Op::resize && (k.align_corners || (k.antialias && k.mode == kBicubic))) return -1;
    switch (k.mode) {
    case hres::Interp::nearest: return cv::INTER_NEAREST;
    case hres::Interp::nearest_exact: return cv::INTER_NEAREST_EXACT;
    case hres::Interp::bilinear: return k.antialias ? cv::INTER_AREA : cv::INTER_LINEAR;
    case hres::Interp::bicubic: return cv::INTER_CUBIC;
    }
    return -1;
}

// affine_grid's map from output pixel (j, i) to input pixel coordinates, as
// the 2x3 matrix cv::warpAffine takes with WARP_INVERSE_MAP.
cv::Mat pixel_matrix(const Case &k) {
    // normalised = a * pixel + b per axis, and back.
    auto to_norm = [&](int size, double *a, double *b) {
        if (k.align_corners) { *a = 2.0 / std::max(size - 1, 1); *b = -1; }
        else { *a = 2.0 / size; *b = 1.0 / size - 1; }
    };
    double ax, bx, ay, by, sx, tx, sy, ty;
    to_norm(k.ow, &ax, &bx);
    to_norm(k.oh, &ay, &by);
    // pixel = (g + 1) * (size - 1) / 2, or ((g + 1) * size - 1) / 2
    sx = k.align_corners ? (k.w - 1) / 2.0 : k.w / 2.0;
    tx = k.align_corners ? sx : sx - 0.5;
    sy = k.align_corners ? (k.h - 1) / 2.0 : k.h / 2.0;
    ty = k.align_corners ? sy : sy - 0.5;
    const float *t = kTheta;
    cv::Mat m(2, 3, CV_64F);
    // g_x = t0*(ax*j + bx) + t1*(ay*i + by) + t2; u = sx*g_x + tx
    m.at<double>(0, 0) = sx * t[0] * ax;
    m.at<double>(0, 1) = sx * t[1] * ay;
    m.at<double>(0, 2) = sx * (t[0] * bx + t[1] * by + t[2]) + tx;
    m.at<double>(1, 0) = sy * t[3] * ax;
    m.at<double>(1, 1) = sy * t[4] * ay;
    m.at<double>(1, 2) = sy * (t[3] * bx + t[4] * by + t[5]) + ty;
    return m;
}

// Times OpenCV on the same bytes (interleaved HWC, one image at a time), or
// returns -1 where it has no equivalent.
double time_opencv(const Case &k, hres::DType dtype, const hres::io::KernelBuffer &in, hres::io::KernelBuffer &out) {
    const int type = dtype == hres::DType::u8 ? CV_8UC(k.c) : CV_32FC(k.c);
    const size_t in_bytes = size_t(k.c) * k.h * k.w * hres::dtype_size(dtype);
    const size_t out_bytes = size_t(k.c) * k.oh * k.ow * hres::dtype_size(dtype);
    auto each_image = [&](const std::function<void(cv::Mat &, cv::Mat &)> &f) {
        return median_us([&] {
            for (int b = 0; b < k.n; b++) {
                cv::Mat src(k.h, k.w, type, in.data() + b * in_bytes);
                cv::Mat dst(k.oh, k.ow, type, out.data() + b * out_bytes);
                f(src, dst);
            }
        });
    };
    switch (k.op) {
    case Op::resize: {
        const int interp = opencv_interp(k);
        if (interp < 0) return -1;
        return each_image([&](cv::Mat &s, cv::Mat &d) { cv::resize(s, d, d.size(), 0, 0, interp); });
    }
    case Op::affine: {
        const int interp = opencv_interp(k);
        const cv::Mat m = pixel_matrix(k);
        return each_image([&](cv::Mat &s, cv::Mat &d) {
            cv::warpAffine(s, d, m, d.size(), interp | cv::WARP_INVERSE_MAP, cv::BORDER_CONSTANT, cv::Scalar());
        });
    }
    case Op::hflip: return each_image([](cv::Mat &s, cv::Mat &d) { cv::flip(s, d, 1); });
    case Op::vflip: return each_image([](cv::Mat &s, cv::Mat &d) { cv::flip(s, d, 0); });
    }
    return -1;
}
#endif

std::string ratio(double ours, double peer) {
    if (peer <= 0) return "-";
    char text[32];
    std::snprintf(text, sizeof(text), "%.2f", ours / peer);
    return text;
}

std::string number(double v) {
    if (v <= 0) return "-";
    char text[32];
    std::snprintf(text, sizeof(text), "%.1f", v);
    return text;
}

// --filter: the labels holding any of the |-separated texts (all for "").
bool matches(const std::string &filter, const std::string &label) {
    if (filter.empty()) return true;
    for (size_t at = 0; at <= filter.size();) {
        const size_t bar = std::min(filter.find('|', at), filter.size());
        if (bar > at && label.find(filter.substr(at, bar - at)) != std::string::npos) return true;
        at = bar + 1;
    }
    return false;
}

}  // namespace

int main(int argc, char **argv) {
    std::string filter;
    int threads = 1;
    bool list = false, seeds_only = false, kernels = false;
    for (int i = 1; i < argc; i++) {
        const std::string arg = argv[i];
        if (arg == "--filter" && i + 1 < argc) {
            filter = argv[++i];
        } else if (arg == "--list") {
            list = true;
        } else if (arg == "--seeds") {
            seeds_only = true;
        } else if (arg == "--isa" && i + 1 < argc) {
            hres::Isa isa;
            const hres::Status s = hres::parse(argv[i + 1], &isa) ? hres::set_isa(isa)
                                                                  : hres::Status::error("unknown ISA");
            if (!s.ok()) {
                std::fprintf(stderr, "bench_hres: --isa %s: %s\n", argv[i + 1], s.message().c_str());
                return 2;
            }
            i++;
        } else if (arg == "--kernels") {
            kernels = true;
        } else if (arg == "--disable" && i + 1 < argc) {
            if (const hres::Status s = hres::internal::disable_kernels(argv[++i]); !s.ok()) {
                std::fprintf(stderr, "bench_hres: %s\n", s.message().c_str());
                return 2;
            }
        } else if (arg == "--min-time" && i + 1 < argc) {
            g_min_time = std::atof(argv[++i]);
        } else if (arg == "--threads" && i + 1 < argc) {
            threads = std::atoi(argv[++i]);
        } else if (arg == "--device" && i + 1 < argc && (argv[i + 1] == std::string("cpu") ||
                                                         argv[i + 1] == std::string("cuda"))) {
            g_cuda = argv[++i] == std::string("cuda");
        } else {
            std::fprintf(stderr,
                         "usage: bench_hres [--filter TEXT] [--seeds] [--min-time SECONDS] [--threads N] [--device cpu|cuda] "
                         "[--list] [--kernels] [--disable KERNEL[,KERNEL...]] [--isa ISA]\n");
            return 2;
        }
    }
    if (g_cuda && !list && !hres::cuda_available()) {
        std::fprintf(stderr, "bench_hres: %s\n", hres::cuda_status().message().c_str());
        return 1;
    }

    if (threads < 1) {
        std::fprintf(stderr, "--threads must be at least 1\n");
        return 2;
    }
    if (!list && !kernels) {
        hres::set_num_threads(threads);
        if (g_cuda) {
            std::printf("hres benchmark: CUDA on %s, median us per call (launch included)\n\n",
                        hres::cuda_device_name().c_str());
        } else {
            std::printf("hres benchmark: isa %s, %d thread(s), median us per call\n\n",
                        hres::to_string(hres::active_isa()), threads);
        }
        std::printf("| op | input -> output | mode | dtype | layout | threads | hres us | OpenCV us | hres/OpenCV "
                    "| memcpy us | hres/memcpy |\n");
        std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
    }

    std::mt19937 rng(1);
    for (const Case &k : kCases) {
        for (hres::DType dtype : {hres::DType::u8, hres::DType::f32}) {
            for (bool nhwc : {false, true}) {
                char shape[96];
                std::snprintf(shape, sizeof(shape), "%dx%dx%dx%d -> %dx%d", k.n, k.c, k.h, k.w, k.oh, k.ow);
                const std::string label = std::string(op_name(k.op)) + " " + shape + " " + mode_name(k) + " " +
                                          hres::to_string(dtype) + (nhwc ? " nhwc" : " nchw");
                if (!matches(filter, label)) continue;
                const std::string seeds = std::string(" ") + k.seed + " ";
                const bool seed = seeds.find(std::string(" ") + hres::to_string(dtype) + " ") != std::string::npos;
                if (seeds_only && !seed) continue;
                if (list) {
                    std::printf("%s\t%s\n", label.c_str(), seed ? "seed" : "-");
                    continue;
                }

                const size_t esize = hres::dtype_size(dtype);
                hres::io::KernelBuffer in(size_t(k.n) * k.c * k.h * k.w * esize);
                hres::io::KernelBuffer out(size_t(k.n) * k.c * k.oh * k.ow * esize);
                std::memset(out.data(), 0, out.size());
                if (dtype == hres::DType::u8) {
                    for (size_t i = 0; i < in.size(); i++) in.data()[i] = uint8_t(rng());
                } else {
                    float *f = reinterpret_cast<float *>(in.data());
                    for (size_t i = 0; i < in.size() / 4; i++) f[i] = float(rng() % 1000) / 999.0f;
                }
                std::vector<float> theta;
                for (int b = 0; b < k.n; b++) theta.insert(theta.end(), kTheta, kTheta + 6);
                auto make = nhwc ? hres::nhwc : hres::nchw;
                hres::Image src = make(in.data(), dtype, k.n, k.c, k.h, k.w, hres::Device::cpu);
                hres::Image dst = make(out.data(), dtype, k.n, k.c, k.oh, k.ow, hres::Device::cpu);
                const float *theta_data = theta.data();
                hres::CudaBuffer d_in, d_out, d_theta;
                if (g_cuda) {
                    if (!d_in.upload(in.data(), in.size()) || !d_out.upload(out.data(), out.size()) ||
                        !d_theta.upload(theta.data(), theta.size() * sizeof(float))) {
                        std::fprintf(stderr, "device copies failed\n");
                        return 1;
                    }
                    src.data = d_in.get();
                    dst.data = d_out.get();
                    src.device = dst.device = hres::Device::cuda;
                    theta_data = static_cast<const float *>(d_theta.get());
                }
                const bool large_flip = (k.op == Op::hflip || k.op == Op::vflip) && k.h * k.w >= 1000000;
                if (kernels) {
                    if (const hres::Status s = run_hres(k, src, dst, theta_data); !s.ok()) {
                        std::fprintf(stderr, "hres failed on %s: %s\n", label.c_str(), s.message().c_str());
                        return 1;
                    }
                    std::printf("%s\t%s\n", label.c_str(), hres::last_kernel_choice().kernel);
                    continue;
                }

                {
                    hres::Status status;
                    auto call = [&] { status = run_hres(k, src, dst, theta_data); };
                    double ours = -1, copy = -1;
                    if (large_flip && !g_cuda) {
                        const std::vector<double> medians =
                            medians_in_turn({call, [&] { std::memcpy(out.data(), in.data(), in.size()); }});
                        ours = medians[0], copy = medians[1];
                    } else {
                        ours = median_us(call);
                    }
                    if (!status.ok()) {
                        std::fprintf(stderr, "hres failed on %s: %s\n", label.c_str(), status.message().c_str());
                        return 1;
                    }
                    double peer = -1;
#ifdef HRES_HAVE_OPENCV
                    if (!g_cuda) {
                        cv::setNumThreads(threads);
                        peer = time_opencv(k, dtype, in, out);
                    }
#endif
                    std::printf("| %s | %s | %s | %s | %s | %d | %.1f | %s | %s | %s | %s |\n", op_name(k.op), shape,
                                mode_name(k).c_str(), hres::to_string(dtype), nhwc ? "nhwc" : "nchw", threads, ours,
                                number(peer).c_str(), ratio(ours, peer).c_str(), number(copy).c_str(),
                                ratio(ours, copy).c_str());
                    std::fflush(stdout);
                }
            }
        }
    }
    return 0;
}
