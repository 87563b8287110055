/* A stand-in for the CUDA driver library whose entry points return at once
 * and count their calls. Nothing runs: device memory is host memory, and
 * launches do nothing. Two uses:
 *
 * - test_cuda_launch_path (tests/CMakeLists.txt builds this as
 *   stub_driver/libcuda.so.1 and puts it first on that test's library path)
 *   checks which driver calls a CUDA call makes, on any machine;
 * - timing, profiling and counting the host's share of a CUDA call on a
 *   machine without a GPU (the driver's own cost left out; the GPU machine
 *   has ncu, for its kernels, but no host profiler):
 *
 *   mkdir -p /tmp/stub && cc -O2 -shared -fPIC tests/support/stub_libcuda.c -o /tmp/stub/libcuda.so.1
 *   LD_LIBRARY_PATH=/tmp/stub build/bin/bench_cuda_launch
 *   LD_LIBRARY_PATH=/tmp/stub perf record -g build/bin/bench_cuda_launch
 *   STUB_COUNTS=1 LD_LIBRARY_PATH=/tmp/stub build/bin/hres flip in.npy out.npy --device cuda --bench 1000
 *     (twice, with --bench 1000 and 2000: the counts' difference over 20000
 *     calls is each entry point's calls per call)
 *
 * The entry points are those hres (runtime/src/cuda.cpp) and Halide 21's CUDA
 * runtime look up. RESULTS.md@89f6099 (2026-11-25 evening, 2026-11-29 midday)
 * used it. Counting is not thread-safe: one calling thread at a time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How often each entry point was called: stub_calls("cuLaunchKernel"), and
 * with STUB_COUNTS set, all of them printed at exit. */
static struct { const char *name; long count; } counts[64];
static int used;
static void count_call(const char *name) {
    for (int i = 0; i < used; i++) {
        if (counts[i].name == name) {
            counts[i].count++;
            return;
        }
    }
    if (used < 64) counts[used++] = (typeof(counts[0])){name, 1};
}
__attribute__((destructor)) static void print_counts(void) {
    if (!getenv("STUB_COUNTS")) return;
    for (int i = 0; i < used; i++) fprintf(stderr, "stub: %-24s %ld\n", counts[i].name, counts[i].count);
}
#define COUNTED count_call(__func__);

long stub_calls(const char *name) {
    for (int i = 0; i < used; i++) {
        if (strcmp(counts[i].name, name) == 0) return counts[i].count;
    }
    return 0;
}

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

static char context[64], module[64], function[64];
static void *current = context;

CUresult cuInit(unsigned flags) { COUNTED return 0; }
CUresult cuDeviceGetCount(int *count) { COUNTED *count = 1; return 0; }
CUresult cuDeviceGet(int *device, int ordinal) { COUNTED *device = 0; return 0; }
/* Compute capability 9.0 (attributes 75 and 76), 1024 elsewhere. */
CUresult cuDeviceGetAttribute(int *value, int attribute, int device) { COUNTED
    *value = attribute == 75 ? 9 : attribute == 76 ? 0 : 1024;
    return 0;
}
CUresult cuDeviceGetName(char *name, int length, int device) { COUNTED strncpy(name, "stub driver", length); return 0; }
CUresult cuDeviceTotalMem_v2(size_t *bytes, int device) { COUNTED *bytes = 1ull << 34; return 0; }
CUresult cuDevicePrimaryCtxRetain(void **ctx, int device) { COUNTED *ctx = context; return 0; }
CUresult cuCtxCreate_v2(void **ctx, unsigned flags, int device) { COUNTED *ctx = context; return 0; }
CUresult cuCtxDestroy_v2(void *ctx) { COUNTED return 0; }
CUresult cuCtxGetApiVersion(void *ctx, unsigned *version) { COUNTED *version = 12000; return 0; }
CUresult cuCtxGetDevice(int *device) { COUNTED *device = 0; return 0; }
CUresult cuCtxGetCurrent(void **ctx) { COUNTED *ctx = current; return 0; }
CUresult cuCtxSetCurrent(void *ctx) { COUNTED current = ctx; return 0; }
CUresult cuCtxPushCurrent_v2(void *ctx) { COUNTED return 0; }
CUresult cuCtxPopCurrent_v2(void **ctx) { COUNTED if (ctx) *ctx = context; return 0; }
CUresult cuCtxGetId(void *ctx, unsigned long long *id) { COUNTED *id = 1; return 0; }
CUresult cuCtxSynchronize(void) { COUNTED return 0; }
CUresult cuStreamSynchronize(void *stream) { COUNTED return 0; }
CUresult cuStreamCreate(void **stream, unsigned flags) { COUNTED *stream = module; return 0; }
CUresult cuProfilerStop(void) { COUNTED return 0; }
CUresult cuModuleLoadData(void **m, const void *image) { COUNTED *m = module; return 0; }
CUresult cuModuleLoadDataEx(void **m, const void *image, unsigned n, void *options, void **values) { COUNTED
    *m = module;
    return 0;
}
CUresult cuModuleUnload(void *m) { COUNTED return 0; }
CUresult cuModuleGetFunction(void **f, void *m, const char *name) { COUNTED *f = function; return 0; }
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void *stream, void **params, void **extra) {
    COUNTED
    return 0;
}
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes) { COUNTED *p = (CUdeviceptr)malloc(bytes); return *p ? 0 : 2; }
CUresult cuMemFree_v2(CUdeviceptr p) { COUNTED free((void *)p); return 0; }
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n) { COUNTED memcpy((void *)d, s, n); return 0; }
CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n) { COUNTED memcpy(d, (void *)s, n); return 0; }
CUresult cuMemcpyDtoD_v2(CUdeviceptr d, CUdeviceptr s, size_t n) { COUNTED memcpy((void *)d, (void *)s, n); return 0; }
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void *s, size_t n, void *st) { COUNTED return cuMemcpyHtoD_v2(d, s, n); }
CUresult cuMemcpyDtoHAsync_v2(void *d, CUdeviceptr s, size_t n, void *st) { COUNTED return cuMemcpyDtoH_v2(d, s, n); }
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr s, size_t n, void *st) { COUNTED return cuMemcpyDtoD_v2(d, s, n); }
CUresult cuMemcpy3D_v2(const void *copy) { COUNTED return 0; }
CUresult cuPointerGetAttribute(void *data, int attribute, CUdeviceptr p) { COUNTED *(void **)data = context; return 0; }
CUresult cuGetErrorString(CUresult r, const char **text) { COUNTED *text = "stub driver error"; return 0; }
CUresult cuGetErrorName(CUresult r, const char **text) { COUNTED *text = "STUB_ERROR"; return 0; }
