// The copy bandwidth a number of threads reaches on this machine: the
// ceiling for kernels whose time is the bytes they move (flips, and the
// filtered resizes at 16 threads, RESULTS.md@89f6099). Each thread memcpy's its
// share of one MiB-sized buffer into another; the median of 21 rounds is
// printed as time and as GB/s of bytes read plus bytes written.
//
//   g++ -O2 -pthread bench/tune/copy_bandwidth.cpp -o copy_bandwidth
//   ./copy_bandwidth THREADS MIB
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

int main(int argc, char **argv) {
    if (argc != 3 || std::atoi(argv[1]) < 1 || std::atol(argv[2]) < 1) {
        std::fprintf(stderr, "usage: copy_bandwidth THREADS MIB\n");
        return 2;
    }
    const int threads = std::atoi(argv[1]);
    const size_t bytes = size_t(std::atol(argv[2])) << 20;
    std::vector<char> from(bytes, 1), to(bytes, 2);  // written once, so the pages exist
    const size_t share = bytes / threads;  // the last thread also copies the remainder
    std::vector<double> seconds;
    for (int round = 0; round < 21; round++) {
        const auto start = std::chrono::steady_clock::now();
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; t++) {
            const size_t size = t + 1 < threads ? share : bytes - t * share;
            pool.emplace_back([&, t, size] { std::memcpy(to.data() + t * share, from.data() + t * share, size); });
        }
        for (std::thread &worker : pool) worker.join();
        seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::nth_element(seconds.begin(), seconds.begin() + 10, seconds.end());
    const double median = seconds[10];
    std::printf("threads %d copy %zu MiB: median %.1f us, %.1f GB/s read+written\n", threads, bytes >> 20,
                median * 1e6, 2.0 * double(bytes) / median / 1e9);
    return 0;
}
