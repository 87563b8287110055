// CUDA plumbing: the driver API loaded at run time (nothing CUDA is linked),
// the hooks that make Halide's CUDA runtime use the caller's context and
// stream, device views of images, and the device-memory helpers of hres.h.
//
// Context: the calling thread's current context if it has one (what a CUDA
// runtime API or PyTorch user has), else device 0's primary context, which is
// the context cudaMalloc'd pointers live in. Halide's default would create a
// context of its own, in which the caller's pointers are not valid.
// Stream: per thread, set by set_cuda_stream (default: the legacy stream 0).
// Kernels: loaded once per pipeline and context, and launched, by this file's
// definitions of the three entry points Halide's pipelines call around their
// launches (see "Kernel launches" below), not by Halide's runtime.
#include "internal.h"

#include "HalideRuntimeCuda.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace hres {

namespace {

// The driver API subset we use, with its own types spelled as opaque handles.
using CUresult = int;
using CUdevice = int;
using CUcontext = void *;
using CUstream = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUdeviceptr = unsigned long long;

struct Driver {
    CUresult (*cuInit)(unsigned);
    CUresult (*cuDeviceGetCount)(int *);
    CUresult (*cuDeviceGet)(CUdevice *, int);
    CUresult (*cuDeviceGetName)(char *, int, CUdevice);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*cuCtxGetCurrent)(CUcontext *);
    CUresult (*cuCtxGetDevice)(CUdevice *);
    CUresult (*cuCtxPushCurrent)(CUcontext);
    CUresult (*cuCtxPopCurrent)(CUcontext *);
    CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
    CUresult (*cuMemFree)(CUdeviceptr);
    CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
    CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
    CUresult (*cuStreamSynchronize)(CUstream);
    CUresult (*cuCtxSynchronize)();
    CUresult (*cuGetErrorString)(CUresult, const char **);
    CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
    CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                               CUstream, void **, void **);
    CUresult (*cuCtxGetId)(CUcontext, unsigned long long *);  // CUDA >= 12.0; may be null
    CUresult (*cuFuncGetParamInfo)(CUfunction, size_t, size_t *, size_t *);  // CUDA >= 12.4; may be null

    void *library = nullptr;  // libcuda.so.1, also lent to Halide's runtime (load_library)
    std::string problem;      // why CUDA is unusable; empty when usable
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
        d.library = library;
        const bool bound = bind(library, "cuInit", &d.cuInit) && bind(library, "cuDeviceGetCount", &d.cuDeviceGetCount) &&
                           bind(library, "cuDeviceGet", &d.cuDeviceGet) &&
                           bind(library, "cuDeviceGetName", &d.cuDeviceGetName) &&
                           bind(library, "cuDevicePrimaryCtxRetain", &d.cuDevicePrimaryCtxRetain) &&
                           bind(library, "cuCtxGetCurrent", &d.cuCtxGetCurrent) &&
                           bind(library, "cuCtxGetDevice", &d.cuCtxGetDevice) &&
                           bind(library, "cuCtxPushCurrent_v2", &d.cuCtxPushCurrent) &&
                           bind(library, "cuCtxPopCurrent_v2", &d.cuCtxPopCurrent) &&
                           bind(library, "cuMemAlloc_v2", &d.cuMemAlloc) && bind(library, "cuMemFree_v2", &d.cuMemFree) &&
                           bind(library, "cuMemcpyHtoD_v2", &d.cuMemcpyHtoD) &&
                           bind(library, "cuMemcpyDtoH_v2", &d.cuMemcpyDtoH) &&
                           bind(library, "cuStreamSynchronize", &d.cuStreamSynchronize) &&
                           bind(library, "cuCtxSynchronize", &d.cuCtxSynchronize) &&
                           bind(library, "cuGetErrorString", &d.cuGetErrorString) &&
                           bind(library, "cuModuleLoadDataEx", &d.cuModuleLoadDataEx) &&
                           bind(library, "cuModuleGetFunction", &d.cuModuleGetFunction) &&
                           bind(library, "cuLaunchKernel", &d.cuLaunchKernel);
        bind(library, "cuCtxGetId", &d.cuCtxGetId);
        bind(library, "cuFuncGetParamInfo", &d.cuFuncGetParamInfo);
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

// Halide's runtime keeps the device buffers it frees for reuse, keyed by
// context handle (install_cuda_hooks). A caller that destroys a context it
// created may get the same handle for its next one, and Halide would then
// hand out memory of the dead context (an illegal address in the kernel that
// uses it). Primary contexts are retained here, so never destroyed under us;
// at the first call in any other context, reuse stops for the process (what
// Halide holds then is freed: all of it lives in primary contexts).
void keep_reuse_safe(CUcontext current) {
    static thread_local CUcontext checked = nullptr;
    if (current == checked) return;
    checked = current;
    static std::mutex mutex;
    static std::map<CUdevice, CUcontext> primaries;
    static bool stopped = false;
    std::lock_guard<std::mutex> lock(mutex);
    if (stopped) return;
    const Driver &d = driver();
    CUdevice device = 0;
    bool primary = false;
    if (d.cuCtxGetDevice(&device) == 0) {
        auto found = primaries.find(device);
        CUcontext retained = nullptr;
        if (found == primaries.end() && d.cuDevicePrimaryCtxRetain(&retained, device) == 0) {
            found = primaries.emplace(device, retained).first;
        }
        primary = found != primaries.end() && found->second == current;
    }
    if (!primary) {
        stopped = true;
        halide_reuse_device_allocations(nullptr, false);
    }
}

// The context our calls run in (see the top of this file), or null with
// `problem` set. `*is_current`: whether it is the thread's current context
// already (else it is the primary context, which a call must enter).
CUcontext caller_context(std::string *problem, bool *is_current = nullptr) {
    const Driver &d = driver();
    if (!d.problem.empty()) {
        *problem = d.problem;
        return nullptr;
    }
    CUcontext current = nullptr;
    if (is_current) *is_current = true;
    if (d.cuCtxGetCurrent(&current) == 0 && current) {
        keep_reuse_safe(current);
        return current;
    }
    if (is_current) *is_current = false;
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

// What tells contexts apart in hres's caches: the context's unique id where
// the driver has one (a destroyed context's handle can be reused).
unsigned long long context_id(CUcontext context) {
    unsigned long long id = 0;
    if (driver().cuCtxGetId && driver().cuCtxGetId(context, &id) == 0) return id;
    return reinterpret_cast<uintptr_t>(context);
}

// The caller's context (caller_context) in place for the scope: entered only
// where it is not the thread's current context already, that is, the
// primary context for a thread with none current. problem() says why there
// is none.
class EnteredContext {
public:
    EnteredContext() {
        bool is_current = false;
        context_ = caller_context(&problem_, &is_current);
        if (!context_ || is_current) return;
        if (CUresult r = driver().cuCtxPushCurrent(context_); r != 0) {
            problem_ = "cannot enter the GPU's primary context: " + error_text(r);
            context_ = nullptr;
            return;
        }
        entered_ = true;
    }
    ~EnteredContext() {
        CUcontext popped;
        if (entered_) driver().cuCtxPopCurrent(&popped);
    }
    EnteredContext(const EnteredContext &) = delete;
    EnteredContext &operator=(const EnteredContext &) = delete;

    CUcontext context() const { return context_; }
    const std::string &problem() const { return problem_; }

private:
    CUcontext context_ = nullptr;
    std::string problem_;
    bool entered_ = false;
};

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

// Halide's runtime opens "libcuda.so" for its own driver calls (device
// allocations: the antialiased resizes' per-block scratch). It gets the
// library hres opened: the same driver, under the name every driver install
// has (the unversioned name comes with development packages).
void *load_library(const char *name) {
    if (std::strcmp(name, "libcuda.so") == 0 && driver().library) return driver().library;
    return halide_default_load_library(name);
}

int get_stream(void *, void *, void **stream) {
    *stream = current_stream;
    return halide_error_code_success;
}

// Runs `body` with the caller's context current; its CUresult becomes a Status.
template<typename Body>
Status in_context(const char *what, Body body) {
    EnteredContext entered;
    if (!entered.context()) return Status::error(std::string(what) + ": " + entered.problem());
    if (CUresult r = body(driver()); r != 0) return Status::error(std::string(what) + ": " + error_text(r));
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
    halide_set_custom_load_library(load_library);
    // Device buffers Halide allocates itself (the resize kernels' per-block
    // scratch) are kept for the next call: cuMemFree would wait for the
    // whole device. Only while every call runs in a primary context
    // (keep_reuse_safe).
    halide_reuse_device_allocations(nullptr, true);
}

// The device tables: entries per context (context_id).
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

// Kernel launches.
//
// A Halide pipeline calls halide_cuda_initialize_kernels with its PTX at the
// start of every call, halide_cuda_run for each launch and
// halide_cuda_finalize_kernels at its end. Halide's runtime defines them as
// weak symbols, declared in HalideRuntimeCuda.h for clients to override, and
// the definitions below take their place. Halide's own enter and leave the
// context in each of the three (cuCtxPushCurrent, cuCtxPopCurrent), look the
// kernel up by name and allocate its argument arrays on every launch:
// 0.25-0.78 us of host time per call on the H200, whose launch itself takes
// 3.2-4.8 us (bench_cuda_launch, RESULTS.md@89f6099 2026-11-29 (midday)).
// These run in the caller's current context without entering it (the
// primary context is entered only for a thread with none current), find the
// module and function in the pipeline's own cache, and pass the arguments
// packed into one buffer at the offsets the driver reports for the kernel
// (0.1-0.2 us less than a pointer per argument in the same measurement). A
// module, once loaded for a pipeline and a context, stays loaded until the
// process ends. tests/test_cuda_launch_path.cpp holds a call to these driver
// calls.
namespace hres {
namespace {

// One kernel of a loaded module.
struct Kernel {
    const char *entry;            // its name, a constant of the pipeline's object
    CUfunction function;
    size_t args;                  // how many arguments the pipeline passes
    std::vector<size_t> offsets;  // each argument's offset in the packed buffer;
    size_t bytes = 0;             // empty where the driver cannot tell them
};

struct LoadedModule {
    unsigned long long context;  // context_id
    CUmodule module;
    std::deque<Kernel> kernels;  // a deque: references survive additions
};

// What a pipeline's state pointer points to: its module in each context.
struct PipelineKernels {
    std::deque<LoadedModule> modules;
};

// Guards every pipeline's state pointer and its PipelineKernels. Held for a
// lookup (and for a first call's PTX compile), never across a launch.
std::mutex kernels_mutex;

int launch_error(void *user_context, const std::string &text) {
    halide_error(user_context, ("hres: " + text + "\n").c_str());
    return halide_error_code_gpu_device_error;
}

LoadedModule *module_in(PipelineKernels *pipeline, unsigned long long context) {
    if (!pipeline) return nullptr;
    for (LoadedModule &m : pipeline->modules) {
        if (m.context == context) return &m;
    }
    return nullptr;
}

// The kernel named `entry` of `module`, looked up in the driver on its first
// launch; null with an error reported if the driver has none.
const Kernel *kernel_in(void *user_context, LoadedModule &module, const char *entry, const size_t arg_sizes[]) {
    for (const Kernel &k : module.kernels) {
        if (k.entry == entry) return &k;
    }
    for (const Kernel &k : module.kernels) {  // the same name at another address
        if (std::strcmp(k.entry, entry) == 0) return &k;
    }
    const Driver &d = driver();
    size_t count = 0;
    while (arg_sizes[count] != 0) count++;
    Kernel k{entry, nullptr, count, {}, 0};
    if (CUresult r = d.cuModuleGetFunction(&k.function, module.module, entry); r != 0) {
        launch_error(user_context, std::string("no kernel ") + entry + " in the pipeline's module: " + error_text(r));
        return nullptr;
    }
    // The packed layout, where the driver tells each parameter's offset and
    // size, and they are the pipeline's argument sizes; else pointers.
    bool packed = d.cuFuncGetParamInfo != nullptr;
    for (size_t i = 0; packed && i < count; i++) {
        size_t offset = 0, size = 0;
        packed = d.cuFuncGetParamInfo(k.function, i, &offset, &size) == 0 && size == arg_sizes[i];
        k.offsets.push_back(offset);
        k.bytes = std::max(k.bytes, offset + size);
    }
    size_t offset = 0, size = 0;
    if (packed && d.cuFuncGetParamInfo(k.function, count, &offset, &size) == 0) packed = false;  // more than given
    if (!packed) {
        k.offsets.clear();
        k.bytes = 0;
    }
    module.kernels.push_back(std::move(k));
    return &module.kernels.back();
}

}  // namespace
}  // namespace hres

extern "C" int halide_cuda_initialize_kernels(void *user_context, void **state_ptr, const char *ptx, int) {
    using namespace hres;
    EnteredContext context;
    if (!context.context()) return launch_error(user_context, context.problem());
    const unsigned long long id = context_id(context.context());
    std::lock_guard<std::mutex> lock(kernels_mutex);
    auto *pipeline = static_cast<PipelineKernels *>(*state_ptr);
    if (!pipeline) *state_ptr = pipeline = new PipelineKernels;
    if (module_in(pipeline, id)) return halide_error_code_success;
    // The pipeline's first call in this context: the driver compiles its PTX
    // (milliseconds), with the register cap Halide's runtime sets (64, or
    // HL_CUDA_JIT_MAX_REGISTERS for experiments).
    int option = 0;  // CU_JIT_MAX_REGISTERS
    unsigned max_registers = 64;
    if (const char *cap = std::getenv("HL_CUDA_JIT_MAX_REGISTERS")) max_registers = unsigned(std::atoi(cap));
    void *value = reinterpret_cast<void *>(uintptr_t(max_registers));
    CUmodule module = nullptr;
    if (CUresult r = driver().cuModuleLoadDataEx(&module, ptx, 1, &option, &value); r != 0) {
        return launch_error(user_context, "the driver cannot load the kernels: " + error_text(r));
    }
    pipeline->modules.push_back({id, module, {}});
    return halide_error_code_success;
}

extern "C" int halide_cuda_run(void *user_context, void *state_ptr, const char *entry_name, int blocks_x,
                               int blocks_y, int blocks_z, int threads_x, int threads_y, int threads_z,
                               int shared_mem_bytes, size_t arg_sizes[], void *args[], int8_t arg_is_buffer[]) {
    using namespace hres;
    EnteredContext context;
    if (!context.context()) return launch_error(user_context, context.problem());
    const unsigned long long id = context_id(context.context());
    const Kernel *kernel = nullptr;
    {
        std::lock_guard<std::mutex> lock(kernels_mutex);
        LoadedModule *module = module_in(static_cast<PipelineKernels *>(state_ptr), id);
        if (!module) {
            return launch_error(user_context,
                                std::string("kernel ") + entry_name + " launched before its module was loaded here");
        }
        kernel = kernel_in(user_context, *module, entry_name, arg_sizes);
        if (!kernel) return halide_error_code_gpu_device_error;
    }
    // A buffer argument is passed as its device address, which Halide keeps
    // in the buffer as a 64-bit integer.
    const auto value = [&](size_t i) -> void * {
        return arg_is_buffer[i] ? &static_cast<halide_buffer_t *>(args[i])->device : args[i];
    };
    const size_t count = kernel->args;
    constexpr size_t kMaxPacked = 4096, kMaxPointers = 256;
    alignas(16) unsigned char packed[kMaxPacked];
    size_t packed_bytes = kernel->bytes;
    void *extra[] = {reinterpret_cast<void *>(1), packed,         // CU_LAUNCH_PARAM_BUFFER_POINTER
                     reinterpret_cast<void *>(2), &packed_bytes,  // CU_LAUNCH_PARAM_BUFFER_SIZE
                     nullptr};                                    // CU_LAUNCH_PARAM_END
    void *pointers[kMaxPointers];
    void **params = nullptr, **extras = nullptr;
    if (!kernel->offsets.empty() && packed_bytes <= kMaxPacked) {
        for (size_t i = 0; i < count; i++) {
            unsigned char *to = packed + kernel->offsets[i];
            const void *from = value(i);
            switch (arg_sizes[i]) {  // Halide's scalars and buffers: stores of known size, not a call each
            case 1: std::memcpy(to, from, 1); break;
            case 2: std::memcpy(to, from, 2); break;
            case 4: std::memcpy(to, from, 4); break;
            case 8: std::memcpy(to, from, 8); break;
            default: std::memcpy(to, from, arg_sizes[i]);
            }
        }
        extras = extra;
    } else if (count <= kMaxPointers) {
        for (size_t i = 0; i < count; i++) pointers[i] = value(i);
        params = pointers;
    } else {
        return launch_error(user_context, std::string("kernel ") + entry_name + " has too many arguments");
    }
    if (CUresult r = driver().cuLaunchKernel(kernel->function, blocks_x, blocks_y, blocks_z, threads_x, threads_y,
                                             threads_z, shared_mem_bytes, current_stream, params, extras);
        r != 0) {
        return launch_error(user_context, std::string("cannot launch ") + entry_name + ": " + error_text(r));
    }
    return halide_error_code_success;
}

// The pipeline's modules stay loaded (see above): nothing to release.
extern "C" void halide_cuda_finalize_kernels(void *, void *) {}
