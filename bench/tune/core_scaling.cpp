// How far work that touches no shared resource speeds up with threads on
// this machine: the ceiling of parallel efficiency for kernels bound by
// their instructions rather than by memory (the uint8 resizes, whose 1-thread
// runs move 10 GB/s, RESULTS.md@89f6099). Each thread runs the same fixed
// amount of one kind of work; the wall time of T threads against one gives
// the speed-up, T * t1 / tT the efficiency (1.0 where every thread has a
// core of its own at the 1-thread clock).
//
// Kinds: scalar integer chains; 256-bit and 512-bit vpmaddwd/vpaddd chains
// (registers only, the uint8 passes' arithmetic); 512-bit sums over a
// 16 KiB (L1-resident) or 256 KiB (L2-resident) buffer per thread.
//
//   g++ -O2 -pthread bench/tune/core_scaling.cpp -o core_scaling
//   ./core_scaling KIND THREADS [ROUNDS]     KIND: scalar, avx2, avx512, l1, l2
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace {

constexpr long kSteps = 200'000'000 / 16;

// Eight independent chains, so that throughput rather than latency counts.
uint64_t scalar_work(uint64_t seed) {
    uint64_t a[8];
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) a[i] = seed + i;
    for (long s = 0; s < kSteps; s++) {
#pragma GCC unroll 8
        for (int i = 0; i < 8; i++) a[i] = a[i] * 0x9E3779B1u + (a[i] >> 7);
    }
    uint64_t total = 0;
    for (int i = 0; i < 8; i++) total ^= a[i];
    return total;
}

__attribute__((target("avx2"))) uint64_t avx2_work(uint64_t seed) {
    __m256i acc[8], w = _mm256_set1_epi32(0x00030002);
    for (int i = 0; i < 8; i++) acc[i] = _mm256_set1_epi32(int(seed) + i);
    for (long s = 0; s < kSteps; s++) {
#pragma GCC unroll 8
        for (int i = 0; i < 8; i++) acc[i] = _mm256_add_epi32(_mm256_madd_epi16(acc[i], w), acc[i]);
    }
    __m256i total = acc[0];
    for (int i = 1; i < 8; i++) total = _mm256_xor_si256(total, acc[i]);
    return uint64_t(_mm256_extract_epi64(total, 0));
}

__attribute__((target("avx512f,avx512bw"))) uint64_t avx512_work(uint64_t seed) {
    __m512i acc[8], w = _mm512_set1_epi32(0x00030002);
    for (int i = 0; i < 8; i++) acc[i] = _mm512_set1_epi32(int(seed) + i);
    for (long s = 0; s < kSteps; s++) {
#pragma GCC unroll 8
        for (int i = 0; i < 8; i++) acc[i] = _mm512_add_epi32(_mm512_madd_epi16(acc[i], w), acc[i]);
    }
    __m512i total = acc[0];
    for (int i = 1; i < 8; i++) total = _mm512_xor_si512(total, acc[i]);
    alignas(64) uint64_t lanes[8];
    _mm512_store_si512(lanes, total);
    return lanes[0];
}

// 512-bit loads summed from a buffer of `kib` KiB per thread.
__attribute__((target("avx512f,avx512bw"))) uint64_t load_work(uint64_t seed, size_t kib) {
    const size_t words = (kib << 10) / 4;
    std::vector<int32_t> buffer(words, int32_t(seed));
    __m512i acc[4];
    for (int i = 0; i < 4; i++) acc[i] = _mm512_setzero_si512();
    const long passes = kSteps * 8 / long(words / 16);
    for (long p = 0; p < passes; p++) {
        for (size_t i = 0; i < words; i += 64) {
#pragma GCC unroll 4
            for (int j = 0; j < 4; j++) {
                acc[j] = _mm512_add_epi32(acc[j], _mm512_loadu_si512(buffer.data() + i + 16 * j));
            }
        }
    }
    __m512i total = _mm512_xor_si512(_mm512_xor_si512(acc[0], acc[1]), _mm512_xor_si512(acc[2], acc[3]));
    alignas(64) uint64_t lanes[8];
    _mm512_store_si512(lanes, total);
    return lanes[0];
}

uint64_t l1_work(uint64_t seed) { return load_work(seed, 16); }
uint64_t l2_work(uint64_t seed) { return load_work(seed, 256); }

}  // namespace

int main(int argc, char **argv) {
    if (argc < 3 || std::atoi(argv[2]) < 1) {
        std::fprintf(stderr, "usage: core_scaling scalar|avx2|avx512|l1|l2 THREADS [ROUNDS]\n");
        return 2;
    }
    struct Kind {
        const char *name;
        uint64_t (*work)(uint64_t);
        bool runs;  // whether this CPU has its instructions
    };
    const bool avx2 = __builtin_cpu_supports("avx2"), avx512 = __builtin_cpu_supports("avx512bw");
    const Kind kinds[] = {{"scalar", scalar_work, true},
                          {"avx2", avx2_work, avx2},
                          {"avx512", avx512_work, avx512},
                          {"l1", l1_work, avx512},
                          {"l2", l2_work, avx512}};
    const char *name = argv[1];
    const Kind *kind = nullptr;
    for (const Kind &k : kinds) {
        if (!std::strcmp(name, k.name)) kind = &k;
    }
    if (!kind) {
        std::fprintf(stderr, "core_scaling: unknown kind %s\n", name);
        return 2;
    }
    if (!kind->runs) {
        std::fprintf(stderr, "core_scaling: this CPU lacks the instructions of kind %s\n", name);
        return 1;
    }
    uint64_t (*work)(uint64_t) = kind->work;
    const int threads = std::atoi(argv[2]);
    const int rounds = argc > 3 ? std::max(1, std::atoi(argv[3])) : 3;
    std::vector<double> seconds;
    uint64_t sink = 0;
    for (int round = 0; round < rounds; round++) {
        std::vector<uint64_t> results(threads);
        const auto start = std::chrono::steady_clock::now();
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; t++) pool.emplace_back([&, t] { results[t] = work(uint64_t(t + round)); });
        for (std::thread &worker : pool) worker.join();
        seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        for (uint64_t r : results) sink ^= r;
    }
    std::sort(seconds.begin(), seconds.end());
    std::printf("%s threads %d: best %.1f ms, median %.1f ms (checksum %llx)\n", name, threads, seconds[0] * 1e3,
                seconds[seconds.size() / 2] * 1e3, (unsigned long long)(sink & 0xffff));
    return 0;
}
