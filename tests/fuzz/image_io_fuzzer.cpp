// libFuzzer target for the command line's file readers and writers
// (apps/hres/image_io.cpp), built and run by scripts/fuzz.sh under
// AddressSanitizer and UndefinedBehaviorSanitizer. The first byte picks the
// reader (PNG, NPY image, NPY array); the rest is the file. Whatever a reader
// accepts must have the byte count its shape says, survive the layout round
// trip and be written back; whatever it rejects must say why.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "hres/image_io.h"

namespace {

const std::string &scratch_dir() {
    static const std::string dir = [] {
        std::string d = "/tmp/hres_fuzz_" + std::to_string(getpid());
        mkdir(d.c_str(), 0700);
        return d;
    }();
    return dir;
}

bool write_file(const std::string &path, const uint8_t *data, size_t size) {
    FILE *f = std::fopen(path.c_str(), "wb");
    if (!f) return false;
    const bool ok = std::fwrite(data, 1, size, f) == size;
    return std::fclose(f) == 0 && ok;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    const int reader = data[0] % 3;
    const std::string path = scratch_dir() + (reader == 0 ? "/in.png" : "/in.npy");
    if (!write_file(path, data + 1, size - 1)) __builtin_trap();
    std::string error;
    if (reader == 2) {
        hres::io::NpyArray array;
        if (hres::io::read_npy_array(path, &array, &error)) {
            size_t count = 1;
            for (int64_t d : array.shape) count *= size_t(d);
            if (array.bytes.size() != count * hres::io::element_size(array.dtype)) __builtin_trap();
        } else if (error.empty()) {
            __builtin_trap();
        }
        return 0;
    }
    hres::io::HostImage image;
    if (!hres::io::read_image(path, &image, &error)) {
        if (error.empty()) __builtin_trap();
        return 0;
    }
    const size_t count = size_t(image.n * image.c * image.h * image.w);
    if (image.bytes.size() != count * hres::io::element_size(image.dtype)) __builtin_trap();
    const std::vector<uint8_t> interleaved = hres::io::to_interleaved(image);
    hres::io::from_interleaved(interleaved.data(), &image);
    if (image.bytes.size() < (size_t(1) << 22)) {
        hres::io::write_image(scratch_dir() + "/out.npy", image, &error);
        hres::io::write_image(scratch_dir() + "/out.png", image, &error);
    }
    return 0;
}
