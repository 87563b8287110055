// The scalar references evaluate float expressions exactly as written: no
// excess precision, no fast-math (and tests/CMakeLists.txt compiles them with
// -ffp-contract=off, so no fused multiply-adds either).
#pragma once

#include <cfloat>

#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0
#error "the float32 reference needs FLT_EVAL_METHOD == 0 (no excess precision; x86-64 SSE or aarch64)"
#endif
#if defined(__FAST_MATH__)
#error "the reference must not be compiled with -ffast-math"
#endif
