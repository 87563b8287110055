// Test main shared by the kernel suites. ctest runs each suite once per x86
// variant with HRES_ISA=auto|avx512|avx2|sse41, and once on the GPU with
// HRES_DEVICE=cuda; the variant is forced before any kernel runs (Halide
// fixes it at a kernel's first call). A variant this CPU lacks, or CUDA on a
// machine without a GPU, runs no test and prints the line ctest counts as a
// skip (SKIP_REGULAR_EXPRESSION in tests/CMakeLists.txt), never a pass.
// HRES_PADDED_COPY_LIMIT sets hres::set_padded_copy_limit (0: the sampler's
// in-place path, which the default limit leaves to large inputs only).
// HRES_DISPATCH_AS=ENTRY[,amd] chooses kernels as on that CPU (e.g.
// avx512_spr, avx2,amd: runtime/src/dispatch.h), whatever entry runs them.
#include "dispatch.h"
#include "hres/hres.h"
#include "support/harness.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

int main(int argc, char **argv) {
    ::testing::InitGoogleTest(&argc, argv);
    const char *device = std::getenv("HRES_DEVICE");
    if (device && std::string(device) == "cuda") {
        if (!hres::cuda_available()) {
            printf("HRES_SKIP: no usable CUDA GPU\n");
            return 0;
        }
        hres_test::test_device() = hres::Device::cuda;
        printf("kernels run on CUDA device %s\n", hres::cuda_device_name().c_str());
    } else if (device && std::string(device) != "cpu") {
        fprintf(stderr, "HRES_DEVICE=%s is not one of cpu, cuda\n", device);
        return 2;
    }
    const char *requested = std::getenv("HRES_ISA");
    hres::Isa isa = hres::Isa::automatic;
    if (requested && !hres::parse(requested, &isa)) {
        fprintf(stderr, "HRES_ISA=%s is not one of auto, avx512, avx2, sse41\n", requested);
        return 2;
    }
    if (!hres::cpu_supports(isa)) {
        printf("HRES_SKIP: this CPU lacks %s\n", hres::to_string(isa));
        return 0;
    }
    if (hres::Status s = hres::set_isa(isa); !s) {
        fprintf(stderr, "set_isa failed: %s\n", s.message().c_str());
        return 2;
    } else {
        printf("kernels run with ISA %s\n", hres::to_string(hres::active_isa()));
    }
    if (const char *limit = std::getenv("HRES_PADDED_COPY_LIMIT")) {
        char *end = nullptr;
        const unsigned long long bytes = std::strtoull(limit, &end, 10);
        if (*limit == '\0' || *end != '\0') {
            fprintf(stderr, "HRES_PADDED_COPY_LIMIT=%s is not a byte count\n", limit);
            return 2;
        }
        hres::set_padded_copy_limit(size_t(bytes));
        printf("padded copies up to %llu bytes\n", bytes);
    }
    if (const char *cpu = std::getenv("HRES_DISPATCH_AS")) {
        if (hres::Status s = hres::internal::dispatch_as(cpu); !s) {
            fprintf(stderr, "HRES_DISPATCH_AS=%s: %s\n", cpu, s.message().c_str());
            return 2;
        }
        printf("kernels chosen as on %s\n", cpu);
    }
    return RUN_ALL_TESTS();
}
