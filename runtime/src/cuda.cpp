// CUDA plumbing: the driver API loaded at run time (nothing CUDA is linked),
// the hooks that make Halide's CUDA runtime use the caller's context and
// stream, device views of images, and the device-memory helpers of hres.h.
//
// Context: the calling thread's current context if it has one (what a CUDA
// runtime API or PyTorch user has), else device 0's primary context, which is
// the context cudaMalloc'd pointers live in. Halide's default would create a
// context of its own, in which the caller's pointers are not valid.
// Stream: per thread, set by set_cuda_stream (default: the legacy stream 0).
// Halide loads each kernel's module once per context and caches it.
#include "internal.h"

#include "HalideRuntimeCuda.h"

#include <dlfcn.h>

#include <map>
#include <mutex>
#include <string>
#include <vector>

// The CUDA kernels round some float32 products and quotients through
// libdevice's round-to-nearest primitives (generators/coords.h). Halide also
// evaluates those expressions on the host, for the bounds of the input a
// launch will read; these are the same operations there (this file is built
// without floating-point contraction: see runtime/CMakeLists.txt).
extern "C" float __nv_fmul_rn(float a, float b) { return a * b; }
extern "C" float __nv_fdiv_rn(float a, float b) { return a / b; }

namespace hres {

namespace {

// The driver API subset we use, with its own types spelled as opaque handles.
using CUresult = int;
using CUdevice = int;
using CUcontext = void *;
using CUstream = void *;
using CUdeviceptr = unsigned long long;

struct Driver {
    CUresult (*cuInit)(unsigned);
    CUresult (*cuDeviceGetCount)(int *);
    CUresult (*cuDeviceGet)(CUdevice *, int);
    CUresult (*cuDeviceGetName)(char *, int, CUdevice);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*cuCtxGetCurrent)(CUcontext *);
    CUresult (*cuCtxPushCurrent)(CUcontext);
    CUresult (*cuCtxPopCurrent)(CUcontext *);
    CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
    CUresult (*cuMemFree)(CUdeviceptr);
    CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
    CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
    CUresult (*cuStreamSynchronize)(CUstream);
    CUresult (*cuCtxSynchronize)();
    CUresult (*cuGetErrorString)(CUresult, const char **);
    CUresult (*cuCtxGetId)(CUcontext, unsigned long long *);  // CUDA >= 12.0; may be null

    std::string problem;  // why CUDA is unusable; empty when usable
    std::string device_name;
};

template<typename F>
bool bind(void *library, const char *name, F *fn) {
    *fn = reinterpret_cast<F>(dlsym(library, name));
    return *fn != nullptr;
}

const Driver &driver() {
    static const Driver d = [] {
        Driver d{};
        void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!library) library = dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL);
        if (!library) {
            d.problem = "no CUDA driver (libcuda.so.1 not found)";
            return d;
        }
        const bool bound = bind(library, "cuInit", &d.cuInit) && bind(library, "cuDeviceGetCount", &d.cuDeviceGetCount) &&
                           bind(library, "cuDeviceGet", &d.cuDeviceGet) &&
                           bind(library, "cuDeviceGetName", &d.cuDeviceGetName) &&
                           bind(library, "cuDevicePrimaryCtxRetain", &d.cuDevicePrimaryCtxRetain) &&
                           bind(library, "cuCtxGetCurrent", &d.cuCtxGetCurrent) &&
                           bind(library, "cuCtxPushCurrent_v2", &d.cuCtxPushCurrent) &&
                           bind(library, "cuCtxPopCurrent_v2", &d.cuCtxPopCurrent) &&
                           bind(library, "cuMemAlloc_v2", &d.cuMemAlloc) && bind(library, "cuMemFree_v2", &d.cuMemFree) &&
                           bind(library, "cuMemcpyHtoD_v2", &d.cuMemcpyHtoD) &&
                           bind(library, "cuMemcpyDtoH_v2", &d.cuMemcpyDtoH) &&
                           bind(library, "cuStreamSynchronize", &d.cuStreamSynchronize) &&
                           bind(library, "cuCtxSynchronize", &d.cuCtxSynchronize) &&
                           bind(library, "cuGetErrorString", &d.cuGetErrorString);
        bind(library, "cuCtxGetId", &d.cuCtxGetId);
        if (!bound) {
            d.problem = "the CUDA driver lacks an entry point hres needs";
            return d;
        }
        int count = 0;
        if (CUresult r = d.cuInit(0); r != 0) {
            const char *text = nullptr;
            d.cuGetErrorString(r, &text);
            d.problem = std::string("the CUDA driver failed to initialise: ") + (text ? text : "unknown error");
            return d;
        }
        if (d.cuDeviceGetCount(&count) != 0 || count < 1) {
            d.problem = "no CUDA device present";
            return d;
        }
        CUdevice device = 0;
        char name[256] = {};
        if (d.cuDeviceGet(&device, 0) == 0 && d.cuDeviceGetName(name, sizeof(name) - 1, device) == 0) {
            d.device_name = name;
        }
        return d;
    }();
    return d;
}

std::string error_text(CUresult r) {
    const char *text = nullptr;
    if (driver().cuGetErrorString) driver().cuGetErrorString(r, &text);
    return text ? text : ("CUDA error " + std::to_string(r));
}

// The context our calls run in (see the top of this file), or null with
// `problem` set.
CUcontext caller_context(std::string *problem) {
    const Driver &d = driver();
    if (!d.problem.empty()) {
        *problem = d.problem;
        return nullptr;
    }
    CUcontext current = nullptr;
    if (d.cuCtxGetCurrent(&current) == 0 && current) return current;
    static std::once_flag once;
    static CUcontext primary = nullptr;
    static CUresult retained = 0;
    std::call_once(once, [&] {
        CUdevice device = 0;
        retained = d.cuDeviceGet(&device, 0);
        if (retained == 0) retained = d.cuDevicePrimaryCtxRetain(&primary, device);
    });
    if (retained != 0 || !primary) {
        *problem = "cannot retain the GPU's primary context: " + error_text(retained);
        return nullptr;
    }
    return primary;
}

thread_local CUstream current_stream = nullptr;

// Halide's hooks (HalideRuntimeCuda.h).
int acquire_context(void *, void **ctx, bool create) {
    std::string problem;
    CUcontext context = caller_context(&problem);
    if (!context) {
        if (!create) {
            *ctx = nullptr;
            return halide_error_code_success;
        }
        halide_error(nullptr, ("hres: " + problem + "\n").c_str());
        return halide_error_code_gpu_device_error;
    }
    *ctx = context;
    return halide_error_code_success;
}

int release_context(void *) { return halide_error_code_success; }

int get_stream(void *, void *, void **stream) {
    *stream = current_stream;
    return halide_error_code_success;
}

// Runs `body` with the caller's context current; its CUresult becomes a Status.
template<typename Body>
Status in_context(const char *what, Body body) {
    std::string problem;
    CUcontext context = caller_context(&problem);
    if (!context) return Status::error(std::string(what) + ": " + problem);
    const Driver &d = driver();
    if (CUresult r = d.cuCtxPushCurrent(context); r != 0) {
        return Status::error(std::string(what) + ": " + error_text(r));
    }
    const CUresult r = body(d);
    CUcontext popped;
    d.cuCtxPopCurrent(&popped);
    if (r != 0) return Status::error(std::string(what) + ": " + error_text(r));
    return {};
}

CUdeviceptr device_address(const void *p) { return CUdeviceptr(reinterpret_cast<uintptr_t>(p)); }

}  // namespace

bool cuda_available() { return driver().problem.empty(); }

Status cuda_status() {
    if (cuda_available()) return {};
    return Status::error("CUDA is not usable here: " + driver().problem);
}

std::string cuda_device_name() { return driver().device_name; }

void set_cuda_stream(void *stream) { current_stream = stream; }

void *cuda_stream() { return current_stream; }

Status cuda_malloc(size_t bytes, void **ptr) {
    if (ptr == nullptr) return Status::error("cuda_malloc: null output pointer");
    *ptr = nullptr;
    if (bytes == 0) return Status::error("cuda_malloc: size must be positive");
    return in_context("cuda_malloc", [&](const Driver &d) {
        CUdeviceptr p = 0;
        CUresult r = d.cuMemAlloc(&p, bytes);
        if (r == 0) *ptr = reinterpret_cast<void *>(uintptr_t(p));
        return r;
    });
}

Status cuda_free(void *ptr) {
    if (ptr == nullptr) return {};
    return in_context("cuda_free", [&](const Driver &d) { return d.cuMemFree(device_address(ptr)); });
}

Status cuda_upload(void *device_dst, const void *host_src, size_t bytes) {
    if (!device_dst || !host_src) return Status::error("cuda_upload: null pointer");
    return in_context("cuda_upload", [&](const Driver &d) {
        CUresult r = d.cuStreamSynchronize(current_stream);
        return r != 0 ? r : d.cuMemcpyHtoD(device_address(device_dst), host_src, bytes);
    });
}

Status cuda_download(void *host_dst, const void *device_src, size_t bytes) {
    if (!host_dst || !device_src) return Status::error("cuda_download: null pointer");
    return in_context("cuda_download", [&](const Driver &d) {
        CUresult r = d.cuStreamSynchronize(current_stream);
        return r != 0 ? r : d.cuMemcpyDtoH(host_dst, device_address(device_src), bytes);
    });
}

Status CudaBuffer::upload(const void *host, size_t bytes) {
    reset();
    if (Status s = cuda_malloc(bytes, &ptr_); !s) return s;
    return cuda_upload(ptr_, host, bytes);
}

Status cuda_synchronize() {
    return in_context("cuda_synchronize", [&](const Driver &d) { return d.cuStreamSynchronize(current_stream); });
}

namespace internal {

void install_cuda_hooks() {
    halide_set_cuda_acquire_context(acquire_context);
    halide_set_cuda_release_context(release_context);
    halide_set_cuda_get_stream(get_stream);
    // Device buffers Halide allocates itself (the resize kernels' per-block
    // scratch) are kept for the next call: cuMemFree would wait for the
    // whole device.
    halide_reuse_device_allocations(nullptr, true);
}

// The device tables: entries per context, told apart by the context's unique
// id where the driver has one (a destroyed context's handle can be reused).
// One mutex covers lookup, upload and the caller's launch, so an entry is
// never freed between being handed out and its kernel being enqueued.
namespace {

struct TableCache {
    std::mutex mutex;
    struct Entry {
        CUdeviceptr device;
        std::vector<unsigned char> host;  // the same bytes
    };
    // Keyed by (context, the caller's key): a context's entries are adjacent.
    // Looked up by a view of the caller's key (no string made per call).
    struct Order {
        using is_transparent = void;
        template<typename A, typename B>
        bool operator()(const A &a, const B &b) const {
            if (a.first != b.first) return a.first < b.first;
            return std::string_view(a.second) < std::string_view(b.second);
        }
    };
    std::map<std::pair<unsigned long long, std::string>, Entry, Order> entries;
};

TableCache &table_cache() {
    static TableCache *cache = new TableCache;  // never destroyed: the driver may be gone at exit
    return *cache;
}

// Entries kept per context before they are all dropped (each a few KB).
constexpr size_t kTableEntriesPerContext = 256;

unsigned long long context_id(CUcontext context) {
    unsigned long long id = 0;
    if (driver().cuCtxGetId && driver().cuCtxGetId(context, &id) == 0) return id;
    return reinterpret_cast<uintptr_t>(context);
}

}  // namespace

Status with_device_tables(std::string_view key, size_t bytes, CallRef<Status(void *host)> fill,
                          CallRef<Status(void *device, const unsigned char *host)> use) {
    std::string problem;
    CUcontext context = caller_context(&problem);
    if (!context) return Status::error(problem);
    const unsigned long long id = context_id(context);
    TableCache &cache = table_cache();
    std::lock_guard<std::mutex> lock(cache.mutex);
    auto found = cache.entries.find(std::pair{id, key});
    if (found == cache.entries.end()) {
        std::vector<unsigned char> host(bytes);
        if (Status s = fill(host.data()); !s) return s;
        CUdeviceptr device = 0;
        Status made = in_context("device tables", [&](const Driver &d) {
            auto first = cache.entries.lower_bound({id, std::string()});
            auto last = first;
            size_t count = 0;
            while (last != cache.entries.end() && last->first.first == id) {
                ++last;
                ++count;
            }
            if (count >= kTableEntriesPerContext) {
                // Work already enqueued may still read them.
                if (CUresult r = d.cuCtxSynchronize(); r != 0) return r;
                for (auto it = first; it != last; ++it) d.cuMemFree(it->second.device);
                cache.entries.erase(first, last);
            }
            if (CUresult r = d.cuMemAlloc(&device, bytes); r != 0) return r;
            CUresult r = d.cuMemcpyHtoD(device, host.data(), bytes);
            if (r != 0) d.cuMemFree(device);
            return r;
        });
        if (!made) return made;
        found = cache.entries.emplace(std::pair{id, std::string(key)}, TableCache::Entry{device, std::move(host)}).first;
    }
    return use(reinterpret_cast<void *>(uintptr_t(found->second.device)), found->second.host.data());
}

void attach(halide_buffer_t *buffer, void *data, Device device) {
    if (device == Device::cuda) {
        buffer->host = nullptr;
        halide_cuda_wrap_device_ptr(nullptr, buffer, uint64_t(reinterpret_cast<uintptr_t>(data)));
    } else {
        buffer->host = static_cast<uint8_t *>(data);
    }
}

void detach(halide_buffer_t *buffer) {
    if (buffer->device_interface) halide_cuda_detach_device_ptr(nullptr, buffer);
}

}  // namespace internal
}  // namespace hres
