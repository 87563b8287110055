// How fast the horizontal passes that Halide 21 cannot build on x86 (it
// emits no permute by data-dependent indices) would run with register
// permutes written by hand: the question behind the float32 bilinear rows
// against cv2.resize and the interleaved uint8 rows against PyTorch's 0.5x
// (RESULTS.md@89f6099, "Where hres is behind"; the 2026-11-27 last-hour section
// has the measurements). Two passes:
//
// f32: PyTorch's bilinear taps (align_corners=False, no antialias) over
// `rows` planar rows, in_w -> out_w columns, three ways:
//   gather:  out[x] = row[x0[x]] * w0[x] + row[x1[x]] * w1[x], 8 outputs
//            at a time, each tap one vgatherdps (as LLVM's loop vectorizer
//            emits them in the Sapphire Rapids kernels);
//   scalar:  the same sum, one output at a time;
//   permute: per 16 outputs, 32 input values from the first output's tap
//            in two registers, each tap's values picked by vpermt2ps with
//            the outputs' offsets into that window (where the 16 outputs'
//            taps fit in 32 values: a downscale by up to about 1.9).
// The hres float32 kernels take the gather form.
//
// u8: docs/SEMANTICS.md 5.2/5.4's bilinear antialias taps (float64 weights, int16 at
// the pass' precision p, accumulator from 2^(p-1), >> p, clamped) over
// `rows` NHWC RGB rows, in_w -> out_w pixels, two ways:
//   scalar:  per output value, its taps summed one by one;
//   permute: per 16 output values of a row (5 1/3 pixels), a 64-byte window
//            of input from the first value's first tap; per pair of taps one
//            vpermb (AVX512-VBMI) places both taps' bytes as the int16 pair
//            of each value's int32 lane, and one vpmaddwd multiplies them by
//            the pair's weights and adds them (the pairs' sums added as a
//            tree; where a chunk's taps span more than 64 bytes, the scalar
//            sum; more than 8 taps, the scalar pass).
// The hres uint8 kernels transpose strips of rows instead; PyTorch's kernel
// reads a pixel per tap.
//
// Prints the median microseconds of 25 rounds, three times, and how far the
// ways' outputs differ. With REPEAT, each round runs the pass over the same
// ROWS that many times (a strip that stays in cache, as the kernels' strips
// do) and the time is per pass.
//
//   g++ -O2 -march=x86-64-v4 -mavx512vbmi bench/tune/permute_hpass.cpp -o permute_hpass
//   ./permute_hpass f32|u8 [ROWS IN_W OUT_W [REPEAT]]
//       (defaults: f32 810 456 270 1, three planes of the seed row's 270
//       output rows; u8 345 456 270 1, the seed row's 345 input rows)
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

namespace f32 {

struct Taps {
    std::vector<int> x0, x1;
    std::vector<float> w0, w1;
};

Taps bilinear_taps(int in_w, int out_w) {
    Taps t;
    const float scale = float(in_w) / float(out_w);
    for (int x = 0; x < out_w; x++) {
        const float src = std::max((x + 0.5f) * scale - 0.5f, 0.0f);
        const int i0 = std::min(int(src), in_w - 1);
        const float l = src - float(i0);
        t.x0.push_back(i0);
        t.x1.push_back(std::min(i0 + 1, in_w - 1));
        t.w0.push_back(1.0f - l);
        t.w1.push_back(l);
    }
    return t;
}

// One output's sum, as every way computes it (the scalar pass, and the
// vector passes' tails and fallbacks).
inline float output_at(const float *row, const Taps &t, int x) {
    return row[t.x0[x]] * t.w0[x] + row[t.x1[x]] * t.w1[x];
}

// 8-lane gathers, as LLVM's loop vectorizer emits them in the Sapphire
// Rapids kernels (its tuning for that CPU prefers 256-bit vectors).
__attribute__((noinline)) void pass_gather(const float *in, int in_w, float *out, int out_w, int rows,
                                           const Taps &t) {
    const int *x0 = t.x0.data(), *x1 = t.x1.data();
    const float *w0 = t.w0.data(), *w1 = t.w1.data();
    const int whole = out_w / 8 * 8;
    for (int y = 0; y < rows; y++) {
        const float *row = in + size_t(y) * in_w;
        float *o = out + size_t(y) * out_w;
        for (int x = 0; x < whole; x += 8) {
            const __m256 a = _mm256_i32gather_ps(row, _mm256_loadu_si256((const __m256i *)(x0 + x)), 4);
            const __m256 b = _mm256_i32gather_ps(row, _mm256_loadu_si256((const __m256i *)(x1 + x)), 4);
            _mm256_storeu_ps(o + x, _mm256_fmadd_ps(b, _mm256_loadu_ps(w1 + x),
                                                    _mm256_mul_ps(a, _mm256_loadu_ps(w0 + x))));
        }
        for (int x = whole; x < out_w; x++) o[x] = output_at(row, t, x);
    }
}

__attribute__((noinline, optimize("no-tree-vectorize"))) void pass_scalar(const float *in, int in_w, float *out,
                                                                        int out_w, int rows, const Taps &t) {
    for (int y = 0; y < rows; y++) {
        const float *row = in + size_t(y) * in_w;
        float *o = out + size_t(y) * out_w;
        for (int x = 0; x < out_w; x++) o[x] = output_at(row, t, x);
    }
}

// Per chunk of 16 outputs: the window's first column and the taps' offsets
// into it; chunks whose taps do not fit a 32-value window are marked -1.
struct Windows {
    std::vector<int> base;
    std::vector<int> off0, off1;  // 16 per chunk
};

Windows windows_of(const Taps &t, int in_w, int out_w) {
    Windows w;
    for (int x = 0; x < out_w; x += 16) {
        const int last = std::min(x + 16, out_w) - 1;
        int base = t.x0[x];
        const int span = t.x1[last] - base + 1;
        if (span > 32) base = -1;
        // Keep the window's 32 loads inside the row: move it left at the end.
        if (base >= 0 && base + 32 > in_w) base = std::max(in_w - 32, 0);
        w.base.push_back(base);
        for (int i = 0; i < 16; i++) {
            const int xi = std::min(x + i, out_w - 1);
            w.off0.push_back(base >= 0 ? t.x0[xi] - base : 0);
            w.off1.push_back(base >= 0 ? t.x1[xi] - base : 0);
        }
    }
    return w;
}

__attribute__((noinline)) void pass_permute(const float *in, int in_w, float *out, int out_w, int rows,
                                            const Taps &t, const Windows &win) {
    const int chunks = int(win.base.size());
    for (int y = 0; y < rows; y++) {
        const float *row = in + size_t(y) * in_w;
        float *o = out + size_t(y) * out_w;
        for (int k = 0; k < chunks; k++) {
            const int x = 16 * k;
            const int n = std::min(16, out_w - x);
            const __mmask16 m = __mmask16((1u << n) - 1);
            const int base = win.base[k];
            if (base < 0) {
                for (int i = 0; i < n; i++) o[x + i] = output_at(row, t, x + i);
                continue;
            }
            const __m512 lo = _mm512_loadu_ps(row + base);
            const __m512 hi = _mm512_loadu_ps(row + base + 16);
            const __m512i i0 = _mm512_loadu_si512(win.off0.data() + 16 * k);
            const __m512i i1 = _mm512_loadu_si512(win.off1.data() + 16 * k);
            const __m512 a = _mm512_permutex2var_ps(lo, i0, hi);
            const __m512 b = _mm512_permutex2var_ps(lo, i1, hi);
            const __m512 w0 = _mm512_maskz_loadu_ps(m, t.w0.data() + x);
            const __m512 w1 = _mm512_maskz_loadu_ps(m, t.w1.data() + x);
            _mm512_mask_storeu_ps(o + x, m, _mm512_fmadd_ps(b, w1, _mm512_mul_ps(a, w0)));
        }
    }
}

void run(int rows, int in_w, int out_w, int repeat) {
    std::vector<float> in(size_t(rows) * in_w);
    for (size_t i = 0; i < in.size(); i++) in[i] = float((i * 2654435761u) % 1000) / 999.0f;
    const Taps t = bilinear_taps(in_w, out_w);
    const Windows win = windows_of(t, in_w, out_w);
    std::vector<float> a(size_t(rows) * out_w), b(a.size()), c(a.size());
    for (int r = 0; r < 3; r++) {
        const double g = median_us([&] { pass_gather(in.data(), in_w, a.data(), out_w, rows, t); }, repeat);
        const double s = median_us([&] { pass_scalar(in.data(), in_w, b.data(), out_w, rows, t); }, repeat);
        const double p = median_us([&] { pass_permute(in.data(), in_w, c.data(), out_w, rows, t, win); }, repeat);
        float diff = 0;
        for (size_t i = 0; i < a.size(); i++) diff = std::max({diff, std::fabs(a[i] - b[i]), std::fabs(a[i] - c[i])});
        const long fallback = std::count(win.base.begin(), win.base.end(), -1);
        std::printf("%d rows %d -> %d: gather %.1f us, scalar %.1f us, permute %.1f us (max diff %g, %ld of %zu "
                    "chunks scalar)\n",
                    rows, in_w, out_w, g, s, p, diff, fallback, win.base.size());
    }
}

}  // namespace f32

namespace u8 {

constexpr int kChannels = 3;

struct Taps {
    int kmax = 0, precision = 0;
    std::vector<int> xmin, xsize;
    std::vector<int16_t> w;  // kmax per output, zero past xsize
};

// docs/SEMANTICS.md 5.2 (bilinear, align_corners=False) and 5.4's quantisation.
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

// Output value f of a row (pixel f / 3, channel f % 3), its taps summed one
// by one: the scalar pass, and the permute pass' fallback.
inline uint8_t value_at(const uint8_t *row, const Taps &t, int f) {
    const int x = f / kChannels, c = f % kChannels;
    const int16_t *w = t.w.data() + size_t(x) * t.kmax;
    const uint8_t *p = row + t.xmin[x] * kChannels + c;
    int acc = 1 << (t.precision - 1);
    for (int j = 0; j < t.xsize[x]; j++) acc += int(p[j * kChannels]) * w[j];
    return uint8_t(std::clamp(acc >> t.precision, 0, 255));
}

__attribute__((noinline, optimize("no-tree-vectorize"))) void pass_scalar(const uint8_t *in, int in_w, uint8_t *out,
                                                                        int out_w, int rows, const Taps &t) {
    const int values = out_w * kChannels;
    for (int y = 0; y < rows; y++) {
        const uint8_t *row = in + size_t(y) * in_w * kChannels;
        uint8_t *o = out + size_t(y) * values;
        for (int f = 0; f < values; f++) o[f] = value_at(row, t, f);
    }
}

// Per chunk of 16 output values of a row: the window's first byte, and per
// pair of taps 64 permute indices (bytes 0 and 2 of each int32 lane; 1 and
// 3 are zeroed by the mask) and 16 weight pairs.
// Pairs of taps the permute pass sums (more: the scalar pass).
constexpr int kMaxPairs = 4;

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
        const int base = ch.pairs <= kMaxPairs && hi - lo < 64 ? std::min(lo, row_bytes - 64) : -1;
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
                for (int f = f0; f < f0 + n; f++) o[f] = value_at(row, t, f);
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
    default: return pass_scalar(in, in_w, out, out_w, rows, t);  // more than kMaxPairs
    }
}

void run(int rows, int in_w, int out_w, int repeat) {
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
}

}  // namespace u8

}  // namespace

int main(int argc, char **argv) {
    const bool is_f32 = argc > 1 && std::strcmp(argv[1], "f32") == 0;
    const bool is_u8 = argc > 1 && std::strcmp(argv[1], "u8") == 0;
    if (!is_f32 && !is_u8) {
        std::fprintf(stderr, "usage: permute_hpass f32|u8 [ROWS IN_W OUT_W [REPEAT]]\n");
        return 2;
    }
    if (!__builtin_cpu_supports("avx512f") || (is_u8 && !__builtin_cpu_supports("avx512vbmi"))) {
        std::fprintf(stderr, "permute_hpass: this CPU lacks AVX-512%s\n", is_u8 ? " with VBMI" : "");
        return 1;
    }
    const int rows = argc > 4 ? std::atoi(argv[2]) : is_f32 ? 810 : 345;
    const int in_w = argc > 4 ? std::atoi(argv[3]) : 456;
    const int out_w = argc > 4 ? std::atoi(argv[4]) : 270;
    const int repeat = argc > 5 ? std::atoi(argv[5]) : 1;
    // The windows are 32 floats or 64 bytes (22 RGB pixels) of a row.
    if (rows < 1 || in_w < (is_f32 ? 32 : 22) || out_w < 1 || (is_u8 && out_w > in_w) || repeat < 1) {
        std::fprintf(stderr, "permute_hpass: need ROWS >= 1, IN_W >= %d, OUT_W >= 1%s, REPEAT >= 1\n",
                     is_f32 ? 32 : 22, is_u8 ? " and <= IN_W" : "");
        return 1;
    }
    if (is_f32) {
        f32::run(rows, in_w, out_w, repeat);
    } else {
        u8::run(rows, in_w, out_w, repeat);
    }
    return 0;
}
