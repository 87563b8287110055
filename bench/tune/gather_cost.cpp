// What one hardware gather costs on this CPU, by element size and lane
// count: the question behind reading taps as wider words (two float32 taps,
// or a pixel's channels, per 64-bit lane). Each variant gathers from a
// buffer that stays in L1 or L2 at random in-bounds offsets (as a sampler's
// taps mostly hit cache), 4 independent gathers per iteration so their
// latencies overlap; the median over 15 rounds is printed as ns per gather
// instruction and per gathered byte.
//
//   g++ -O2 -mavx512f -mavx512vl -mavx512dq bench/tune/gather_cost.cpp -o gather_cost
//   ./gather_cost [KIB]   (buffer size, default 256)
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

constexpr int kIndices = 4096;  // index vectors per pass (16 lanes each)

double median_ns_per_gather(const std::function<float()> &pass, int gathers_per_pass) {
    std::vector<double> ns;
    volatile float sink = 0;
    for (int round = 0; round < 15; round++) {
        const auto start = std::chrono::steady_clock::now();
        sink = sink + pass();
        const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - start;
        ns.push_back(took.count() / gathers_per_pass);
    }
    std::nth_element(ns.begin(), ns.begin() + 7, ns.end());
    return ns[7];
}

}  // namespace

int main(int argc, char **argv) {
    const size_t kib = argc > 1 ? size_t(std::atol(argv[1])) : 256;
    const int floats = int(kib * 1024 / sizeof(float));
    if (floats < 64) {
        std::fprintf(stderr, "usage: gather_cost [KIB >= 1]\n");
        return 2;
    }
    std::vector<float> data(floats);
    for (int i = 0; i < floats; i++) data[i] = float(i % 1000) * 0.001f;
    // Offsets in float elements, at most floats - 4 so that a 16-byte read fits.
    std::vector<int> offsets(kIndices * 16);
    std::srand(1);
    for (int &o : offsets) o = std::rand() % (floats - 4);
    const float *base = data.data();
    const int *idx = offsets.data();

    auto report = [&](const char *name, int bytes, const std::function<float()> &pass, int per_pass) {
        const double ns = median_ns_per_gather(pass, per_pass);
        std::printf("%-44s %6.2f ns/gather %6.3f ns/byte\n", name, ns, ns / bytes);
    };
    // 8 lanes of float32 (ymm, 32-bit indices).
    report("vgatherdps ymm: 8 x 4 bytes", 32, [&] {
        __m256 acc0 = _mm256_setzero_ps(), acc1 = acc0, acc2 = acc0, acc3 = acc0;
        for (int i = 0; i < kIndices * 16; i += 32) {
            acc0 = _mm256_add_ps(acc0, _mm256_i32gather_ps(base, _mm256_loadu_si256((const __m256i *)(idx + i)), 4));
            acc1 = _mm256_add_ps(acc1, _mm256_i32gather_ps(base, _mm256_loadu_si256((const __m256i *)(idx + i + 8)), 4));
            acc2 = _mm256_add_ps(acc2, _mm256_i32gather_ps(base, _mm256_loadu_si256((const __m256i *)(idx + i + 16)), 4));
            acc3 = _mm256_add_ps(acc3, _mm256_i32gather_ps(base, _mm256_loadu_si256((const __m256i *)(idx + i + 24)), 4));
        }
        __m256 s = _mm256_add_ps(_mm256_add_ps(acc0, acc1), _mm256_add_ps(acc2, acc3));
        return _mm256_cvtss_f32(s);
    }, kIndices * 16 / 8);
    // 16 lanes of float32 (zmm).
    report("vgatherdps zmm: 16 x 4 bytes", 64, [&] {
        __m512 acc0 = _mm512_setzero_ps(), acc1 = acc0, acc2 = acc0, acc3 = acc0;
        for (int i = 0; i < kIndices * 16; i += 64) {
            acc0 = _mm512_add_ps(acc0, _mm512_i32gather_ps(_mm512_loadu_si512(idx + i), base, 4));
            acc1 = _mm512_add_ps(acc1, _mm512_i32gather_ps(_mm512_loadu_si512(idx + i + 16), base, 4));
            acc2 = _mm512_add_ps(acc2, _mm512_i32gather_ps(_mm512_loadu_si512(idx + i + 32), base, 4));
            acc3 = _mm512_add_ps(acc3, _mm512_i32gather_ps(_mm512_loadu_si512(idx + i + 48), base, 4));
        }
        return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(acc0, acc1), _mm512_add_ps(acc2, acc3)));
    }, kIndices * 16 / 16);
    // 8 lanes of 64 bits (two adjacent float32 each), 32-bit indices.
    report("vpgatherdq zmm: 8 x 8 bytes", 64, [&] {
        __m512i acc0 = _mm512_setzero_si512(), acc1 = acc0, acc2 = acc0, acc3 = acc0;
        for (int i = 0; i < kIndices * 16; i += 32) {
            acc0 = _mm512_add_epi64(acc0, _mm512_i32gather_epi64(_mm256_loadu_si256((const __m256i *)(idx + i)), base, 4));
            acc1 = _mm512_add_epi64(acc1, _mm512_i32gather_epi64(_mm256_loadu_si256((const __m256i *)(idx + i + 8)), base, 4));
            acc2 = _mm512_add_epi64(acc2, _mm512_i32gather_epi64(_mm256_loadu_si256((const __m256i *)(idx + i + 16)), base, 4));
            acc3 = _mm512_add_epi64(acc3, _mm512_i32gather_epi64(_mm256_loadu_si256((const __m256i *)(idx + i + 24)), base, 4));
        }
        return float(_mm512_reduce_add_epi64(_mm512_add_epi64(_mm512_add_epi64(acc0, acc1), _mm512_add_epi64(acc2, acc3))) & 1);
    }, kIndices * 16 / 8);
    // 4 lanes of 64 bits (ymm).
    report("vpgatherdq ymm: 4 x 8 bytes", 32, [&] {
        __m256i acc0 = _mm256_setzero_si256(), acc1 = acc0, acc2 = acc0, acc3 = acc0;
        for (int i = 0; i < kIndices * 16; i += 16) {
            acc0 = _mm256_add_epi64(acc0, _mm256_i32gather_epi64((const long long *)base, _mm_loadu_si128((const __m128i *)(idx + i)), 4));
            acc1 = _mm256_add_epi64(acc1, _mm256_i32gather_epi64((const long long *)base, _mm_loadu_si128((const __m128i *)(idx + i + 4)), 4));
            acc2 = _mm256_add_epi64(acc2, _mm256_i32gather_epi64((const long long *)base, _mm_loadu_si128((const __m128i *)(idx + i + 8)), 4));
            acc3 = _mm256_add_epi64(acc3, _mm256_i32gather_epi64((const long long *)base, _mm_loadu_si128((const __m128i *)(idx + i + 12)), 4));
        }
        __m256i s = _mm256_add_epi64(_mm256_add_epi64(acc0, acc1), _mm256_add_epi64(acc2, acc3));
        return float(_mm256_extract_epi64(s, 0) & 1);
    }, kIndices * 16 / 4);
    // For scale: the same bytes read as 16-byte loads, one per lane (what a
    // pixel-at-a-time kernel does), 8 lanes.
    report("8 x movups xmm (scalar addressing)", 128, [&] {
        __m128 acc0 = _mm_setzero_ps(), acc1 = acc0;
        for (int i = 0; i < kIndices * 16; i += 8) {
            for (int l = 0; l < 8; l += 2) {
                acc0 = _mm_add_ps(acc0, _mm_loadu_ps(base + idx[i + l]));
                acc1 = _mm_add_ps(acc1, _mm_loadu_ps(base + idx[i + l + 1]));
            }
        }
        return _mm_cvtss_f32(_mm_add_ps(acc0, acc1));
    }, kIndices * 16 / 8);
    return 0;
}
