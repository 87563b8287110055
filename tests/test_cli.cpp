// End-to-end tests of the `hres` command-line tool (path in HRES_CLI_PATH):
// usage and input errors exit with a one-line "hres: error:" message and a
// status in 1..127 without leaving an output file; successful runs produce
// files with the right shape, type and (for nearest) hand-computed values.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "hres/hres.h"
#include "image_io.h"
#include "support/files.h"

#ifndef HRES_CLI_PATH
#error "compile with -DHRES_CLI_PATH=\"/path/to/hres\""
#endif

namespace fs = std::filesystem;
using hres::DType;
using hres::io::HostImage;

namespace {

using hres_test::TempDir;

std::string read_text(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_text(const std::string &path, const std::string &bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
}

std::string shell_quote(const std::string &text) {
    std::string quoted = "'";
    for (char ch : text) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return quoted + "'";
}

std::string join(const std::vector<std::string> &args) {
    std::string text;
    for (const auto &arg : args) text += (text.empty() ? "" : " ") + arg;
    return text;
}

// Whether `text` contains prefix, a decimal number (digits, optionally a
// fraction), then suffix: "median <number> us" without pulling in <regex>.
bool has_number_between(const std::string &text, const std::string &prefix, const std::string &suffix) {
    for (size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at + 1)) {
        size_t pos = at + prefix.size();
        const size_t digits = pos;
        while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) ++pos;
        if (pos == digits) continue;
        if (pos < text.size() && text[pos] == '.') {
            const size_t fraction = ++pos;
            while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) ++pos;
            if (pos == fraction) continue;
        }
        if (text.compare(pos, suffix.size(), suffix) == 0) return true;
    }
    return false;
}

struct CliResult {
    int exit_code = -1;  // -1: the shell itself did not exit normally
    std::string out, err;
};

HostImage make_image(DType dtype, int64_t n, int64_t c, int64_t h, int64_t w, uint32_t seed = 1) {
    return hres_test::make_image(dtype, n, c, h, w, seed, 0.0f, 1.0f);
}

class CliTest : public ::testing::Test {
protected:
    TempDir work;     // the CLI's working directory: inputs and outputs
    TempDir capture;  // its stdout/stderr, kept apart so `work` listings stay exact

    // Runs the CLI in `work` with the given arguments. A crash shows up as a
    // shell status of 128 + signal, which the 1..127 checks reject.
    CliResult run(const std::vector<std::string> &args) {
        std::string command = "cd " + shell_quote(work.path().string()) + " && " + shell_quote(HRES_CLI_PATH);
        for (const auto &arg : args) command += " " + shell_quote(arg);
        command += " >" + shell_quote(capture.file("stdout")) + " 2>" + shell_quote(capture.file("stderr"));
        CliResult result;
        const int status = std::system(command.c_str());
        if (status != -1 && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
        result.out = read_text(capture.file("stdout"));
        result.err = read_text(capture.file("stderr"));
        return result;
    }

    void save(const std::string &name, const HostImage &image) {
        std::string error;
        ASSERT_TRUE(hres::io::write_image(work.file(name), image, &error)) << error;
    }

    HostImage load(const std::string &name) {
        HostImage image;
        std::string error;
        EXPECT_TRUE(hres::io::read_image(work.file(name), &image, &error)) << error;
        return image;
    }

    // The run failed cleanly: status 1..127, exactly one "hres: error:" line,
    // and the directory holds only what was there before (no output, no temp file).
    void expect_clean_failure(const std::vector<std::string> &args) {
        const std::vector<std::string> before = work.entries();
        const CliResult r = run(args);
        const std::string what = "hres " + join(args) + "\nstderr: " + r.err;
        EXPECT_GE(r.exit_code, 1) << what;
        EXPECT_LE(r.exit_code, 127) << what;
        EXPECT_EQ(r.err.rfind("hres: error: ", 0), 0u) << what;
        EXPECT_NE(r.err.find("error"), std::string::npos) << what;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << what;
        EXPECT_EQ(work.entries(), before) << what;
    }

    void expect_success(const std::vector<std::string> &args, CliResult *result = nullptr) {
        const CliResult r = run(args);
        EXPECT_EQ(r.exit_code, 0) << "hres " << join(args) << "\nstderr: " << r.err;
        EXPECT_TRUE(r.err.empty()) << r.err;
        if (result) *result = r;
    }
};

// ---------------------------------------------------------------------------
// Help and version.

TEST_F(CliTest, HelpAndVersion) {
    for (const std::vector<std::string> &args : {std::vector<std::string>{"--help"},
                                                 {"help"},
                                                 {"-h"},
                                                 {"resize", "--help"},
                                                 {"help", "resize"},
                                                 {"resize", "in.png", "--mode", "bogus", "--help"}}) {
        const CliResult r = run(args);
        EXPECT_EQ(r.exit_code, 0) << join(args);
        EXPECT_NE(r.out.find("Usage: hres"), std::string::npos) << join(args) << ": " << r.out;
        EXPECT_NE(r.out.find("resize"), std::string::npos);
        EXPECT_TRUE(r.err.empty()) << r.err;
    }
    const CliResult resize_help = run({"resize", "--help"});
    for (const char *option : {"--size", "--scale", "--mode", "--antialias", "--align-corners", "--layout",
                               "--threads", "--isa", "--bench"}) {
        EXPECT_NE(resize_help.out.find(option), std::string::npos) << option;
    }
    const CliResult version = run({"--version"});
    EXPECT_EQ(version.exit_code, 0);
    EXPECT_EQ(version.out.rfind("hres ", 0), 0u) << version.out;
}

// ---------------------------------------------------------------------------
// Usage errors.

TEST_F(CliTest, UsageErrorsFailCleanly) {
    save("in.png", make_image(DType::u8, 1, 3, 8, 8));
    const std::vector<std::string> base = {"resize", "in.png", "out.png"};
    const auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = base;
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    };
    const std::vector<std::vector<std::string>> cases = {
        {},
        {"bogus"},
        {"--bogus"},
        {"help", "bogus"},
        {"resize"},
        {"resize", "in.png", "--size", "4x4"},  // missing OUT
        {"resize", "in.png", "out.png", "extra.png", "--size", "4x4"},
        with({"--size", "4x4", "--frobnicate"}),
        with({}),                                   // neither --size nor --scale
        with({"--size", "4x4", "--scale", "0.5"}),  // both
        with({"--size", "0x5"}),
        with({"--size", "5x0"}),
        with({"--size", "axb"}),
        with({"--size", "-3x4"}),
        with({"--size", "4x-3"}),
        with({"--size", "4x"}),
        with({"--size", "x4"}),
        with({"--size", "4x4x4"}),
        with({"--size", "12abcx4"}),
        with({"--size", " 4x4"}),
        with({"--size", "+4x4"}),
        with({"--size", "99999999999999999999x4"}),
        with({"--size", "1000000x1000000"}),       // over the allocation limit
        with({"--size"}),                          // no value
        with({"--size", "4x4", "--size", "4x4"}),  // repeated
        with({"--scale", "0"}),
        with({"--scale", "-1"}),
        with({"--scale", "abc"}),
        with({"--scale", "nan"}),
        with({"--scale", "inf"}),
        with({"--scale", "0.5,"}),
        with({"--scale", "0.5,0.5,0.5"}),
        with({"--scale", "0.01"}),  // trunc(8 * 0.01) = 0 rows
        with({"--size", "4x4", "--mode", "bogus"}),
        with({"--size", "4x4", "--mode", "Bilinear"}),
        with({"--size", "4x4", "--threads", "abc"}),
        with({"--size", "4x4", "--threads", "0"}),
        with({"--size", "4x4", "--threads", "-1"}),
        with({"--size", "4x4", "--threads", "99999999999999999999"}),
        with({"--size", "4x4", "--bench", "0"}),
        with({"--size", "4x4", "--bench", "3x"}),
        with({"--size", "4x4", "--layout", "chw"}),
        with({"--size", "4x4", "--isa", "neon"}),
        with({"--size", "4x4", "--mode", "nearest", "--align-corners"}),
        with({"--size", "4x4", "--mode", "nearest-exact", "--align-corners"}),
        with({"--size", "4x4", "--mode", "nearest", "--antialias"}),
        with({"--size", "4x4", "--mode", "nearest-exact", "--antialias"}),
        with({"--size", "4x4", "--antialias=1"}),  // a flag takes no value
    };
    for (const auto &args : cases) expect_clean_failure(args);
    // The "option" errors are usage errors proper: status 2.
    EXPECT_EQ(run(with({"--size", "4x4", "--frobnicate"})).exit_code, 2);
    EXPECT_EQ(run({}).exit_code, 2);
}

TEST_F(CliTest, UnwritableOutputFailsBeforeRunning) {
    save("in.png", make_image(DType::u8, 1, 3, 8, 8));
    save("in5.npy", make_image(DType::u8, 1, 5, 8, 8));
    expect_clean_failure({"resize", "in.png", "out.jpg", "--size", "4x4"});
    expect_clean_failure({"resize", "in.png", "no/such/dir/out.png", "--size", "4x4"});
    expect_clean_failure({"resize", "in5.npy", "out.png", "--size", "4x4"});  // 5 channels do not fit PNG
    EXPECT_FALSE(fs::exists(work.file("no")));
}

// ---------------------------------------------------------------------------
// Bad inputs.

TEST_F(CliTest, CorruptInputsFailCleanly) {
    save("good.png", make_image(DType::u8, 1, 3, 16, 16));
    save("good.npy", make_image(DType::f32, 1, 2, 6, 6));
    const std::string png = read_text(work.file("good.png"));
    const std::string npy = read_text(work.file("good.npy"));
    write_text(work.file("truncated.png"), png.substr(0, png.size() / 2));
    std::string flipped = png;
    flipped[flipped.size() / 2] ^= 0x40;
    write_text(work.file("corrupt.png"), flipped);
    write_text(work.file("garbage.png"), std::string(1000, '\x5a'));
    write_text(work.file("empty.png"), "");
    write_text(work.file("truncated.npy"), npy.substr(0, npy.size() - 3));
    std::string bad_magic = npy;
    bad_magic[1] = 'X';
    write_text(work.file("magic.npy"), bad_magic);
    std::string f8 = npy;
    f8.replace(f8.find("<f4"), 3, "<f8");
    write_text(work.file("f8.npy"), f8);
    write_text(work.file("notes.txt"), "hello");

    for (const char *input : {"truncated.png", "corrupt.png", "garbage.png", "empty.png", "truncated.npy",
                              "magic.npy", "f8.npy", "missing.png", "notes.txt"}) {
        for (const char *output : {"out.png", "out.npy"}) {
            expect_clean_failure({"resize", input, output, "--size", "4x4"});
        }
    }
    EXPECT_EQ(run({"resize", "corrupt.png", "out.png", "--size", "4x4"}).exit_code, 1);
}

TEST_F(CliTest, FailedRunKeepsExistingOutput) {
    save("out.png", make_image(DType::u8, 1, 1, 3, 3));
    const std::string before = read_text(work.file("out.png"));
    write_text(work.file("bad.png"), "not a png at all");
    expect_clean_failure({"resize", "bad.png", "out.png", "--size", "2x2"});
    expect_clean_failure({"resize", "out.png", "out.png", "--size", "2x2", "--mode", "bogus"});
    EXPECT_EQ(read_text(work.file("out.png")), before);
}

// ---------------------------------------------------------------------------
// Successful runs.

TEST_F(CliTest, Resizes8BitRgbPng) {
    save("in.png", make_image(DType::u8, 1, 3, 16, 12));
    CliResult r;
    expect_success({"resize", "in.png", "out.png", "--scale", "0.5", "--threads", "2"}, &r);
    const HostImage out = load("out.png");
    EXPECT_EQ(out.dtype, DType::u8);
    EXPECT_EQ(hres::io::shape_string(out), "1x3x8x6");
    EXPECT_NE(r.out.find("resize 1x3x16x12 u8 -> 1x3x8x6 bilinear"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("threads=2"), std::string::npos) << r.out;
    EXPECT_TRUE(has_number_between(r.out, ": ", " us\n")) << r.out;
    EXPECT_EQ(work.entries(), (std::vector<std::string>{"in.png", "out.png"}));
}

TEST_F(CliTest, Resizes16BitPngAsFloat) {
    save("in16.png", make_image(DType::f32, 1, 4, 10, 14));
    ASSERT_EQ(load("in16.png").dtype, DType::f32);
    expect_success({"resize", "in16.png", "out.png", "--size", "5x7", "--mode", "bicubic", "--antialias"});
    const HostImage out = load("out.png");
    EXPECT_EQ(out.dtype, DType::f32);
    EXPECT_EQ(hres::io::shape_string(out), "1x4x5x7");
    expect_success(
        {"resize", "in16.png", "out.npy", "--scale", "1.5,0.5", "--mode", "bilinear", "--align-corners"});
    const HostImage npy = load("out.npy");
    EXPECT_EQ(npy.dtype, DType::f32);
    EXPECT_EQ(hres::io::shape_string(npy), "1x4x15x7");  // trunc(10*1.5) x trunc(14*0.5)
}

TEST_F(CliTest, BenchPrintsMedian) {
    save("in.npy", make_image(DType::f32, 1, 3, 32, 32));
    CliResult r;
    expect_success({"resize", "in.npy", "out.npy", "--size", "16x16", "--bench", "3"}, &r);
    EXPECT_TRUE(has_number_between(r.out, "median ", " us")) << r.out;
    EXPECT_NE(r.out.find("bench: 3 iters"), std::string::npos) << r.out;
    EXPECT_TRUE(fs::exists(work.file("out.npy")));
}

TEST_F(CliTest, UnsupportedIsaFailsCleanly) {
    const std::pair<hres::Isa, const char *> isas[] = {
        {hres::Isa::avx512, "avx512"}, {hres::Isa::avx2, "avx2"}, {hres::Isa::sse41, "sse41"}};
    const char *missing = nullptr;
    for (const auto &[isa, name] : isas) {
        if (!hres::cpu_supports(isa)) missing = name;
    }
    if (!missing) GTEST_SKIP() << "this CPU supports every ISA hres knows";
    save("in.png", make_image(DType::u8, 1, 3, 8, 8));
    expect_clean_failure({"resize", "in.png", "out.png", "--size", "4x4", "--isa", missing});
}

TEST_F(CliTest, SupportedIsaIsReported) {
    save("in.png", make_image(DType::u8, 1, 3, 8, 8));
    const char *best = nullptr;
    for (const auto &[isa, name] : {std::pair<hres::Isa, const char *>{hres::Isa::sse41, "sse41"},
                                    {hres::Isa::avx2, "avx2"},
                                    {hres::Isa::avx512, "avx512"}}) {
        if (hres::cpu_supports(isa)) best = name;
    }
    if (!best) GTEST_SKIP() << "not an x86 CPU hres targets";
    CliResult r;
    expect_success({"resize", "in.png", "out.png", "--size", "4x4", "--isa", best}, &r);
    EXPECT_NE(r.out.find(std::string("isa=") + best), std::string::npos) << r.out;
}

// Nearest's source index, written out from the spec: src = floor(dst * in / out)
// (clamped to the last pixel). Integer arithmetic gives the exact floor.
int64_t nearest_source(int64_t dst, int64_t in, int64_t out) {
    return std::min(dst * in / out, in - 1);
}

void expect_nearest_pick(const HostImage &in, const HostImage &out) {
    ASSERT_EQ(in.dtype, out.dtype);
    ASSERT_EQ(in.n, out.n);
    ASSERT_EQ(in.c, out.c);
    const size_t e = hres::io::element_size(in.dtype);
    for (int64_t b = 0; b < in.n; ++b)
        for (int64_t c = 0; c < in.c; ++c)
            for (int64_t y = 0; y < out.h; ++y)
                for (int64_t x = 0; x < out.w; ++x) {
                    const int64_t sy = nearest_source(y, in.h, out.h), sx = nearest_source(x, in.w, out.w);
                    const size_t src = size_t(((b * in.c + c) * in.h + sy) * in.w + sx) * e;
                    const size_t dst = size_t(((b * out.c + c) * out.h + y) * out.w + x) * e;
                    ASSERT_EQ(0, std::memcmp(&in.bytes[src], &out.bytes[dst], e))
                        << "n=" << b << " c=" << c << " y=" << y << " x=" << x;
                }
}

TEST_F(CliTest, NearestMatchesHandComputedPick) {
    // 1x1x4x4 with values 0..15 down to 2x2: rows/cols 0 and 2 -> {0, 2, 8, 10}.
    HostImage ramp = make_image(DType::u8, 1, 1, 4, 4);
    for (size_t i = 0; i < 16; ++i) ramp.bytes[i] = uint8_t(i);
    save("ramp.npy", ramp);
    expect_success({"resize", "ramp.npy", "out.npy", "--mode", "nearest", "--size", "2x2"});
    const HostImage out = load("out.npy");
    EXPECT_EQ(hres::io::shape_string(out), "1x1x2x2");
    EXPECT_EQ(out.bytes, (std::vector<uint8_t>{0, 2, 8, 10}));
    expect_nearest_pick(ramp, out);

    // Non-integer ratios (5 -> 3 rows, 7 -> 4 cols) and up-sampling, batched f32.
    const HostImage f = make_image(DType::f32, 2, 3, 5, 7, 9);
    save("f.npy", f);
    for (const char *size : {"3x4", "11x9", "5x7", "1x1"}) {
        expect_success({"resize", "f.npy", "out.npy", "--mode", "nearest", "--size", size});
        expect_nearest_pick(f, load("out.npy"));
    }
    // --scale 0.5 samples with 1/0.5 = 2, the same pick as 4 -> 2.
    expect_success({"resize", "ramp.npy", "out.npy", "--mode", "nearest", "--scale", "0.5"});
    EXPECT_EQ(load("out.npy").bytes, (std::vector<uint8_t>{0, 2, 8, 10}));
}

TEST_F(CliTest, NhwcLayoutMatchesNchwBitForBit) {
    save("f.npy", make_image(DType::f32, 2, 3, 17, 13, 4));
    save("u.png", make_image(DType::u8, 1, 4, 19, 23, 5));
    const std::vector<std::vector<std::string>> variants = {
        {"--mode", "bilinear", "--size", "7x9", "--antialias"},
        {"--mode", "bicubic", "--size", "31x5"},
        {"--mode", "bilinear", "--scale", "0.6,1.7", "--align-corners"},
        {"--mode", "nearest-exact", "--size", "9x30"},
    };
    for (const char *input : {"f.npy", "u.png"}) {
        for (const auto &variant : variants) {
            std::vector<std::string> nchw = {"resize", input, "nchw.npy", "--layout", "nchw"};
            std::vector<std::string> nhwc = {"resize", input, "nhwc.npy", "--layout", "nhwc"};
            nchw.insert(nchw.end(), variant.begin(), variant.end());
            nhwc.insert(nhwc.end(), variant.begin(), variant.end());
            expect_success(nchw);
            expect_success(nhwc);
            const std::string a = read_text(work.file("nchw.npy")), b = read_text(work.file("nhwc.npy"));
            EXPECT_FALSE(a.empty());
            EXPECT_EQ(a, b) << input << " " << join(variant);
        }
    }
}

}  // namespace
