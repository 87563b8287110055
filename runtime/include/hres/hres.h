// hres: PyTorch-exact image resampling kernels (Halide, ahead-of-time compiled).
//
// Every entry point validates its arguments and returns a Status; nothing in the
// library aborts or exits the process. Images are 4-D (N, C, H, W) views with
// explicit element strides, so NCHW and NHWC memory are both just strides.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace hres {

enum class DType { u8, f32 };
enum class Device { cpu, cuda };

// A non-owning view of an N x C x H x W image. Strides are in elements.
struct Image {
    void *data = nullptr;
    DType dtype = DType::u8;
    Device device = Device::cpu;
    int64_t n = 0, c = 0, h = 0, w = 0;
    int64_t stride_n = 0, stride_c = 0, stride_h = 0, stride_w = 0;
};

// Contiguous planar (N, C, H, W) memory.
Image nchw(void *data, DType dtype, int64_t n, int64_t c, int64_t h, int64_t w,
           Device device = Device::cpu);
// Contiguous interleaved (N, H, W, C) memory ("channels last").
Image nhwc(void *data, DType dtype, int64_t n, int64_t c, int64_t h, int64_t w,
           Device device = Device::cpu);

size_t dtype_size(DType dtype);

class Status {
public:
    Status() = default;
    static Status error(std::string message) { return Status(std::move(message)); }
    bool ok() const { return message_.empty(); }
    explicit operator bool() const { return ok(); }
    const std::string &message() const { return message_; }

private:
    explicit Status(std::string message)
        : message_(message.empty() ? std::string("unknown error") : std::move(message)) {}
    std::string message_;
};

// ---------------------------------------------------------------------------
// resize: torch.nn.functional.interpolate for 4-D input.
enum class Interp { nearest, nearest_exact, bilinear, bicubic };

struct ResizeOptions {
    Interp mode = Interp::bilinear;
    bool antialias = false;      // bilinear and bicubic only
    bool align_corners = false;  // bilinear and bicubic only
    // PyTorch's scale_factor with recompute_scale_factor=False: when > 0 the
    // source coordinate is mapped with 1/scale instead of in/out (ignored with
    // align_corners, as in PyTorch). 0 means "derive from the sizes".
    double scale_h = 0.0;
    double scale_w = 0.0;
};

// out's n, c, dtype and device must equal in's; out's h and w are the target size.
Status resize(const Image &in, const Image &out, const ResizeOptions &options);

// The output extent PyTorch derives from a scale factor: trunc(double(in) * scale).
// Fails when the result is not a positive size.
Status scaled_size(int64_t in, double scale, int64_t *out);

// ---------------------------------------------------------------------------
// grid_sample and affine_grid_sample: torch.nn.functional.grid_sample on 4-D
// input, with the grid given or built from a 2x3 affine matrix per image
// exactly as torch.nn.functional.affine_grid builds it (docs/SEMANTICS.md 6, 7).
//
// float32 follows PyTorch. uint8 (which PyTorch does not offer) is computed
// as float32 on the uint8 values, then rounded half to even and saturated to
// 0..255, i.e. what torchvision does when it samples a uint8 image.
enum class Padding { zeros, border, reflection };

struct GridSampleOptions {
    Interp mode = Interp::bilinear;  // bilinear, nearest (ties to even) or bicubic
    Padding padding = Padding::zeros;
    bool align_corners = false;
};

// grid: N x H_out x W_out x 2 contiguous float32 (x, y) in [-1, 1] image
// coordinates, on the images' device (a device pointer for CUDA images);
// out is N x C x H_out x W_out.
Status grid_sample(const Image &in, const float *grid, const Image &out, const GridSampleOptions &options);

// theta: N x 2 x 3 contiguous float32, on the images' device (a device
// pointer for CUDA images). out's h and w
// are affine_grid's size; n and c equal in's. The grid is never stored.
Status affine_grid_sample(const Image &in, const float *theta, const Image &out,
                          const GridSampleOptions &options);

// ---------------------------------------------------------------------------
// flip: torch.flip over W (horizontal), H (vertical) or both. out has in's
// shape; each keeps its own layout (a horizontal flip of NHWC memory reverses
// whole pixels, never channels).
enum class FlipAxes { horizontal, vertical, both };

Status flip(const Image &in, const Image &out, FlipAxes axes);

// ---------------------------------------------------------------------------
// Execution controls.

// x86 instruction-set variant. `automatic` picks the best the CPU supports.
enum class Isa { automatic, avx512, avx2, sse41 };

// Restricts the x86 variants the kernels may use. Halide picks a variant at a
// kernel's first call and keeps it, so call this before any kernel runs; it
// fails if the CPU lacks the ISA or a kernel has already run with another one.
Status set_isa(Isa isa);
// The best ISA this CPU supports, and whether it supports a given one.
Isa best_cpu_isa();
bool cpu_supports(Isa isa);
// The ISA kernels use (the forced one, else best_cpu_isa()).
Isa active_isa();

// Threads in Halide's pool: 0 (and any negative count) = one per core; at
// most kMaxThreads, larger counts are clamped to it. Returns the previous
// count of Halide's pool.
constexpr int kMaxThreads = 256;
int set_num_threads(int threads);

// Which kernel the calling thread's last resize, grid_sample,
// affine_grid_sample or flip call ran, and why: the kernel table's row
// (kernels/kernels.toml), the rule of it that the call met, and the CPU the
// rule was matched on. Empty strings before the thread's first call that
// got as far as choosing a kernel (a refused call changes nothing).
struct KernelChoice {
    const char *kernel = "";     // e.g. "resize_bilinear_u8_rgb_rows"
    const char *rule = "";       // e.g. "resize bilinear u8 on cpu: layout rgb, tile_wide"
    const char *why = "";        // what the kernel is for
    const char *x86_entry = "";  // CPU calls: the x86 entry matched on, e.g. "avx2"
    bool amd = false;            // CPU calls: whether an AMD CPU's rules applied
};
KernelChoice last_kernel_choice();

// Bicubic grid sampling with zeros or border padding on x86 reads its taps
// from a copy of the input with margins padded as that mode pads (faster:
// nothing to pick or mask), made at each call, when that copy takes at most
// this many bytes (default 32 MiB; 0 = never); larger inputs, and reflection
// padding, are sampled in place. Returns the previous value.
size_t set_padded_copy_limit(size_t bytes);

// ---------------------------------------------------------------------------
// CUDA. Every op also runs on NVIDIA GPUs: give it images with
// device == Device::cuda whose data (and grid / theta) are CUDA device
// pointers: from cudaMalloc, a PyTorch CUDA tensor's data_ptr(), or
// cuda_malloc below. Kernels run in the calling thread's current CUDA
// context, or when it has none in device 0's primary context (the one the
// CUDA runtime API and PyTorch use), on the calling thread's stream
// (set_cuda_stream). Like CUDA kernels they are asynchronous: the call
// returns once the kernel is queued; synchronise the stream before reading
// the output on the host. Each kernel's module loads at its first call in a
// context (the driver compiles it for the GPU then), not on later calls.
// Without a usable GPU, CUDA calls return an error Status.

// Whether a CUDA driver and at least one GPU are present (cuda_status says
// why not); and GPU 0's name.
bool cuda_available();
Status cuda_status();
std::string cuda_device_name();

// The stream (a CUstream / cudaStream_t) kernels launched from this thread
// run on; nullptr (the default) is the legacy default stream.
void set_cuda_stream(void *stream);
void *cuda_stream();

// Sets the calling thread's stream for the lifetime of the object.
class ScopedCudaStream {
public:
    explicit ScopedCudaStream(void *stream) : previous_(cuda_stream()) { set_cuda_stream(stream); }
    ~ScopedCudaStream() { set_cuda_stream(previous_); }
    ScopedCudaStream(const ScopedCudaStream &) = delete;
    ScopedCudaStream &operator=(const ScopedCudaStream &) = delete;

private:
    void *previous_;
};

// Device memory for callers without the CUDA runtime API (the command line,
// tests), in the same context the kernels use. Copies first wait for this
// thread's stream, so they see the results of kernels queued before them.
Status cuda_malloc(size_t bytes, void **ptr);
Status cuda_free(void *ptr);
Status cuda_upload(void *device_dst, const void *host_src, size_t bytes);
Status cuda_download(void *host_dst, const void *device_src, size_t bytes);
// Waits until the work queued on this thread's stream has finished.
Status cuda_synchronize();

// Device memory owned by the object (cuda_malloc / cuda_free above).
class CudaBuffer {
public:
    CudaBuffer() = default;
    ~CudaBuffer() { reset(); }
    CudaBuffer(CudaBuffer &&other) noexcept : ptr_(other.ptr_) { other.ptr_ = nullptr; }
    CudaBuffer &operator=(CudaBuffer &&other) noexcept {
        if (this != &other) {
            reset();
            ptr_ = other.ptr_;
            other.ptr_ = nullptr;
        }
        return *this;
    }
    CudaBuffer(const CudaBuffer &) = delete;
    CudaBuffer &operator=(const CudaBuffer &) = delete;

    // Replaces the memory with `bytes` bytes copied from `host`.
    Status upload(const void *host, size_t bytes);
    void *get() const { return ptr_; }
    void reset() {
        (void)cuda_free(ptr_);
        ptr_ = nullptr;
    }

private:
    void *ptr_ = nullptr;
};

const char *to_string(Interp mode);
const char *to_string(DType dtype);
const char *to_string(Isa isa);
const char *to_string(Padding padding);
const char *to_string(FlipAxes axes);
// Parse the names to_string gives ("nearest-exact", "reflection", "both", "avx2", ...).
bool parse(const std::string &text, Interp *mode);
bool parse(const std::string &text, Isa *isa);
bool parse(const std::string &text, Padding *padding);
bool parse(const std::string &text, FlipAxes *axes);

}  // namespace hres
