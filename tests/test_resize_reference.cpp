// Randomised comparison of hres::resize against the scalar reference
// (tests/reference, written from docs/SEMANTICS.md): every mode, both dtypes and
// layouts, shapes from 1x1 to a few hundred pixels, up and down, explicit and
// non-integer scale factors, odd channel counts, batches.
// uint8 must be bit-exact; float32 within 2e-5 for values in [0, 1].
#include "reference/resize_reference.h"
#include "support/harness.h"

#include <random>

namespace hres_test {
namespace {

struct Config {
    hres::Interp mode;
    bool antialias, align_corners;
    int n, c, h, w, oh, ow;
    double scale_h = 0, scale_w = 0;
    Layout layout;

    std::string describe() const {
        std::ostringstream s;
        s << hres::to_string(mode) << (antialias ? "+aa" : "") << (align_corners ? " align_corners" : "") << " "
          << n << "x" << c << "x" << h << "x" << w << " -> " << oh << "x" << ow << " scale=(" << scale_h << ","
          << scale_w << ") " << name(layout);
        return s.str();
    }
};

hres_ref::ResizeParams reference_params(const Config &cfg) {
    static const hres_ref::Mode modes[] = {hres_ref::Mode::nearest, hres_ref::Mode::nearest_exact,
                                           hres_ref::Mode::bilinear, hres_ref::Mode::bicubic};
    hres_ref::ResizeParams p{modes[int(cfg.mode)]};
    p.antialias = cfg.antialias;
    p.align_corners = cfg.align_corners;
    p.scale_h = cfg.scale_h;
    p.scale_w = cfg.scale_w;
    p.channels_last = cfg.layout == Layout::nhwc;
    return p;
}

// Extents 1..max, log-uniform so that tiny images are as common as large ones.
int random_extent(std::mt19937 &rng, int max) {
    std::uniform_real_distribution<double> u(0.0, std::log(double(max)));
    return std::max(1, int(std::exp(u(rng))));
}

// One output extent: a size, or PyTorch's trunc(in * s) for a scale factor
// (recorded so the kernel maps coordinates with 1/s).
int random_output(std::mt19937 &rng, int in, double *scale) {
    static const double factors[] = {0.25, 0.37, 0.5, 0.6, 0.75, 1.0, 1.3, 1.7, 2.0, 2.05, 2.5, 3.0, 1.0 / 3.0};
    *scale = 0;
    if (rng() % 3 == 0) {
        for (int tries = 0; tries < 20; tries++) {
            const double s = factors[rng() % (sizeof(factors) / sizeof(factors[0]))];
            const int out = int(std::trunc(double(in) * s));
            if (out >= 1) {
                *scale = s;
                return out;
            }
        }
    }
    return random_extent(rng, 300);
}

Config random_config(std::mt19937 &rng) {
    Config cfg{};
    const int kind = rng() % 6;
    static const hres::Interp modes[] = {hres::Interp::nearest, hres::Interp::nearest_exact, hres::Interp::bilinear,
                                         hres::Interp::bicubic, hres::Interp::bilinear, hres::Interp::bicubic};
    cfg.mode = modes[kind];
    cfg.antialias = kind >= 4;
    const bool filtered = kind >= 2;
    cfg.align_corners = filtered && rng() % 3 == 0;
    static const int channels[] = {1, 3, 4, 1, 3, 4, 2, 5};
    cfg.c = channels[rng() % 8];
    cfg.n = 1 + (rng() % 4 == 0 ? rng() % 3 : 0);
    do {
        cfg.h = random_extent(rng, 300);
        cfg.w = random_extent(rng, 300);
        cfg.oh = random_output(rng, cfg.h, &cfg.scale_h);
        cfg.ow = random_output(rng, cfg.w, &cfg.scale_w);
        // Keep the scalar reference quick.
    } while (int64_t(cfg.n) * cfg.c * (int64_t(cfg.h) * cfg.w + int64_t(cfg.oh) * cfg.ow) > 400000);
    cfg.layout = rng() % 2 ? Layout::nhwc : Layout::nchw;
    return cfg;
}

template<typename T>
void check_against_reference(uint32_t seed, int count) {
    std::mt19937 rng(seed);
    const double tolerance = std::is_same_v<T, uint8_t> ? 0.0 : 2e-5;
    for (int i = 0; i < count; i++) {
        const Config cfg = random_config(rng);
        SCOPED_TRACE("case " + std::to_string(i) + ": " + cfg.describe());
        const auto in = random_pixels<T>(rng, size_t(cfg.n) * cfg.c * cfg.h * cfg.w);
        const auto want = hres_ref::resize(in, cfg.n, cfg.c, cfg.h, cfg.w, cfg.oh, cfg.ow, reference_params(cfg));
        hres::ResizeOptions options{cfg.mode, cfg.antialias, cfg.align_corners, cfg.scale_h, cfg.scale_w};
        std::vector<T> got;
        hres::Status status = resize_in_layout(in, cfg.n, cfg.c, cfg.h, cfg.w, cfg.oh, cfg.ow, options, cfg.layout, &got);
        ASSERT_TRUE(status.ok()) << status.message();
        ASSERT_TRUE(images_match(got, want, cfg.c, cfg.oh, cfg.ow, tolerance));
    }
}

TEST(ResizeVsReference, RandomUint8) { check_against_reference<uint8_t>(20261120, 600); }
TEST(ResizeVsReference, RandomFloat32) { check_against_reference<float>(20261121, 600); }

// Fixed corner cases that random draws reach rarely.
template<typename T>
void check_fixed(const Config &cfg) {
    SCOPED_TRACE(cfg.describe());
    std::mt19937 rng(7);
    const auto in = random_pixels<T>(rng, size_t(cfg.n) * cfg.c * cfg.h * cfg.w);
    const auto want = hres_ref::resize(in, cfg.n, cfg.c, cfg.h, cfg.w, cfg.oh, cfg.ow, reference_params(cfg));
    hres::ResizeOptions options{cfg.mode, cfg.antialias, cfg.align_corners, cfg.scale_h, cfg.scale_w};
    std::vector<T> got;
    ASSERT_TRUE(resize_in_layout(in, cfg.n, cfg.c, cfg.h, cfg.w, cfg.oh, cfg.ow, options, cfg.layout, &got).ok());
    EXPECT_TRUE(images_match(got, want, cfg.c, cfg.oh, cfg.ow, std::is_same_v<T, uint8_t> ? 0.0 : 2e-5));
}

TEST(ResizeVsReference, CornerCases) {
    using I = hres::Interp;
    std::vector<Config> cases;
    for (Layout l : {Layout::nchw, Layout::nhwc}) {
        for (auto [mode, aa] : {std::pair{I::nearest, false}, {I::nearest_exact, false}, {I::bilinear, false},
                                {I::bicubic, false}, {I::bilinear, true}, {I::bicubic, true}}) {
            const bool filtered = mode == I::bilinear || mode == I::bicubic;
            for (bool ac : {false, true}) {
                if (ac && !filtered) continue;
                cases.push_back({mode, aa, ac, 1, 3, 1, 1, 1, 1, 0, 0, l});          // 1x1 -> 1x1
                cases.push_back({mode, aa, ac, 1, 1, 1, 1, 7, 5, 0, 0, l});          // 1x1 -> 7x5
                cases.push_back({mode, aa, ac, 2, 4, 9, 13, 1, 1, 0, 0, l});         // -> 1x1
                cases.push_back({mode, aa, ac, 1, 3, 6, 1, 3, 1, 0, 0, l});          // width 1 (SEMANTICS.md 9.1)
                cases.push_back({mode, aa, ac, 1, 3, 300, 257, 7, 299, 0, 0, l});    // strong down / up
                cases.push_back({mode, aa, ac, 1, 5, 10, 10, 20, 10, 2.05, 1.05, l}); // legacy nearest
                cases.push_back({mode, aa, ac, 1, 2, 3, 40, 3, 40, 1.2, 1.2, l});   // unchanged with scale
                cases.push_back({mode, aa, ac, 1, 3, 17, 33, 34, 8, 0, 0, l});
                // Tall upscales over many row strips (nearest reuses input
                // rows there, within bounds derived from the scale), and the
                // legacy short cut (out == 2 * in) under a scale that is not 2.
                cases.push_back({mode, aa, ac, 2, 3, 97, 20, 1000, 41, 10.31, 2.05, l});
                cases.push_back({mode, aa, ac, 1, 4, 5, 7, 10, 14, 2.1, 2.1, l});
                // Scale factors no size could come from (ATen takes both):
                // the legacy short cut's rows far from the formula's, where
                // the upscale reuses input rows (the API fuzzer's find).
                cases.push_back({mode, aa, ac, 1, 1, 4, 9, 8, 1, 3.999941, 0.1, l});
                cases.push_back({mode, aa, ac, 1, 3, 20, 9, 40, 9, 9.5, 0.3, l});
                cases.push_back({mode, aa, ac, 1, 3, 61, 9, 183, 9, 0, 0, l});
                // RGB and RGBA shrunk in y to 0.7 or less: interleaved
                // float32 runs the vertical pass first along flat rows (x86),
                // here narrower than a tile, exactly a tile wide, with a
                // partial one, and just at the threshold.
                for (int channels : {3, 4}) {
                    cases.push_back({mode, aa, ac, 2, channels, 40, 5, 12, 3, 0, 0, l});
                    cases.push_back({mode, aa, ac, 1, channels, 30, 16, 16, 8, 0, 0, l});
                    cases.push_back({mode, aa, ac, 1, channels, 50, 23, 9, 37, 0, 0, l});
                    cases.push_back({mode, aa, ac, 1, channels, 30, 20, 21, 20, 0, 0, l});
                }
                // Not grown in y: interleaved float32 without antialias
                // runs its horizontal pass as pixel vectors (x86), an RGB
                // row's last pixel reading a padding value past the row:
                // inputs 1 and 2 pixels wide, 0.8 of the rows, upscaled
                // along x.
                for (int channels : {3, 4}) {
                    cases.push_back({mode, aa, ac, 1, channels, 40, 1, 32, 3, 0, 0, l});
                    cases.push_back({mode, aa, ac, 2, channels, 25, 2, 20, 1, 0, 0, l});
                    cases.push_back({mode, aa, ac, 1, channels, 45, 77, 35, 150, 0, 0, l});
                }
                // Shrunk in y by less, or unchanged: float32 bilinear on the
                // Sapphire Rapids entry still runs the vertical pass first
                // there and gathers its horizontal taps (vectors of 8 with
                // a scalar remainder): narrower than a vector, a vector and
                // one, upscaled along x.
                for (int channels : {1, 3, 4}) {
                    cases.push_back({mode, aa, ac, 1, channels, 30, 20, 29, 7, 0, 0, l});
                    cases.push_back({mode, aa, ac, 2, channels, 24, 40, 24, 17, 0, 0, l});
                    cases.push_back({mode, aa, ac, 1, channels, 25, 9, 21, 16, 0, 0, l});
                }
                // No more rows than the input: uint8 RGB nearest reads each
                // pixel as a 32-bit word on the Sapphire Rapids entry (x86),
                // in vectors of 64; inputs 2 and 3 pixels wide (the last
                // pixel's word starts a byte early), a vector and one, a
                // vector exactly, a row's last pixel read.
                cases.push_back({mode, aa, ac, 1, 3, 4, 2, 4, 5, 0, 0, l});
                cases.push_back({mode, aa, ac, 2, 3, 9, 3, 9, 2, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 3, 21, 131, 13, 65, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 3, 20, 130, 20, 64, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 3, 10, 200, 10, 199, 0, 0, l});
                // Inputs at least 1024 columns wide: planar ones run the
                // horizontal pass in tasks of one plane (x86), rows not a
                // whole number of strips; 2 channels take the generic strides.
                cases.push_back({mode, aa, ac, 2, 3, 37, 1100, 19, 517, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 3, 33, 1030, 29, 1300, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 2, 20, 1050, 18, 700, 0, 0, l});
                // Around one 16 x 16 tile (planar uint8 nearest runs in
                // tiles on x86, rounding the last ones up; inputs narrower
                // than a tile take guarded loops).
                cases.push_back({mode, aa, ac, 2, 3, 16, 16, 16, 16, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 3, 15, 17, 33, 31, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 1, 40, 15, 17, 48, 0, 0, l});
                // NHWC RGB uint8 bilinear/bicubic at least a tile in size
                // (x86) read the horizontal pass' strip rows four at a
                // time, strips starting at multiples of 4: input rows not a
                // multiple of 4 (the last group repeats the last row), of 16
                // (the last strip shifted inwards), exactly 16; outputs
                // exactly 16 wide; one column short of a tile in the input
                // or the output (the general kernel's generic strides);
                // inputs shorter than a tile (guarded strips: a row, a
                // partial group, one short of a tile).
                cases.push_back({mode, aa, ac, 1, 3, 17, 19, 16, 16, 0, 0, l});
                cases.push_back({mode, aa, ac, 2, 3, 18, 33, 7, 16, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 3, 16, 40, 41, 16, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 3, 35, 15, 9, 20, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 3, 30, 30, 10, 15, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 3, 1, 40, 1, 20, 0, 0, l});
                cases.push_back({mode, aa, ac, 2, 3, 6, 33, 13, 17, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 3, 15, 70, 30, 140, 0, 0, l});
                // Upscaled along x: planar float32 nearest picks each
                // output's column from a window of input columns on x86
                // (windows of 8, 10, 12 or 16 columns with AVX-512, 4 to 8
                // with AVX2), the last block of a row partial; inputs about as
                // wide as a window, explicit scales, the legacy short cut.
                cases.push_back({mode, aa, ac, 1, 3, 20, 400, 37, 700, 0, 0, l});
                cases.push_back({mode, aa, ac, 2, 1, 9, 8, 11, 40, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 4, 7, 12, 5, 21, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 3, 6, 50, 6, 57, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 3, 5, 30, 9, 31, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 3, 4, 10, 8, 37, 0, 3.7, l});
                cases.push_back({mode, aa, ac, 1, 3, 11, 13, 22, 26, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 2, 3, 100, 2, 163, 0, 0, l});
                // Shrunk along x by up to about 2: planar float32 nearest on
                // AMD's AVX2 kernels picks from a window per lane (shifted
                // windows of 4 to 8 columns), the last block of a row
                // partial (it gathers) or whole, windows pushed back from
                // the right edge, inputs about as wide as a window, a
                // factor just over 2 (no window fits), explicit scales.
                cases.push_back({mode, aa, ac, 1, 3, 9, 400, 7, 256, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 3, 5, 400, 6, 300, 0, 0, l});
                cases.push_back({mode, aa, ac, 2, 1, 4, 456, 3, 270, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 3, 3, 1920, 2, 960, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 1, 2, 13, 2, 8, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 1, 2, 16, 2, 9, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 4, 3, 101, 3, 50, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 3, 4, 333, 4, 170, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 3, 5, 77, 5, 60, 1.0, 0.79, l});
                // Width unchanged: the vertical pass alone (x86: PyTorch
                // skips the horizontal pass; interleaved images as one flat
                // channel), uint8 also where an explicit scale along x is
                // not 1, which float32 bicubic without antialias applies
                // (two passes) unless it is exactly 1; rows narrower than a
                // vector, a vector and a partial one, height unchanged too
                // (a copy), 1 pixel wide, several row tasks, a batch; 2
                // channels interleaved too.
                for (int channels : {1, 2, 3, 4}) {
                    cases.push_back({mode, aa, ac, 1, channels, 37, 50, 20, 50, 0, 0, l});
                    cases.push_back({mode, aa, ac, 2, channels, 13, 130, 40, 130, 0, 0, l});
                    cases.push_back({mode, aa, ac, 1, channels, 20, 33, 30, 33, 1.5, 1.3, l});
                    cases.push_back({mode, aa, ac, 1, channels, 21, 19, 30, 19, 1.5, 1.0, l});
                    cases.push_back({mode, aa, ac, 1, channels, 30, 65, 30, 65, 0, 0, l});
                    cases.push_back({mode, aa, ac, 1, channels, 9, 1, 4, 1, 0, 0, l});
                    cases.push_back({mode, aa, ac, 1, channels, 200, 70, 97, 70, 0, 0, l});
                }
                // At least 2^17 output pixels (N*H*W): planar 3- and 4-channel
                // images run a pixel's channels per thread there (CUDA).
                cases.push_back({mode, aa, ac, 2, 3, 200, 240, 190, 350, 0, 0, l});
                cases.push_back({mode, aa, ac, 1, 4, 100, 90, 380, 350, 0, 0, l});
            }
        }
    }
    for (const Config &cfg : cases) {
        check_fixed<uint8_t>(cfg);
        check_fixed<float>(cfg);
    }
}

// Batches of the filtered modes run their images one call each where the
// pool has fewer than 4 threads per image, else all in one call, images in
// parallel (runtime/src/resize.cpp): both ways, whatever this machine's cores.
TEST(ResizeVsReference, BatchesAtThreadCounts) {
    using I = hres::Interp;
    for (int threads : {1, 2, 16}) {
        SCOPED_TRACE("threads " + std::to_string(threads));
        hres::set_num_threads(threads);
        for (Layout l : {Layout::nchw, Layout::nhwc}) {
            for (auto [mode, aa] : {std::pair{I::bilinear, false}, {I::bicubic, false}, {I::bilinear, true},
                                    {I::bicubic, true}}) {
                check_fixed<uint8_t>({mode, aa, false, 3, 3, 70, 90, 41, 53, 0, 0, l});
                check_fixed<float>({mode, aa, false, 3, 3, 70, 90, 41, 53, 0, 0, l});
                check_fixed<float>({mode, aa, false, 3, 3, 90, 70, 30, 45, 0, 0, l});  // vertical first (x86)
                check_fixed<uint8_t>({mode, aa, false, 3, 3, 70, 90, 41, 90, 0, 0, l});  // vertical pass alone
                check_fixed<float>({mode, aa, false, 3, 3, 70, 90, 41, 90, 0, 0, l});
            }
        }
    }
    hres::set_num_threads(0);
}

}  // namespace
}  // namespace hres_test
