// What bounds a horizontal flip of a large float32 image on an AVX-512
// host: the same row reversal written by hand with plain stores in two
// orders and with streaming (non-temporal) stores, beside memcpy and hres's
// own flips, on the same buffers, one thread, rounds interleaved
// (RESULTS.md@89f6099, 2026-11-27 (later)). Needs AVX-512F at run time.
//
//   cmake --build build --target bench_reversal_stores   (bench/CMakeLists.txt)
//   build/bin/bench_reversal_stores [ROUNDS]
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "hres/hres.h"

// The hand-written loops only; main() checks the CPU before calling them.
#define HRES_AVX512 __attribute__((target("avx512f")))

namespace {

constexpr int kWidth = 1920, kHeight = 1080, kChannels = 3;  // BENCH.md's large flip
constexpr size_t kFloats = size_t(kWidth) * kHeight * kChannels;

// Lane tables: output float k of a block of `pixels` RGB pixels comes from
// input float (pixels - 1 - k / 3) * 3 + k % 3 of the block's mirror.
void mirror_table(int pixels, int first, int *table) {
    for (int k = 0; k < 16; k++) {
        const int out = first + k;
        table[k] = (pixels - 1 - out / 3) * 3 + out % 3;
    }
}

// Interleaved RGB, 8 pixels (96 bytes) a block: one 64-byte and one 32-byte
// load and store, the form LLVM's loop vectorizer gives hres's NHWC flip.
// `high_first` stores the 32-byte part first, as that code does.
template<bool high_first>
HRES_AVX512 void rgb_blocks_of_8(const float *in, float *out) {
    int low[16], high[16];
    mirror_table(8, 0, low);
    mirror_table(8, 16, high);
    const __m512i low_lanes = _mm512_loadu_si512(low), high_lanes = _mm512_loadu_si512(high);
    for (int y = 0; y < kHeight; y++) {
        const float *row = in + size_t(y) * kWidth * kChannels;
        float *dst = out + size_t(y) * kWidth * kChannels;
        for (int x = 0; x < kWidth; x += 8) {
            const float *src = row + (kWidth - 8 - x) * kChannels;
            const __m512 a = _mm512_loadu_ps(src);
            const __m512 b = _mm512_castps256_ps512(_mm256_loadu_ps(src + 16));
            const __m512 lo = _mm512_permutex2var_ps(a, low_lanes, b);
            const __m256 hi = _mm512_castps512_ps256(_mm512_permutex2var_ps(a, high_lanes, b));
            if (high_first) {
                _mm256_storeu_ps(dst + x * kChannels + 16, hi);
                asm volatile("" ::: "memory");  // keep the order
                _mm512_storeu_ps(dst + x * kChannels, lo);
            } else {
                _mm512_storeu_ps(dst + x * kChannels, lo);
                asm volatile("" ::: "memory");
                _mm256_storeu_ps(dst + x * kChannels + 16, hi);
            }
        }
    }
}

// Interleaved RGB, 16 pixels (three cache lines) a block, streaming stores.
HRES_AVX512 void rgb_streaming(const float *in, float *out) {
    int t0[16], t1[16], t2[16];
    mirror_table(16, 0, t0);
    mirror_table(16, 16, t1);
    mirror_table(16, 32, t2);
    // Output vector 0 reads input floats 30..47 (b, c), vector 2 reads 0..17
    // (a, b), vector 1 reads 15..32: from (a, b) and (b, c), blended.
    int lo[16], hi[16];
    unsigned from_c = 0;
    for (int k = 0; k < 16; k++) {
        t0[k] -= 16;
        lo[k] = t1[k] < 32 ? t1[k] : 0;
        hi[k] = t1[k] >= 16 ? t1[k] - 16 : 0;
        if (t1[k] >= 32) from_c |= 1u << k;
    }
    const __m512i p0 = _mm512_loadu_si512(t0), p2 = _mm512_loadu_si512(t2);
    const __m512i p1_lo = _mm512_loadu_si512(lo), p1_hi = _mm512_loadu_si512(hi);
    for (int y = 0; y < kHeight; y++) {
        const float *row = in + size_t(y) * kWidth * kChannels;
        float *dst = out + size_t(y) * kWidth * kChannels;
        for (int x = 0; x < kWidth; x += 16) {
            const float *src = row + (kWidth - 16 - x) * kChannels;
            const __m512 a = _mm512_loadu_ps(src), b = _mm512_loadu_ps(src + 16), c = _mm512_loadu_ps(src + 32);
            const __m512 middle = _mm512_mask_blend_ps(__mmask16(from_c), _mm512_permutex2var_ps(a, p1_lo, b),
                                                       _mm512_permutex2var_ps(b, p1_hi, c));
            _mm512_stream_ps(dst + x * kChannels, _mm512_permutex2var_ps(b, p0, c));
            _mm512_stream_ps(dst + x * kChannels + 16, middle);
            _mm512_stream_ps(dst + x * kChannels + 32, _mm512_permutex2var_ps(a, p2, b));
        }
    }
    _mm_sfence();
}

// Planar rows: 16 floats a vector, reversed with one permute.
template<bool streaming>
HRES_AVX512 void planar(const float *in, float *out) {
    const __m512i reverse = _mm512_set_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (int y = 0; y < kHeight * kChannels; y++) {
        const float *row = in + size_t(y) * kWidth;
        float *dst = out + size_t(y) * kWidth;
        for (int x = 0; x < kWidth; x += 16) {
            const __m512 v = _mm512_permutexvar_ps(reverse, _mm512_loadu_ps(row + kWidth - 16 - x));
            if (streaming) {
                _mm512_stream_ps(dst + x, v);
            } else {
                _mm512_storeu_ps(dst + x, v);
            }
        }
    }
    if (streaming) _mm_sfence();
}

void copy(const float *in, float *out) { std::memcpy(out, in, kFloats * sizeof(float)); }

void hres_flip(const float *in, float *out, bool interleaved) {
    const auto view = [&](const float *data) {
        void *p = const_cast<float *>(data);
        return interleaved ? hres::nhwc(p, hres::DType::f32, 1, kChannels, kHeight, kWidth)
                           : hres::nchw(p, hres::DType::f32, 1, kChannels, kHeight, kWidth);
    };
    if (!hres::flip(view(in), view(out), hres::FlipAxes::horizontal).ok()) std::abort();
}
void hres_nhwc(const float *in, float *out) { hres_flip(in, out, true); }
void hres_nchw(const float *in, float *out) { hres_flip(in, out, false); }

}  // namespace

int main(int argc, char **argv) {
    if (!__builtin_cpu_supports("avx512f")) {
        std::fprintf(stderr, "bench_reversal_stores: this CPU has no AVX-512F\n");
        return 1;
    }
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 8;
    hres::set_num_threads(1);
    struct Variant {
        const char *name;
        void (*run)(const float *, float *);
        bool rgb;  // checked against the interleaved reference
    };
    const Variant variants[] = {{"memcpy", copy, false},
                                {"planar, plain stores", planar<false>, false},
                                {"planar, streaming stores", planar<true>, false},
                                {"RGB 8-pixel blocks, plain, low part first", rgb_blocks_of_8<false>, true},
                                {"RGB 8-pixel blocks, plain, high part first", rgb_blocks_of_8<true>, true},
                                {"RGB 16-pixel blocks, streaming stores", rgb_streaming, true},
                                {"hres::flip NHWC", hres_nhwc, true},
                                {"hres::flip NCHW", hres_nchw, false}};
    // Cache-line aligned, as the command line's buffers (apps/hres/kernel_buffer.h).
    const size_t bytes = kFloats * sizeof(float);
    float *in = static_cast<float *>(std::aligned_alloc(64, bytes));
    float *out = static_cast<float *>(std::aligned_alloc(64, bytes));
    float *reference = static_cast<float *>(std::aligned_alloc(64, bytes));
    for (size_t i = 0; i < kFloats; i++) in[i] = float(i % 1000) * 0.001f;
    hres_nhwc(in, reference);
    for (const Variant &v : variants) {
        if (!v.rgb) continue;
        v.run(in, out);
        if (std::memcmp(out, reference, bytes) != 0) {
            std::fprintf(stderr, "bench_reversal_stores: %s differs from hres::flip\n", v.name);
            return 1;
        }
    }
    std::vector<std::vector<double>> us(std::size(variants));
    for (int round = 0; round < rounds; round++) {
        for (size_t i = 0; i < std::size(variants); i++) {
            for (int call = 0; call < 10; call++) {
                const auto start = std::chrono::steady_clock::now();
                variants[i].run(in, out);
                us[i].push_back(
                    std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
            }
        }
    }
    std::printf("1x%dx%dx%d float32 horizontal flips, 1 thread, medians of %d calls:\n", kChannels, kHeight, kWidth,
                rounds * 10);
    for (size_t i = 0; i < std::size(variants); i++) {
        std::nth_element(us[i].begin(), us[i].begin() + us[i].size() / 2, us[i].end());
        std::printf("  %-44s %8.1f us\n", variants[i].name, us[i][us[i].size() / 2]);
    }
    std::free(in);
    std::free(out);
    std::free(reference);
    return 0;
}
