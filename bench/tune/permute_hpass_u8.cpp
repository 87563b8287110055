// How fast the uint8 antialiased horizontal pass on interleaved RGB rows
// could run with byte permutes: the question behind the interleaved uint8
// rows against PyTorch's 0.5x (bench/RESULTS.md, "Where hres is behind").
// hres's kernels transpose strips of rows (Halide 21 emits no permute by
// data-dependent indices on x86); PyTorch's kernel reads a pixel per tap.
// Here one pass over `rows` NHWC RGB rows, in_w -> out_w pixels, with
// SPEC.md 5.2/5.4's bilinear antialias taps (float64 weights, int16 at the
// pass' precision p, accumulator from 2^(p-1), >> p, clamped), two ways:
//   scalar:  per output value, its taps summed one by one;
//   permute: per 16 output values of a row (5 1/3 pixels), a 64-byte window
//            of input from the first value's first tap; per pair of taps one
//            vpermb (AVX512-VBMI) places both taps' bytes as the int16 pair
//            of each value's int32 lane, and one vpmaddwd multiplies them by
//            the pair's weights and adds them (the pairs' sums added as a
//            tree; where a chunk's taps span more than 64 bytes, the scalar
//            sum; more than 8 taps, the scalar pass).
// Prints the median microseconds of 25 rounds (per pass: each round repeats
// the pass REPEAT times over the same rows) and whether the outputs agree.
//
//   g++ -O2 -march=x86-64-v4 -mavx512vbmi bench/tune/permute_hpass_u8.cpp -o permute_hpass_u8
//   ./permute_hpass_u8 [ROWS IN_W OUT_W [REPEAT]]   (default 345 456 270 1)
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

namespace {

constexpr int kChannels = 3;

struct Taps {
    int kmax = 0, precision = 0;
    std::vector<int> xmin, xsize;
    std::vector<int16_t> w;  // kmax per output, zero past xsize
};

// SPEC.md 5.2 (bilinear, align_corners=False) and 5.4's quantisation.
Taps antialiased_bilinear_taps(int in_w, int out_w) {
    Taps t;
    const double scale = double(in_w) / double(out_w);
    const double support = scale >= 1 ? scale : 1.0;
    const double invscale = scale >= 1 ? 1 / scale : 1.0;
    t.kmax = int(std::ceil(support)) * 2 + 1;
    std::vector<double> w(size_t(out_w) * t.kmax, 0.0);
    double wmax = 0;
    for (int i = 0; i < out_w; i++) {
        const double center = scale * (i + 0.5);
        const int xmin = std::max(int(center - support + 0.5), 0);
        const int xsize = std::clamp(std::min(int(center + support + 0.5), in_w) - xmin, 0, t.kmax);
        double total = 0;
        for (int j = 0; j < xsize; j++) {
            const double d = (j + xmin - center + 0.5) * invscale;
            total += w[size_t(i) * t.kmax + j] = std::max(0.0, 1 - std::fabs(d));
        }
        for (int j = 0; j < xsize; j++) {
            if (total != 0) w[size_t(i) * t.kmax + j] /= total;
            wmax = std::max(wmax, w[size_t(i) * t.kmax + j]);
        }
        t.xmin.push_back(xmin);
        t.xsize.push_back(xsize);
    }
    t.precision = 22;
    for (int q = 0; q < 22; q++) {
        if (int(0.5 + wmax * double(1 << (q + 1))) >= 32768) {
            t.precision = q;
            break;
        }
    }
    for (double v : w) {
        const double s = v * double(1 << t.precision);
        t.w.push_back(int16_t(std::trunc(s + (s < 0 ? -0.5 : 0.5))));
    }
    return t;
}

__attribute__((noinline, optimize("no-tree-vectorize"))) void pass_scalar(const uint8_t *in, int in_w, uint8_t *out,
                                                                        int out_w, int rows, const Taps &t) {
    const int start = 1 << (t.precision - 1);
    for (int y = 0; y < rows; y++) {
        const uint8_t *row = in + size_t(y) * in_w * kChannels;
        uint8_t *o = out + size_t(y) * out_w * kChannels;
        for (int x = 0; x < out_w; x++) {
            const int16_t *w = t.w.data() + size_t(x) * t.kmax;
            const uint8_t *p = row + t.xmin[x] * kChannels;
            for (int c = 0; c < kChannels; c++) {
                int acc = start;
                for (int j = 0; j < t.xsize[x]; j++) acc += int(p[j * kChannels + c]) * w[j];
                o[x * kChannels + c] = uint8_t(std::clamp(acc >> t.precision, 0, 255));
            }
        }
    }
}

// Per chunk of 16 output values of a row: the window's first byte, and per
// pair of taps 64 permute indices (bytes 0 and 2 of each int32 lane; 1 and
// 3 are zeroed by the mask) and 16 weight pairs.
struct Chunks {
    int pairs = 0;
    std::vector<int> base;  // -1: the scalar sum
    std::vector<uint8_t> index;
    std::vector<int32_t> weights;
};

Chunks chunks_of(const Taps &t, int in_w, int out_w) {
    Chunks ch;
    ch.pairs = (t.kmax + 1) / 2;
    const int values = out_w * kChannels, row_bytes = in_w * kChannels;
    for (int f0 = 0; f0 < values; f0 += 16) {
        int lo = row_bytes, hi = 0;
        for (int f = f0; f < std::min(f0 + 16, values); f++) {
            const int x = f / kChannels, c = f % kChannels;
            lo = std::min(lo, t.xmin[x] * kChannels + c);
            hi = std::max(hi, (t.xmin[x] + std::max(t.xsize[x], 1) - 1) * kChannels + c);
        }
        int base = hi - lo < 64 ? std::min(lo, row_bytes - 64) : -1;
        ch.base.push_back(base);
        for (int j = 0; j < ch.pairs; j++) {
            for (int i = 0; i < 16; i++) {
                const int f = std::min(f0 + i, values - 1);
                const int x = f / kChannels, c = f % kChannels;
                int32_t pair = 0;
                uint8_t at[2] = {0, 0};
                for (int k = 0; k < 2; k++) {
                    const int tap = 2 * j + k;
                    if (tap >= t.xsize[x] || base < 0) continue;
                    at[k] = uint8_t((t.xmin[x] + tap) * kChannels + c - base);
                    pair |= int32_t(uint16_t(t.w[size_t(x) * t.kmax + tap])) << (16 * k);
                }
                const uint8_t lane[4] = {at[0], 0, at[1], 0};
                ch.index.insert(ch.index.end(), lane, lane + 4);
                ch.weights.push_back(pair);
            }
        }
    }
    return ch;
}

// The sum of one chunk's taps for P pairs (the products summed as a tree,
// so that the pairs do not wait on each other).
template<int P>
inline __m512i chunk_sum(__m512i window, const uint8_t *index, const int32_t *weights, __m512i start) {
    const __mmask64 low_bytes = 0x5555555555555555ull;
    __m512i terms[P];
    for (int j = 0; j < P; j++) {
        const __m512i taps = _mm512_maskz_permutexvar_epi8(low_bytes, _mm512_loadu_si512(index + 64 * j), window);
        terms[j] = _mm512_madd_epi16(taps, _mm512_loadu_si512(weights + 16 * j));
    }
    for (int step = 1; step < P; step *= 2) {
        for (int j = 0; j + step < P; j += 2 * step) terms[j] = _mm512_add_epi32(terms[j], terms[j + step]);
    }
    return _mm512_add_epi32(terms[0], start);
}

template<int P>
__attribute__((noinline)) void pass_permute_pairs(const uint8_t *in, int in_w, uint8_t *out, int out_w, int rows,
                                                  const Taps &t, const Chunks &ch) {
    const int values = out_w * kChannels, start = 1 << (t.precision - 1);
    const __m128i shift = _mm_cvtsi32_si128(t.precision);
    const __m512i first = _mm512_set1_epi32(start), zero = _mm512_setzero_si512();
    const int chunks = int(ch.base.size());
    for (int y = 0; y < rows; y++) {
        const uint8_t *row = in + size_t(y) * in_w * kChannels;
        uint8_t *o = out + size_t(y) * values;
        for (int k = 0; k < chunks; k++) {
            const int f0 = k * 16;
            const int n = std::min(16, values - f0);
            if (ch.base[k] < 0) {
                for (int f = f0; f < f0 + n; f++) {
                    const int x = f / kChannels, c = f % kChannels;
                    int acc = start;
                    for (int j = 0; j < t.xsize[x]; j++)
                        acc += int(row[(t.xmin[x] + j) * kChannels + c]) * t.w[size_t(x) * t.kmax + j];
                    o[f] = uint8_t(std::clamp(acc >> t.precision, 0, 255));
                }
                continue;
            }
            __m512i acc = chunk_sum<P>(_mm512_loadu_si512(row + ch.base[k]), ch.index.data() + size_t(k) * P * 64,
                                       ch.weights.data() + size_t(k) * P * 16, first);
            acc = _mm512_max_epi32(_mm512_sra_epi32(acc, shift), zero);
            _mm_mask_storeu_epi8(o + f0, __mmask16((1u << n) - 1), _mm512_cvtusepi32_epi8(acc));
        }
    }
}

void pass_permute(const uint8_t *in, int in_w, uint8_t *out, int out_w, int rows, const Taps &t, const Chunks &ch) {
    switch (ch.pairs) {
    case 1: return pass_permute_pairs<1>(in, in_w, out, out_w, rows, t, ch);
    case 2: return pass_permute_pairs<2>(in, in_w, out, out_w, rows, t, ch);
    case 3: return pass_permute_pairs<3>(in, in_w, out, out_w, rows, t, ch);
    case 4: return pass_permute_pairs<4>(in, in_w, out, out_w, rows, t, ch);
    default: return pass_scalar(in, in_w, out, out_w, rows, t);
    }
}

double median_us(const std::function<void()> &pass, int repeat) {
    std::vector<double> us;
    for (int round = 0; round < 25; round++) {
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < repeat; i++) pass();
        const std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - start;
        us.push_back(took.count() / repeat);
    }
    std::nth_element(us.begin(), us.begin() + 12, us.end());
    return us[12];
}

}  // namespace

int main(int argc, char **argv) {
    if (!__builtin_cpu_supports("avx512vbmi")) {
        std::fprintf(stderr, "permute_hpass_u8: this CPU lacks AVX512-VBMI\n");
        return 1;
    }
    const int rows = argc > 3 ? std::atoi(argv[1]) : 345;
    const int in_w = argc > 3 ? std::atoi(argv[2]) : 456;
    const int out_w = argc > 3 ? std::atoi(argv[3]) : 270;
    const int repeat = argc > 4 ? std::atoi(argv[4]) : 1;
    if (rows < 1 || in_w < 22 || out_w < 1 || out_w > in_w || repeat < 1) {
        std::fprintf(stderr, "permute_hpass_u8: need ROWS >= 1, IN_W >= 22, 1 <= OUT_W <= IN_W, REPEAT >= 1\n");
        return 1;
    }
    std::vector<uint8_t> in(size_t(rows) * in_w * kChannels);
    for (size_t i = 0; i < in.size(); i++) in[i] = uint8_t((i * 2654435761u) >> 24);
    const Taps t = antialiased_bilinear_taps(in_w, out_w);
    const Chunks ch = chunks_of(t, in_w, out_w);
    std::vector<uint8_t> a(size_t(rows) * out_w * kChannels), b(a.size());
    for (int r = 0; r < 3; r++) {
        const double s = median_us([&] { pass_scalar(in.data(), in_w, a.data(), out_w, rows, t); }, repeat);
        const double p = median_us([&] { pass_permute(in.data(), in_w, b.data(), out_w, rows, t, ch); }, repeat);
        const long fallback = std::count(ch.base.begin(), ch.base.end(), -1);
        std::printf("%d rows %d -> %d RGB, %d taps, p %d: scalar %.1f us, permute %.1f us (outputs %s, %ld of %zu "
                    "chunks scalar)\n",
                    rows, in_w, out_w, t.kmax, t.precision, s, p, a == b ? "equal" : "DIFFER", fallback,
                    ch.base.size());
    }
    return 0;
}
