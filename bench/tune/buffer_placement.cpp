// How the placement of a kernel's buffers changes its time: the same
// hres::flip or hres::resize call on buffers at a cache-line boundary, at
// malloc's usual offset (16 bytes past a page for large blocks, as a
// std::vector gets them), with and without transparent-huge-page advice
// (which NumPy gives its large arrays), next to a memcpy of the same bytes.
// Placements alternate round by round, so a noisy host hits them alike.
//
//   cmake --build build --target bench_placement   (bench/CMakeLists.txt)
//   build/bin/bench_placement hflip|vflip|bilinear|nearest f32|u8 nchw|nhwc N C H W [OH OW] [THREADS] [ROUNDS]
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "hres/hres.h"

namespace {

struct Placement {
    const char *name;
    size_t offset;  // bytes past a 2 MiB boundary
    bool huge;      // madvise(MADV_HUGEPAGE)
};

// A mapping with room for `offset` past a 2 MiB boundary; its pages touched.
struct Block {
    void *map = nullptr;
    size_t map_bytes = 0;
    uint8_t *data = nullptr;
    Block(size_t bytes, const Placement &p, bool floats) {
        const size_t huge_page = size_t(2) << 20;
        map_bytes = bytes + p.offset + 2 * huge_page;
        map = mmap(nullptr, map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (map == MAP_FAILED) {
            std::perror("mmap");
            std::exit(1);
        }
        uintptr_t base = (reinterpret_cast<uintptr_t>(map) + huge_page - 1) & ~(huge_page - 1);
        if (p.huge) madvise(reinterpret_cast<void *>(base), bytes + p.offset + huge_page, MADV_HUGEPAGE);
        data = reinterpret_cast<uint8_t *>(base + p.offset);
        // float32 gets values in [0, 1): random bits would include denormals,
        // whose arithmetic is slow enough to swamp the filtered resizes.
        if (floats) {
            float *values = reinterpret_cast<float *>(data);
            for (size_t i = 0; i < bytes / 4; i++) values[i] = float(i % 1000) * 0.001f;
        } else {
            for (size_t i = 0; i < bytes; i++) data[i] = uint8_t(i * 131 + 7);
        }
    }
    ~Block() { munmap(map, map_bytes); }
};

double median(std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 9) {
        std::fprintf(stderr,
                     "usage: %s hflip|vflip|bilinear|nearest f32|u8 nchw|nhwc N C H W [OH OW] [THREADS] [ROUNDS]\n",
                     argv[0]);
        return 2;
    }
    const std::string op = argv[1];
    const hres::DType dtype = std::string(argv[2]) == "u8" ? hres::DType::u8 : hres::DType::f32;
    const bool nhwc = std::string(argv[3]) == "nhwc";
    const int64_t n = std::atoll(argv[4]), c = std::atoll(argv[5]), h = std::atoll(argv[6]), w = std::atoll(argv[7]);
    const bool flip = op == "hflip" || op == "vflip";
    int arg = 8;
    int64_t oh = h, ow = w;
    if (!flip) {
        if (argc < 10) return 2;
        oh = std::atoll(argv[8]);
        ow = std::atoll(argv[9]);
        arg = 10;
    }
    const int threads = argc > arg ? std::atoi(argv[arg]) : 1;
    const int rounds = argc > arg + 1 ? std::atoi(argv[arg + 1]) : 5;
    hres::set_num_threads(threads);
    const size_t esize = dtype == hres::DType::u8 ? 1 : 4;
    const size_t in_bytes = size_t(n * c * h * w) * esize, out_bytes = size_t(n * c * oh * ow) * esize;

    const Placement placements[] = {
        {"line-aligned", 0, false}, {"malloc(+16)", 16, false}, {"line+huge", 0, true}, {"+16+huge", 16, true}};
    std::vector<std::unique_ptr<Block>> ins, outs;
    for (const Placement &p : placements) {
        ins.push_back(std::make_unique<Block>(in_bytes, p, esize == 4));
        outs.push_back(std::make_unique<Block>(out_bytes, p, esize == 4));
    }
    const auto view = [&](uint8_t *data, int64_t hh, int64_t ww) {
        return nhwc ? hres::nhwc(data, dtype, n, c, hh, ww) : hres::nchw(data, dtype, n, c, hh, ww);
    };
    const auto call = [&](int i) {
        const hres::Image in = view(ins[i]->data, h, w), out = view(outs[i]->data, oh, ow);
        hres::Status s;
        if (op == "hflip") {
            s = hres::flip(in, out, hres::FlipAxes::horizontal);
        } else if (op == "vflip") {
            s = hres::flip(in, out, hres::FlipAxes::vertical);
        } else {
            hres::ResizeOptions options;
            options.mode = op == "nearest" ? hres::Interp::nearest : hres::Interp::bilinear;
            s = hres::resize(in, out, options);
        }
        if (!s.ok()) {
            std::fprintf(stderr, "%s\n", s.message().c_str());
            std::exit(1);
        }
    };
    using Clock = std::chrono::steady_clock;
    const size_t count = std::size(placements);
    std::vector<std::vector<double>> kernel_us(count), copy_us(count);
    for (int round = 0; round < rounds; round++) {
        for (size_t i = 0; i < count; i++) {
            call(int(i));
            for (int k = 0; k < 20; k++) {
                auto t0 = Clock::now();
                call(int(i));
                auto t1 = Clock::now();
                std::memcpy(outs[i]->data, ins[i]->data, std::min(in_bytes, out_bytes));
                auto t2 = Clock::now();
                kernel_us[i].push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
                copy_us[i].push_back(std::chrono::duration<double, std::micro>(t2 - t1).count());
            }
        }
    }
    std::printf("%s %s %s %lldx%lldx%lldx%lld threads %d, medians of %d calls:\n", op.c_str(), argv[2], argv[3],
                (long long)n, (long long)c, (long long)h, (long long)w, threads, rounds * 20);
    for (size_t i = 0; i < count; i++) {
        std::printf("  %-14s kernel %9.1f us   memcpy %9.1f us\n", placements[i].name, median(kernel_us[i]),
                    median(copy_us[i]));
    }
    return 0;
}
