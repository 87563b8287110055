// How fast a float32 bilinear horizontal pass could run with register
// permutes instead of gathers: the question behind the float32 bilinear rows
// against cv2.resize (bench/RESULTS.md, "Where hres is behind"). Halide 21
// emits no permute by data-dependent indices on x86, so its kernels gather
// each tap (vgatherdps on the Sapphire Rapids entry). Here one pass over
// `rows` planar rows, in_w -> out_w columns, PyTorch's bilinear taps
// (align_corners=False), three ways:
//   gather:  out[x] = row[x0[x]] * w0[x] + row[x1[x]] * w1[x], 8 outputs
//            at a time, each tap one vgatherdps;
//   scalar:  the same sum, one output at a time;
//   permute: per 16 outputs, 32 input values from the first output's tap
//            in two registers, each tap's values picked by vpermt2ps with
//            the outputs' offsets into that window (where the 16 outputs'
//            taps fit in 32 values: a downscale by up to about 1.9).
// Prints the median microseconds of 25 rounds and the largest difference
// between the variants' outputs. With REPEAT, each round runs the pass over
// the same ROWS that many times (a strip that stays in cache, as the
// kernels' strips of the vertical pass do) and the time is per pass.
//
//   g++ -O2 -march=x86-64-v4 bench/tune/permute_hpass.cpp -o permute_hpass
//   ./permute_hpass [ROWS IN_W OUT_W [REPEAT]]   (default 810 456 270 1: 3 planes of 270 rows)
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

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
        for (int x = whole; x < out_w; x++) o[x] = row[x0[x]] * w0[x] + row[x1[x]] * w1[x];
    }
}

__attribute__((noinline, optimize("no-tree-vectorize"))) void pass_scalar(const float *in, int in_w, float *out,
                                                                        int out_w, int rows, const Taps &t) {
    const int *x0 = t.x0.data(), *x1 = t.x1.data();
    const float *w0 = t.w0.data(), *w1 = t.w1.data();
    for (int y = 0; y < rows; y++) {
        const float *row = in + size_t(y) * in_w;
        float *o = out + size_t(y) * out_w;
        for (int x = 0; x < out_w; x++) o[x] = row[x0[x]] * w0[x] + row[x1[x]] * w1[x];
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
                for (int i = 0; i < n; i++)
                    o[x + i] = row[t.x0[x + i]] * t.w0[x + i] + row[t.x1[x + i]] * t.w1[x + i];
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
    if (!__builtin_cpu_supports("avx512f")) {
        std::fprintf(stderr, "permute_hpass: this CPU lacks AVX-512\n");
        return 1;
    }
    const int rows = argc > 3 ? std::atoi(argv[1]) : 810;
    const int in_w = argc > 3 ? std::atoi(argv[2]) : 456;
    const int out_w = argc > 3 ? std::atoi(argv[3]) : 270;
    const int repeat = argc > 4 ? std::atoi(argv[4]) : 1;
    if (rows < 1 || in_w < 32 || out_w < 1 || repeat < 1) {
        std::fprintf(stderr, "permute_hpass: need ROWS >= 1, IN_W >= 32, OUT_W >= 1, REPEAT >= 1\n");
        return 1;
    }
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
    return 0;
}
