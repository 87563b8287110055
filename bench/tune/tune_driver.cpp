// The measuring half of bench/tune/tune.py: every candidate build of one
// kernel (k0, the default build, first), linked into this one process and
// called in a shuffled order each round, so that a noisy machine's slow and
// fast phases fall on all of them alike. tune.py writes candidates.h and
// builds this file with -DFORM (the kernel's calling form, below) and
// -DPIXEL (uint8_t or float), and for CUDA kernels with -DON_CUDA: the
// images then live on the device (copied there once), every call is
// followed by a device synchronisation (its time includes the launch), and
// the outputs are copied back for the comparison. CUDA's tabled resizes
// (FORM 6) take tap tables that candidates.h's TAPS kernel (the host's
// resize_taps build) computes here once per shape, as the library caches
// them.
//
//   tune_driver SHAPES ROUNDS THREADS MIN_SECONDS
//
// SHAPES: one line per shape, "N C H W OH OW LAYOUT ALIGN FLIP" (LAYOUT nchw or
// nhwc; ALIGN 0/1: align_corners; FLIP h or v for flips, else -). Prints one
// JSON object per shape: for each candidate whether its output equals k0's
// (uint8: every byte; float32: within 2e-5), the largest difference, and
// its time per call (us, the median of the calls of a round) in each round.
#include "HalideBuffer.h"
#include "HalideRuntime.h"
#include "candidates.h"
#ifdef ON_CUDA
#include "HalideRuntimeCuda.h"
#endif
#include "scratch.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Buffer = Halide::Runtime::Buffer<PIXEL>;

struct Shape {
    int n, c, h, w, oh, ow;
    bool nhwc, align_corners, vertical;
};

Buffer image(std::vector<PIXEL> &store, int n, int c, int h, int w, bool nhwc) {
    store.assign(size_t(n) * c * h * w, PIXEL(0));
    halide_dimension_t dims[4];
    if (nhwc) {
        dims[0] = {0, w, c}, dims[1] = {0, h, w * c}, dims[2] = {0, c, 1}, dims[3] = {0, n, h * w * c};
    } else {
        dims[0] = {0, w, 1}, dims[1] = {0, h, w}, dims[2] = {0, c, h * w}, dims[3] = {0, n, h * w * c};
    }
    return Buffer(store.data(), 4, dims);
}

// A 10-degree rotation with a small shift, for the samplers (theta and, for
// grid_sample, the grid affine_grid would build from it).
constexpr float kTheta[6] = {0.8952f, -0.1579f, 0.05f, 0.1579f, 0.8952f, -0.03f};

#ifdef ON_CUDA
const halide_device_interface_t *device() { return halide_cuda_device_interface(); }
void to_device(halide_buffer_t *b) {
    b->set_host_dirty(true);
    halide_copy_to_device(nullptr, b, device());
}
int finish(halide_buffer_t *out) { return halide_device_sync(nullptr, out); }
#else
void to_device(halide_buffer_t *) {}
int finish(halide_buffer_t *) { return 0; }
#endif

// One axis' tap tables, as the library passes them to CUDA's tabled
// resizes (runtime/src/resize.cpp): the first input index of each output,
// its weights (taps, output) and uint8's fixed-point shift.
struct Tables {
    Halide::Runtime::Buffer<int32_t> start;
    Halide::Runtime::Buffer<float> weight;
    int shift = 0;
};

#if FORM == 6
Tables tables_of(int in, int out, bool align_corners) {
    // Rows enough for any of the filters (bicubic's support at this scale, +2 as the library allows).
    const double s = align_corners ? (out > 1 ? double(in - 1) / (out - 1) : 0.0) : double(in) / out;
    const int rows = int(std::ceil(2.0 * std::max(s, 1.0))) * 2 + 3;
    Halide::Runtime::Buffer<int32_t> start(out), shift = Halide::Runtime::Buffer<int32_t>::make_scalar(),
                                              count = Halide::Runtime::Buffer<int32_t>::make_scalar();
    Halide::Runtime::Buffer<float> all(rows, out);
    if (TAPS(in, out, align_corners, 0.0, start, all, shift, count) != 0) {
        std::fprintf(stderr, "the tap tables failed\n");
        std::exit(1);
    }
    Tables t{start, Halide::Runtime::Buffer<float>(count(), out), shift()};
    t.weight.for_each_element([&](int k, int i) { t.weight(k, i) = all(k, i); });
    to_device(t.start.raw_buffer());
    to_device(t.weight.raw_buffer());
    return t;
}
#endif

struct Call {
    const Shape &s;
    Buffer &in;
    Halide::Runtime::Buffer<float> &theta, &grid;
    Tables &tx, &ty;

    template<typename Kernel>
    int operator()(Kernel kernel, Buffer &out) const {
#if FORM == 1  // resize_nearest: (input, scale_h, scale_w, channels_last, output)
        return kernel(in, 0.0, 0.0, s.nhwc, out);
#elif FORM == 2  // resize_filtered, resize_vertical: (input, align_corners, scale_h, scale_w, channels_last, output)
        return kernel(in, s.align_corners, 0.0, 0.0, s.nhwc, out);
#elif FORM == 3  // grid_sample: (input, grid, padding, align_corners, output)
        return kernel(in, grid, 0, s.align_corners, out);
#elif FORM == 4  // affine_grid_sample: (input, theta, padding, align_corners, output)
        return kernel(in, theta, 0, s.align_corners, out);
#elif FORM == 5  // flip: (input, horizontal, vertical, output)
        return kernel(in, !s.vertical, s.vertical, out);
#else  // CUDA's tabled resizes: FORM 2's, then per axis start, weight, shift
        return kernel(in, s.align_corners, 0.0, 0.0, s.nhwc, tx.start, tx.weight, tx.shift, ty.start, ty.weight,
                      ty.shift, out);
#endif
    }
};

// Halide's default handler aborts; a candidate that fails (an
// autoscheduler's schedule that reads out of bounds, say) is recorded.
std::string last_error;
void keep_error(void *, const char *message) { last_error = message; }

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: tune_driver SHAPES ROUNDS THREADS MIN_SECONDS\n");
        return 2;
    }
    std::vector<Shape> shapes;
    std::ifstream file(argv[1]);
    for (std::string line; std::getline(file, line);) {
        std::istringstream words(line);
        Shape s{};
        std::string layout, flip;
        int align = 0;
        if (words >> s.n >> s.c >> s.h >> s.w >> s.oh >> s.ow >> layout >> align >> flip) {
            s.nhwc = layout == "nhwc", s.align_corners = align != 0, s.vertical = flip == "v";
            shapes.push_back(s);
        }
    }
    const int rounds = std::max(1, std::atoi(argv[2]));
    halide_set_num_threads(std::atoi(argv[3]));
    hres::internal::install_scratch_allocator();  // as the library does
    halide_set_error_handler(keep_error);
    const double min_seconds = std::atof(argv[4]);
    const auto kernels = std::vector{CANDIDATES};
    const int count = int(kernels.size());
    std::mt19937 shuffle(12345);

    for (size_t si = 0; si < shapes.size(); si++) {
        const Shape &s = shapes[si];
        std::vector<PIXEL> in_store;
        Buffer in = image(in_store, s.n, s.c, s.h, s.w, s.nhwc);
        for (size_t i = 0; i < in_store.size(); i++) {
            const int v = int((i * 7919) % 251);
            in_store[i] = sizeof(PIXEL) == 1 ? PIXEL(v) : PIXEL(v / 250.0);
        }
        Halide::Runtime::Buffer<float> theta(3, 2, s.n), grid(2, s.ow, s.oh, s.n);
        for (int b = 0; b < s.n; b++) {
            for (int i = 0; i < 6; i++) theta(i % 3, i / 3, b) = kTheta[i];
            for (int y = 0; y < s.oh; y++) {
                for (int x = 0; x < s.ow; x++) {
                    const float u = (2 * x + 1) / float(s.ow) - 1, v = (2 * y + 1) / float(s.oh) - 1;
                    grid(0, x, y, b) = kTheta[0] * u + kTheta[1] * v + kTheta[2];
                    grid(1, x, y, b) = kTheta[3] * u + kTheta[4] * v + kTheta[5];
                }
            }
        }
        for (halide_buffer_t *b : {in.raw_buffer(), theta.raw_buffer(), grid.raw_buffer()}) to_device(b);
        Tables tx, ty;
#if FORM == 6
        tx = tables_of(s.w, s.ow, s.align_corners), ty = tables_of(s.h, s.oh, s.align_corners);
#endif
        const Call call{s, in, theta, grid, tx, ty};
        std::vector<std::vector<PIXEL>> out_store(count);
        std::vector<Buffer> out;
        for (int k = 0; k < count; k++) out.push_back(image(out_store[k], s.n, s.c, s.oh, s.ow, s.nhwc));
        std::vector<int> failed(count, 0);
        std::vector<std::string> why(count);
        for (int k = 0; k < count; k++) {
            last_error.clear();
            failed[k] = call(kernels[k], out[k]);
            if (!failed[k]) failed[k] = finish(out[k].raw_buffer());
#ifdef ON_CUDA
            if (!failed[k]) failed[k] = out[k].copy_to_host();
#endif
            if (failed[k]) why[k] = last_error;
        }
        if (failed[0]) {
            std::fprintf(stderr, "the default build failed on shape %zu: %d\n", si, failed[0]);
            return 1;
        }
        // Every candidate times into one output (its own served the
        // comparison above), so that none gains from where its buffer lies.
        std::vector<PIXEL> timed_store;
        Buffer timed = image(timed_store, s.n, s.c, s.oh, s.ow, s.nhwc);
        // Calls per measurement: enough for min_seconds of the default.
        auto t0 = std::chrono::steady_clock::now();
        int probe = 0;
        while (probe < 3 || seconds_since(t0) < 0.01) {
            call(kernels[0], timed);
            finish(timed.raw_buffer());
            probe++;
        }
        const double once = seconds_since(t0) / probe;
        const int calls = std::max(3, int(min_seconds / std::max(once, 1e-7)));

        std::vector<std::vector<double>> times(count);
        std::vector<int> order(count);
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < count; k++) order[k] = k;
            std::shuffle(order.begin(), order.end(), shuffle);
            for (int k : order) {
                if (failed[k]) continue;
                std::vector<double> each;
                for (int i = 0; i < calls; i++) {
                    const auto start = std::chrono::steady_clock::now();
                    call(kernels[k], timed);
                    finish(timed.raw_buffer());
                    each.push_back(seconds_since(start) * 1e6);
                }
                std::nth_element(each.begin(), each.begin() + calls / 2, each.end());
                times[k].push_back(each[calls / 2]);
            }
        }
        std::printf("{\"shape\": %zu, \"calls\": %d, \"candidates\": [", si, calls);
        for (int k = 0; k < count; k++) {
            double largest = 0;
            for (size_t i = 0; i < out_store[k].size(); i++) {
                largest = std::max(largest, std::fabs(double(out_store[k][i]) - double(out_store[0][i])));
            }
            const bool equal = !failed[k] && (sizeof(PIXEL) == 1 ? largest == 0 : largest <= 2e-5);
            std::string message;
            for (char ch : why[k]) message += ch == '"' || ch == '\\' ? '\'' : (ch == '\n' ? ' ' : ch);
            std::printf("%s{\"error\": %d, \"message\": \"%s\", \"equal\": %s, \"max_diff\": %.9g, \"us\": [",
                        k ? ", " : "", failed[k], message.c_str(), equal ? "true" : "false", largest);
            for (size_t r = 0; r < times[k].size(); r++) std::printf("%s%.3f", r ? ", " : "", times[k][r]);
            std::printf("]}");
        }
        std::printf("]}\n");
        std::fflush(stdout);
    }
    return 0;
}
