// Tests for apps/hres/image_io: PNG/NPY round trips, strict rejection of bad
// input (never a crash), and atomic writes that leave no file behind on failure.
// Needs only image_io.cpp, libpng and GoogleTest — not the hres library.
#include <gtest/gtest.h>
#include <png.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csetjmp>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "image_io.h"
#include "support/files.h"

namespace fs = std::filesystem;
using hres::DType;
using hres::io::HostImage;

namespace {

using hres_test::TempDir;

void write_bytes(const std::string &path, const std::vector<uint8_t> &bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
    ASSERT_TRUE(out.good()) << path;
}

std::vector<uint8_t> read_bytes(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

HostImage make_image(DType dtype, int64_t n, int64_t c, int64_t h, int64_t w, uint32_t seed = 1) {
    return hres_test::make_image(dtype, n, c, h, w, seed, -2.0f, 2.0f);
}

const float *floats(const HostImage &image) {
    return reinterpret_cast<const float *>(image.bytes.data());
}

void expect_same_shape(const HostImage &image, DType dtype, int64_t n, int64_t c, int64_t h, int64_t w) {
    EXPECT_EQ(image.dtype, dtype);
    EXPECT_EQ(image.n, n);
    EXPECT_EQ(image.c, c);
    EXPECT_EQ(image.h, h);
    EXPECT_EQ(image.w, w);
    EXPECT_EQ(image.bytes.size(), size_t(n * c * h * w) * hres::io::element_size(dtype));
}

// Reading must fail with a message and leave the output untouched.
std::string expect_read_fails(const std::string &path) {
    HostImage out;
    out.n = 7;  // sentinel
    std::string error;
    EXPECT_FALSE(hres::io::read_image(path, &out, &error)) << path;
    EXPECT_FALSE(error.empty());
    EXPECT_EQ(out.n, 7);
    EXPECT_TRUE(out.bytes.empty());
    return error;
}

// A .npy file with a hand-written header dict (padded like numpy does) and raw data.
std::vector<uint8_t> npy_bytes(const std::string &dict, const std::vector<uint8_t> &data, int major = 1) {
    const size_t len_bytes = major == 1 ? 2 : 4;
    std::string header = dict;
    const size_t unpadded = 8 + len_bytes + header.size() + 1;
    header.append((64 - unpadded % 64) % 64, ' ');
    header.push_back('\n');
    std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', uint8_t(major), 0};
    for (size_t i = 0; i < len_bytes; ++i) out.push_back(uint8_t(header.size() >> (8 * i)));
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

std::string dict_for(const std::string &descr, const std::string &shape, const std::string &fortran = "False") {
    return "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shape + ", }";
}

// Writes a PNG through libpng directly, for formats write_image never produces
// (palette, low bit depth, interlaced). `rows` holds packed rows as libpng wants them.
bool write_raw_png(const std::string &path, uint32_t width, uint32_t height, int color_type, int bit_depth,
                   int interlace, png_bytepp rows, const std::vector<png_color> &palette,
                   const std::vector<png_byte> &trns) {
    FILE *file = std::fopen(path.c_str(), "wb");
    if (!file) return false;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        std::fclose(file);
        return false;
    }
    png_init_io(png, file);
    png_set_IHDR(png, info, width, height, bit_depth, color_type, interlace, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (!palette.empty()) png_set_PLTE(png, info, palette.data(), int(palette.size()));
    if (!trns.empty()) png_set_tRNS(png, info, trns.data(), int(trns.size()), nullptr);
    png_write_info(png, info);
    png_write_image(png, rows);
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    return std::fclose(file) == 0;
}

class ImageIoTest : public ::testing::Test {
protected:
    TempDir dir;
    std::string error;

    HostImage round_trip(const std::string &name, const HostImage &image) {
        const std::string path = dir.file(name);
        EXPECT_TRUE(hres::io::write_image(path, image, &error)) << error;
        HostImage back;
        EXPECT_TRUE(hres::io::read_image(path, &back, &error)) << error;
        return back;
    }
};

// ---------------------------------------------------------------------------
// Sizes and layout helpers.

TEST(ImageByteCount, ValidatesShape) {
    size_t bytes = 0;
    std::string error;
    EXPECT_TRUE(hres::io::image_byte_count(DType::f32, 2, 3, 4, 5, &bytes, &error));
    EXPECT_EQ(bytes, size_t(2 * 3 * 4 * 5 * 4));
    EXPECT_FALSE(hres::io::image_byte_count(DType::u8, 1, 0, 4, 4, &bytes, &error));
    EXPECT_NE(error.find("positive"), std::string::npos) << error;
    EXPECT_FALSE(hres::io::image_byte_count(DType::u8, 1, 3, -4, 4, &bytes, &error));
    const int64_t big = std::numeric_limits<int64_t>::max();
    EXPECT_FALSE(hres::io::image_byte_count(DType::f32, big, big, big, big, &bytes, &error));
    EXPECT_NE(error.find("too large"), std::string::npos) << error;
    // Exactly at the limits is fine, one element more is not: 2^31-1
    // elements, and the memory budget (4 GiB: 2^30 float32 elements).
    EXPECT_TRUE(hres::io::image_byte_count(DType::u8, 1, 1, 1, hres::io::kMaxElements, &bytes, &error)) << error;
    EXPECT_FALSE(hres::io::image_byte_count(DType::u8, 1, 1, 2, hres::io::kMaxElements / 2 + 1, &bytes, &error));
    EXPECT_NE(error.find("2^31-1"), std::string::npos) << error;
    EXPECT_TRUE(hres::io::image_byte_count(DType::f32, 1, 1, 1 << 15, 1 << 15, &bytes, &error)) << error;
    EXPECT_FALSE(hres::io::image_byte_count(DType::f32, 1, 1, (1 << 15) + 1, 1 << 15, &bytes, &error));
    EXPECT_NE(error.find("memory budget of 4.0 GiB"), std::string::npos) << error;
    hres::io::set_memory_budget(uint64_t(1) << 20);
    EXPECT_FALSE(hres::io::image_byte_count(DType::u8, 1, 1, 1025, 1024, &bytes, &error));
    EXPECT_NE(error.find("memory budget of 1.0 MiB"), std::string::npos) << error;
    hres::io::set_memory_budget(hres::io::kDefaultMemoryBudget);
    EXPECT_FALSE(hres::io::image_byte_count(DType::f32, 1, 1, 1 << 17, 1 << 17, &bytes, &error));
}

TEST(Interleave, RoundTripsAndMatchesNhwcIndexing) {
    for (DType dtype : {DType::u8, DType::f32}) {
        const HostImage planar = make_image(dtype, 2, 3, 4, 5, 7);
        const std::vector<uint8_t> nhwc = hres::io::to_interleaved(planar);
        const size_t e = hres::io::element_size(dtype);
        for (int64_t b = 0; b < 2; ++b)
            for (int64_t c = 0; c < 3; ++c)
                for (int64_t y = 0; y < 4; ++y)
                    for (int64_t x = 0; x < 5; ++x) {
                        const size_t src = size_t(((b * 3 + c) * 4 + y) * 5 + x) * e;
                        const size_t dst = size_t(((b * 4 + y) * 5 + x) * 3 + c) * e;
                        ASSERT_EQ(0, std::memcmp(&planar.bytes[src], &nhwc[dst], e));
                    }
        HostImage back = planar;
        std::fill(back.bytes.begin(), back.bytes.end(), 0);
        hres::io::from_interleaved(nhwc.data(), &back);
        EXPECT_EQ(back.bytes, planar.bytes);
    }
}

// ---------------------------------------------------------------------------
// NPY.

TEST_F(ImageIoTest, NpyRoundTripU8) {
    const HostImage image = make_image(DType::u8, 2, 3, 5, 7);
    const HostImage back = round_trip("a.npy", image);
    expect_same_shape(back, DType::u8, 2, 3, 5, 7);
    EXPECT_EQ(back.bytes, image.bytes);
}

TEST_F(ImageIoTest, NpyRoundTripF32) {
    HostImage image = make_image(DType::f32, 1, 2, 3, 4);
    auto *f = reinterpret_cast<float *>(image.bytes.data());
    f[0] = std::numeric_limits<float>::infinity();
    f[1] = -0.0f;
    f[2] = std::numeric_limits<float>::denorm_min();
    const HostImage back = round_trip("a.npy", image);
    expect_same_shape(back, DType::f32, 1, 2, 3, 4);
    EXPECT_EQ(back.bytes, image.bytes);  // bit exact, incl. -0 and inf
}

TEST_F(ImageIoTest, NpyWritesNumpyCompatibleV1Header) {
    const HostImage image = make_image(DType::f32, 1, 2, 3, 4);
    ASSERT_TRUE(hres::io::write_image(dir.file("a.npy"), image, &error)) << error;
    const std::vector<uint8_t> bytes = read_bytes(dir.file("a.npy"));
    ASSERT_GE(bytes.size(), 10u);
    EXPECT_EQ(0, std::memcmp(bytes.data(), "\x93NUMPY\x01\x00", 8));
    const size_t header_len = bytes[8] | (bytes[9] << 8);
    EXPECT_EQ((10 + header_len) % 64, 0u);
    EXPECT_EQ(bytes.size(), 10 + header_len + image.bytes.size());
    const std::string header(bytes.begin() + 10, bytes.begin() + 10 + long(header_len));
    EXPECT_EQ(header.rfind("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2, 3, 4), }", 0), 0u) << header;
    EXPECT_EQ(header.back(), '\n');
    // u8 is written with numpy's own spelling.
    ASSERT_TRUE(hres::io::write_image(dir.file("b.npy"), make_image(DType::u8, 1, 1, 1, 1), &error));
    const std::vector<uint8_t> u8 = read_bytes(dir.file("b.npy"));
    EXPECT_NE(std::string(u8.begin(), u8.end()).find("'|u1'"), std::string::npos);
}

TEST_F(ImageIoTest, NpyReadsVersions2And3AndHeaderVariants) {
    const std::vector<uint8_t> data = {1, 2, 3, 4, 5, 6};
    const std::vector<std::string> dicts = {
        dict_for("<u1", "(1, 1, 2, 3)"),
        dict_for("|u1", "(1,1,2,3)"),
        "{\"descr\": \"<u1\", \"shape\": (1, 1, 2, 3), \"fortran_order\": False}",  // any key order, no trailing
                                                                                    // comma
        "{ 'shape' : ( 1 , 1 , 2 , 3 , ) , 'fortran_order' : False , 'descr' : '|u1' , }",
    };
    int index = 0;
    for (int major : {1, 2, 3}) {
        for (const std::string &dict : dicts) {
            const std::string path = dir.file("v" + std::to_string(index++) + ".npy");
            write_bytes(path, npy_bytes(dict, data, major));
            HostImage image;
            ASSERT_TRUE(hres::io::read_image(path, &image, &error)) << dict << " v" << major << ": " << error;
            expect_same_shape(image, DType::u8, 1, 1, 2, 3);
            EXPECT_EQ(image.bytes, data);
        }
    }
}

TEST_F(ImageIoTest, NpyRejectsBadFiles) {
    const std::vector<uint8_t> four_u8 = {1, 2, 3, 4};
    const std::vector<uint8_t> four_f32(16, 0);
    struct Case {
        const char *name;
        std::vector<uint8_t> bytes;
        const char *expect;  // substring of the error
    };
    std::vector<uint8_t> bad_magic = npy_bytes(dict_for("|u1", "(1, 1, 2, 2)"), four_u8);
    bad_magic[1] = 'X';
    std::vector<uint8_t> version_4 = npy_bytes(dict_for("|u1", "(1, 1, 2, 2)"), four_u8);
    version_4[6] = 4;
    std::vector<uint8_t> version_1_1 = npy_bytes(dict_for("|u1", "(1, 1, 2, 2)"), four_u8);
    version_1_1[7] = 1;
    std::vector<uint8_t> long_header = npy_bytes(dict_for("|u1", "(1, 1, 2, 2)"), {});
    long_header[8] = 0xff;
    long_header[9] = 0x7f;
    std::vector<uint8_t> f32_data(16, 0);
    f32_data.resize(15);
    const std::vector<Case> cases = {
        {"magic", bad_magic, "magic"},
        {"version4", version_4, "version"},
        {"version11", version_1_1, "version"},
        {"fortran", npy_bytes(dict_for("|u1", "(1, 1, 2, 2)", "True"), four_u8), "Fortran"},
        {"three_d", npy_bytes(dict_for("|u1", "(1, 2, 2)"), four_u8), "4-D"},
        {"five_d", npy_bytes(dict_for("|u1", "(1, 1, 1, 2, 2)"), four_u8), "4-D"},
        {"scalar", npy_bytes(dict_for("|u1", "()"), {1}), "4-D"},
        {"f8", npy_bytes(dict_for("<f8", "(1, 1, 1, 2)"), four_f32), "<f8"},
        {"big_endian", npy_bytes(dict_for(">f4", "(1, 1, 2, 2)"), four_f32), ">f4"},
        {"i4", npy_bytes(dict_for("<i4", "(1, 1, 2, 2)"), four_f32), "dtype"},
        {"truncated", npy_bytes(dict_for("<f4", "(1, 1, 2, 2)"), f32_data), "truncated"},
        {"trailing", npy_bytes(dict_for("|u1", "(1, 1, 1, 2)"), four_u8), "beyond"},
        {"overflow", npy_bytes(dict_for("<f4", "(4294967296, 4294967296, 4294967296, 4294967296)"), four_u8),
         "too large"},
        {"over_limit", npy_bytes(dict_for("<f4", "(1, 2, 65536, 65536)"), four_u8), "too large"},
        {"int64_overflow", npy_bytes(dict_for("<f4", "(99999999999999999999, 1, 1, 1)"), four_u8), "too large"},
        {"zero_dim", npy_bytes(dict_for("|u1", "(1, 0, 2, 2)"), {}), "positive"},
        {"negative_dim", npy_bytes(dict_for("|u1", "(1, -1, 2, 2)"), four_u8), "negative"},
        {"unknown_key",
         npy_bytes("{'descr': '|u1', 'fortran_order': False, 'shape': (1, 1, 2, 2), 'x': 1}", four_u8), "'x'"},
        {"missing_key", npy_bytes("{'descr': '|u1', 'shape': (1, 1, 2, 2)}", four_u8), "fortran_order"},
        {"duplicate_key",
         npy_bytes("{'descr': '|u1', 'descr': '|u1', 'fortran_order': False, 'shape': (1, 1, 2, 2)}", four_u8),
         "twice"},
        {"not_dict", npy_bytes("[1, 2]", four_u8), "dict"},
        {"unclosed", npy_bytes("{'descr': '|u1', 'fortran_order': False, 'shape': (1, 1, 2, 2)", four_u8),
         "header"},
        {"junk_after", npy_bytes("{'descr': '|u1', 'fortran_order': False, 'shape': (1, 1, 2, 2)} x", four_u8),
         "after"},
        {"bool_typo", npy_bytes(dict_for("|u1", "(1, 1, 2, 2)", "false"), four_u8), "fortran_order"},
        {"header_past_eof", long_header, "truncated"},
        {"empty", {}, "npy"},
        {"magic_only", {0x93, 'N', 'U', 'M', 'P', 'Y'}, "npy"},
    };
    for (const Case &c : cases) {
        const std::string path = dir.file(std::string(c.name) + ".npy");
        write_bytes(path, c.bytes);
        const std::string message = expect_read_fails(path);
        EXPECT_NE(message.find(c.expect), std::string::npos) << c.name << ": " << message;
        EXPECT_NE(message.find(path), std::string::npos) << c.name << ": " << message;
    }
}

TEST_F(ImageIoTest, NpyEveryTruncationFails) {
    ASSERT_TRUE(hres::io::write_image(dir.file("a.npy"), make_image(DType::f32, 1, 2, 3, 3), &error));
    const std::vector<uint8_t> bytes = read_bytes(dir.file("a.npy"));
    for (size_t size = 0; size < bytes.size(); ++size) {
        write_bytes(dir.file("t.npy"), std::vector<uint8_t>(bytes.begin(), bytes.begin() + long(size)));
        expect_read_fails(dir.file("t.npy"));
    }
}

// ---------------------------------------------------------------------------
// PNG.

TEST_F(ImageIoTest, Png8BitRoundTripsAllChannelCounts) {
    for (int channels = 1; channels <= 4; ++channels) {
        const HostImage image = make_image(DType::u8, 1, channels, 9, 13, uint32_t(channels));
        const HostImage back = round_trip("c" + std::to_string(channels) + ".png", image);
        expect_same_shape(back, DType::u8, 1, channels, 9, 13);
        EXPECT_EQ(back.bytes, image.bytes) << channels << " channels";
    }
}

TEST_F(ImageIoTest, Png16BitRoundTripsAsFloat) {
    for (int channels : {1, 2, 3, 4}) {
        HostImage image;
        ASSERT_TRUE(hres::io::allocate_image(DType::f32, 1, channels, 5, 6, &image, &error));
        auto *f = reinterpret_cast<float *>(image.bytes.data());
        const size_t count = image.bytes.size() / 4;
        for (size_t i = 0; i < count; ++i) f[i] = float((i * 9973u) % 65536u) / 65535.0f;  // exact levels
        const HostImage back = round_trip("c" + std::to_string(channels) + ".png", image);
        expect_same_shape(back, DType::f32, 1, channels, 5, 6);
        for (size_t i = 0; i < count; ++i) {
            ASSERT_EQ(std::lround(floats(back)[i] * 65535.0), std::lround(f[i] * 65535.0)) << i;
            ASSERT_GE(floats(back)[i], 0.0f);
            ASSERT_LE(floats(back)[i], 1.0f);
        }
    }
}

TEST_F(ImageIoTest, Png16BitQuantizesAndClamps) {
    HostImage image;
    ASSERT_TRUE(hres::io::allocate_image(DType::f32, 1, 1, 1, 8, &image, &error));
    auto *f = reinterpret_cast<float *>(image.bytes.data());
    const float in[8] = {-1.0f,
                         0.0f,
                         0.5f,
                         1.0f,
                         2.0f,
                         std::nanf(""),
                         std::numeric_limits<float>::infinity(),
                         1.0f / 65535.0f * 0.49f};
    std::copy(in, in + 8, f);
    const HostImage back = round_trip("q.png", image);
    const long expected[8] = {0, 0, 32768, 65535, 65535, 0, 65535, 0};  // round(0.5*65535) = 32768
    for (int i = 0; i < 8; ++i) EXPECT_EQ(std::lround(floats(back)[i] * 65535.0), expected[i]) << i;
}

TEST_F(ImageIoTest, PngUppercaseExtension) {
    const HostImage image = make_image(DType::u8, 1, 3, 4, 4);
    const HostImage back = round_trip("UPPER.PNG", image);
    EXPECT_EQ(back.bytes, image.bytes);
    const HostImage npy = round_trip("UPPER.Npy", image);
    EXPECT_EQ(npy.bytes, image.bytes);
}

TEST_F(ImageIoTest, PngPaletteWithTransparencyExpandsToRgba) {
    // 2-bit palette image, 4 x 2 pixels: indices 0 1 2 3 / 3 2 1 0; entry 1 is half transparent.
    const std::vector<png_color> palette = {{10, 20, 30}, {40, 50, 60}, {70, 80, 90}, {100, 110, 120}};
    const std::vector<png_byte> trns = {255, 128};  // entries past the tRNS list stay opaque
    png_byte row0[] = {0b00011011}, row1[] = {0b11100100};
    png_bytep rows[] = {row0, row1};
    ASSERT_TRUE(write_raw_png(dir.file("p.png"), 4, 2, PNG_COLOR_TYPE_PALETTE, 2, PNG_INTERLACE_NONE, rows,
                              palette, trns));
    HostImage image;
    ASSERT_TRUE(hres::io::read_image(dir.file("p.png"), &image, &error)) << error;
    expect_same_shape(image, DType::u8, 1, 4, 2, 4);
    const int indices[8] = {0, 1, 2, 3, 3, 2, 1, 0};
    for (int i = 0; i < 8; ++i) {
        const png_color &entry = palette[size_t(indices[i])];
        EXPECT_EQ(image.bytes[size_t(0 * 8 + i)], entry.red);
        EXPECT_EQ(image.bytes[size_t(1 * 8 + i)], entry.green);
        EXPECT_EQ(image.bytes[size_t(2 * 8 + i)], entry.blue);
        EXPECT_EQ(image.bytes[size_t(3 * 8 + i)], indices[i] < 2 ? trns[size_t(indices[i])] : 255);
    }
}

TEST_F(ImageIoTest, PngLowBitDepthGrayIsScaledTo8Bit) {
    // 1-bit gray, 8 pixels in one byte: 1 0 1 1 0 0 1 0.
    png_byte row[] = {0b10110010};
    png_bytep rows[] = {row};
    ASSERT_TRUE(write_raw_png(dir.file("g1.png"), 8, 1, PNG_COLOR_TYPE_GRAY, 1, PNG_INTERLACE_NONE, rows, {}, {}));
    HostImage image;
    ASSERT_TRUE(hres::io::read_image(dir.file("g1.png"), &image, &error)) << error;
    expect_same_shape(image, DType::u8, 1, 1, 1, 8);
    EXPECT_EQ(image.bytes, (std::vector<uint8_t>{255, 0, 255, 255, 0, 0, 255, 0}));

    // 4-bit gray: levels 0, 5, 15 -> 0, 85, 255.
    png_byte row4[] = {0x05, 0xf0};
    png_bytep rows4[] = {row4};
    ASSERT_TRUE(
        write_raw_png(dir.file("g4.png"), 3, 1, PNG_COLOR_TYPE_GRAY, 4, PNG_INTERLACE_NONE, rows4, {}, {}));
    ASSERT_TRUE(hres::io::read_image(dir.file("g4.png"), &image, &error)) << error;
    EXPECT_EQ(image.bytes, (std::vector<uint8_t>{0, 85, 255}));
}

TEST_F(ImageIoTest, PngInterlacedMatchesPlainAnd16BitGrayAlpha) {
    const uint32_t w = 11, h = 7;
    std::mt19937 rng(3);
    std::vector<png_byte> rgb(w * h * 3);
    for (auto &b : rgb) b = png_byte(rng());
    std::vector<png_bytep> rows(h);
    for (uint32_t y = 0; y < h; ++y) rows[y] = &rgb[y * w * 3];
    ASSERT_TRUE(
        write_raw_png(dir.file("i.png"), w, h, PNG_COLOR_TYPE_RGB, 8, PNG_INTERLACE_ADAM7, rows.data(), {}, {}));
    HostImage image;
    ASSERT_TRUE(hres::io::read_image(dir.file("i.png"), &image, &error)) << error;
    expect_same_shape(image, DType::u8, 1, 3, h, w);
    for (uint32_t i = 0; i < w * h; ++i)
        for (uint32_t c = 0; c < 3; ++c) ASSERT_EQ(image.bytes[c * w * h + i], rgb[i * 3 + c]);

    // 16-bit gray+alpha, big-endian samples: (0x1234, 0xffff).
    png_byte ga[] = {0x12, 0x34, 0xff, 0xff};
    png_bytep ga_rows[] = {ga};
    ASSERT_TRUE(write_raw_png(dir.file("ga16.png"), 1, 1, PNG_COLOR_TYPE_GRAY_ALPHA, 16, PNG_INTERLACE_NONE,
                              ga_rows, {}, {}));
    ASSERT_TRUE(hres::io::read_image(dir.file("ga16.png"), &image, &error)) << error;
    expect_same_shape(image, DType::f32, 1, 2, 1, 1);
    EXPECT_FLOAT_EQ(floats(image)[0], 0x1234 / 65535.0f);
    EXPECT_FLOAT_EQ(floats(image)[1], 1.0f);
}

TEST_F(ImageIoTest, PngRejectsBadFiles) {
    ASSERT_TRUE(hres::io::write_image(dir.file("ok.png"), make_image(DType::u8, 1, 3, 32, 32), &error));
    const std::vector<uint8_t> good = read_bytes(dir.file("ok.png"));

    write_bytes(dir.file("half.png"), std::vector<uint8_t>(good.begin(), good.begin() + long(good.size() / 2)));
    EXPECT_NE(expect_read_fails(dir.file("half.png")).find("PNG"), std::string::npos);
    // Missing only the IEND chunk: every row decodes, the file is still truncated.
    write_bytes(dir.file("no_iend.png"), std::vector<uint8_t>(good.begin(), good.end() - 12));
    expect_read_fails(dir.file("no_iend.png"));

    std::vector<uint8_t> corrupt = good;
    corrupt[corrupt.size() / 2] ^= 0x5a;  // inside IDAT: CRC mismatch
    write_bytes(dir.file("corrupt.png"), corrupt);
    EXPECT_NE(expect_read_fails(dir.file("corrupt.png")).find("corrupt"), std::string::npos);

    std::vector<uint8_t> bad_ihdr = good;
    bad_ihdr[16] = 0x7f;  // width's high byte; the IHDR CRC no longer matches
    write_bytes(dir.file("ihdr.png"), bad_ihdr);
    expect_read_fails(dir.file("ihdr.png"));

    std::mt19937 rng(11);
    std::vector<uint8_t> garbage(4096);
    for (auto &b : garbage) b = uint8_t(rng());
    write_bytes(dir.file("garbage.png"), garbage);
    EXPECT_NE(expect_read_fails(dir.file("garbage.png")).find("signature"), std::string::npos);
    // A valid signature followed by garbage gets past the signature check.
    std::vector<uint8_t> sig_garbage(good.begin(), good.begin() + 8);
    sig_garbage.insert(sig_garbage.end(), garbage.begin(), garbage.end());
    write_bytes(dir.file("sig_garbage.png"), sig_garbage);
    expect_read_fails(dir.file("sig_garbage.png"));

    write_bytes(dir.file("empty.png"), {});
    expect_read_fails(dir.file("empty.png"));
    expect_read_fails(dir.file("does_not_exist.png"));
    EXPECT_NE(expect_read_fails(dir.file("nope.npy")).find("No such file"), std::string::npos);
    fs::create_directory(dir.file("dir.png"));
    expect_read_fails(dir.file("dir.png"));
    write_bytes(dir.file("image.jpg"), good);
    EXPECT_NE(expect_read_fails(dir.file("image.jpg")).find(".jpg"), std::string::npos);
    expect_read_fails(dir.file("noext"));
}

TEST_F(ImageIoTest, PngEveryTruncationAndByteFlipFails) {
    ASSERT_TRUE(hres::io::write_image(dir.file("ok.png"), make_image(DType::f32, 1, 2, 6, 5), &error));
    const std::vector<uint8_t> good = read_bytes(dir.file("ok.png"));
    for (size_t size = 0; size < good.size(); ++size) {
        write_bytes(dir.file("t.png"), std::vector<uint8_t>(good.begin(), good.begin() + long(size)));
        expect_read_fails(dir.file("t.png"));
    }
    // Every chunk our writer emits is critical and CRC-checked, so no single
    // flipped byte can go unnoticed.
    for (size_t i = 0; i < good.size(); ++i) {
        std::vector<uint8_t> bad = good;
        bad[i] ^= 0x01;
        write_bytes(dir.file("f.png"), bad);
        expect_read_fails(dir.file("f.png"));
    }
}

// A PNG of just a header for `width` x `height` pixels and a token IDAT, so
// that a reader gets past the header to its size checks; the pixel data
// itself is never written.
void write_png_header_only(const std::string &path, uint32_t width, uint32_t height, int depth, int color_type) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    FILE *file = std::fopen(path.c_str(), "wb");
    ASSERT_NE(file, nullptr);
    if (setjmp(png_jmpbuf(png))) FAIL() << "libpng failed writing the header";
    png_init_io(png, file);
    png_set_user_limits(png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    png_set_IHDR(png, info, width, height, depth, color_type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    const png_byte idat_name[5] = "IDAT";
    const png_byte token[1] = {0};
    png_write_chunk(png, idat_name, token, 1);
    png_destroy_write_struct(&png, &info);
    std::fclose(file);
}

TEST_F(ImageIoTest, PngBombsAreRefusedBeforeAllocating) {
    // The attack of the hardening issue: a header claiming 65536 x 65536
    // RGBA, its data cut short (16 GiB decoded), and one within the element
    // limit and the memory budget (20000 x 20000 gray, 400 MB) that a file of
    // a few dozen bytes cannot hold. Both refused at once, naming the size.
    for (auto [w, h, color, what] : {std::tuple{65536u, 65536u, PNG_COLOR_TYPE_RGB_ALPHA, "2^31-1 elements"},
                                    std::tuple{20000u, 20000u, PNG_COLOR_TYPE_GRAY, "file can hold"}}) {
        write_png_header_only(dir.file("bomb.png"), w, h, 8, color);
        const auto start = std::chrono::steady_clock::now();
        const std::string message = expect_read_fails(dir.file("bomb.png"));
        EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1)) << message;
        EXPECT_NE(message.find(what), std::string::npos) << message;
        EXPECT_NE(message.find(std::to_string(w)), std::string::npos) << message;
    }
    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    EXPECT_LT(usage.ru_maxrss, 100 * 1024) << "peak resident KiB";
}

TEST_F(ImageIoTest, PngRejectsHugeHeaderBeforeAllocating) {
    // A 1000000 x 1000000 RGBA16 header (within libpng's own limits) whose
    // decoded size is far over the element limit; must fail without allocating it.
    write_png_header_only(dir.file("huge.png"), 1000000, 1000000, 16, PNG_COLOR_TYPE_RGB_ALPHA);
    EXPECT_NE(expect_read_fails(dir.file("huge.png")).find("2^31-1 elements"), std::string::npos);
}

// ---------------------------------------------------------------------------
// Writing: failures leave nothing behind, successes replace atomically.

TEST_F(ImageIoTest, WriteFailuresLeaveNoFile) {
    const HostImage rgb = make_image(DType::u8, 1, 3, 4, 4);
    const std::string missing_dir = dir.file("no/such/dir/out.png");
    EXPECT_FALSE(hres::io::write_image(missing_dir, rgb, &error));
    EXPECT_NE(error.find("does not exist"), std::string::npos) << error;
    EXPECT_FALSE(fs::exists(dir.file("no")));

    EXPECT_FALSE(hres::io::write_image(dir.file("five.png"), make_image(DType::u8, 1, 5, 4, 4), &error));
    EXPECT_NE(error.find(".npy"), std::string::npos) << error;
    EXPECT_FALSE(hres::io::write_image(dir.file("batch.png"), make_image(DType::f32, 2, 3, 4, 4), &error));
    EXPECT_NE(error.find(".npy"), std::string::npos) << error;
    EXPECT_FALSE(hres::io::write_image(dir.file("out.jpg"), rgb, &error));
    EXPECT_NE(error.find(".jpg"), std::string::npos) << error;

    HostImage inconsistent = rgb;
    inconsistent.bytes.pop_back();
    EXPECT_FALSE(hres::io::write_image(dir.file("short.npy"), inconsistent, &error));
    HostImage zero = rgb;
    zero.h = 0;
    EXPECT_FALSE(hres::io::write_image(dir.file("zero.npy"), zero, &error));

    fs::create_directory(dir.file("target.npy"));
    EXPECT_FALSE(hres::io::write_image(dir.file("target.npy"), rgb, &error));
    EXPECT_FALSE(hres::io::write_image(dir.file("target.npy") + "/", rgb, &error));

    // Only the directory made above remains: no outputs, no temporaries.
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"target.npy"});
    EXPECT_TRUE(fs::is_empty(dir.file("target.npy")));
}

TEST_F(ImageIoTest, FailedWriteKeepsExistingFileAndSuccessReplacesIt) {
    const HostImage first = make_image(DType::u8, 1, 3, 4, 4, 1);
    const HostImage second = make_image(DType::u8, 1, 3, 4, 4, 2);
    const std::string path = dir.file("out.png");
    ASSERT_TRUE(hres::io::write_image(path, first, &error)) << error;
    const std::vector<uint8_t> before = read_bytes(path);

    EXPECT_FALSE(hres::io::write_image(path, make_image(DType::u8, 1, 6, 4, 4), &error));
    EXPECT_EQ(read_bytes(path), before);

    ASSERT_TRUE(hres::io::write_image(path, second, &error)) << error;
    HostImage back;
    ASSERT_TRUE(hres::io::read_image(path, &back, &error)) << error;
    EXPECT_EQ(back.bytes, second.bytes);
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.png"});
}

TEST_F(ImageIoTest, CheckWritableMatchesWriteImage) {
    HostImage shape_only;  // no bytes needed
    shape_only.dtype = DType::f32;
    shape_only.n = 1;
    shape_only.c = 4;
    shape_only.h = shape_only.w = 100000;  // 160 GB would be over the limit
    EXPECT_FALSE(hres::io::check_writable(dir.file("a.npy"), shape_only, &error));
    shape_only.h = shape_only.w = 1000;
    EXPECT_TRUE(hres::io::check_writable(dir.file("a.npy"), shape_only, &error)) << error;
    EXPECT_TRUE(hres::io::check_writable(dir.file("a.png"), shape_only, &error)) << error;
    shape_only.n = 2;
    EXPECT_FALSE(hres::io::check_writable(dir.file("a.png"), shape_only, &error));
    EXPECT_FALSE(hres::io::check_writable(dir.file("missing/a.npy"), shape_only, &error));
    EXPECT_TRUE(dir.entries().empty());
}

}  // namespace
