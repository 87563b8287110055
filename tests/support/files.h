// File-level test helpers: scratch directories and random host images.
#pragma once

#include "image_io.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace hres_test {

// A fresh directory under the system temp dir, removed with everything in it.
class TempDir {
public:
    explicit TempDir(const std::string &prefix = "hres_test") {
        static std::atomic<int> counter{0};
        std::random_device entropy;
        path_ = std::filesystem::temp_directory_path() /
                (prefix + "_" + std::to_string(getpid()) + "_" + std::to_string(counter++) + "_" +
                 std::to_string(entropy()));
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;

    const std::filesystem::path &path() const { return path_; }
    std::string file(const std::string &name) const { return (path_ / name).string(); }
    // Names of everything in the directory, sorted: catches stray temp files.
    std::vector<std::string> entries() const {
        std::vector<std::string> names;
        for (const auto &entry : std::filesystem::directory_iterator(path_)) {
            names.push_back(entry.path().filename().string());
        }
        std::sort(names.begin(), names.end());
        return names;
    }

private:
    std::filesystem::path path_;
};

// A random image: uint8 uniform over 0..255, float32 uniform over [lo, hi).
inline hres::io::HostImage make_image(hres::DType dtype, int64_t n, int64_t c, int64_t h, int64_t w,
                                      uint32_t seed = 1, float lo = 0.0f, float hi = 1.0f) {
    hres::io::HostImage image;
    std::string error;
    EXPECT_TRUE(hres::io::allocate_image(dtype, n, c, h, w, &image, &error)) << error;
    std::mt19937 rng(seed);
    if (dtype == hres::DType::u8) {
        for (auto &b : image.bytes) b = uint8_t(rng());
    } else {
        auto *f = reinterpret_cast<float *>(image.bytes.data());
        std::uniform_real_distribution<float> dist(lo, hi);
        for (size_t i = 0; i < image.bytes.size() / 4; ++i) f[i] = dist(rng);
    }
    return image;
}

}  // namespace hres_test
