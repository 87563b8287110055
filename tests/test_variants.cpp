// Every kernel of the kernel table (kernels/kernels.toml), by name: for each
// row the test finds a call that the dispatcher sends to it (dispatching as on
// each CPU the row's rule names), runs it, checks through
// hres::last_kernel_choice() that this row ran, and compares the output with
// the scalar reference. A row no call reaches fails: a kernel nobody can
// choose is dead code or a rule gone wrong. Rows of the other device are
// left to that device's run (ctest runs this suite on each x86 entry and on
// CUDA); the resize_taps helpers run inside the CUDA kernels that name them.
#include "dispatch.h"
#include "reference/resize_reference.h"
#include "reference/sample_reference.h"
#include "support/harness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

using hres_test::Layout;

constexpr double kFloatTolerance = 2e-5;  // for values in [0, 1]
// Nearest sampling may pick the other pixel where the coordinate is within
// float rounding of a .5 boundary (sample_reference.h); at most this share.
constexpr double kTieShare = 0.01;

// One image pair's memory: the input's and the output's layout, and the channels.
struct Memory {
    Layout in, out;
    int c;
};
const Memory kMemories[] = {{Layout::nchw, Layout::nchw, 3}, {Layout::nhwc, Layout::nhwc, 3},
                            {Layout::nhwc, Layout::nhwc, 4}, {Layout::nhwc, Layout::nhwc, 2},
                            {Layout::nchw, Layout::nchw, 1}, {Layout::nchw, Layout::nchw, 4},
                            {Layout::nchw, Layout::nhwc, 3}};

struct Size {
    int h, w, oh, ow;
};
// Shrinking (0.65 of the rows, wide enough for a tile), keeping the width,
// shrinking to 0.85 of the rows, upscaling, and narrow.
const Size kSizes[] = {{20, 24, 13, 17}, {20, 24, 13, 24}, {20, 24, 17, 17}, {9, 10, 21, 23}, {20, 10, 13, 7}};

// The CPUs to dispatch as: those the row's rule names, else each entry, with
// and without AMD's rules.
std::vector<std::string> cpus_for(const hres::internal::Kernel &k) {
    std::vector<std::string> cpus;
    for (int e = 0; e < hres::internal::kX86EntryCount; e++) {
        if (!(k.entries & (1u << e))) continue;
        for (bool amd : {false, true}) {
            if (k.amd && !amd) continue;
            cpus.push_back(std::string(hres::internal::kX86Entries[e].name) + (amd ? ",amd" : ""));
        }
    }
    return cpus;
}

template<typename T>
std::vector<float> as_float(const std::vector<T> &v) {
    return std::vector<float>(v.begin(), v.end());
}

// Runs `op` on NCHW `in` with the memory given; returns the NCHW output.
template<typename T, typename Op>
hres::Status run_in(const Memory &m, std::vector<T> in_nchw, int n, int h, int w, int oh, int ow,
                    std::vector<T> *out_nchw, Op op) {
    std::vector<T> in = hres_test::to_layout(in_nchw, n, m.c, h, w, m.in);
    std::vector<T> out(size_t(n) * m.c * oh * ow, T(0));
    const hres::Status s = op(hres_test::view(in, n, m.c, h, w, m.in), hres_test::view(out, n, m.c, oh, ow, m.out));
    *out_nchw = hres_test::from_layout(out, n, m.c, oh, ow, m.out);
    return s;
}

bool chose(const char *name) { return std::string(hres::last_kernel_choice().kernel) == name; }

constexpr int kBatch = 2;  // a batch, so that rows that split it do

// Tries resize calls until one runs kernel `k`; true if one did.
template<typename T>
bool try_resize(const hres::internal::Kernel &k, std::mt19937 &rng) {
    const hres::Interp modes[] = {hres::Interp::nearest, hres::Interp::nearest_exact, hres::Interp::bilinear,
                                  hres::Interp::bicubic};
    for (hres::Interp mode : modes) {
        if (!(k.modes & hres::internal::bit(mode))) continue;
        const bool filtered = mode == hres::Interp::bilinear || mode == hres::Interp::bicubic;
        for (bool antialias : {false, true}) {
            if (antialias && !filtered) continue;
            if (!(k.antialias & hres::internal::bit(antialias ? hres::internal::Flag::yes : hres::internal::Flag::no)))
                continue;
            for (const Memory &m : kMemories) {
                for (const Size &z : kSizes) {
                    hres::ResizeOptions o;
                    o.mode = mode;
                    o.antialias = antialias;
                    const std::vector<T> in = hres_test::random_pixels<T>(rng, size_t(kBatch) * m.c * z.h * z.w);
                    std::vector<T> got;
                    const hres::Status s = run_in(m, in, kBatch, z.h, z.w, z.oh, z.ow, &got,
                                                  [&](const hres::Image &i, const hres::Image &r) {
                                                      return hres_test::run_resize(i, r, o);
                                                  });
                    if (!chose(k.name())) continue;
                    EXPECT_TRUE(s.ok()) << s.message();
                    hres_ref::ResizeParams p{hres_ref::Mode(int(mode))};
                    p.antialias = antialias;
                    p.channels_last = m.in == Layout::nhwc;
                    const std::vector<T> want = hres_ref::resize(in, kBatch, m.c, z.h, z.w, z.oh, z.ow, p);
                    EXPECT_TRUE(hres_test::images_match(got, want, m.c, z.oh, z.ow,
                                                        std::is_same_v<T, uint8_t> ? 0.0 : kFloatTolerance))
                        << k.name() << ": " << m.c << " channels, " << z.h << "x" << z.w << " -> " << z.oh << "x"
                        << z.ow << " " << hres_test::name(m.in) << " -> " << hres_test::name(m.out);
                    return true;
                }
            }
        }
    }
    return false;
}

// The same for grid_sample and affine_grid_sample.
template<typename T>
bool try_sample(const hres::internal::Kernel &k, std::mt19937 &rng) {
    const bool affine = k.op == hres::internal::Op::affine_grid_sample;
    const hres::Interp modes[] = {hres::Interp::bilinear, hres::Interp::nearest, hres::Interp::bicubic};
    const hres::Padding paddings[] = {hres::Padding::zeros, hres::Padding::border, hres::Padding::reflection};
    for (hres::Interp mode : modes) {
        if (!(k.modes & hres::internal::bit(mode))) continue;
        for (hres::Padding padding : paddings) {
            if (!(k.paddings & hres::internal::bit(padding))) continue;
            for (size_t limit : {size_t(32) << 20, size_t(0)}) {  // the padded copy allowed, then not
                const size_t previous = hres::set_padded_copy_limit(limit);
                for (const Memory &m : kMemories) {
                    const Size z = kSizes[0];
                    hres::GridSampleOptions o;
                    o.mode = mode;
                    o.padding = padding;
                    const std::vector<T> in = hres_test::random_pixels<T>(rng, size_t(kBatch) * m.c * z.h * z.w);
                    std::uniform_real_distribution<float> u(-1.1f, 1.1f);
                    std::vector<float> theta(kBatch * 6), grid;
                    for (int b = 0; b < kBatch; b++) {  // a rotation and scale about a shifted centre
                        const float a = u(rng), s = 0.8f + 0.2f * u(rng);
                        const float t[6] = {s * std::cos(a), -s * std::sin(a), 0.1f * u(rng),
                                            s * std::sin(a), s * std::cos(a), 0.1f * u(rng)};
                        std::copy(t, t + 6, theta.begin() + 6 * b);
                    }
                    if (affine) {
                        grid = hres_ref::affine_grid(theta, kBatch, z.oh, z.ow, false);
                    } else {
                        grid.resize(size_t(kBatch) * z.oh * z.ow * 2);
                        for (float &g : grid) g = u(rng);
                    }
                    std::vector<T> got;
                    const hres::Status s = run_in(m, in, kBatch, z.h, z.w, z.oh, z.ow, &got,
                                                  [&](const hres::Image &i, const hres::Image &r) {
                                                      return affine ? hres_test::run_affine_grid_sample(
                                                                          i, theta.data(), r, o)
                                                                    : hres_test::run_grid_sample(i, grid.data(), r, o);
                                                  });
                    if (!chose(k.name())) continue;
                    hres::set_padded_copy_limit(previous);
                    EXPECT_TRUE(s.ok()) << s.message();
                    hres_ref::GridSampleParams p;
                    p.mode = hres_ref::GridMode(int(mode == hres::Interp::bilinear  ? 0
                                                    : mode == hres::Interp::nearest ? 1
                                                                                    : 2));
                    p.padding = hres_ref::GridPadding(int(padding));
                    const bool nearest = mode == hres::Interp::nearest;
                    const std::vector<float> want =
                        hres_ref::grid_sample(as_float(in), kBatch, m.c, z.h, z.w, grid, z.oh, z.ow, p);
                    const std::vector<uint8_t> ties =
                        nearest ? hres_ref::nearest_tie_mask(grid, kBatch, z.h, z.w, z.oh, z.ow, p, affine)
                                : std::vector<uint8_t>();
                    hres_ref::Comparison r;
                    if constexpr (std::is_same_v<T, uint8_t>) {
                        r = hres_ref::compare(got, want, m.c, z.oh, z.ow, ties);
                    } else {
                        r = hres_ref::compare(got, want, m.c, z.oh, z.ow, nearest ? 0.0 : kFloatTolerance, ties);
                    }
                    EXPECT_EQ(r.failures, 0u) << k.name() << ": " << r.first_failure;
                    EXPECT_LE(double(r.tie_mismatches), kTieShare * double(r.elements)) << k.name();
                    return true;
                }
                hres::set_padded_copy_limit(previous);
            }
        }
    }
    return false;
}

template<typename T>
bool try_flip(const hres::internal::Kernel &k, std::mt19937 &rng) {
    for (hres::FlipAxes axes : {hres::FlipAxes::vertical, hres::FlipAxes::horizontal, hres::FlipAxes::both}) {
        for (const Memory &m : kMemories) {
            const Size z = kSizes[0];
            const std::vector<T> in = hres_test::random_pixels<T>(rng, size_t(kBatch) * m.c * z.h * z.w);
            std::vector<T> got;
            const hres::Status s = run_in(m, in, kBatch, z.h, z.w, z.h, z.w, &got,
                                          [&](const hres::Image &i, const hres::Image &r) {
                                              return hres_test::run_flip(i, r, axes);
                                          });
            if (!chose(k.name())) continue;
            EXPECT_TRUE(s.ok()) << s.message();
            const std::vector<T> want = hres_ref::flip(in, kBatch, m.c, z.h, z.w, hres_ref::FlipAxes(int(axes)));
            EXPECT_TRUE(hres_test::images_match(got, want, m.c, z.h, z.w, 0.0)) << k.name();
            return true;
        }
    }
    return false;
}

// The dtypes a row serves: uint8 RGBA copies run the float32 copy kernels,
// so rows of float32 copies are tried with uint8 too.
template<typename Try>
bool try_dtypes(const hres::internal::Kernel &k, Try run) {
    std::mt19937 rng(std::hash<std::string>()(k.name()));
    if ((k.dtypes & hres::internal::bit(hres::DType::u8)) && run(uint8_t(), rng)) return true;
    return run(float(), rng) || run(uint8_t(), rng);
}

bool reach(const hres::internal::Kernel &k) {
    using hres::internal::Op;
    auto run = [&](auto pixel, std::mt19937 &rng) {
        using T = decltype(pixel);
        switch (k.op) {
        case Op::resize: return try_resize<T>(k, rng);
        case Op::grid_sample:
        case Op::affine_grid_sample: return try_sample<T>(k, rng);
        case Op::flip: return try_flip<T>(k, rng);
        case Op::resize_taps: break;
        }
        return false;
    };
    if (k.device == hres::Device::cuda) return try_dtypes(k, run);
    for (const std::string &cpu : cpus_for(k)) {
        EXPECT_TRUE(hres::internal::dispatch_as(cpu).ok());
        const bool reached = try_dtypes(k, run);
        EXPECT_TRUE(hres::internal::dispatch_as("").ok());
        if (reached) return true;
    }
    return false;
}

class Variant : public ::testing::TestWithParam<int> {};

TEST_P(Variant, ChosenByItsRuleAndExact) {
    const hres::internal::Kernel &k = hres::internal::kKernels[GetParam()];
    if (k.op == hres::internal::Op::resize_taps) {
        GTEST_SKIP() << "a helper: runs inside the CUDA kernels that name it";
    }
    if (k.device != hres_test::test_device()) GTEST_SKIP() << "the other device's run tests it";
    EXPECT_TRUE(reach(k)) << "no call of the test's candidates chooses " << k.name() << " (" << k.rule()
                          << "): its rule is unreachable or the candidates miss it";
}

std::vector<int> rows() {
    std::vector<int> all;
    for (int i = 0; i < hres::internal::kKernelCount; i++) all.push_back(i);
    return all;
}

INSTANTIATE_TEST_SUITE_P(Table, Variant, ::testing::ValuesIn(rows()),
                         [](const ::testing::TestParamInfo<int> &info) {
                             return std::string(hres::internal::kKernels[info.param].name());
                         });

}  // namespace
