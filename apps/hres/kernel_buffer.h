// Host memory for the images a kernel reads and writes in the `hres` command
// line: aligned to a cache line (64 bytes), as PyTorch's CPU allocator aligns
// tensors and as C++ callers of the library usually allocate images. The
// files' bytes (HostImage) stay in std::vector, whose large blocks start 16
// bytes past a page (glibc), so that a kernel's 64-byte vector accesses at
// whole vectors into a row straddle two cache lines; run_kernel copies the
// images in and out of these outside the timed calls. H200 machine's host,
// 2026-11-27, 1x3x1080x1920, 1 thread (bench/tune/buffer_placement.cpp):
// 64-byte aligned vs 16 bytes past, interleaved uint8 horizontal flip (its
// general kernel) 615 vs 692 us, the other flips and the resizes within
// 1-4%; transparent huge pages changed nothing there (RESULTS.md@89f6099,
// 2026-11-27 (later)).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace hres::io {

class KernelBuffer {
public:
    static constexpr size_t kAlignment = 64;

    // Throws std::bad_alloc, like the vectors around it.
    explicit KernelBuffer(size_t bytes) : bytes_(bytes) {
        const size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
        data_ = static_cast<uint8_t *>(std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment : rounded));
        if (!data_) throw std::bad_alloc();
    }
    ~KernelBuffer() { std::free(data_); }
    KernelBuffer(const KernelBuffer &) = delete;
    KernelBuffer &operator=(const KernelBuffer &) = delete;

    uint8_t *data() const { return data_; }
    size_t size() const { return bytes_; }

private:
    uint8_t *data_ = nullptr;
    size_t bytes_ = 0;
};

}  // namespace hres::io
