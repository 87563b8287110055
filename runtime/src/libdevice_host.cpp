// The CUDA kernels round some float32 products and quotients through
// libdevice's round-to-nearest primitives (generators/coords.h). Halide also
// evaluates those expressions on the host, for the bounds of the input a
// launch will read; these are the same operations there. Built without
// floating-point contraction (runtime/CMakeLists.txt; the tuner's CUDA
// driver, bench/tune/tune.py, links it the same way).
extern "C" float __nv_fmul_rn(float a, float b) { return a * b; }
extern "C" float __nv_fdiv_rn(float a, float b) { return a / b; }
