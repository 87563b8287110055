// Halide's host scratch buffers, recycled per thread.
//
// The x86 kernels allocate intermediates inside their parallel tasks (a strip
// of transposed rows, a strip of the first pass). Taken from malloc, each
// task's buffers went back to the system when freed (glibc trims its heap
// top once more than 128 KB lies free there) and the next task faulted the
// pages in again: the vertical-first float32 resize (schedules/resize_x86.cpp)
// ran 2.1x slower for it with antialias on 1080x1920 -> 540x960 planar
// images, and 2.2-2.6x on interleaved 345x456 -> 270x270 in a first form
// (build machine, AMD EPYC, 1 thread, 2026-11-21). Each thread now keeps the
// last few blocks it freed and hands them out again; Halide frees every
// buffer on the thread that allocated it.
#include "scratch.h"

#include "HalideRuntime.h"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <mutex>

namespace hres::internal {
namespace {

// Halide expects vector-aligned memory; the header keeps a block's capacity.
constexpr size_t kAlignment = 128;
// What a thread may keep: the per-task strips are tens to hundreds of KB;
// whole-image intermediates (MBs, once per call) glibc already reuses well.
constexpr size_t kLargestCached = size_t(4) << 20;
constexpr size_t kCachedBytes = size_t(8) << 20;
constexpr size_t kCachedBlocks = 8;

struct Block {
    void *user = nullptr;
    size_t capacity = 0;
};

struct ThreadCache {
    std::array<Block, kCachedBlocks> blocks{};
    size_t count = 0;
    size_t bytes = 0;
    void take(size_t i) {
        bytes -= blocks[i].capacity;
        blocks[i] = blocks[--count];
    }
    ~ThreadCache() {
        for (size_t i = 0; i < count; i++) std::free(static_cast<char *>(blocks[i].user) - kAlignment);
        count = bytes = 0;
    }
};

thread_local ThreadCache cache;

size_t &capacity_of(void *user) { return *reinterpret_cast<size_t *>(static_cast<char *>(user) - kAlignment); }

void *scratch_malloc(void *, size_t bytes) {
    // The smallest cached block that fits, unless it is more than twice the
    // request (a large block would then be tied up by small buffers).
    size_t best = cache.count;
    for (size_t i = 0; i < cache.count; i++) {
        const size_t capacity = cache.blocks[i].capacity;
        if (capacity >= bytes && capacity / 2 <= bytes &&
            (best == cache.count || capacity < cache.blocks[best].capacity)) {
            best = i;
        }
    }
    if (best != cache.count) {
        void *user = cache.blocks[best].user;
        cache.take(best);
        return user;
    }
    const size_t capacity = (bytes + kAlignment - 1) / kAlignment * kAlignment;
    if (capacity < bytes || capacity > SIZE_MAX - kAlignment) return nullptr;
    void *base = std::aligned_alloc(kAlignment, capacity + kAlignment);
    if (!base) return nullptr;
    void *user = static_cast<char *>(base) + kAlignment;
    capacity_of(user) = capacity;
    return user;
}

void scratch_free(void *, void *user) {
    if (!user) return;
    const size_t capacity = capacity_of(user);
    if (capacity <= kLargestCached) {
        // Make room: any cached block may go.
        while (cache.count > 0 && (cache.count == kCachedBlocks || cache.bytes + capacity > kCachedBytes)) {
            std::free(static_cast<char *>(cache.blocks[0].user) - kAlignment);
            cache.take(0);
        }
        cache.blocks[cache.count++] = {user, capacity};
        cache.bytes += capacity;
        return;
    }
    std::free(static_cast<char *>(user) - kAlignment);
}

}  // namespace

void install_scratch_allocator() {
    static std::once_flag once;
    std::call_once(once, [] {
        halide_set_custom_malloc(scratch_malloc);
        halide_set_custom_free(scratch_free);
    });
}

}  // namespace hres::internal
