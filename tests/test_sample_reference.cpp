// Randomised comparison of hres::grid_sample, hres::affine_grid_sample and
// hres::flip against the scalar reference (tests/reference/sample_reference,
// written from docs/SEMANTICS.md 6-8), plus its section 10 worked examples G1,
// AG1-AG3 and F1.
//
// Coverage: every mode x padding x align_corners, uint8 and float32, NCHW and
// NHWC (input and output layouts drawn independently, so mixed pairs occur),
// grids far outside [-1, 1] (up to +-3), grid points exactly on pixel centres,
// on pixel edges and on the image borders, 1-pixel inputs (1x1, 1xW, Hx1),
// batches, 1-5 channels, random thetas. Bicubic under zeros and border
// padding: the padded-copy kernel variants against the in-place ones, bit
// for bit; RGBA uint8 copied as 4-byte pixels (nearest sampling and resize,
// flips) against the per-channel kernels, byte for byte; strided inputs
// (padded rows and planes, pixel slots, every other column) against dense
// ones, bit for bit.
//
// Tolerances (never loosened to make a kernel pass):
//   float32: 2e-5 absolute (values in [0, 1]);
//   uint8: exact, except off by one where the float value is within 1e-4 of a
//          .5 rounding boundary;
//   nearest: exact, except at points whose source coordinate lies within float
//          rounding of a .5 boundary (nearest_tie_mask); such differences may
//          be at most 0.1% of the nearest elements a test compares;
//   flips: bit-exact.
#include "reference/sample_reference.h"
#include "support/harness.h"

#include <array>
#include <cstring>
#include <random>

namespace hres_test {
namespace {

using hres::Interp;
using hres::Padding;

constexpr double kFloatTolerance = 2e-5;  // for values in [0, 1]
constexpr double kTieShare = 0.001;       // nearest: at most 0.1% of elements at ties

hres_ref::GridSampleParams reference_params(const hres::GridSampleOptions &o) {
    hres_ref::GridSampleParams p;
    p.mode = o.mode == Interp::nearest   ? hres_ref::GridMode::nearest
             : o.mode == Interp::bicubic ? hres_ref::GridMode::bicubic
                                         : hres_ref::GridMode::bilinear;
    p.padding = o.padding == Padding::border       ? hres_ref::GridPadding::border
                : o.padding == Padding::reflection ? hres_ref::GridPadding::reflection
                                                   : hres_ref::GridPadding::zeros;
    p.align_corners = o.align_corners;
    return p;
}

std::string describe(const hres::GridSampleOptions &o) {
    return std::string(hres::to_string(o.mode)) + " " + hres::to_string(o.padding) +
           (o.align_corners ? " align_corners" : "");
}

// ---------------------------------------------------------------------------
// Running the kernels on NCHW vectors in chosen layouts (input and output each
// have their own); results come back as NCHW.

template<typename T>
hres::Status grid_sample_in_layout(const std::vector<T> &in_nchw, int n, int c, int h, int w,
                                   const std::vector<float> &grid, int oh, int ow,
                                   const hres::GridSampleOptions &options, Layout lin, Layout lout,
                                   std::vector<T> *out_nchw) {
    std::vector<T> in = to_layout(in_nchw, n, c, h, w, lin);
    std::vector<T> out(size_t(n) * c * oh * ow, T(0));
    hres::Status s = run_grid_sample(view(in, n, c, h, w, lin), grid.data(), view(out, n, c, oh, ow, lout), options);
    *out_nchw = from_layout(out, n, c, oh, ow, lout);
    return s;
}

template<typename T>
hres::Status affine_in_layout(const std::vector<T> &in_nchw, int n, int c, int h, int w,
                              const std::vector<float> &theta, int oh, int ow, const hres::GridSampleOptions &options,
                              Layout lin, Layout lout, std::vector<T> *out_nchw) {
    std::vector<T> in = to_layout(in_nchw, n, c, h, w, lin);
    std::vector<T> out(size_t(n) * c * oh * ow, T(0));
    hres::Status s =
        run_affine_grid_sample(view(in, n, c, h, w, lin), theta.data(), view(out, n, c, oh, ow, lout), options);
    *out_nchw = from_layout(out, n, c, oh, ow, lout);
    return s;
}

template<typename T>
hres::Status flip_in_layout(const std::vector<T> &in_nchw, int n, int c, int h, int w, hres::FlipAxes axes,
                            Layout lin, Layout lout, std::vector<T> *out_nchw) {
    std::vector<T> in = to_layout(in_nchw, n, c, h, w, lin);
    std::vector<T> out(in.size(), T(0));
    hres::Status s = run_flip(view(in, n, c, h, w, lin), view(out, n, c, h, w, lout), axes);
    *out_nchw = from_layout(out, n, c, h, w, lout);
    return s;
}

template<typename T>
::testing::AssertionResult bit_identical(const std::vector<T> &got, const std::vector<T> &want) {
    if (got.size() != want.size()) return ::testing::AssertionFailure() << "sizes differ";
    for (size_t i = 0; i < got.size(); i++) {
        if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
            return ::testing::AssertionFailure()
                   << "element " << i << " differs: got " << double(got[i]) << ", want " << double(want[i]);
        }
    }
    return ::testing::AssertionSuccess();
}

// Tie-mismatch bookkeeping across the cases of one test.
struct TieBudget {
    size_t nearest_elements = 0, tie_mismatches = 0;
    void add(const hres_ref::Comparison &c, bool nearest) {
        if (nearest) nearest_elements += c.elements;
        tie_mismatches += c.tie_mismatches;
    }
    void check() const {
        EXPECT_LE(double(tie_mismatches), kTieShare * double(nearest_elements))
            << tie_mismatches << " nearest elements differ at .5 ties out of " << nearest_elements;
    }
};

// Compares a kernel result with the reference under the rules above.
// `want_float` is the float32 reference (for uint8: on the uint8 values).
template<typename T>
::testing::AssertionResult matches_reference(const std::vector<T> &got, const std::vector<float> &want_float, int c,
                                             int oh, int ow, const std::vector<uint8_t> &tie_mask, bool nearest,
                                             TieBudget *budget) {
    hres_ref::Comparison r;
    if constexpr (std::is_same_v<T, uint8_t>) {
        r = hres_ref::compare(got, want_float, c, oh, ow, tie_mask);
    } else {
        r = hres_ref::compare(got, want_float, c, oh, ow, nearest ? 0.0 : kFloatTolerance, tie_mask);
    }
    if (budget) budget->add(r, nearest);
    if (r.failures == 0) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << r.failures << " of " << r.elements
                                         << " elements differ beyond tolerance; first at " << r.first_failure;
}

// ---------------------------------------------------------------------------
// Random configurations.

int random_extent(std::mt19937 &rng, int max) {
    std::uniform_real_distribution<double> u(0.0, std::log(double(max)));
    return std::max(1, int(std::exp(u(rng))));
}

struct Config {
    hres::GridSampleOptions options;
    int n = 1, c = 1, h = 1, w = 1, oh = 1, ow = 1;
    Layout lin = Layout::nchw, lout = Layout::nchw;
    int grid_kind = 0;

    std::string str() const {
        std::ostringstream s;
        s << describe(options) << " " << n << "x" << c << "x" << h << "x" << w << " -> " << oh << "x" << ow
          << " in " << name(lin) << " out " << name(lout) << " grid kind " << grid_kind;
        return s.str();
    }
};

Config random_config(std::mt19937 &rng) {
    static const Interp modes[] = {Interp::bilinear, Interp::nearest, Interp::bicubic};
    static const Padding paddings[] = {Padding::zeros, Padding::border, Padding::reflection};
    Config cfg;
    cfg.options.mode = modes[rng() % 3];
    cfg.options.padding = paddings[rng() % 3];
    cfg.options.align_corners = rng() % 2;
    cfg.c = 1 + rng() % 5;
    cfg.n = 1 + (rng() % 3 == 0 ? rng() % 3 : 0);
    const bool large = rng() % 10 == 0;
    cfg.h = random_extent(rng, large ? 300 : 64);
    cfg.w = random_extent(rng, large ? 300 : 64);
    cfg.oh = random_extent(rng, 48);
    cfg.ow = random_extent(rng, 48);
    // Mostly matching layouts; a quarter of the cases mix them.
    cfg.lin = rng() % 2 ? Layout::nhwc : Layout::nchw;
    cfg.lout = rng() % 4 == 0 ? (cfg.lin == Layout::nchw ? Layout::nhwc : Layout::nchw) : cfg.lin;
    cfg.grid_kind = rng() % 6;
    return cfg;
}

// Grid coordinate of pixel centre k (the sample point of an output pixel under
// the identity transform), computed in float32.
float pixel_centre(int k, int size, bool ac) {
    if (ac) return size == 1 ? 0.0f : float(2 * k) / float(size - 1) - 1.0f;
    return float(2 * k + 1) / float(size) - 1.0f;
}

// Grid coordinate of the edge between pixels k-1 and k (k = 0 and k = size are
// the image borders): source coordinate k - 0.5, a nearest tie.
float pixel_edge(int k, int size, bool ac) {
    if (ac) return size == 1 ? (k == 0 ? -1.0f : 1.0f) : float(2 * k - 1) / float(size - 1) - 1.0f;
    return float(2 * k) / float(size) - 1.0f;
}

// Kinds: 0 uniform [-1,1]; 1 uniform [-1.3,1.3]; 2 uniform [-3,3]; 3 pixel
// centres; 4 pixel edges and image borders; 5 a per-point mixture of all of
// these and of special values (+-1, 0, +-0.5, +-3).
std::vector<float> random_grid(std::mt19937 &rng, const Config &cfg) {
    std::vector<float> grid(size_t(cfg.n) * cfg.oh * cfg.ow * 2);
    const bool ac = cfg.options.align_corners;
    auto coordinate = [&](int kind, int size) -> float {
        static const float specials[] = {-1.0f, 1.0f, 0.0f, -0.5f, 0.5f, -3.0f, 3.0f};
        switch (kind) {
        case 0: return std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng);
        case 1: return std::uniform_real_distribution<float>(-1.3f, 1.3f)(rng);
        case 2: return std::uniform_real_distribution<float>(-3.0f, 3.0f)(rng);
        case 3: return pixel_centre(int(rng() % size), size, ac);
        case 4: return pixel_edge(int(rng() % (size + 1)), size, ac);
        default: return specials[rng() % 7];
        }
    };
    for (size_t p = 0; p < grid.size() / 2; p++) {
        const int kind = cfg.grid_kind == 5 ? int(rng() % 6) : cfg.grid_kind;
        const int kind_y = cfg.grid_kind == 5 ? int(rng() % 6) : cfg.grid_kind;
        grid[2 * p] = coordinate(kind == 5 ? 6 : kind, cfg.w);
        grid[2 * p + 1] = coordinate(kind_y == 5 ? 6 : kind_y, cfg.h);
    }
    return grid;
}

// Theta kinds: similarity (rotation, scale, shift), raw N(0,1) entries,
// identity, and exact 90-degree rotations / flips.
std::vector<float> random_theta(std::mt19937 &rng, int n) {
    std::vector<float> theta(size_t(n) * 6);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (int b = 0; b < n; b++) {
        float *t = theta.data() + 6 * b;
        switch (rng() % 4) {
        case 0: {
            const float angle = 3.14159265f * u(rng), scale = std::exp(0.7f * u(rng));
            const float shear = 0.2f * u(rng);
            t[0] = scale * std::cos(angle);
            t[1] = -scale * std::sin(angle) + shear;
            t[2] = u(rng);
            t[3] = scale * std::sin(angle);
            t[4] = scale * std::cos(angle);
            t[5] = u(rng);
            break;
        }
        case 1:
            for (int k = 0; k < 6; k++) t[k] = normal(rng);
            break;
        case 2: {
            const float id[6] = {1, 0, 0, 0, 1, 0};
            std::copy(id, id + 6, t);
            break;
        }
        default: {
            static const float exact[4][6] = {
                {0, -1, 0, 1, 0, 0}, {-1, 0, 0, 0, 1, 0}, {1, 0, 0.5f, 0, -1, -0.25f}, {2, 0, 0, 0, 0.5f, 0}};
            const int which = int(rng() % 4);
            std::copy(exact[which], exact[which] + 6, t);
        }
        }
    }
    return theta;
}

// The float32 reference for a (possibly uint8) input.
template<typename T>
std::vector<float> reference_float(const std::vector<T> &in, const Config &cfg, const std::vector<float> &grid) {
    const std::vector<float> f(in.begin(), in.end());
    return hres_ref::grid_sample(f, cfg.n, cfg.c, cfg.h, cfg.w, grid, cfg.oh, cfg.ow, reference_params(cfg.options));
}

// Random configurations against the reference: explicit grids, or
// (`affine`) grids from random thetas that the kernel builds itself.
template<typename T>
void random_sampling(uint32_t seed, int count, bool affine) {
    std::mt19937 rng(seed);
    TieBudget budget;
    for (int i = 0; i < count; i++) {
        const Config cfg = random_config(rng);
        SCOPED_TRACE("case " + std::to_string(i) + ": " + (affine ? "affine " : "") + cfg.str());
        const auto in = random_pixels<T>(rng, size_t(cfg.n) * cfg.c * cfg.h * cfg.w);
        std::vector<float> theta, grid;
        if (affine) {
            theta = random_theta(rng, cfg.n);
            grid = hres_ref::affine_grid(theta, cfg.n, cfg.oh, cfg.ow, cfg.options.align_corners);
        } else {
            grid = random_grid(rng, cfg);
        }
        const auto want = reference_float(in, cfg, grid);
        const bool nearest = cfg.options.mode == Interp::nearest;
        // The affine kernel builds its own grid, which may differ from ours by an ulp.
        const auto ties = nearest ? hres_ref::nearest_tie_mask(grid, cfg.n, cfg.h, cfg.w, cfg.oh, cfg.ow,
                                                                reference_params(cfg.options), affine)
                                  : std::vector<uint8_t>();
        std::vector<T> got;
        hres::Status s =
            affine ? affine_in_layout(in, cfg.n, cfg.c, cfg.h, cfg.w, theta, cfg.oh, cfg.ow, cfg.options, cfg.lin,
                                      cfg.lout, &got)
                   : grid_sample_in_layout(in, cfg.n, cfg.c, cfg.h, cfg.w, grid, cfg.oh, cfg.ow, cfg.options,
                                           cfg.lin, cfg.lout, &got);
        ASSERT_TRUE(s.ok()) << s.message();
        ASSERT_TRUE(matches_reference(got, want, cfg.c, cfg.oh, cfg.ow, ties, nearest, &budget));
    }
    budget.check();
}

TEST(GridSampleVsReference, RandomFloat32) { random_sampling<float>(20261201, 700, false); }
TEST(GridSampleVsReference, RandomUint8) { random_sampling<uint8_t>(20261202, 700, false); }
TEST(AffineGridSampleVsReference, RandomFloat32) { random_sampling<float>(20261203, 400, true); }
TEST(AffineGridSampleVsReference, RandomUint8) { random_sampling<uint8_t>(20261204, 400, true); }

// Fixed shapes the random draws reach rarely: 1-pixel inputs and outputs, a
// large input, batches with 5 channels, RGB and RGBA rows longer than the
// x86 schedule's 32- and 64-pixel chunks and not a multiple of them (the
// last chunk shifted inwards), RGB inputs of 2 pixels, batches of 1-pixel-wide
// images and planar inputs of exactly 4 values (uint8 nearest and bilinear
// read 32-bit byte words on the Sapphire Rapids entry, the buffer's last
// ones starting early); every mode x padding x align_corners, both dtypes,
// every layout pair, and the grid kinds with ties and far points.
template<typename T>
void fixed_shapes() {
    struct Shape { int n, c, h, w, oh, ow; };
    const Shape shapes[] = {{1, 3, 1, 1, 4, 5}, {1, 1, 1, 9, 3, 7},  {2, 2, 7, 1, 6, 2},   {1, 4, 1, 1, 1, 1},
                            {3, 5, 6, 5, 5, 6}, {1, 3, 300, 257, 9, 11}, {2, 1, 2, 2, 1, 13},
                            {2, 3, 40, 50, 5, 77},  {1, 3, 1, 2, 3, 70}, {3, 3, 2, 1, 4, 64},
                            {2, 3, 5, 3, 2, 130}, {1, 1, 2, 2, 3, 5},  {1, 4, 1, 1, 2, 3},
                            {2, 4, 40, 50, 5, 77},  {1, 4, 3, 2, 2, 70}};
    std::mt19937 rng(99);
    TieBudget budget;
    for (const Shape &sh : shapes)
        for (Interp mode : {Interp::bilinear, Interp::nearest, Interp::bicubic})
            for (Padding padding : {Padding::zeros, Padding::border, Padding::reflection})
                for (bool ac : {false, true})
                    for (Layout lin : {Layout::nchw, Layout::nhwc})
                        for (Layout lout : {Layout::nchw, Layout::nhwc})
                            for (int kind : {2, 3, 4, 5}) {
                                Config cfg;
                                cfg.options = {mode, padding, ac};
                                cfg.n = sh.n, cfg.c = sh.c, cfg.h = sh.h, cfg.w = sh.w, cfg.oh = sh.oh, cfg.ow = sh.ow;
                                cfg.lin = lin, cfg.lout = lout, cfg.grid_kind = kind;
                                SCOPED_TRACE(cfg.str());
                                const auto in = random_pixels<T>(rng, size_t(cfg.n) * cfg.c * cfg.h * cfg.w);
                                const auto grid = random_grid(rng, cfg);
                                const auto want = reference_float(in, cfg, grid);
                                const bool nearest = mode == Interp::nearest;
                                const auto ties =
                                    nearest ? hres_ref::nearest_tie_mask(grid, cfg.n, cfg.h, cfg.w, cfg.oh, cfg.ow,
                                                                         reference_params(cfg.options), false)
                                            : std::vector<uint8_t>();
                                std::vector<T> got;
                                hres::Status s = grid_sample_in_layout(in, cfg.n, cfg.c, cfg.h, cfg.w, grid, cfg.oh,
                                                                       cfg.ow, cfg.options, lin, lout, &got);
                                ASSERT_TRUE(s.ok()) << s.message();
                                ASSERT_TRUE(matches_reference(got, want, cfg.c, cfg.oh, cfg.ow, ties, nearest, &budget));
                            }
    budget.check();
}

TEST(GridSampleVsReference, FixedShapesFloat32) { fixed_shapes<float>(); }
TEST(GridSampleVsReference, FixedShapesUint8) { fixed_shapes<uint8_t>(); }

// Wide and tall images, where an ulp of the unnormalised coordinate (about
// 1.2e-4 pixels at x ~ 1900) times a pixel gradient exceeds the tolerance:
// the coordinate must round as PyTorch's fused multiply-add does (coords.h;
// the separately rounded form was 5.4e-5 off PyTorch at 1080x1920).
TEST(AffineGridSampleVsReference, LargeExtentsRoundCoordinatesAsPyTorch) {
    const std::vector<float> theta = {0.8952f, -0.1579f, 0.05f, 0.1579f, 0.8952f, -0.03f};
    for (bool ac : {false, true})
        for (auto [h, w] : {std::pair{16, 1920}, {1080, 16}}) {
            Config cfg;
            cfg.options = {Interp::bilinear, Padding::zeros, ac};
            cfg.n = 1, cfg.c = 1, cfg.h = h, cfg.w = w, cfg.oh = h, cfg.ow = w;
            SCOPED_TRACE(cfg.str());
            // A checkerboard: a gradient of 1 everywhere, so any coordinate
            // difference shows in full.
            std::vector<float> in(size_t(h) * w);
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) in[size_t(y) * w + x] = float((x + y) % 2);
            const auto grid = hres_ref::affine_grid(theta, 1, h, w, ac);
            std::vector<float> got;
            ASSERT_TRUE(affine_in_layout(in, 1, 1, h, w, theta, h, w, cfg.options, Layout::nchw, Layout::nchw, &got).ok());
            EXPECT_TRUE(matches_reference(got, reference_float(in, cfg, grid), 1, h, w, {}, false, nullptr));
        }
}

// Bicubic under zeros or border padding takes a padded-copy kernel variant
// for all but large inputs (hres::set_padded_copy_limit); it must give the
// in-place kernel's very bits: the same products summed in the same order. Widths
// below the 4-pixel windows, where the in-place kernel reads tap by tap, and
// coordinates far beyond the image (up to 1e30), where both clamp indices,
// included.
// hres::set_padded_copy_limit(bytes) for one scope.
struct CopyLimit {
    size_t previous;
    explicit CopyLimit(size_t bytes) : previous(hres::set_padded_copy_limit(bytes)) {}
    ~CopyLimit() { hres::set_padded_copy_limit(previous); }
};

template<typename T>
void padded_copy_matches_in_place(uint32_t seed) {
    if (test_device() == hres::Device::cuda) GTEST_SKIP() << "the padded copies are x86 variants";
    std::mt19937 rng(seed);
    for (int i = 0; i < 200; i++) {
        Config cfg = random_config(rng);
        cfg.options.mode = Interp::bicubic;
        cfg.options.padding = i % 2 ? Padding::border : Padding::zeros;
        if (i % 3 == 0) cfg.w = 1 + i % 5;
        SCOPED_TRACE(cfg.str());
        const auto in = random_pixels<T>(rng, size_t(cfg.n) * cfg.c * cfg.h * cfg.w);
        auto grid = random_grid(rng, cfg);
        static const float far[] = {1e30f, -1e30f, 1e6f, -1e6f, 40.0f, -40.0f};
        for (size_t k = 0; k < grid.size(); k += 7) grid[k] = far[k % 6];
        const auto theta = random_theta(rng, cfg.n);
        // [copied, in place] for grid_sample, then for affine_grid_sample.
        std::vector<T> out[2][2];
        for (int in_place = 0; in_place < 2; in_place++) {
            CopyLimit limit(in_place ? 0 : size_t(32) << 20);
            ASSERT_TRUE(grid_sample_in_layout(in, cfg.n, cfg.c, cfg.h, cfg.w, grid, cfg.oh, cfg.ow, cfg.options,
                                              cfg.lin, cfg.lout, &out[0][in_place]).ok());
            ASSERT_TRUE(affine_in_layout(in, cfg.n, cfg.c, cfg.h, cfg.w, theta, cfg.oh, cfg.ow, cfg.options, cfg.lin,
                                         cfg.lout, &out[1][in_place]).ok());
        }
        ASSERT_TRUE(bit_identical(out[0][0], out[0][1]));
        ASSERT_TRUE(bit_identical(out[1][0], out[1][1]));
    }
}

TEST(GridSampleVsReference, PaddedCopyMatchesInPlaceFloat32) { padded_copy_matches_in_place<float>(20261122); }
TEST(GridSampleVsReference, PaddedCopyMatchesInPlaceUint8) { padded_copy_matches_in_place<uint8_t>(20261123); }

// Inputs in strided memory sample as the same pixels densely stored do, bit
// for bit: planar images with padded rows and planes (the kernels that read
// windows at element offsets take their strides from the buffer), pixels in
// slots wider than their channels (a channel stride of 1, no dense pixels),
// and planar images with every other column (neither x nor c of unit
// stride, which read their windows by rows instead).
template<typename T>
void strided_inputs_match_dense(uint32_t seed, int cases) {
    std::mt19937 rng(seed);
    for (int i = 0; i < cases; i++) {
        Config cfg = random_config(rng);
        const int kind = i % 3;
        SCOPED_TRACE(cfg.str() + " strided kind " + std::to_string(kind));
        const int64_t n = cfg.n, c = cfg.c, h = cfg.h, w = cfg.w;
        const auto dense = random_pixels<T>(rng, size_t(n * c * h * w));
        hres::Image strided{nullptr, dtype_of<T>(), hres::Device::cpu, n, c, h, w};
        if (kind == 0) {  // planar, rows and planes padded
            strided.stride_w = 1, strided.stride_h = w + 3, strided.stride_c = (w + 3) * h + 5;
        } else if (kind == 1) {  // pixels in slots of c + 1 values
            strided.stride_c = 1, strided.stride_w = c + 1, strided.stride_h = (c + 1) * w + 2;
        } else {  // planar, every other column
            strided.stride_w = 2, strided.stride_h = 2 * w + 1, strided.stride_c = (2 * w + 1) * h;
        }
        strided.stride_n = kind == 1 ? strided.stride_h * h + 3 : strided.stride_c * c + 7;
        std::vector<T> memory(size_t(strided.stride_n * n), T(0));
        for (int64_t b = 0; b < n; b++)
            for (int64_t ch = 0; ch < c; ch++)
                for (int64_t y = 0; y < h; y++)
                    for (int64_t x = 0; x < w; x++) {
                        memory[size_t(b * strided.stride_n + ch * strided.stride_c + y * strided.stride_h +
                                      x * strided.stride_w)] = dense[size_t(((b * c + ch) * h + y) * w + x)];
                    }
        strided.data = memory.data();
        const auto grid = random_grid(rng, cfg);
        const auto theta = random_theta(rng, cfg.n);
        std::vector<T> dense_in = dense;
        // [dense, strided] for grid_sample, then for affine_grid_sample.
        std::vector<T> out[2][2];
        for (int k = 0; k < 2; k++) {
            const hres::Image in = k ? strided : view(dense_in, n, c, h, w, Layout::nchw);
            for (int op = 0; op < 2; op++) {
                out[op][k].assign(size_t(n * c * cfg.oh * cfg.ow), T(0));
                const hres::Image result = view(out[op][k], n, c, cfg.oh, cfg.ow, Layout::nchw);
                ASSERT_TRUE((op ? run_affine_grid_sample(in, theta.data(), result, cfg.options)
                                : run_grid_sample(in, grid.data(), result, cfg.options))
                                .ok());
            }
        }
        EXPECT_TRUE(bit_identical(out[0][0], out[0][1])) << "grid_sample";
        EXPECT_TRUE(bit_identical(out[1][0], out[1][1])) << "affine_grid_sample";
    }
}

TEST(GridSampleVsReference, StridedInputsMatchDenseFloat32) { strided_inputs_match_dense<float>(20261128, 150); }
TEST(GridSampleVsReference, StridedInputsMatchDenseUint8) { strided_inputs_match_dense<uint8_t>(20261129, 150); }

// RGBA uint8 in NHWC memory with 4-byte aligned pixels is copied as one
// 4-byte channel by the pixel-copying ops (nearest sampling and resize,
// flips: runtime/src/hres.cpp, pack_pixels); rows padded by one byte keep
// the per-channel kernels. Both must give the same bytes, including pixels
// whose 4 bytes read as NaN or denormal floats.
struct RgbaImage {
    std::vector<uint8_t> bytes;
    hres::Image image;
    RgbaImage(int n, int h, int w, bool padded_rows) {
        const int64_t row = int64_t(w) * 4 + (padded_rows ? 1 : 0);
        bytes.assign(size_t(n) * h * row, 0);
        image = hres::nhwc(bytes.data(), hres::DType::u8, n, 4, h, w);
        image.stride_h = row;
        image.stride_n = row * h;
    }
    uint8_t &at(int b, int y, int x, int ch) {
        return bytes[size_t((b * image.h + y) * image.stride_h + x * 4 + ch)];
    }
    // The pixels without the padding, in NHWC order.
    std::vector<uint8_t> dense() {
        std::vector<uint8_t> out;
        for (int b = 0; b < image.n; b++)
            for (int y = 0; y < image.h; y++)
                for (int x = 0; x < image.w; x++)
                    for (int ch = 0; ch < 4; ch++) out.push_back(at(b, y, x, ch));
        return out;
    }
};

TEST(PackedPixels, RgbaCopiesMatchPerChannelKernels) {
    std::mt19937 rng(20261125);
    static const Padding paddings[] = {Padding::zeros, Padding::border, Padding::reflection};
    for (int i = 0; i < 60; i++) {
        const int n = 1 + rng() % 2, h = random_extent(rng, 70), w = random_extent(rng, 70);
        const int oh = random_extent(rng, 50), ow = random_extent(rng, 50);
        SCOPED_TRACE("case " + std::to_string(i) + ": " + std::to_string(n) + "x4x" + std::to_string(h) + "x" +
                     std::to_string(w) + " -> " + std::to_string(oh) + "x" + std::to_string(ow));
        RgbaImage in[2] = {RgbaImage(n, h, w, false), RgbaImage(n, h, w, true)};
        for (int b = 0; b < n; b++)
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                    for (int ch = 0; ch < 4; ch++) in[0].at(b, y, x, ch) = in[1].at(b, y, x, ch) = uint8_t(rng());
        Config cfg;
        cfg.n = n, cfg.c = 4, cfg.h = h, cfg.w = w, cfg.oh = oh, cfg.ow = ow, cfg.grid_kind = rng() % 6;
        cfg.options.align_corners = rng() % 2;
        const auto grid = random_grid(rng, cfg);
        const auto theta = random_theta(rng, n);
        hres::GridSampleOptions sampling;
        sampling.mode = Interp::nearest;
        sampling.padding = paddings[rng() % 3];
        sampling.align_corners = cfg.options.align_corners;
        hres::ResizeOptions resizing;
        resizing.mode = rng() % 2 ? Interp::nearest : Interp::nearest_exact;
        const auto axes = hres::FlipAxes(rng() % 3);
        // [op][packed, per channel]
        std::vector<uint8_t> got[4][2];
        for (int k = 0; k < 2; k++) {
            const bool padded = k == 1;
            RgbaImage sampled(n, oh, ow, padded), warped(n, oh, ow, padded), resized(n, oh, ow, padded),
                flipped(n, h, w, padded);
            ASSERT_TRUE(run_grid_sample(in[k].image, grid.data(), sampled.image, sampling).ok());
            ASSERT_TRUE(run_affine_grid_sample(in[k].image, theta.data(), warped.image, sampling).ok());
            ASSERT_TRUE(run_resize(in[k].image, resized.image, resizing).ok());
            ASSERT_TRUE(run_flip(in[k].image, flipped.image, axes).ok());
            got[0][k] = sampled.dense(), got[1][k] = warped.dense(), got[2][k] = resized.dense();
            got[3][k] = flipped.dense();
        }
        static const char *ops[] = {"grid_sample", "affine_grid_sample", "resize", "flip"};
        for (int op = 0; op < 4; op++) EXPECT_EQ(got[op][0], got[op][1]) << ops[op];
    }
}

// Identity theta at the input's size returns the input (SEMANTICS.md 7: bilinear to
// ~1e-7, nearest exactly), for both align_corners.
TEST(AffineGridSampleVsReference, IdentityThetaReturnsTheInput) {
    std::mt19937 rng(5);
    for (bool ac : {false, true})
        for (Interp mode : {Interp::bilinear, Interp::nearest})
            for (Padding padding : {Padding::zeros, Padding::border, Padding::reflection})
                for (auto [h, w] : {std::pair{1, 1}, {1, 6}, {5, 1}, {7, 7}, {16, 33}, {64, 3}}) {
                    SCOPED_TRACE(describe({mode, padding, ac}) + " " + std::to_string(h) + "x" + std::to_string(w));
                    const int n = 2, c = 3;
                    const std::vector<float> theta = {1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0};
                    const auto fin = random_pixels<float>(rng, size_t(n) * c * h * w);
                    std::vector<float> fout;
                    ASSERT_TRUE(affine_in_layout(fin, n, c, h, w, theta, h, w, {mode, padding, ac}, Layout::nchw,
                                                 Layout::nchw, &fout).ok());
                    EXPECT_TRUE(images_match(fout, fin, c, h, w, mode == Interp::nearest ? 0.0 : kFloatTolerance));
                    const auto uin = random_pixels<uint8_t>(rng, size_t(n) * c * h * w);
                    std::vector<uint8_t> uout;
                    ASSERT_TRUE(affine_in_layout(uin, n, c, h, w, theta, h, w, {mode, padding, ac}, Layout::nhwc,
                                                 Layout::nhwc, &uout).ok());
                    EXPECT_TRUE(images_match(uout, uin, c, h, w, 0.0));
                }
}

// The uint8 path rounds half to even and saturates (hres.h): exact dyadic
// values, so every summation order gives the same float.
TEST(GridSampleVsReference, Uint8RoundsHalfToEvenAndSaturates) {
    // Row [0, 1, 2, 3, 254, 255, 255, 255]; sample half-way between neighbours.
    std::vector<uint8_t> in = {0, 1, 2, 3, 254, 255, 255, 255};
    const int w = 8;
    std::vector<float> grid;
    for (int k = 0; k < 5; k++) grid.insert(grid.end(), {pixel_edge(k + 1, w, false), 0.0f});  // exact: w = 8
    std::vector<uint8_t> got;
    ASSERT_TRUE(grid_sample_in_layout(in, 1, 1, 1, w, grid, 1, 5, {Interp::bilinear, Padding::border, false},
                                      Layout::nchw, Layout::nchw, &got).ok());
    // 0.5 -> 0, 1.5 -> 2, 2.5 -> 2, 128.5 -> 128, 254.5 -> 254.
    EXPECT_EQ(got, (std::vector<uint8_t>{0, 2, 2, 128, 254}));

    // Bicubic overshoot beyond 0..255 saturates: step 0,0,255,255 sampled
    // between the taps overshoots below 0 and above 255 (SEMANTICS.md 10, U2's float path).
    std::vector<uint8_t> step = {0, 0, 255, 255};
    std::vector<float> g2;
    for (float x : {-0.6f, -0.3f, 0.3f, 0.6f}) g2.insert(g2.end(), {x, 0.0f});
    ASSERT_TRUE(grid_sample_in_layout(step, 1, 1, 1, 4, g2, 1, 4, {Interp::bicubic, Padding::border, false},
                                      Layout::nchw, Layout::nchw, &got).ok());
    const auto want = hres_ref::grid_sample(std::vector<float>(step.begin(), step.end()), 1, 1, 1, 4, g2, 1, 4,
                                            {hres_ref::GridMode::bicubic, hres_ref::GridPadding::border, false});
    EXPECT_LT(want[0], 0.0f);
    EXPECT_GT(want[3], 255.0f);
    EXPECT_EQ(got[0], 0);
    EXPECT_EQ(got[3], 255);
    EXPECT_TRUE(matches_reference(got, want, 1, 1, 4, {}, false, nullptr));
}

// ---------------------------------------------------------------------------
// SEMANTICS.md 10 G1: input [[1,2,3,4],[5,6,7,8]], eight grid points, 18 rows.

struct G1Row {
    Interp mode;
    Padding padding;
    bool ac;
    std::array<float, 8> values;
};

const std::vector<G1Row> &g1_rows() {
    static const std::vector<G1Row> rows = {
        {Interp::bilinear, Padding::zeros, false, {0.25f, 4.5f, 2, 3.5f, 5.5f, 1.96f, 0, 0}},
        {Interp::bilinear, Padding::zeros, true, {1, 4.5f, 8, 3.75f, 5.25f, 4.25f, 3.300001f, 0.3399999f}},
        {Interp::bilinear, Padding::border, false, {1, 4.5f, 8, 3.5f, 5.5f, 4, 6, 3.8f}},
        {Interp::bilinear, Padding::border, true, {1, 4.5f, 8, 3.75f, 5.25f, 4.25f, 6, 3.4f}},
        {Interp::bilinear, Padding::reflection, false, {1, 4.5f, 8, 3.5f, 5.5f, 4, 5.9f, 4.5f}},
        {Interp::bilinear, Padding::reflection, true, {1, 4.5f, 8, 3.75f, 5.25f, 4.25f, 5.55f, 4.3f}},
        {Interp::nearest, Padding::zeros, false, {1, 3, 0, 1, 3, 4, 0, 0}},
        {Interp::nearest, Padding::zeros, true, {1, 3, 8, 2, 3, 4, 4, 0}},
        {Interp::nearest, Padding::border, false, {1, 3, 8, 1, 3, 4, 4, 5}},
        {Interp::nearest, Padding::border, true, {1, 3, 8, 2, 3, 4, 4, 5}},
        {Interp::nearest, Padding::reflection, false, {1, 3, 8, 1, 3, 4, 4, 6}},
        {Interp::nearest, Padding::reflection, true, {1, 3, 8, 2, 3, 4, 4, 6}},
        {Interp::bicubic, Padding::zeros, false,
         {0.015625f, 5.34375f, 2.234375f, 4.378906f, 7.310547f, 1.840895f, -0.4328421f, -0.2117983f}},
        {Interp::bicubic, Padding::zeros, true,
         {1, 5.34375f, 8, 4.480957f, 6.582275f, 4.879933f, 4.084074f, 0.3249541f}},
        {Interp::bicubic, Padding::border, false,
         {0.53125f, 4.5f, 8.46875f, 3.40625f, 5.59375f, 3.669252f, 6, 3.884002f}},
        {Interp::bicubic, Padding::border, true, {1, 4.5f, 8, 3.667969f, 5.332031f, 4.214658f, 6.102095f, 3.44125f}},
        {Interp::bicubic, Padding::reflection, false,
         {0.0625f, 4.5f, 8.9375f, 3.40625f, 5.59375f, 3.527502f, 5.924751f, 4.494752f}},
        {Interp::bicubic, Padding::reflection, true,
         {1, 4.5f, 8, 3.632812f, 5.367188f, 4.079939f, 5.741814f, 4.442499f}},
    };
    return rows;
}

const std::vector<float> kG1Input = {1, 2, 3, 4, 5, 6, 7, 8};
const std::vector<float> kG1Grid = {-1, -1, 0, 0, 1, 1, -0.5f, 0, 0.5f, 0, 0.9f, -0.8f, 1.3f, 0, -1.6f, 0.2f};

// The table prints 7 significant digits (values up to ~9): the reference must
// agree to that; the kernel (whose summation order may differ) to 1e-5, well
// inside 2e-5 scaled to the value range.
constexpr double kG1PrintTolerance = 2e-6;
constexpr double kG1KernelTolerance = 1e-5;

TEST(SpecExamples, G1Reference) {
    ASSERT_EQ(g1_rows().size(), 18u);
    for (const G1Row &row : g1_rows()) {
        SCOPED_TRACE(describe({row.mode, row.padding, row.ac}));
        const auto got = hres_ref::grid_sample(kG1Input, 1, 1, 2, 4, kG1Grid, 1, 8, reference_params({row.mode, row.padding, row.ac}));
        for (int k = 0; k < 8; k++) {
            if (row.mode == Interp::nearest) {
                EXPECT_EQ(got[k], row.values[k]) << "point " << k;
            } else {
                EXPECT_NEAR(got[k], row.values[k], kG1PrintTolerance) << "point " << k;
            }
        }
    }
}

TEST(SpecExamples, G1Kernel) {
    for (const G1Row &row : g1_rows()) {
        const hres::GridSampleOptions options{row.mode, row.padding, row.ac};
        for (Layout layout : {Layout::nchw, Layout::nhwc}) {
            SCOPED_TRACE(describe(options) + " " + name(layout));
            std::vector<float> got;
            ASSERT_TRUE(grid_sample_in_layout(kG1Input, 1, 1, 2, 4, kG1Grid, 1, 8, options, layout, layout, &got).ok());
            for (int k = 0; k < 8; k++) {
                if (row.mode == Interp::nearest) {
                    EXPECT_EQ(got[k], row.values[k]) << "point " << k;
                } else {
                    EXPECT_NEAR(got[k], row.values[k], kG1KernelTolerance) << "point " << k;
                }
            }
            // uint8: the usual rules against the float reference (validated
            // against the table by G1Reference) ...
            const std::vector<uint8_t> u8_in(kG1Input.begin(), kG1Input.end());
            std::vector<uint8_t> u8_got;
            ASSERT_TRUE(
                grid_sample_in_layout(u8_in, 1, 1, 2, 4, kG1Grid, 1, 8, options, layout, layout, &u8_got).ok());
            const auto want = hres_ref::grid_sample(kG1Input, 1, 1, 2, 4, kG1Grid, 1, 8, reference_params(options));
            EXPECT_TRUE(matches_reference(u8_got, want, 1, 1, 8, {}, row.mode == Interp::nearest, nullptr));
            // ... and strictly half to even at the exact ties: points (0,0),
            // (-0.5,0), (0.5,0) sample at source coordinates that are exact
            // multiples of 0.5, so 3.5, 4.5 and 5.5 come out exactly in any
            // summation order (-> 4, 4, 6).
            for (int k : {1, 3, 4}) {
                const float v = row.values[k];
                if (v - std::floor(v) != 0.5f) continue;
                EXPECT_EQ(int(u8_got[k]), int(std::nearbyint(v))) << "uint8 tie at point " << k << " (float " << v << ")";
            }
        }
    }
}

// ---------------------------------------------------------------------------
// SEMANTICS.md 10 AG1-AG3.

struct AffineExample {
    std::vector<float> theta;
    int h, w;
    bool ac;
    std::vector<float> x, y;  // row-major h x w
};

const std::vector<AffineExample> &affine_examples() {
    const float third = 2.0f / 3.0f;
    static const std::vector<AffineExample> examples = {
        // AG1, align_corners False and True.
        {{1, 0, 0, 0, 1, 0}, 2, 3, false, {-third, 0, third, -third, 0, third}, {-0.5f, -0.5f, -0.5f, 0.5f, 0.5f, 0.5f}},
        {{1, 0, 0, 0, 1, 0}, 2, 3, true, {-1, 0, 1, -1, 0, 1}, {-1, -1, -1, 1, 1, 1}},
        // AG2.
        {{0, -1, 0, 1, 0, 0}, 2, 3, false, {0.5f, 0.5f, 0.5f, -0.5f, -0.5f, -0.5f}, {-third, 0, third, -third, 0, third}},
        // AG3.
        {{2, 0, 0.5f, 0, 0.5f, -0.25f}, 1, 2, true, {-1.5f, 2.5f}, {-0.25f, -0.25f}},
    };
    return examples;
}

TEST(SpecExamples, AffineGridReference) {
    for (const AffineExample &ex : affine_examples()) {
        const auto grid = hres_ref::affine_grid(ex.theta, 1, ex.h, ex.w, ex.ac);
        ASSERT_EQ(grid.size(), size_t(ex.h) * ex.w * 2);
        for (int k = 0; k < ex.h * ex.w; k++) {
            EXPECT_NEAR(grid[2 * k], ex.x[k], 1e-7) << "x at " << k;
            EXPECT_NEAR(grid[2 * k + 1], ex.y[k], 1e-7) << "y at " << k;
        }
    }
    // linspace's two halves (SEMANTICS.md 7): n = 7 has its centre from the end.
    const auto b7 = hres_ref::affine_base(7, true);
    EXPECT_EQ(b7.front(), -1.0f);
    EXPECT_EQ(b7.back(), 1.0f);
    EXPECT_NEAR(b7[3], 0.0f, 1e-7);
    EXPECT_EQ(hres_ref::affine_base(1, false), std::vector<float>{0.0f});
}

// The kernel's internal grid for AG1-AG3: affine_grid_sample(theta) equals
// grid_sample of the tabulated grid, for every mode and padding, on an input
// as large as the output (AG1: the identity, so the input comes back).
TEST(SpecExamples, AffineGridKernel) {
    std::mt19937 rng(11);
    for (const AffineExample &ex : affine_examples()) {
        std::vector<float> table_grid;
        for (int k = 0; k < ex.h * ex.w; k++) table_grid.insert(table_grid.end(), {ex.x[k], ex.y[k]});
        for (auto [ih, iw] : {std::pair{ex.h, ex.w}, {5, 7}})
            for (Interp mode : {Interp::bilinear, Interp::nearest, Interp::bicubic})
                for (Padding padding : {Padding::zeros, Padding::border, Padding::reflection}) {
                    const hres::GridSampleOptions options{mode, padding, ex.ac};
                    SCOPED_TRACE(describe(options) + " input " + std::to_string(ih) + "x" + std::to_string(iw));
                    const auto in = random_pixels<float>(rng, size_t(2) * ih * iw);
                    std::vector<float> via_theta, via_grid;
                    ASSERT_TRUE(affine_in_layout(in, 1, 2, ih, iw, ex.theta, ex.h, ex.w, options, Layout::nchw,
                                                 Layout::nchw, &via_theta).ok());
                    ASSERT_TRUE(grid_sample_in_layout(in, 1, 2, ih, iw, table_grid, ex.h, ex.w, options, Layout::nchw,
                                                      Layout::nchw, &via_grid).ok());
                    const auto want = hres_ref::grid_sample(in, 1, 2, ih, iw, table_grid, ex.h, ex.w, reference_params(options));
                    const double tol = mode == Interp::nearest ? 0.0 : kFloatTolerance;
                    EXPECT_TRUE(images_match(via_theta, via_grid, 2, ex.h, ex.w, tol));
                    EXPECT_TRUE(images_match(via_theta, want, 2, ex.h, ex.w, tol));
                    if (&ex == &affine_examples()[0] || &ex == &affine_examples()[1]) {
                        if (ih == ex.h && iw == ex.w && mode != Interp::bicubic) {
                            EXPECT_TRUE(images_match(via_theta, in, 2, ex.h, ex.w, tol)) << "identity";
                        }
                    }
                }
    }
}

// ---------------------------------------------------------------------------
// Flips: SEMANTICS.md 10 F1, then random shapes, dtypes, axes and layout pairs.

TEST(SpecExamples, F1) {
    const std::vector<float> in = {0, 1, 2, 3, 4, 5};
    const std::vector<float> horizontal = {2, 1, 0, 5, 4, 3}, vertical = {3, 4, 5, 0, 1, 2};
    const std::vector<float> both = {5, 4, 3, 2, 1, 0};
    EXPECT_EQ(hres_ref::flip(in, 1, 1, 2, 3, hres_ref::FlipAxes::horizontal), horizontal);
    EXPECT_EQ(hres_ref::flip(in, 1, 1, 2, 3, hres_ref::FlipAxes::vertical), vertical);
    EXPECT_EQ(hres_ref::flip(in, 1, 1, 2, 3, hres_ref::FlipAxes::both), both);
    for (Layout layout : {Layout::nchw, Layout::nhwc}) {
        SCOPED_TRACE(name(layout));
        std::vector<float> got;
        ASSERT_TRUE(flip_in_layout(in, 1, 1, 2, 3, hres::FlipAxes::horizontal, layout, layout, &got).ok());
        EXPECT_EQ(got, horizontal);
        ASSERT_TRUE(flip_in_layout(in, 1, 1, 2, 3, hres::FlipAxes::vertical, layout, layout, &got).ok());
        EXPECT_EQ(got, vertical);
        ASSERT_TRUE(flip_in_layout(in, 1, 1, 2, 3, hres::FlipAxes::both, layout, layout, &got).ok());
        EXPECT_EQ(got, both);
        const std::vector<uint8_t> u8(in.begin(), in.end());
        std::vector<uint8_t> u8_got;
        ASSERT_TRUE(flip_in_layout(u8, 1, 1, 2, 3, hres::FlipAxes::horizontal, layout, layout, &u8_got).ok());
        EXPECT_EQ(u8_got, std::vector<uint8_t>(horizontal.begin(), horizontal.end()));
        ASSERT_TRUE(flip_in_layout(u8, 1, 1, 2, 3, hres::FlipAxes::vertical, layout, layout, &u8_got).ok());
        EXPECT_EQ(u8_got, std::vector<uint8_t>(vertical.begin(), vertical.end()));
    }
    // A channels-last (2,3,2,3) uint8 image flipped in channels-last memory:
    // whole pixels move, channels stay in order (SEMANTICS.md 8).
    std::vector<uint8_t> nhwc(2 * 3 * 2 * 3);
    for (size_t k = 0; k < nhwc.size(); k++) nhwc[k] = uint8_t(k);
    std::vector<uint8_t> out(nhwc.size());
    ASSERT_TRUE(run_flip(hres::nhwc(nhwc.data(), hres::DType::u8, 2, 3, 2, 3),
                           hres::nhwc(out.data(), hres::DType::u8, 2, 3, 2, 3), hres::FlipAxes::horizontal).ok());
    for (int b = 0; b < 2; b++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 3; x++)
                for (int ch = 0; ch < 3; ch++)
                    EXPECT_EQ(out[((b * 2 + y) * 3 + x) * 3 + ch], nhwc[((b * 2 + y) * 3 + (2 - x)) * 3 + ch]);
}

template<typename T>
void random_flips(uint32_t seed, int count) {
    std::mt19937 rng(seed);
    for (int i = 0; i < count; i++) {
        const int n = 1 + rng() % 3, c = 1 + rng() % 5;
        const int h = random_extent(rng, i % 10 == 0 ? 300 : 40), w = random_extent(rng, i % 10 == 0 ? 300 : 40);
        const auto axes = hres::FlipAxes(rng() % 3);
        const Layout lin = rng() % 2 ? Layout::nhwc : Layout::nchw;
        const Layout lout = rng() % 4 == 0 ? (lin == Layout::nchw ? Layout::nhwc : Layout::nchw) : lin;
        SCOPED_TRACE("case " + std::to_string(i) + ": " + hres::to_string(axes) + " " + std::to_string(n) + "x" +
                     std::to_string(c) + "x" + std::to_string(h) + "x" + std::to_string(w) + " in " + name(lin) +
                     " out " + name(lout));
        auto in = random_pixels<T>(rng, size_t(n) * c * h * w);
        if constexpr (std::is_same_v<T, float>) {
            // Bit patterns that must survive untouched: -0, denormals, infinities, NaN payloads.
            const uint32_t specials[] = {0x80000000u, 0x00000001u, 0x7f800000u, 0xff800000u, 0x7fc12345u};
            for (size_t k = 0; k < in.size(); k += 7) std::memcpy(&in[k], &specials[k / 7 % 5], 4);
        }
        const auto want = hres_ref::flip(in, n, c, h, w, hres_ref::FlipAxes(int(axes)));
        std::vector<T> got;
        hres::Status s = flip_in_layout(in, n, c, h, w, axes, lin, lout, &got);
        ASSERT_TRUE(s.ok()) << s.message();
        ASSERT_TRUE(bit_identical(got, want));
    }
}

TEST(FlipVsReference, RandomUint8) { random_flips<uint8_t>(20261205, 300); }
TEST(FlipVsReference, RandomFloat32) { random_flips<float>(20261206, 300); }

// Images above the x86 kernels' serial size (2^18 values) run in parallel
// row tasks, where uint8 horizontal flips prefetch the next row's first
// lines (schedules/flip_x86.cpp): every axis, both layouts, batches of one
// and two, widths that do and do not fill whole lines.
TEST(FlipVsReference, LargeImages) {
    std::mt19937 rng(20261128);
    for (auto [n, c, h, w] : {std::array{1, 3, 300, 400}, {2, 3, 150, 333}, {1, 1, 700, 401}, {1, 4, 257, 260}}) {
        const auto in = random_pixels<uint8_t>(rng, size_t(n) * c * h * w);
        for (int a = 0; a < 3; a++)
            for (Layout layout : {Layout::nchw, Layout::nhwc}) {
                const auto axes = hres::FlipAxes(a);
                SCOPED_TRACE(std::string(hres::to_string(axes)) + " " + std::to_string(n) + "x" + std::to_string(c) +
                             "x" + std::to_string(h) + "x" + std::to_string(w) + " " + name(layout));
                std::vector<uint8_t> got;
                hres::Status s = flip_in_layout(in, n, c, h, w, axes, layout, layout, &got);
                ASSERT_TRUE(s.ok()) << s.message();
                ASSERT_TRUE(bit_identical(got, hres_ref::flip(in, n, c, h, w, hres_ref::FlipAxes(a))));
            }
    }
}

// NHWC RGB uint8 flipped along x has an x86 kernel of its own, which reads
// each row mirrored as one flat run (runtime/src/flip.cpp): widths around
// its vector widths (16, 32 and 64 bytes of pixels' values; 64 pixels a
// vector on AVX-512), rows padded or not, every axis.
TEST(FlipVsReference, RgbUint8AcrossWidths) {
    std::mt19937 rng(20261127);
    for (int w : {1, 2, 5, 15, 16, 17, 21, 22, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 200}) {
        for (int padding : {0, 7}) {
            const int n = 1 + w % 2, c = 3, h = 1 + (w * 7 + padding) % 9;
            const auto axes = hres::FlipAxes((w + padding) % 3);
            SCOPED_TRACE(std::string(hres::to_string(axes)) + " " + std::to_string(n) + "x3x" + std::to_string(h) + "x" +
                         std::to_string(w) + ", rows padded by " + std::to_string(padding));
            const auto planar = random_pixels<uint8_t>(rng, size_t(n) * c * h * w);
            const int64_t row = int64_t(w) * c + padding;
            std::vector<uint8_t> in(size_t(n) * h * row, 0), out(in.size(), 0);
            hres::Image in_view = hres::nhwc(in.data(), hres::DType::u8, n, c, h, w);
            hres::Image out_view = hres::nhwc(out.data(), hres::DType::u8, n, c, h, w);
            in_view.stride_h = out_view.stride_h = row;
            in_view.stride_n = out_view.stride_n = row * h;
            for (int b = 0; b < n; b++)
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++)
                        for (int ch = 0; ch < c; ch++)
                            in[size_t((b * h + y) * row + x * c + ch)] = planar[size_t(((b * c + ch) * h + y) * w + x)];
            hres::Status s = run_flip(in_view, out_view, axes);
            ASSERT_TRUE(s.ok()) << s.message();
            const auto want = hres_ref::flip(planar, n, c, h, w, hres_ref::FlipAxes(int(axes)));
            for (int b = 0; b < n; b++)
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++)
                        for (int ch = 0; ch < c; ch++)
                            ASSERT_EQ(out[size_t((b * h + y) * row + x * c + ch)],
                                      want[size_t(((b * c + ch) * h + y) * w + x)])
                                << "image " << b << " row " << y << " pixel " << x << " channel " << ch;
            // The padding between rows stays untouched.
            for (int b = 0; b < n; b++)
                for (int y = 0; y < h; y++)
                    for (int k = w * c; k < row; k++) ASSERT_EQ(out[size_t((b * h + y) * row + k)], 0);
        }
    }
}

}  // namespace
}  // namespace hres_test
