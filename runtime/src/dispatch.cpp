// The dispatcher (dispatch.h): the CPU described once, each call matched
// against the kernel table's rows in order.
#include "dispatch.h"

#include "HalideRuntime.h"

#include <algorithm>
#include <atomic>
#include <cpuid.h>
#include <cstring>

namespace hres {

namespace internal {

namespace {

bool interleaved(const Image &image) { return image.stride_c == 1 && image.stride_w == image.c; }

}  // namespace

Layout layout_of(const Image &in, const Image &out) {
    if (in.c == out.c && interleaved(in) && interleaved(out)) {
        if (in.c == 3) return Layout::rgb;
        if (in.c == 4) return Layout::rgba;
    }
    if (in.stride_w == 1 && out.stride_w == 1) return Layout::planar;
    if (interleaved(in) && interleaved(out)) return Layout::interleaved;
    return Layout::mixed;
}

namespace {

bool amd_cpu() {
    unsigned max_leaf = 0, vendor[3] = {0, 0, 0};  // ebx, edx, ecx spell the vendor
    if (!__get_cpuid(0, &max_leaf, &vendor[0], &vendor[2], &vendor[1])) return false;
    return std::memcmp(vendor, "AuthenticAMD", 12) == 0;
}

// The entry Halide's multi-target wrappers run at `level`: the first whose
// features the CPU has (they ask the same question, through the same
// can-use hook, of the same list).
int entry_at(Isa level) {
    for (int e = 0; e < kX86EntryCount; e++) {
        if (isa_rank(kX86Entries[e].isa) <= isa_rank(level) && x86_entry_usable(e)) return e;
    }
    return kX86EntryCount - 1;  // the baseline runs anyway
}

constexpr int kNoOverride = -1;
std::atomic<int> override_entry{kNoOverride};
std::atomic<bool> override_amd{false};

constexpr int kMaxKernels = 256;
std::atomic<uint64_t> disabled[kMaxKernels / 64];
bool skipped(int row) { return disabled[row / 64].load(std::memory_order_relaxed) >> (row % 64) & 1; }

// A row no `when` narrows: the one every call of its axes falls through to.
bool general(const Kernel &k) {
    return k.layouts == kAny && k.entries == kAny && !k.amd && k.facts == 0 && k.paddings == kAny;
}

thread_local const Kernel *last = nullptr;
thread_local Cpu last_cpu;

}  // namespace

bool x86_entry_usable(int entry) {
    uint64_t mask[(halide_target_feature_end + 63) / 64] = {};
    for (int f : kX86Entries[entry].features) {
        if (f) mask[f / 64] |= uint64_t(1) << (f % 64);
    }
    return halide_default_can_use_target_features(int(sizeof(mask) / sizeof(mask[0])), mask) != 0;
}

Cpu dispatch_cpu() {
    if (const int entry = override_entry.load(); entry != kNoOverride) return {entry, override_amd.load()};
    // Detected once per level; set_isa fixes the level before kernels run.
    static const int entries[4] = {entry_at(Isa::sse41), entry_at(Isa::avx2), entry_at(Isa::avx512),
                                   entry_at(Isa::automatic)};
    static const bool amd = amd_cpu();
    return {entries[isa_rank(active_isa())], amd};
}

Status dispatch_as(const std::string &cpu) {
    if (cpu.empty()) {
        override_entry.store(kNoOverride);
        return {};
    }
    const size_t comma = cpu.find(',');
    const std::string entry = cpu.substr(0, comma), vendor = comma == std::string::npos ? "" : cpu.substr(comma + 1);
    if (!vendor.empty() && vendor != "amd") return Status::error("dispatch_as: vendor must be amd, not " + vendor);
    for (int e = 0; e < kX86EntryCount; e++) {
        if (entry == kX86Entries[e].name) {
            override_amd.store(vendor == "amd");
            override_entry.store(e);
            return {};
        }
    }
    return Status::error("dispatch_as: no x86 entry named " + entry);
}

const Kernel *choose(const Call &call) {
    const Cpu &cpu = call.cpu;
    const uint8_t antialias = bit(call.antialias ? Flag::yes : Flag::no);
    const int(&group)[2] = kKernelGroups[int(call.op)][call.device == Device::cuda];
    for (int i = group[0]; i < group[1]; i++) {
        const Kernel &k = kKernels[i];
        if (skipped(i) || !(k.dtypes & bit(call.dtype)) ||
            !(k.modes & bit(call.mode)) || !(k.antialias & antialias) || !(k.paddings & bit(call.padding)) ||
            !(k.layouts & bit(call.layout)) || (k.facts & call.facts) != k.facts) {
            continue;
        }
        if (k.device == Device::cpu && (!(k.entries & (1u << cpu.entry)) || (k.amd && !cpu.amd))) continue;
        last = &k;
        last_cpu = cpu;
        return &k;
    }
    last = nullptr;
    return nullptr;
}

Status disable_kernels(const std::string &names) {
    static_assert(sizeof(disabled) * 8 >= kMaxKernels, "one bit per row");
    uint64_t mask[kMaxKernels / 64] = {};
    size_t at = 0;
    while (at < names.size()) {
        const size_t comma = std::min(names.find(',', at), names.size());
        const std::string name = names.substr(at, comma - at);
        int row = -1;
        for (int i = 0; i < kKernelCount && i < kMaxKernels; i++) {
            if (name == kKernels[i].name()) row = i;
        }
        if (row < 0) return Status::error("disable_kernels: the kernel table has no kernel " + name);
        if (general(kKernels[row])) return Status::error("disable_kernels: " + name + " is a general kernel");
        mask[row / 64] |= uint64_t(1) << (row % 64);
        at = comma + 1;
    }
    for (int w = 0; w < kMaxKernels / 64; w++) disabled[w].store(mask[w]);
    return {};
}

const Kernel *last_choice(Cpu *cpu) {
    if (cpu) *cpu = last_cpu;
    return last;
}

Status no_kernel(const char *op) {
    return Status::error(std::string(op) + ": internal error: no kernel of the table serves this call");
}

}  // namespace internal

KernelChoice last_kernel_choice() {
    internal::Cpu cpu;
    const internal::Kernel *k = internal::last_choice(&cpu);
    if (!k) return {};
    KernelChoice choice;
    choice.kernel = k->name();
    choice.rule = k->rule();
    choice.why = k->why();
    if (k->device == Device::cpu) {
        choice.x86_entry = internal::kX86Entries[cpu.entry].name;
        choice.amd = cpu.amd;
    }
    return choice;
}

}  // namespace hres
