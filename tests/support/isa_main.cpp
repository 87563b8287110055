// Test main shared by the kernel suites. ctest runs each suite once per x86
// variant with HRES_ISA=auto|avx512|avx2|sse41; the variant is forced before
// any kernel runs (Halide fixes it at a kernel's first call). A variant this
// CPU lacks runs no test and prints the line ctest counts as a skip
// (SKIP_REGULAR_EXPRESSION in tests/CMakeLists.txt), never a pass.
#include "hres/hres.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

int main(int argc, char **argv) {
    ::testing::InitGoogleTest(&argc, argv);
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
    return RUN_ALL_TESTS();
}
