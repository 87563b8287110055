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

TEST_F(Fixture, OverlappingInputAndOutput) {
    hres::Image o = hres::nchw(in_data.data() + 5, hres::DType::u8, 2, 3, 4, 4);
    hres::Status s = hres::resize(in, o, {});
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find("overlap"), std::string::npos) << s.message();
}

TEST_F(Fixture, CudaImagesAreRejectedCleanly) {
    hres::Image i = in, o = out;
    i.device = o.device = hres::Device::cuda;
    expect_error(i, o, {}, "CUDA");
}

TEST(ScaledSize, MatchesPyTorchAndRejectsEmpty) {
    int64_t out = 0;
    ASSERT_TRUE(hres::scaled_size(5, 1.7, &out).ok());
    EXPECT_EQ(out, 8);  // trunc(8.5), SPEC example N3
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
