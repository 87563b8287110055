// Every resize case of the PyTorch 2.11 conformance corpus, in both memory
// layouts: uint8 bit-exact, float32 within 2e-5; cases PyTorch rejected are
// rejected by hres too.
#include "support/corpus.h"
#include "support/harness.h"

#include <cstring>

namespace hres_test {
namespace {

template<typename T>
std::vector<T> elements(const hres::io::HostImage &image) {
    std::vector<T> v(image.bytes.size() / sizeof(T));
    std::memcpy(v.data(), image.bytes.data(), v.size() * sizeof(T));
    return v;
}

template<typename T>
void run_case(const CorpusCase &c, const hres::ResizeOptions &options, Layout layout) {
    const auto input = load_array(c, "input");
    const auto expected = load_array(c, "expected");
    const auto &out = c.output_shape;
    ASSERT_EQ(input.n * input.c * input.h * input.w, c.input_shape[0] * c.input_shape[1] * c.input_shape[2] * c.input_shape[3]);
    std::vector<T> got;
    hres::Status status = resize_in_layout(elements<T>(input), input.n, input.c, input.h, input.w, out[2], out[3],
                                           options, layout, &got);
    ASSERT_TRUE(status.ok()) << status.message();
    EXPECT_TRUE(images_match(got, elements<T>(expected), out[1], out[2], out[3],
                             std::is_same_v<T, uint8_t> ? 0.0 : 2e-5));
}

TEST(ResizeConformance, EveryCorpusCase) {
    int supported = 0, rejected = 0;
    for (const Corpus &corpus : corpora())
    for (const CorpusCase &c : load_corpus(corpus)) {
        if (c.op != "resize") continue;
        SCOPED_TRACE("PyTorch " + corpus.torch + " " + c.id + " " + c.mode + (c.antialias ? "+aa " : " ") + c.dtype);
        hres::ResizeOptions options;
        ASSERT_TRUE(hres::parse(c.mode, &options.mode)) << c.mode;
        options.antialias = c.antialias;
        options.align_corners = c.align_corners;
        const auto &in = c.input_shape;

        if (!c.unsupported.empty()) {
            // PyTorch refused: the scale factor maps a size to 0. hres refuses
            // to derive that size, and refuses a kernel call with it.
            ASSERT_EQ(c.scale_factor.size(), 2u);
            int64_t oh = 0, ow = 0;
            const bool ok = hres::scaled_size(in[2], c.scale_factor[0], &oh).ok() &&
                            hres::scaled_size(in[3], c.scale_factor[1], &ow).ok();
            EXPECT_FALSE(ok) << "hres accepted a case PyTorch rejected: " << c.unsupported;
            std::vector<uint8_t> src(size_t(in[0] * in[1] * in[2] * in[3]));
            uint8_t dst[1];
            const int64_t zero_h = int64_t(std::trunc(in[2] * c.scale_factor[0]));
            const int64_t zero_w = int64_t(std::trunc(in[3] * c.scale_factor[1]));
            hres::Status s = run_resize(hres::nchw(src.data(), hres::DType::u8, in[0], in[1], in[2], in[3]),
                                          hres::nchw(dst, hres::DType::u8, in[0], in[1], zero_h, zero_w), options);
            EXPECT_FALSE(s.ok());
            rejected++;
            continue;
        }
        if (!c.scale_factor.empty()) {
            // recompute_scale_factor=False: size trunc(in * s), mapping with 1/s.
            options.scale_h = c.scale_factor[0];
            options.scale_w = c.scale_factor[1];
            int64_t oh = 0, ow = 0;
            ASSERT_TRUE(hres::scaled_size(in[2], options.scale_h, &oh).ok());
            ASSERT_TRUE(hres::scaled_size(in[3], options.scale_w, &ow).ok());
            ASSERT_EQ(oh, c.output_shape[2]);
            ASSERT_EQ(ow, c.output_shape[3]);
        }
        for (Layout layout : {Layout::nchw, Layout::nhwc}) {
            SCOPED_TRACE(name(layout));
            if (c.dtype == "uint8") {
                run_case<uint8_t>(c, options, layout);
            } else {
                run_case<float>(c, options, layout);
            }
        }
        supported++;
    }
    EXPECT_EQ(supported, 447 * int(corpora().size()));
    EXPECT_EQ(rejected, 10 * int(corpora().size()));
}

}  // namespace
}  // namespace hres_test
