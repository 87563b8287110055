// End-to-end tests of the `hres` command-line tool (path in HRES_CLI_PATH):
// usage and input errors exit with a one-line "hres: error:" message and a
// status in 1..127 without leaving an output file; successful runs produce
// files with the right shape, type and (for nearest) hand-computed values.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <zlib.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "hres/hres.h"
#include "image_io.h"
#include "support/files.h"
#include "support/harness.h"
#include "support/tables.h"

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
        // HRES_CLI overrides the build-tree path (binaries copied to a GPU machine).
        const char *cli = std::getenv("HRES_CLI");
        std::string command = "cd " + shell_quote(work.path().string()) + " && " + shell_quote(cli ? cli : HRES_CLI_PATH);
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
    CliResult expect_clean_failure(const std::vector<std::string> &args) {
        const std::vector<std::string> before = work.entries();
        const CliResult r = run(args);
        const std::string what = "hres " + join(args) + "\nstderr: " + r.err;
        EXPECT_GE(r.exit_code, 1) << what;
        EXPECT_LE(r.exit_code, 127) << what;
        EXPECT_EQ(r.err.rfind("hres: error: ", 0), 0u) << what;
        EXPECT_NE(r.err.find("error"), std::string::npos) << what;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << what;
        EXPECT_EQ(work.entries(), before) << what;
        return r;
    }

    // A clean failure with exactly this status (2: usage, 1: runtime).
    void expect_failure(int exit_code, const std::vector<std::string> &args) {
        const CliResult r = expect_clean_failure(args);
        EXPECT_EQ(r.exit_code, exit_code) << "hres " << join(args) << "\nstderr: " << r.err;
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

// A PNG of a header alone: `width` x `height` 8-bit RGBA and a 1-byte IDAT,
// cut there (no IEND), as a decompression bomb is.
std::string png_header_only(uint32_t width, uint32_t height) {
    auto be32 = [](uint32_t v) {
        return std::string{char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
    };
    auto chunk = [&](const std::string &type, const std::string &data) {
        const std::string body = type + data;
        const uLong crc = crc32(0, reinterpret_cast<const Bytef *>(body.data()), uInt(body.size()));
        return be32(uint32_t(data.size())) + body + be32(uint32_t(crc));
    };
    const std::string ihdr = be32(width) + be32(height) + std::string{8, 6, 0, 0, 0};
    return std::string("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", ihdr) + chunk("IDAT", std::string(1, '\0'));
}

// The hardening issue's two attacks, refused at once with messages that name
// the size and the limit, well under 100 MB.
TEST_F(CliTest, HostileSizesAreRefusedAtOnce) {
    write_text(work.file("bomb.png"), png_header_only(65536, 65536));
    save("small.png", make_image(DType::u8, 1, 3, 8, 8));
    const auto start = std::chrono::steady_clock::now();
    CliResult r = expect_clean_failure({"resize", "bomb.png", "o.png", "--size", "4x4"});
    EXPECT_NE(r.err.find("65536x65536"), std::string::npos) << r.err;
    r = expect_clean_failure({"resize", "small.png", "o.png", "--size", "60000x60000"});
    EXPECT_NE(r.err.find("1x3x60000x60000"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("2^31-1"), std::string::npos) << r.err;
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
    // Within the element limit, beyond the memory budget, and within it when raised.
    save("small.npy", make_image(DType::f32, 1, 3, 8, 8));
    r = expect_clean_failure({"resize", "small.npy", "o.npy", "--size", "20000x20000"});
    EXPECT_NE(r.err.find("memory budget of 4.0 GiB"), std::string::npos) << r.err;
    r = expect_clean_failure({"resize", "small.png", "o.npy", "--size", "600x600", "--max-memory", "1M"});
    EXPECT_NE(r.err.find("memory budget of 1.0 MiB"), std::string::npos) << r.err;
    expect_success({"resize", "small.png", "o.npy", "--size", "600x600", "--max-memory", "3M"});
    struct rusage usage {};
    getrusage(RUSAGE_CHILDREN, &usage);
    EXPECT_LT(usage.ru_maxrss, 100 * 1024) << "the CLI's peak resident KiB";
    for (const char *bad : {"0", "1X", "M", "-5", "99999999999999999G"}) {
        expect_failure(2, {"resize", "small.png", "o.npy", "--size", "4x4", "--max-memory", bad});
    }
}

// A sample of the nearest and nearest-exact index maps of tests/data/ties
// (PyTorch 2.15's, test_ties checks them all through the library), the
// issue's ties among them (2 -> 141 at output 70, 4 -> 166 at 41, 14 -> 287
// at 20), through the command line: NCHW with a tall output and NHWC with 4
// channels meet PyTorch's two kernels (coords.h, channels_last_kernel).
TEST_F(CliTest, NearestMapsMatchPyTorchAtTies) {
    const hres_test::Table maps = hres_test::load_table("nearest_maps");  // (mode, kernel, in, out, i)
    ASSERT_EQ(maps.shape.size(), 3u);
    auto offset = [](int64_t n, int64_t o) { return (n - 1) * 300 * 301 / 2 + o * (o - 1) / 2; };
    for (int mode = 0; mode < 2; mode++) {
        for (int kernel = 0; kernel < 2; kernel++) {
            for (int64_t n : {2, 4, 6, 14, 33, 64}) {
                for (int64_t o : {41, 123, 141, 159, 166, 287, 300}) {
                    const int64_t channels = kernel == 0 ? 2 : 4, other = kernel == 0 ? std::max<int64_t>(1, 129 - o) : 1;
                    HostImage row = make_image(DType::u8, 1, channels, 1, n);
                    for (int64_t c = 0; c < channels; c++)
                        for (int64_t j = 0; j < n; j++) row.bytes[size_t(c * n + j)] = uint8_t(j);
                    save("row.npy", row);
                    expect_success({"resize", "row.npy", "out.npy", "--mode", mode ? "nearest-exact" : "nearest",
                                    "--size", std::to_string(other) + "x" + std::to_string(o), "--layout",
                                    kernel == 0 ? "nchw" : "nhwc"});
                    const HostImage out = load("out.npy");
                    ASSERT_EQ(out.bytes.size(), size_t(channels * other * o));
                    const int64_t at = (mode * 2 + kernel) * maps.shape[2] + offset(n, o);
                    for (int64_t i = 0; i < o; i++) {
                        ASSERT_EQ(int(out.bytes[size_t(i)]), int(maps.u8(at + i)))
                            << (mode ? "nearest-exact " : "nearest ") << (kernel ? "nhwc " : "nchw ") << n << " -> "
                            << o << " at output " << i;
                    }
                }
            }
        }
    }
}

// uint8 bit for bit; float32 within docs/SEMANTICS.md's tolerance, as planar float32
// may run its passes in the other order (schedules/resize_x86.cpp).
TEST_F(CliTest, NhwcLayoutMatchesNchw) {
    save("f.npy", make_image(DType::f32, 2, 3, 17, 13, 4));
    save("u.png", make_image(DType::u8, 1, 4, 19, 23, 5));
    const std::vector<std::vector<std::string>> variants = {
        {"--mode", "bilinear", "--size", "7x9", "--antialias"},
        {"--mode", "bicubic", "--size", "31x5"},
        {"--mode", "bicubic", "--size", "6x11"},
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
            const HostImage a = load("nchw.npy"), b = load("nhwc.npy");
            ASSERT_FALSE(a.bytes.empty());
            ASSERT_EQ(hres::io::shape_string(a), hres::io::shape_string(b)) << input << " " << join(variant);
            if (a.dtype == DType::u8) {
                EXPECT_EQ(a.bytes, b.bytes) << input << " " << join(variant);
                continue;
            }
            ASSERT_EQ(b.dtype, DType::f32);
            std::vector<float> x(a.bytes.size() / sizeof(float)), y(x.size());
            std::memcpy(x.data(), a.bytes.data(), a.bytes.size());
            std::memcpy(y.data(), b.bytes.data(), b.bytes.size());
            EXPECT_TRUE(hres_test::images_match(y, x, a.c, a.h, a.w, 2e-5)) << input << " " << join(variant);
        }
    }
}

// ---------------------------------------------------------------------------
// affine, grid-sample and flip.

// A version 1.0 .npy file of any rank, written here rather than by the code
// under test: grids (N, H, W, 2) and matrices (N, 2, 3) are not images.
std::string npy_file(const std::string &descr, const std::vector<int64_t> &shape, const void *data, size_t bytes) {
    std::string tuple = "(";
    for (size_t i = 0; i < shape.size(); ++i) tuple += (i ? ", " : "") + std::to_string(shape[i]);
    tuple += shape.size() == 1 ? ",)" : ")";
    std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + tuple + ", }";
    const size_t unpadded = 10 + header.size() + 1;
    header += std::string((64 - unpadded % 64) % 64, ' ') + "\n";
    std::string file = "\x93NUMPY";
    file.push_back('\x01');
    file.push_back('\x00');
    file.push_back(char(header.size() & 0xff));
    file.push_back(char(header.size() >> 8));
    file += header;
    file.append(static_cast<const char *>(data), bytes);
    return file;
}

std::string npy_f32(const std::vector<int64_t> &shape, const std::vector<float> &values) {
    return npy_file("<f4", shape, values.data(), values.size() * sizeof(float));
}

// Doubles rounded to float32 the way the CLI rounds the numbers of --theta.
std::vector<float> to_floats(const std::vector<double> &values) {
    return std::vector<float>(values.begin(), values.end());
}

// The source pixel (y, x) of output pixel (n, y, x), or nothing for zero.
using SourceFn = std::function<std::optional<std::pair<int64_t, int64_t>>(int64_t n, int64_t y, int64_t x)>;

// out[n, c, y, x] = in[n, c, source(n, y, x)] (0 where there is none).
HostImage gather(const HostImage &in, int64_t out_h, int64_t out_w, const SourceFn &source) {
    HostImage out;
    std::string error;
    EXPECT_TRUE(hres::io::allocate_image(in.dtype, in.n, in.c, out_h, out_w, &out, &error)) << error;
    const size_t e = hres::io::element_size(in.dtype);
    for (int64_t b = 0; b < in.n; ++b)
        for (int64_t y = 0; y < out_h; ++y)
            for (int64_t x = 0; x < out_w; ++x) {
                const auto src = source(b, y, x);
                if (!src) continue;
                EXPECT_TRUE(src->first >= 0 && src->first < in.h && src->second >= 0 && src->second < in.w);
                for (int64_t c = 0; c < in.c; ++c) {
                    const size_t from = size_t(((b * in.c + c) * in.h + src->first) * in.w + src->second) * e;
                    const size_t to = size_t(((b * in.c + c) * out_h + y) * out_w + x) * e;
                    std::memcpy(&out.bytes[to], &in.bytes[from], e);
                }
            }
    return out;
}

HostImage flipped(const HostImage &in, bool horizontal, bool vertical) {
    return gather(in, in.h, in.w, [&](int64_t, int64_t y, int64_t x) {
        return std::make_optional(std::make_pair(vertical ? in.h - 1 - y : y, horizontal ? in.w - 1 - x : x));
    });
}

float element(const HostImage &image, size_t i) {
    if (image.dtype == DType::u8) return image.bytes[i];
    float value;
    std::memcpy(&value, &image.bytes[i * 4], 4);
    return value;
}

// Same dtype and shape, and every element within `tolerance` (0: bit-identical
// bytes); names the first element that is not.
::testing::AssertionResult images_match(const HostImage &expected, const HostImage &actual, float tolerance = 0) {
    if (expected.dtype != actual.dtype || hres::io::shape_string(expected) != hres::io::shape_string(actual)) {
        return ::testing::AssertionFailure()
               << "expected " << hres::io::shape_string(expected) << " " << hres::io::dtype_name(expected.dtype)
               << ", got " << hres::io::shape_string(actual) << " " << hres::io::dtype_name(actual.dtype);
    }
    const size_t count = expected.bytes.size() / hres::io::element_size(expected.dtype);
    for (size_t i = 0; i < count; ++i) {
        const float want = element(expected, i), got = element(actual, i);
        const bool same = tolerance == 0 ? std::memcmp(&expected.bytes[i * hres::io::element_size(expected.dtype)],
                                                       &actual.bytes[i * hres::io::element_size(actual.dtype)],
                                                       hres::io::element_size(actual.dtype)) == 0
                                         : std::fabs(want - got) <= tolerance;
        if (!same) {
            const int64_t x = int64_t(i) % expected.w, y = int64_t(i) / expected.w % expected.h,
                          c = int64_t(i) / (expected.w * expected.h) % expected.c,
                          n = int64_t(i) / (expected.w * expected.h * expected.c);
            return ::testing::AssertionFailure() << "at n=" << n << " c=" << c << " y=" << y << " x=" << x
                                                 << ": expected " << want << ", got " << got;
        }
    }
    return ::testing::AssertionSuccess();
}

// One image of a batch, as a batch of one.
HostImage batch_item(const HostImage &in, int64_t index) {
    HostImage one = in;
    const size_t bytes = in.bytes.size() / size_t(in.n);
    one.n = 1;
    one.bytes.assign(in.bytes.begin() + long(bytes * size_t(index)),
                     in.bytes.begin() + long(bytes * size_t(index + 1)));
    return one;
}

// The normalized coordinate of pixel centre `index` along an extent, as
// grid_sample un-normalizes it (pixel -1 and `extent` are just outside).
float normalized_centre(int64_t index, int64_t extent, bool align_corners) {
    return align_corners ? float(2.0 * double(index) / double(extent - 1) - 1.0)
                         : float((2.0 * double(index) + 1.0) / double(extent) - 1.0);
}

TEST_F(CliTest, NewCommandsHaveHelp) {
    const CliResult top = run({"--help"});
    for (const char *command : {"resize", "affine", "grid-sample", "flip"}) {
        EXPECT_NE(top.out.find(std::string("  ") + command + " "), std::string::npos) << command << "\n" << top.out;
    }
    const std::vector<std::pair<std::string, std::vector<const char *>>> commands = {
        {"affine",
         {"--theta", "--theta-file", "--size", "--mode", "--padding", "--align-corners", "--layout", "--threads",
          "--isa", "--bench"}},
        {"grid-sample", {"--mode", "--padding", "--align-corners", "--layout", "--threads", "--isa", "--bench"}},
        {"flip", {"--horizontal", "--vertical", "--both", "--layout", "--threads", "--isa", "--bench"}},
    };
    for (const auto &[command, options] : commands) {
        for (const std::vector<std::string> &args :
             {std::vector<std::string>{command, "--help"}, {"help", command}, {command, "--mode", "bogus", "-h"}}) {
            const CliResult r = run(args);
            EXPECT_EQ(r.exit_code, 0) << join(args);
            EXPECT_TRUE(r.err.empty()) << r.err;
            EXPECT_EQ(r.out.rfind("Usage: hres " + command + " ", 0), 0u) << r.out;
            for (const char *option : options)
                EXPECT_NE(r.out.find(option), std::string::npos) << command << " " << option;
        }
    }
}

TEST_F(CliTest, FlipMatchesReversedCopy) {
    const HostImage u8 = make_image(DType::u8, 2, 3, 5, 7, 11);
    const HostImage f32 = make_image(DType::f32, 1, 4, 6, 9, 12);
    const HostImage png = make_image(DType::u8, 1, 3, 8, 5, 13);
    save("u8.npy", u8);
    save("f32.npy", f32);
    save("in.png", png);
    const std::pair<const char *, const HostImage *> inputs[] = {{"u8.npy", &u8}, {"f32.npy", &f32}, {"in.png", &png}};
    const std::tuple<const char *, bool, bool> axes[] = {
        {"--horizontal", true, false}, {"--vertical", false, true}, {"--both", true, true}};
    for (const auto &[name, image] : inputs) {
        const std::string out =
            std::string("out.") + (std::string(name).find(".png") != std::string::npos ? "png" : "npy");
        for (const auto &[flag, horizontal, vertical] : axes) {
            for (const char *layout : {"nchw", "nhwc"}) {
                CliResult r;
                expect_success({"flip", name, out, flag, "--layout", layout}, &r);
                EXPECT_TRUE(images_match(flipped(*image, horizontal, vertical), load(out)))
                    << name << " " << flag << " " << layout;
                const std::string what = "flip " + hres::io::shape_string(*image) + " " +
                                         hres::io::dtype_name(image->dtype) + " -> " + hres::io::shape_string(*image) +
                                         " " + (flag + 2) + " layout=" + layout;
                EXPECT_NE(r.out.find(what), std::string::npos) << r.out;
            }
        }
    }
    // Flipping twice gives the input back.
    expect_success({"flip", "f32.npy", "once.npy", "--both"});
    expect_success({"flip", "once.npy", "twice.npy", "--both"});
    EXPECT_TRUE(images_match(f32, load("twice.npy")));
}

TEST_F(CliTest, AffineIdentityReturnsInput) {
    const HostImage f32 = make_image(DType::f32, 2, 3, 7, 9, 21);
    const HostImage u8 = make_image(DType::u8, 1, 4, 6, 5, 22);
    save("f32.npy", f32);
    save("u8.npy", u8);
    for (const bool align : {false, true}) {
        std::vector<std::string> extra;
        if (align) extra.push_back("--align-corners");
        const auto args = [&](const char *in, std::vector<std::string> more) {
            std::vector<std::string> all = {"affine", in, "out.npy", "--theta", "1,0,0,0,1,0"};
            all.insert(all.end(), more.begin(), more.end());
            all.insert(all.end(), extra.begin(), extra.end());
            return all;
        };
        CliResult r;
        expect_success(args("f32.npy", {}), &r);  // bilinear by default
        EXPECT_TRUE(images_match(f32, load("out.npy"), 1e-6f)) << "align_corners=" << align;
        const std::string what =
            std::string("affine 2x3x7x9 f32 -> 2x3x7x9 bilinear padding=zeros align_corners=") + (align ? "1" : "0");
        EXPECT_NE(r.out.find(what), std::string::npos) << r.out;
        EXPECT_TRUE(has_number_between(r.out, ": ", " us\n")) << r.out;
        for (const char *padding : {"zeros", "border", "reflection"}) {
            expect_success(args("f32.npy", {"--mode", "nearest", "--padding", padding}));
            EXPECT_TRUE(images_match(f32, load("out.npy"))) << padding << " align_corners=" << align;
            expect_success(args("f32.npy", {"--mode", "bicubic", "--padding", padding}));
            EXPECT_TRUE(images_match(f32, load("out.npy"), 1e-5f)) << padding << " align_corners=" << align;
        }
        // uint8: the float result is within 1e-6 of the input, so rounding restores it.
        for (const char *mode : {"bilinear", "nearest", "bicubic"}) {
            expect_success(args("u8.npy", {"--mode", mode}));
            EXPECT_TRUE(images_match(u8, load("out.npy"))) << mode << " align_corners=" << align;
        }
    }
}

TEST_F(CliTest, AffineShiftAndMirrorMatchHandComputedPick) {
    // W = 8, H = 4: a translation of 0.25 in x is one pixel, -0.5 in y one row up,
    // so output (y, x) samples input (y - 1, x + 1).
    for (const DType dtype : {DType::f32, DType::u8}) {
        const HostImage in = make_image(dtype, 2, 3, 4, 8, 31);
        save("in.npy", in);
        const auto shifted = [&](bool clamp) {
            return gather(in, 4, 8, [&](int64_t, int64_t y, int64_t x) -> std::optional<std::pair<int64_t, int64_t>> {
                int64_t sy = y - 1, sx = x + 1;
                if (!clamp && (sy < 0 || sx >= 8)) return std::nullopt;
                return std::make_pair(std::clamp<int64_t>(sy, 0, 3), std::clamp<int64_t>(sx, 0, 7));
            });
        };
        // Reflection about the border at -0.5 / W - 0.5 maps the pixel just outside onto the edge pixel.
        for (const auto &[padding, clamp] :
             {std::pair<const char *, bool>{"zeros", false}, {"border", true}, {"reflection", true}}) {
            expect_success({"affine", "in.npy", "out.npy", "--theta", "1,0,0.25,0,1,-0.5", "--mode", "nearest",
                            "--padding", padding});
            EXPECT_TRUE(images_match(shifted(clamp), load("out.npy"))) << padding;
        }
        // x -> -x is a horizontal mirror; y -> -y a vertical one.
        for (const bool align : {false, true}) {
            std::vector<std::string> args = {"affine",       "in.npy", "out.npy", "--theta",
                                             "-1,0,0,0,1,0", "--mode", "nearest"};
            if (align) args.push_back("--align-corners");
            expect_success(args);
            EXPECT_TRUE(images_match(flipped(in, true, false), load("out.npy")));
            args[4] = "1,0,0,0,-1.0,-0";
            expect_success(args);
            EXPECT_TRUE(images_match(flipped(in, false, true), load("out.npy")));
        }
    }
}

TEST_F(CliTest, AffineThetaFileMatchesTheta) {
    const HostImage in = make_image(DType::f32, 2, 3, 10, 12, 41);
    save("in.npy", in);
    const std::vector<float> theta = to_floats({0.8, -0.3, 0.1, 0.25, 0.9, -0.2});
    write_text(work.file("one.npy"), npy_f32({1, 2, 3}, theta));
    std::vector<float> twice = theta;
    twice.insert(twice.end(), theta.begin(), theta.end());
    write_text(work.file("two.npy"), npy_f32({2, 2, 3}, twice));
    for (const std::vector<std::string> &options : {std::vector<std::string>{},
                                                    {"--mode", "bicubic", "--padding", "reflection", "--align-corners"},
                                                    {"--mode", "nearest", "--padding", "border", "--layout", "nhwc"}}) {
        const auto with = [&](std::vector<std::string> args) {
            args.insert(args.end(), options.begin(), options.end());
            return args;
        };
        CliResult r;
        expect_success(with({"affine", "in.npy", "a.npy", "--theta", "0.8,-0.3,0.1,0.25,0.9,-0.2", "--size", "7x5"}),
                       &r);
        expect_success(with({"affine", "in.npy", "b.npy", "--theta-file", "one.npy", "--size", "7x5"}));
        expect_success(with({"affine", "in.npy", "c.npy", "--theta-file=two.npy", "--size", "7x5"}));
        const HostImage a = load("a.npy");
        EXPECT_EQ(hres::io::shape_string(a), "2x3x7x5");
        EXPECT_EQ(a.dtype, DType::f32);
        EXPECT_NE(r.out.find("affine 2x3x10x12 f32 -> 2x3x7x5 "), std::string::npos) << r.out;
        const std::string bytes = read_text(work.file("a.npy"));
        EXPECT_EQ(bytes, read_text(work.file("b.npy"))) << join(options);
        EXPECT_EQ(bytes, read_text(work.file("c.npy"))) << join(options);
    }

    // One matrix per image: each output image is what --theta gives for it alone.
    const std::vector<float> per_image = to_floats({0.8, -0.3, 0.1, 0.25, 0.9, -0.2,  //
                                                    -1.1, 0.2, 0.3, 0.0, 0.7, 0.4});
    write_text(work.file("each.npy"), npy_f32({2, 2, 3}, per_image));
    expect_success({"affine", "in.npy", "batch.npy", "--theta-file", "each.npy", "--mode", "bicubic"});
    const HostImage batch = load("batch.npy");
    const char *thetas[] = {"0.8,-0.3,0.1,0.25,0.9,-0.2", "-1.1,0.2,0.3,0,0.7,0.4"};
    for (int64_t i = 0; i < 2; ++i) {
        save("single.npy", batch_item(in, i));
        expect_success({"affine", "single.npy", "single_out.npy", "--theta", thetas[i], "--mode", "bicubic"});
        EXPECT_TRUE(images_match(batch_item(batch, i), load("single_out.npy"))) << "image " << i;
    }
    EXPECT_FALSE(images_match(batch_item(batch, 0), batch_item(batch, 1), 0));
}

TEST_F(CliTest, GridSampleAtPixelCentresIsAGather) {
    std::mt19937 rng(51);
    for (const DType dtype : {DType::f32, DType::u8}) {
        const HostImage in = make_image(dtype, 2, 3, 6, 5, 52);
        save("in.npy", in);
        const int64_t out_h = 3, out_w = 4;
        // Random pixel centres, including the ring just outside the image.
        std::vector<std::pair<int64_t, int64_t>> points;  // (y, x) per output pixel
        for (int64_t i = 0; i < in.n * out_h * out_w; ++i) {
            points.emplace_back(int64_t(rng() % (in.h + 2)) - 1, int64_t(rng() % (in.w + 2)) - 1);
        }
        for (const bool align : {false, true}) {
            std::vector<float> grid;
            for (const auto &[y, x] : points) {
                grid.push_back(normalized_centre(x, in.w, align));
                grid.push_back(normalized_centre(y, in.h, align));
            }
            write_text(work.file("grid.npy"), npy_f32({in.n, out_h, out_w, 2}, grid));
            for (const bool border : {false, true}) {
                const HostImage expected =
                    gather(in, out_h, out_w,
                           [&](int64_t n, int64_t y, int64_t x) -> std::optional<std::pair<int64_t, int64_t>> {
                               const auto [sy, sx] = points[size_t((n * out_h + y) * out_w + x)];
                               if (!border && (sy < 0 || sy >= in.h || sx < 0 || sx >= in.w)) return std::nullopt;
                               return std::make_pair(std::clamp<int64_t>(sy, 0, in.h - 1),
                                                     std::clamp<int64_t>(sx, 0, in.w - 1));
                           });
                for (const char *mode : {"nearest", "bilinear"}) {
                    std::vector<std::string> args = {"grid-sample", "in.npy", "grid.npy",  "out.npy",
                                                     "--mode",      mode,     "--padding", border ? "border" : "zeros"};
                    if (align) args.push_back("--align-corners");
                    CliResult r;
                    expect_success(args, &r);
                    const float tolerance = std::string(mode) == "bilinear" && dtype == DType::f32 ? 1e-6f : 0.0f;
                    EXPECT_TRUE(images_match(expected, load("out.npy"), tolerance)) << join(args);
                    const std::string what = "grid-sample 2x3x6x5 " + std::string(hres::io::dtype_name(dtype)) +
                                             " -> 2x3x3x4 " + mode + " padding=" + (border ? "border" : "zeros") +
                                             " align_corners=" + (align ? "1" : "0") + " layout=nchw";
                    EXPECT_NE(r.out.find(what), std::string::npos) << r.out;
                }
            }
        }
    }
}

TEST_F(CliTest, GridSampleRoundsUint8HalfToEven) {
    // Four channels holding the pairs (0,1), (1,2), (2,3), (3,4); sampling
    // halfway between the two pixels gives 0.5, 1.5, 2.5, 3.5 -> 0, 2, 2, 4.
    HostImage in = make_image(DType::u8, 1, 4, 1, 2);
    in.bytes = {0, 1, 1, 2, 2, 3, 3, 4};
    save("pairs.npy", in);
    write_text(work.file("mid.npy"), npy_f32({1, 1, 1, 2}, {0.0f, 0.0f}));
    expect_success({"grid-sample", "pairs.npy", "mid.npy", "out.npy", "--align-corners"});
    const HostImage out = load("out.npy");
    EXPECT_EQ(out.dtype, DType::u8);
    EXPECT_EQ(hres::io::shape_string(out), "1x4x1x1");
    EXPECT_EQ(out.bytes, (std::vector<uint8_t>{0, 2, 2, 4}));
}

TEST_F(CliTest, NewCommandsNhwcMatchesNchwBitForBit) {
    save("f.npy", make_image(DType::f32, 2, 3, 9, 11, 61));
    save("u.png", make_image(DType::u8, 1, 4, 8, 10, 62));
    std::mt19937 rng(63);
    std::uniform_real_distribution<float> coordinate(-1.3f, 1.3f);
    std::vector<float> grid2(2 * 5 * 7 * 2), grid1(1 * 5 * 7 * 2);
    for (float &v : grid2) v = coordinate(rng);
    for (float &v : grid1) v = coordinate(rng);
    write_text(work.file("g2.npy"), npy_f32({2, 5, 7, 2}, grid2));
    write_text(work.file("g1.npy"), npy_f32({1, 5, 7, 2}, grid1));
    const std::vector<std::vector<std::string>> sampling = {
        {"--mode", "bilinear"},
        {"--mode", "bicubic", "--padding", "reflection"},
        {"--mode", "nearest", "--padding", "border", "--align-corners"},
        {"--mode", "bicubic", "--padding", "border", "--align-corners"},
    };
    for (const char *input : {"f.npy", "u.png"}) {
        const char *grid = std::string(input) == "f.npy" ? "g2.npy" : "g1.npy";
        std::vector<std::vector<std::string>> commands;
        for (const auto &options : sampling) {
            std::vector<std::string> affine = {"affine", input, "--theta", "0.9,0.35,-0.1,-0.4,1.2,0.05",
                                               "--size", "6x13"};
            affine.insert(affine.end(), options.begin(), options.end());
            commands.push_back(affine);
            std::vector<std::string> sample = {"grid-sample", input, grid};
            sample.insert(sample.end(), options.begin(), options.end());
            commands.push_back(sample);
        }
        for (const char *axis : {"--horizontal", "--vertical", "--both"}) commands.push_back({"flip", input, axis});
        for (const auto &command : commands) {
            // OUT goes right after the positional inputs (IN, and GRID for grid-sample).
            const size_t at = command[0] == "grid-sample" ? 3 : 2;
            std::vector<std::string> nchw = command, nhwc = command;
            nchw.insert(nchw.begin() + long(at), "nchw.npy");
            nhwc.insert(nhwc.begin() + long(at), "nhwc.npy");
            nchw.insert(nchw.end(), {"--layout", "nchw"});
            nhwc.insert(nhwc.end(), {"--layout", "nhwc", "--threads", "2"});
            expect_success(nchw);
            expect_success(nhwc);
            const std::string a = read_text(work.file("nchw.npy")), b = read_text(work.file("nhwc.npy"));
            EXPECT_FALSE(a.empty());
            EXPECT_EQ(a, b) << join(command);
        }
    }
}

// --device cuda: every subcommand runs on the GPU with the CPU's result
// (uint8 bit for bit, float32 within 1e-5); without a GPU it fails cleanly.
TEST_F(CliTest, DeviceCudaMatchesCpuOrFailsCleanly) {
    save("f.npy", make_image(DType::f32, 1, 3, 12, 9, 71));
    save("u.png", make_image(DType::u8, 1, 3, 10, 14, 72));
    std::vector<float> grid(1 * 4 * 6 * 2);
    std::mt19937 rng(73);
    std::uniform_real_distribution<float> coordinate(-1.2f, 1.2f);
    for (float &v : grid) v = coordinate(rng);
    write_text(work.file("g.npy"), npy_f32({1, 4, 6, 2}, grid));
    const std::vector<std::vector<std::string>> commands = {
        {"resize", "IN", "OUT", "--size", "7x5", "--mode", "bicubic", "--antialias"},
        {"resize", "IN", "OUT", "--size", "21x30", "--mode", "bilinear"},
        {"affine", "IN", "OUT", "--theta", "0.9,0.3,-0.1,-0.4,1.1,0.05", "--mode", "bilinear"},
        {"grid-sample", "IN", "g.npy", "OUT", "--mode", "nearest", "--padding", "border"},
        {"flip", "IN", "OUT", "--both", "--layout", "nhwc"},
    };
    for (const char *input : {"f.npy", "u.png"}) {
        for (std::vector<std::string> command : commands) {
            std::replace(command.begin(), command.end(), std::string("IN"), std::string(input));
            std::vector<std::string> cpu = command, gpu = command;
            std::replace(cpu.begin(), cpu.end(), std::string("OUT"), std::string("cpu.npy"));
            std::replace(gpu.begin(), gpu.end(), std::string("OUT"), std::string("gpu.npy"));
            gpu.insert(gpu.end(), {"--device", "cuda", "--bench", "3"});
            expect_success(cpu);
            if (!hres::cuda_available()) {
                const CliResult r = expect_clean_failure(gpu);
                EXPECT_EQ(r.exit_code, 1);
                EXPECT_NE(r.err.find("--device cuda"), std::string::npos) << r.err;
                continue;
            }
            CliResult r;
            expect_success(gpu, &r);
            EXPECT_NE(r.out.find("device=cuda"), std::string::npos) << r.out;
            EXPECT_NE(r.out.find("median"), std::string::npos) << r.out;
            const HostImage want = load("cpu.npy"), got = load("gpu.npy");
            ASSERT_EQ(got.bytes.size(), want.bytes.size()) << join(command);
            if (want.dtype == DType::u8) {
                EXPECT_EQ(got.bytes, want.bytes) << join(command);
            } else {
                const float *g = reinterpret_cast<const float *>(got.bytes.data());
                const float *w = reinterpret_cast<const float *>(want.bytes.data());
                for (size_t i = 0; i < want.bytes.size() / 4; i++) {
                    ASSERT_NEAR(g[i], w[i], 1e-5) << join(command) << " element " << i;
                }
            }
        }
    }
    expect_failure(2, {"flip", "u.png", "x.png", "--both", "--device", "tpu"});
}

TEST_F(CliTest, NewCommandsBenchPrintsMedian) {
    save("in.npy", make_image(DType::f32, 1, 3, 16, 16));
    write_text(work.file("grid.npy"), npy_f32({1, 4, 4, 2}, std::vector<float>(32, 0.25f)));
    for (const std::vector<std::string> &args :
         {std::vector<std::string>{"affine", "in.npy", "out.npy", "--theta", "1,0,0,0,1,0", "--bench", "3"},
          {"grid-sample", "in.npy", "grid.npy", "out.npy", "--bench", "3"},
          {"flip", "in.npy", "out.npy", "--both", "--bench", "3"}}) {
        CliResult r;
        expect_success(args, &r);
        EXPECT_TRUE(has_number_between(r.out, "median ", " us")) << join(args) << "\n" << r.out;
        EXPECT_NE(r.out.find("bench: 3 iters"), std::string::npos) << r.out;
        EXPECT_TRUE(fs::exists(work.file("out.npy")));
        fs::remove(work.file("out.npy"));
    }
}

// --explain names the kernel that ran and the rule of the kernel table that
// chose it, for every subcommand. The expected kernels are rows the table
// chooses on any CPU (a resize that keeps the width is its vertical pass;
// planar float32 nearest sampling, bicubic under reflection and vertical
// flips have no special case), but nearest resizing, which AMD's AVX2 and
// SSE4.1 entries run as scalar pixel copies.
TEST_F(CliTest, ExplainNamesTheKernelAndItsRule) {
    save("in.npy", make_image(DType::f32, 1, 3, 16, 16));
    write_text(work.file("grid.npy"), npy_f32({1, 4, 4, 2}, std::vector<float>(32, 0.25f)));
    struct Case {
        std::vector<std::string> args;
        std::string kernel, rule;
    };
    const Case cases[] = {
        {{"resize", "in.npy", "out.npy", "--size", "8x16", "--explain"}, "resize_vertical_bilinear_f32",
         "resize bilinear f32 on cpu: layout planar|rgb|rgba|interleaved, keeps_width"},
        {{"resize", "in.npy", "out.npy", "--size", "8x8", "--mode", "nearest", "--device", "cpu", "--explain"},
         "resize_nearest_f32", ""},
        {{"affine", "in.npy", "out.npy", "--theta", "1,0,0,0,1,0", "--mode", "nearest", "--explain"},
         "affine_grid_sample_nearest_f32", "affine_grid_sample nearest f32 on cpu: any other"},
        {{"grid-sample", "in.npy", "grid.npy", "out.npy", "--mode", "bicubic", "--padding", "reflection", "--explain"},
         "grid_sample_bicubic_f32", "grid_sample bicubic f32 on cpu: any other"},
        {{"flip", "in.npy", "out.npy", "--vertical", "--explain"}, "flip_f32", "flip f32 on cpu: any other"},
    };
    for (const Case &c : cases) {
        CliResult r;
        expect_success(c.args, &r);
        const std::string what = join(c.args) + "\n" + r.out;
        // The nearest float32 resize runs scalar pixel copies on AMD's AVX2 and SSE4.1 entries.
        if (c.kernel == "resize_nearest_f32" && r.out.find("kernel: resize_nearest_f32_scalar_pixels\n") != std::string::npos) {
            EXPECT_NE(r.out.find("cpu: x86 entry "), std::string::npos) << what;
            EXPECT_NE(r.out.find(", AMD"), std::string::npos) << what;
        } else {
            EXPECT_NE(r.out.find("kernel: " + c.kernel + "\n"), std::string::npos) << what;
        }
        if (!c.rule.empty()) EXPECT_NE(r.out.find("rule: " + c.rule + "\n"), std::string::npos) << what;
        EXPECT_NE(r.out.find("\nwhy: "), std::string::npos) << what;
        EXPECT_NE(r.out.find("\ncpu: x86 entry "), std::string::npos) << what;
        fs::remove(work.file("out.npy"));
    }
}

TEST_F(CliTest, NewCommandsRejectBadArguments) {
    save("in.npy", make_image(DType::f32, 2, 3, 8, 8));
    write_text(work.file("grid.npy"), npy_f32({2, 4, 4, 2}, std::vector<float>(64, 0.0f)));
    write_text(work.file("theta.npy"), npy_f32({2, 2, 3}, std::vector<float>(12, 0.5f)));
    const std::string theta = "1,0,0,0,1,0";
    const auto affine = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = {"affine", "in.npy", "out.npy"};
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    };
    const auto sample = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = {"grid-sample", "in.npy", "grid.npy", "out.npy"};
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    };
    const auto flip = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = {"flip", "in.npy", "out.npy"};
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    };
    const std::vector<std::vector<std::string>> usage_errors = {
        // affine: operands
        {"affine"},
        {"affine", "in.npy", "--theta", theta},
        {"affine", "in.npy", "out.npy", "extra.npy", "--theta", theta},
        // affine: the matrix
        affine({}),
        affine({"--theta", theta, "--theta-file", "theta.npy"}),
        affine({"--theta", "1,0,0,0,1"}),
        affine({"--theta", "1,0,0,0,1,0,0"}),
        affine({"--theta", "nan"}),
        affine({"--theta", "1,2,x,4,5,6"}),
        affine({"--theta", "nan,0,0,0,1,0"}),
        affine({"--theta", "1,0,0,0,1,inf"}),
        affine({"--theta", "1,0,0,0,1,-inf"}),
        affine({"--theta", "1,,0,0,1,0"}),
        affine({"--theta", "1,0,0,0,1,0,"}),
        affine({"--theta", " 1,0,0,0,1,0"}),
        affine({"--theta", "1,0,0,0,1,0 "}),
        affine({"--theta", "1;0;0;0;1;0"}),
        affine({"--theta", "0x1,0,0,0,1,0"}),
        affine({"--theta", "1e999,0,0,0,1,0"}),
        affine({"--theta", "1e39,0,0,0,1,0"}),  // finite, but not as float32
        affine({"--theta", "--1,0,0,0,1,0"}),
        affine({"--theta", "1-,0,0,0,1,0"}),
        affine({"--theta", "1e,0,0,0,1,0"}),
        affine({"--theta", "-,0,0,0,1,0"}),
        affine({"--theta", ""}),
        affine({"--theta"}),
        affine({"--theta", theta, "--theta", theta}),
        affine({"--theta-file"}),
        // affine: size and sampling
        affine({"--theta", theta, "--size", "0x5"}),
        affine({"--theta", theta, "--size", "5x0"}),
        affine({"--theta", theta, "--size", "5"}),
        affine({"--theta", theta, "--mode", "nearest-exact"}),
        affine({"--theta", theta, "--mode", "bogus"}),
        affine({"--theta", theta, "--padding", "bogus"}),
        affine({"--theta", theta, "--padding", "Zeros"}),
        affine({"--theta", theta, "--align-corners=1"}),
        affine({"--theta", theta, "--antialias"}),
        affine({"--theta", theta, "--layout", "hwc"}),
        affine({"--theta", theta, "--threads", "0"}),
        affine({"--theta", theta, "--bench", "0"}),
        affine({"--theta", theta, "--isa", "neon"}),
        // grid-sample
        {"grid-sample"},
        {"grid-sample", "in.npy"},
        {"grid-sample", "in.npy", "grid.npy"},
        sample({"extra.npy"}),
        sample({"--mode", "nearest-exact"}),
        sample({"--mode", "area"}),
        sample({"--padding", "bogus"}),
        sample({"--padding"}),
        sample({"--size", "4x4"}),
        sample({"--theta", theta}),
        sample({"--align-corners", "--align-corners"}),
        sample({"--bench", "x"}),
        // flip
        {"flip"},
        {"flip", "in.npy"},
        flip({"--horizontal", "extra.npy"}),
        flip({}),
        flip({"--horizontal", "--vertical"}),
        flip({"--vertical", "--both"}),
        flip({"--both", "--horizontal"}),
        flip({"--both", "--both"}),
        flip({"--horizontal=1"}),
        flip({"--horizontal", "--mode", "nearest"}),
        flip({"--horizontal", "--size", "4x4"}),
        flip({"--diagonal"}),
        flip({"--horizontal", "--threads", "-2"}),
    };
    for (const auto &args : usage_errors) expect_failure(2, args);

    // Bad files: runtime errors. Matrices: wrong rank, shape, dtype or batch.
    write_text(work.file("theta23.npy"), npy_f32({2, 3}, std::vector<float>(6, 0.0f)));
    write_text(work.file("theta232.npy"), npy_f32({2, 3, 2}, std::vector<float>(12, 0.0f)));
    write_text(work.file("theta222.npy"), npy_f32({2, 2, 2}, std::vector<float>(8, 0.0f)));
    write_text(work.file("theta3.npy"), npy_f32({3, 2, 3}, std::vector<float>(18, 0.0f)));
    write_text(work.file("theta1223.npy"), npy_f32({1, 2, 2, 3}, std::vector<float>(12, 0.0f)));
    const std::vector<uint8_t> u8_theta(12, 1);
    write_text(work.file("theta_u8.npy"), npy_file("|u1", {2, 2, 3}, u8_theta.data(), u8_theta.size()));
    const std::vector<double> f8_theta(12, 1.0);
    write_text(work.file("theta_f8.npy"), npy_file("<f8", {2, 2, 3}, f8_theta.data(), f8_theta.size() * 8));
    const std::string good_theta = read_text(work.file("theta.npy"));
    write_text(work.file("theta_short.npy"), good_theta.substr(0, good_theta.size() - 4));
    write_text(work.file("theta_text.npy"), "1,0,0,0,1,0");
    // Grids: corrupt, truncated, wrong dtype, rank, last dimension or batch.
    const std::string good_grid = read_text(work.file("grid.npy"));
    write_text(work.file("grid_short.npy"), good_grid.substr(0, good_grid.size() - 1));
    write_text(work.file("grid_header.npy"), good_grid.substr(0, 40));
    std::string bad_magic = good_grid;
    bad_magic[2] = 'X';
    write_text(work.file("grid_magic.npy"), bad_magic);
    write_text(work.file("grid_garbage.npy"), std::string(300, '\x5a'));
    write_text(work.file("grid_empty.npy"), "");
    write_text(work.file("grid3.npy"), npy_f32({2, 4, 4, 3}, std::vector<float>(96, 0.0f)));
    write_text(work.file("grid1.npy"), npy_f32({2, 4, 4, 1}, std::vector<float>(32, 0.0f)));
    write_text(work.file("grid_batch3.npy"), npy_f32({3, 4, 4, 2}, std::vector<float>(96, 0.0f)));
    write_text(work.file("grid_batch1.npy"), npy_f32({1, 4, 4, 2}, std::vector<float>(32, 0.0f)));
    write_text(work.file("grid_rank3.npy"), npy_f32({2, 16, 2}, std::vector<float>(64, 0.0f)));
    write_text(work.file("grid_rank5.npy"), npy_f32({2, 1, 4, 4, 2}, std::vector<float>(64, 0.0f)));
    const std::vector<uint8_t> u8_grid(64, 0);
    write_text(work.file("grid_u8.npy"), npy_file("|u1", {2, 4, 4, 2}, u8_grid.data(), u8_grid.size()));
    write_text(work.file("bad.png"), "not a png");

    std::vector<std::vector<std::string>> runtime_errors = {
        {"affine", "missing.npy", "out.npy", "--theta", theta},
        {"affine", "bad.png", "out.png", "--theta", theta},
        affine({"--theta-file", "missing.npy"}),
        {"grid-sample", "missing.npy", "grid.npy", "out.npy"},
        {"grid-sample", "in.npy", "missing.npy", "out.npy"},
        {"flip", "missing.npy", "out.npy", "--both"},
        {"flip", "bad.png", "out.png", "--both"},
        {"flip", "in.npy", "out.jpg", "--both"},
        {"flip", "in.npy", "no/such/dir/out.npy", "--both"},
        {"flip", "in.npy", "out.png", "--both"},  // a batch of 2 does not fit a PNG
    };
    for (const char *file : {"theta23.npy", "theta232.npy", "theta222.npy", "theta3.npy", "theta1223.npy",
                             "theta_u8.npy", "theta_f8.npy", "theta_short.npy", "theta_text.npy"}) {
        runtime_errors.push_back(affine({"--theta-file", file}));
    }
    for (const char *file : {"grid_short.npy", "grid_header.npy", "grid_magic.npy", "grid_garbage.npy",
                             "grid_empty.npy", "grid3.npy", "grid1.npy", "grid_batch3.npy", "grid_batch1.npy",
                             "grid_rank3.npy", "grid_rank5.npy", "grid_u8.npy", "theta.npy", "in.npy"}) {
        runtime_errors.push_back({"grid-sample", "in.npy", file, "out.npy"});
    }
    for (const auto &args : runtime_errors) expect_failure(1, args);

    // A failed run leaves an existing OUT as it was.
    save("keep.npy", make_image(DType::u8, 1, 1, 2, 2));
    const std::string before = read_text(work.file("keep.npy"));
    expect_failure(1, {"grid-sample", "in.npy", "grid3.npy", "keep.npy"});
    expect_failure(1, {"affine", "in.npy", "keep.npy", "--theta-file", "theta3.npy"});
    expect_failure(2, {"flip", "in.npy", "keep.npy"});
    EXPECT_EQ(read_text(work.file("keep.npy")), before);

    // The accepted spellings of numbers in --theta.
    for (const char *value : {"1,0,0,0,1,0", "1.0,-0,.5,-.5,1e0,-2.5E-1", "1.,0.0,0,0,1,0"}) {
        expect_success(affine({"--theta", value}));
        fs::remove(work.file("out.npy"));
    }
}

}  // namespace
