// Bad arguments to the library come back as a Status with a message; nothing
// aborts, and nothing is written to the output.
#include "support/harness.h"

#include <limits>

namespace hres_test {
namespace {

struct Fixture : ::testing::Test {
    std::vector<uint8_t> in_data = std::vector<uint8_t>(2 * 3 * 8 * 8, 7);
    std::vector<uint8_t> out_data = std::vector<uint8_t>(2 * 3 * 4 * 4, 0);
    hres::Image in = hres::nchw(in_data.data(), hres::DType::u8, 2, 3, 8, 8);
    hres::Image out = hres::nchw(out_data.data(), hres::DType::u8, 2, 3, 4, 4);

    void expect_error(const hres::Image &i, const hres::Image &o, const hres::ResizeOptions &opt,
                      const std::string &needle) {
        const std::vector<uint8_t> before = out_data;
        hres::Status s = hres::resize(i, o, opt);
        EXPECT_FALSE(s.ok());
        EXPECT_NE(s.message().find(needle), std::string::npos) << "message: " << s.message();
        EXPECT_EQ(out_data, before) << "a rejected call wrote to the output";
    }
};

TEST_F(Fixture, ValidCallSucceedsAndWrites) {
    ASSERT_TRUE(hres::resize(in, out, {hres::Interp::bilinear}).ok());
    for (uint8_t v : out_data) EXPECT_EQ(v, 7);  // a constant image stays constant
}

TEST_F(Fixture, NullData) {
    hres::Image i = in;
    i.data = nullptr;
    expect_error(i, out, {}, "null");
    hres::Image o = out;
    o.data = nullptr;
    expect_error(in, o, {}, "null");
}

TEST_F(Fixture, ZeroAndNegativeSizes) {
    for (int dim = 0; dim < 4; dim++) {
        for (int64_t bad : {int64_t(0), int64_t(-3)}) {
            hres::Image o = out;
            (dim == 0 ? o.n : dim == 1 ? o.c : dim == 2 ? o.h : o.w) = bad;
            expect_error(in, o, {}, "positive");
        }
    }
}

TEST_F(Fixture, ShapeAndTypeMismatch) {
    hres::Image o = out;
    o.c = 2;
    expect_error(in, o, {}, "same batch and channel");
    o = out;
    o.n = 1;
    expect_error(in, o, {}, "same batch and channel");
    o = out;
    o.dtype = hres::DType::f32;
    expect_error(in, o, {}, "dtypes differ");
    o = out;
    o.dtype = static_cast<hres::DType>(9);
    expect_error(in, o, {}, "invalid dtype");
}

TEST_F(Fixture, UnsupportedOptionCombinations) {
    expect_error(in, out, {hres::Interp::nearest, false, true}, "align_corners");
    expect_error(in, out, {hres::Interp::nearest_exact, true, false}, "antialias");
    expect_error(in, out, {static_cast<hres::Interp>(17)}, "invalid interpolation mode");
    expect_error(in, out, {hres::Interp::bilinear, false, false, -2.0, 0}, "scale_h");
    expect_error(in, out, {hres::Interp::bilinear, false, false, 0, std::numeric_limits<double>::quiet_NaN()},
                 "scale_w");
}

TEST_F(Fixture, HugeSizesOverflow) {
    hres::Image o = out;
    o.h = int64_t(1) << 40;  // beyond Halide's 32-bit extents
    expect_error(in, o, {}, "exceeds");
    o = out;
    o.n = std::numeric_limits<int64_t>::max() / 2;
    o.stride_n = std::numeric_limits<int64_t>::max() / 2;
    expect_error(in, o, {}, "");
    o = out;
    o.h = 60000;
    o.w = 60000;
    o.stride_c = 60000LL * 60000LL;  // 3.6e9 elements: beyond 32-bit indexing
    o.stride_n = 3 * o.stride_c;
    expect_error(in, o, {}, "");
}

// Outputs whose elements share addresses (zero or overlapping strides) are
// refused, by every op, as PyTorch refuses them; inputs may broadcast.
TEST_F(Fixture, AliasedOutputElements) {
    hres::Image o = out;
    o.stride_w = 0;
    expect_error(in, o, {}, "output elements overlap");
    o = out;
    o.stride_h = 2;  // rows of 4 elements two apart
    expect_error(in, o, {}, "output elements overlap");
    o = out;
    o.stride_n = 0;  // two images on one
    expect_error(in, o, {}, "output elements overlap");
    o = hres::nhwc(out_data.data(), hres::DType::u8, 2, 3, 4, 4);
    o.stride_c = 0;
    expect_error(in, o, {}, "output elements overlap");
    const hres::Image same_size = hres::nchw(in_data.data(), hres::DType::u8, 2, 3, 4, 4);
    hres::Status flipped = hres::flip(same_size, o, hres::FlipAxes::horizontal);
    EXPECT_NE(flipped.message().find("output elements overlap"), std::string::npos) << flipped.message();
    std::vector<float> grid(2 * 4 * 4 * 2, 0.0f);
    hres::Status s = hres::grid_sample(in, grid.data(), o, {});
    EXPECT_NE(s.message().find("output elements overlap"), std::string::npos) << s.message();
    // Broadcast inputs are fine, and so are axes of one element with any stride.
    hres::Image broadcast = in;
    broadcast.stride_n = 0;
    EXPECT_TRUE(hres::resize(broadcast, out, {}).ok());
    std::vector<uint8_t> one(3 * 4 * 4);
    hres::Image single = hres::nchw(one.data(), hres::DType::u8, 1, 3, 4, 4);
    single.stride_n = 0;
    hres::Image single_in = hres::nchw(in_data.data(), hres::DType::u8, 1, 3, 8, 8);
    EXPECT_TRUE(hres::resize(single_in, single, {}).ok());
}

// Thread counts: negative ones mean one per core, as 0 does; counts above
// Halide's pool clamp to kMaxThreads; set_num_threads returns the previous.
TEST(Threads, CountsAreClamped) {
    hres::set_num_threads(100000);
    EXPECT_EQ(hres::set_num_threads(3), hres::kMaxThreads);
    EXPECT_EQ(hres::set_num_threads(-5), 3);
    const int after_negative = hres::set_num_threads(0);
    EXPECT_EQ(hres::set_num_threads(0), after_negative);  // -5 set what 0 sets
    hres::set_num_threads(0);
}

TEST_F(Fixture, OverlappingInputAndOutput) {
    hres::Image o = hres::nchw(in_data.data() + 5, hres::DType::u8, 2, 3, 4, 4);
    hres::Status s = hres::resize(in, o, {});
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find("overlap"), std::string::npos) << s.message();
}

// (CUDA images on machines without a GPU: tests/test_cuda.cpp.)
TEST_F(Fixture, InvalidDeviceRejected) {
    hres::Image i = in, o = out;
    i.device = o.device = static_cast<hres::Device>(7);
    expect_error(i, o, {}, "device");
}

// ---------------------------------------------------------------------------
// grid_sample, affine_grid_sample and flip: bad arguments come back as a
// Status with a non-empty message, and the output is left untouched.

struct SampleFixture : ::testing::Test {
    static constexpr int64_t N = 2, C = 3, H = 8, W = 8, OH = 4, OW = 5;
    std::vector<float> in_data = std::vector<float>(N * C * H * W, 0.25f);
    std::vector<float> out_data = std::vector<float>(N * C * OH * OW, -7.0f);
    std::vector<float> grid = std::vector<float>(N * OH * OW * 2, 0.1f);
    std::vector<float> theta = {1, 0, 0, 0, 1, 0, 0.5f, 0, 0, 0, 0.5f, 0};
    hres::Image in = hres::nchw(in_data.data(), hres::DType::f32, N, C, H, W);
    hres::Image out = hres::nchw(out_data.data(), hres::DType::f32, N, C, OH, OW);

    // Both entry points reject the same arguments.
    void expect_error(const hres::Image &i, const float *g, const float *t, const hres::Image &o,
                      const hres::GridSampleOptions &opt) {
        const std::vector<float> before = out_data;
        hres::Status s = hres::grid_sample(i, g, o, opt);
        EXPECT_FALSE(s.ok()) << "grid_sample accepted it";
        EXPECT_FALSE(s.message().empty());
        hres::Status a = hres::affine_grid_sample(i, t, o, opt);
        EXPECT_FALSE(a.ok()) << "affine_grid_sample accepted it";
        EXPECT_FALSE(a.message().empty());
        EXPECT_EQ(out_data, before) << "a rejected call wrote to the output";
    }
    void expect_error(const hres::Image &i, const hres::Image &o, const hres::GridSampleOptions &opt) {
        expect_error(i, grid.data(), theta.data(), o, opt);
    }
};

TEST_F(SampleFixture, ValidCallsSucceed) {
    ASSERT_TRUE(hres::grid_sample(in, grid.data(), out, {}).ok());
    for (float v : out_data) EXPECT_FLOAT_EQ(v, 0.25f);  // a constant image sampled inside stays constant
    out_data.assign(out_data.size(), -7.0f);
    ASSERT_TRUE(hres::affine_grid_sample(in, theta.data(), out, {hres::Interp::nearest}).ok());
    for (float v : out_data) EXPECT_EQ(v, 0.25f);
}

TEST_F(SampleFixture, NullPointers) {
    const std::vector<float> before = out_data;
    hres::Status s = hres::grid_sample(in, nullptr, out, {});
    EXPECT_FALSE(s.ok());
    EXPECT_FALSE(s.message().empty());
    s = hres::affine_grid_sample(in, nullptr, out, {});
    EXPECT_FALSE(s.ok());
    EXPECT_FALSE(s.message().empty());
    EXPECT_EQ(out_data, before);
    hres::Image i = in;
    i.data = nullptr;
    expect_error(i, out, {});
    hres::Image o = out;
    o.data = nullptr;
    expect_error(in, o, {});
}

TEST_F(SampleFixture, ShapeMismatch) {
    // out.n != in.n: the grid has out.n images, the input in.n.
    hres::Image o = hres::nchw(out_data.data(), hres::DType::f32, 1, C, OH, OW);
    expect_error(in, o, {});
    o = hres::nchw(out_data.data(), hres::DType::f32, N, C - 1, OH, OW);
    expect_error(in, o, {});
    for (int dim = 0; dim < 4; dim++) {
        o = out;
        (dim == 0 ? o.n : dim == 1 ? o.c : dim == 2 ? o.h : o.w) = 0;
        expect_error(in, o, {});
    }
}

TEST_F(SampleFixture, TypeAndDeviceMismatch) {
    std::vector<uint8_t> u8(N * C * OH * OW, 0);
    const std::vector<uint8_t> u8_before = u8;
    hres::Image o = hres::nchw(u8.data(), hres::DType::u8, N, C, OH, OW);
    expect_error(in, o, {});
    EXPECT_EQ(u8, u8_before);
    o = out;
    o.dtype = static_cast<hres::DType>(9);
    expect_error(in, o, {});
    hres::Image i = in;
    i.device = hres::Device::cuda;  // output stays on the CPU
    o.dtype = hres::DType::f32;
    expect_error(i, o, {});
}

TEST_F(SampleFixture, BadOptions) {
    expect_error(in, out, {hres::Interp::nearest_exact});
    expect_error(in, out, {static_cast<hres::Interp>(17)});
    expect_error(in, out, {hres::Interp::bilinear, static_cast<hres::Padding>(7)});
    expect_error(in, out, {hres::Interp::bicubic, static_cast<hres::Padding>(-1), true});
}

TEST_F(SampleFixture, OverlappingInputAndOutput) {
    hres::Image o = hres::nchw(in_data.data() + 3, hres::DType::f32, N, C, OH, OW);
    expect_error(in, o, {});
    // The grid / theta inside the output's memory.
    expect_error(in, out_data.data(), out_data.data() + 1, out, {});
}

struct FlipFixture : ::testing::Test {
    std::vector<uint8_t> in_data = std::vector<uint8_t>(2 * 3 * 5 * 7, 9);
    std::vector<uint8_t> out_data = std::vector<uint8_t>(2 * 3 * 5 * 7, 0);
    hres::Image in = hres::nchw(in_data.data(), hres::DType::u8, 2, 3, 5, 7);
    hres::Image out = hres::nhwc(out_data.data(), hres::DType::u8, 2, 3, 5, 7);

    void expect_error(const hres::Image &i, const hres::Image &o, hres::FlipAxes axes) {
        const std::vector<uint8_t> before = out_data;
        hres::Status s = hres::flip(i, o, axes);
        EXPECT_FALSE(s.ok());
        EXPECT_FALSE(s.message().empty());
        EXPECT_EQ(out_data, before) << "a rejected call wrote to the output";
    }
};

TEST_F(FlipFixture, ValidCallSucceeds) {
    ASSERT_TRUE(hres::flip(in, out, hres::FlipAxes::both).ok());
    for (uint8_t v : out_data) EXPECT_EQ(v, 9);
}

TEST_F(FlipFixture, BadArguments) {
    hres::Image i = in;
    i.data = nullptr;
    expect_error(i, out, hres::FlipAxes::horizontal);
    hres::Image o = out;
    o.data = nullptr;
    expect_error(in, o, hres::FlipAxes::horizontal);
    expect_error(in, out, static_cast<hres::FlipAxes>(9));
    // Shapes must be equal in every dimension.
    for (int dim = 0; dim < 4; dim++) {
        o = hres::nhwc(out_data.data(), hres::DType::u8, 2, 3, 5, 7);
        int64_t &d = dim == 0 ? o.n : dim == 1 ? o.c : dim == 2 ? o.h : o.w;
        d -= 1;
        o = hres::nhwc(out_data.data(), hres::DType::u8, o.n, o.c, o.h, o.w);
        expect_error(in, o, hres::FlipAxes::vertical);
    }
    // dtype mismatch.
    o = out;
    o.dtype = hres::DType::f32;
    expect_error(in, o, hres::FlipAxes::vertical);
    // Overlapping input and output.
    o = hres::nchw(in_data.data() + 1, hres::DType::u8, 1, 3, 5, 7);
    i = hres::nchw(in_data.data(), hres::DType::u8, 1, 3, 5, 7);
    {
        hres::Status s = hres::flip(i, o, hres::FlipAxes::horizontal);
        EXPECT_FALSE(s.ok());
        EXPECT_FALSE(s.message().empty());
    }
    // Images on different devices.
    i = in;
    o = out;
    o.device = hres::Device::cuda;
    expect_error(i, o, hres::FlipAxes::both);
}

TEST(ScaledSize, MatchesPyTorchAndRejectsEmpty) {
    int64_t out = 0;
    ASSERT_TRUE(hres::scaled_size(5, 1.7, &out).ok());
    EXPECT_EQ(out, 8);  // trunc(8.5), SEMANTICS.md 10, example N3
    ASSERT_TRUE(hres::scaled_size(10, 2.05, &out).ok());
    EXPECT_EQ(out, 20);
    EXPECT_FALSE(hres::scaled_size(1, 0.5, &out).ok());
    EXPECT_FALSE(hres::scaled_size(4, -1.0, &out).ok());
    EXPECT_FALSE(hres::scaled_size(4, std::numeric_limits<double>::infinity(), &out).ok());
    EXPECT_FALSE(hres::scaled_size(4, 2.0, nullptr).ok());
}

TEST(Isa, SetIsaRejectsWhatTheCpuLacksAndLateChanges) {
    for (hres::Isa isa : {hres::Isa::avx512, hres::Isa::avx2, hres::Isa::sse41}) {
        if (!hres::cpu_supports(isa)) EXPECT_FALSE(hres::set_isa(isa).ok());
    }
    EXPECT_FALSE(hres::set_isa(static_cast<hres::Isa>(42)).ok());
    // Kernels have run in this process (other tests), so switching away fails
    // unless it is a no-op.
    std::vector<float> a(16, 1.0f), b(4);
    ASSERT_TRUE(hres::resize(hres::nchw(a.data(), hres::DType::f32, 1, 1, 4, 4),
                             hres::nchw(b.data(), hres::DType::f32, 1, 1, 2, 2), {})
                    .ok());
    const hres::Isa other = hres::active_isa() == hres::Isa::sse41 ? hres::Isa::avx2 : hres::Isa::sse41;
    if (hres::cpu_supports(other)) EXPECT_FALSE(hres::set_isa(other).ok());
    EXPECT_TRUE(hres::set_isa(hres::active_isa()).ok());
}

}  // namespace
}  // namespace hres_test
