// Wrapper core: images, argument checks, Halide error capture, ISA and thread
// controls. Op entry points live in one file each (resize.cpp, ...).
#include "dispatch.h"
#include "internal.h"
#include "scratch.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <thread>

namespace hres {

Image nchw(void *data, DType dtype, int64_t n, int64_t c, int64_t h, int64_t w, Device device) {
    return {data, dtype, device, n, c, h, w, c * h * w, h * w, w, 1};
}

Image nhwc(void *data, DType dtype, int64_t n, int64_t c, int64_t h, int64_t w, Device device) {
    return {data, dtype, device, n, c, h, w, h * w * c, 1, w * c, c};
}

size_t dtype_size(DType dtype) { return dtype == DType::u8 ? 1 : 4; }

Status scaled_size(int64_t in, double scale, int64_t *out) {
    if (out == nullptr) return Status::error("scaled_size: null output pointer");
    if (in <= 0) return Status::error("scaled_size: input size must be positive, got " + std::to_string(in));
    if (!std::isfinite(scale) || scale <= 0) {
        return Status::error("scale factor must be a positive finite number, got " + std::to_string(scale));
    }
    const double size = std::trunc(double(in) * scale);
    if (size < 1) {
        return Status::error("scale factor " + std::to_string(scale) + " maps size " + std::to_string(in) +
                             " to " + std::to_string(int64_t(size)) + "; sizes must be greater than 0");
    }
    if (size > double(std::numeric_limits<int32_t>::max())) {
        return Status::error("scale factor " + std::to_string(scale) + " gives a size beyond 2^31");
    }
    *out = int64_t(size);
    return {};
}

// ---------------------------------------------------------------------------
// Names.

const char *to_string(Interp mode) {
    switch (mode) {
    case Interp::nearest: return "nearest";
    case Interp::nearest_exact: return "nearest-exact";
    case Interp::bilinear: return "bilinear";
    case Interp::bicubic: return "bicubic";
    }
    return "invalid";
}

const char *to_string(DType dtype) {
    switch (dtype) {
    case DType::u8: return "u8";
    case DType::f32: return "f32";
    }
    return "invalid";
}

const char *to_string(Isa isa) {
    switch (isa) {
    case Isa::automatic: return "auto";
    case Isa::avx512: return "avx512";
    case Isa::avx2: return "avx2";
    case Isa::sse41: return "sse41";
    }
    return "invalid";
}

const char *to_string(Padding padding) {
    switch (padding) {
    case Padding::zeros: return "zeros";
    case Padding::border: return "border";
    case Padding::reflection: return "reflection";
    }
    return "invalid";
}

const char *to_string(FlipAxes axes) {
    switch (axes) {
    case FlipAxes::horizontal: return "horizontal";
    case FlipAxes::vertical: return "vertical";
    case FlipAxes::both: return "both";
    }
    return "invalid";
}

namespace {

template<typename Enum>
bool parse_name(const std::string &text, std::initializer_list<Enum> values, Enum *out) {
    for (Enum value : values) {
        if (text == to_string(value)) {
            *out = value;
            return true;
        }
    }
    return false;
}

}  // namespace

bool parse(const std::string &text, Interp *mode) {
    return parse_name(text, {Interp::nearest, Interp::nearest_exact, Interp::bilinear, Interp::bicubic}, mode);
}

bool parse(const std::string &text, Isa *isa) {
    return parse_name(text, {Isa::automatic, Isa::avx512, Isa::avx2, Isa::sse41}, isa);
}

bool parse(const std::string &text, Padding *padding) {
    return parse_name(text, {Padding::zeros, Padding::border, Padding::reflection}, padding);
}

bool parse(const std::string &text, FlipAxes *axes) {
    return parse_name(text, {FlipAxes::horizontal, FlipAxes::vertical, FlipAxes::both}, axes);
}

// ---------------------------------------------------------------------------
// ISA selection. Halide's multi-target wrappers ask
// halide_can_use_target_features() for each variant, most specific first, at a
// kernel's first call; we answer "no" to variants above the forced ISA.

namespace {

constexpr int kFeatureWords = (halide_target_feature_end + 63) / 64;

struct FeatureMask {
    uint64_t words[kFeatureWords] = {};
    void add(int feature) { words[feature / 64] |= uint64_t(1) << (feature % 64); }
    bool has(int feature) const { return words[feature / 64] >> (feature % 64) & 1; }
    bool intersects(const uint64_t *other, int count) const {
        for (int i = 0; i < std::min(count, kFeatureWords); i++) {
            if (words[i] & other[i]) return true;
        }
        return false;
    }
};

// Features that put a variant above `level`: those of the x86 entries
// (kernels/kernels.toml) above it that no entry at or below it has.
FeatureMask features_above(Isa level) {
    FeatureMask within, beyond;
    for (int e = 0; e < internal::kX86EntryCount; e++) {
        FeatureMask &side = internal::isa_rank(internal::kX86Entries[e].isa) > internal::isa_rank(level) ? beyond : within;
        for (int f : internal::kX86Entries[e].features) {
            if (f) side.add(f);
        }
    }
    FeatureMask only;
    for (int f = 0; f < halide_target_feature_end; f++) {
        if (beyond.has(f) && !within.has(f)) only.add(f);
    }
    return only;
}

std::atomic<Isa> forced_isa{Isa::automatic};
std::atomic<bool> kernels_started{false};

int can_use_target_features(int count, const uint64_t *features) {
    if (!halide_default_can_use_target_features(count, features)) return 0;
    static const FeatureMask above_avx2 = features_above(Isa::avx2), above_sse41 = features_above(Isa::sse41);
    switch (forced_isa.load()) {
    case Isa::avx2: return above_avx2.intersects(features, count) ? 0 : 1;
    case Isa::sse41: return above_sse41.intersects(features, count) ? 0 : 1;
    default: return 1;
    }
}

// Halide reports errors through this handler; the pipeline then returns
// non-zero and the message is picked up by run_kernel on the same thread.
// (Errors inside parallel tasks are reported on worker threads, so the last
// message is also kept globally.)
thread_local std::string last_error;
std::mutex global_error_mutex;
std::string global_error;

void on_halide_error(void *, const char *message) {
    std::string text = message ? message : "unknown Halide error";
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    last_error = text;
    std::lock_guard<std::mutex> lock(global_error_mutex);
    global_error = text;
}

void install_handlers() {
    static std::once_flag once;
    std::call_once(once, [] {
        halide_set_error_handler(on_halide_error);
        halide_set_custom_can_use_target_features(can_use_target_features);
        internal::install_scratch_allocator();
        internal::install_cuda_hooks();
    });
}

}  // namespace

bool cpu_supports(Isa isa) {
    if (isa == Isa::automatic) return true;
    for (int e = 0; e < internal::kX86EntryCount; e++) {
        if (internal::kX86Entries[e].isa == isa && internal::x86_entry_usable(e)) return true;
    }
    return false;
}

Isa best_cpu_isa() {
    static const Isa best = [] {
        for (Isa isa : {Isa::avx512, Isa::avx2, Isa::sse41}) {
            if (cpu_supports(isa)) return isa;
        }
        return Isa::sse41;  // Halide's last variant is the baseline and runs anyway
    }();
    return best;
}

Isa active_isa() {
    Isa forced = forced_isa.load();
    return forced == Isa::automatic ? best_cpu_isa() : forced;
}

Status set_isa(Isa isa) {
    if (isa != Isa::automatic && isa != Isa::avx512 && isa != Isa::avx2 && isa != Isa::sse41) {
        return Status::error("set_isa: invalid Isa value");
    }
    if (!cpu_supports(isa)) {
        return Status::error(std::string("this CPU does not support ") + to_string(isa));
    }
    install_handlers();
    if (kernels_started.load() && active_isa() != (isa == Isa::automatic ? best_cpu_isa() : isa)) {
        return Status::error("set_isa must be called before the first kernel runs "
                             "(Halide fixes each kernel's variant at its first call)");
    }
    forced_isa.store(isa);
    return {};
}

namespace {
std::atomic<int> requested_threads{0};
}  // namespace

int set_num_threads(int threads) {
    // Halide's pool holds at most kMaxThreads workers; below 0 means 0.
    threads = std::clamp(threads, 0, kMaxThreads);
    requested_threads.store(threads);
    return halide_set_num_threads(threads);
}

namespace internal {

int pool_threads() {
    if (int threads = requested_threads.load(); threads > 0) return threads;
    // Halide's own default, which it reads once, when its pool starts: read
    // once here too, not per kernel call.
    static const int default_threads = [] {
        for (const char *name : {"HL_NUM_THREADS", "HL_NUMTHREADS"}) {
            if (const char *value = std::getenv(name)) {
                if (int threads = std::atoi(value); threads > 0) return threads;
            }
        }
        return int(std::max(1u, std::thread::hardware_concurrency()));
    }();
    return default_threads;
}

namespace {

bool packable(const Image &image) {
    return image.dtype == DType::u8 && image.c == 4 && image.stride_c == 1 && image.stride_w == 4 &&
           image.stride_h % 4 == 0 && image.stride_n % 4 == 0 && reinterpret_cast<uintptr_t>(image.data) % 4 == 0;
}

Image packed(const Image &image) {
    Image view = image;
    view.dtype = DType::f32;
    view.c = 1;
    view.stride_w = 1;
    view.stride_h = image.stride_h / 4;
    view.stride_n = image.stride_n / 4;
    return view;
}

}  // namespace

CopyViews::CopyViews(const Image &source, const Image &result, bool pack)
    : in(pack && packable(source) && packable(result) ? packed(source) : source),
      out(in.dtype == source.dtype ? result : packed(result)),  // packed exactly when `in` is
      input(in),
      output(out) {}

Image batch_item(const Image &image, int64_t i) {
    Image item = image;
    item.n = 1;
    item.data = static_cast<char *>(image.data) + i * image.stride_n * int64_t(dtype_size(image.dtype));
    return item;
}

}  // namespace internal

// ---------------------------------------------------------------------------
// Argument checks and kernel calls.

namespace internal {

HalideView::HalideView(const Image &image) {
    const int64_t extents[4] = {image.w, image.h, image.c, image.n};
    const int64_t strides[4] = {image.stride_w, image.stride_h, image.stride_c, image.stride_n};
    for (int i = 0; i < 4; i++) {
        dims[i] = halide_dimension_t(0, int32_t(extents[i]), int32_t(strides[i]));
    }
    buffer = halide_buffer_t();
    buffer.type = image.dtype == DType::u8 ? halide_type_t(halide_type_uint, 8)
                                           : halide_type_t(halide_type_float, 32);
    buffer.dimensions = 4;
    buffer.dim = dims;
    attach(&buffer, image.data, image.device);
}

DenseFloats::DenseFloats(const float *data, Device device, std::initializer_list<int64_t> extents) {
    buffer = halide_buffer_t();
    int i = 0;
    int64_t stride = 1;
    for (int64_t extent : extents) {
        dims[i++] = halide_dimension_t(0, int32_t(extent), int32_t(stride));
        stride *= extent;
    }
    buffer.type = halide_type_t(halide_type_float, 32);
    buffer.dimensions = i;
    buffer.dim = dims;
    attach(&buffer, const_cast<float *>(data), device);
}

int64_t element_span(const Image &image) {
    const int64_t extents[4] = {image.n, image.c, image.h, image.w};
    const int64_t strides[4] = {image.stride_n, image.stride_c, image.stride_h, image.stride_w};
    int64_t last = 0;
    for (int i = 0; i < 4; i++) {
        int64_t term;
        if (__builtin_mul_overflow(extents[i] - 1, strides[i], &term) ||
            __builtin_add_overflow(last, term, &last)) {
            return -1;
        }
    }
    return last + 1;
}

namespace {

std::string shape_text(const Image &image) {
    return std::to_string(image.n) + "x" + std::to_string(image.c) + "x" + std::to_string(image.h) + "x" +
           std::to_string(image.w);
}

}  // namespace

Status check_image(const Image &image, const char *what) {
    const std::string name = what;
    if (image.dtype != DType::u8 && image.dtype != DType::f32) {
        return Status::error(name + ": invalid dtype value");
    }
    if (image.device != Device::cpu && image.device != Device::cuda) {
        return Status::error(name + ": invalid device value");
    }
    if (image.n <= 0 || image.c <= 0 || image.h <= 0 || image.w <= 0) {
        return Status::error(name + ": sizes must be positive, got " + shape_text(image));
    }
    if (image.data == nullptr) return Status::error(name + ": data pointer is null");
    constexpr int64_t kMax32 = std::numeric_limits<int32_t>::max();
    const int64_t extents[4] = {image.n, image.c, image.h, image.w};
    const int64_t strides[4] = {image.stride_n, image.stride_c, image.stride_h, image.stride_w};
    for (int i = 0; i < 4; i++) {
        if (extents[i] > kMax32) {
            return Status::error(name + ": size " + shape_text(image) + " exceeds 2^31-1 in one dimension");
        }
        if (strides[i] < 0 || strides[i] > kMax32) {
            return Status::error(name + ": strides must lie in [0, 2^31-1]");
        }
    }
    const int64_t span = element_span(image);
    int64_t bytes;
    if (span < 0 || __builtin_mul_overflow(span, int64_t(dtype_size(image.dtype)), &bytes)) {
        return Status::error(name + ": size " + shape_text(image) + " overflows the addressable byte count");
    }
    if (span > kMax32) {
        return Status::error(name + ": " + shape_text(image) +
                             " spans more than 2^31-1 elements, beyond the kernels' 32-bit indexing");
    }
    return {};
}

Status check_pair(const Image &in, const Image &out) {
    if (Status s = check_image(in, "input"); !s) return s;
    if (Status s = check_image(out, "output"); !s) return s;
    if (in.dtype != out.dtype) {
        return Status::error(std::string("input and output dtypes differ (") + to_string(in.dtype) + " vs " +
                             to_string(out.dtype) + ")");
    }
    if (in.device != out.device) return Status::error("input and output are on different devices");
    if (in.device == Device::cuda) {
        if (Status s = cuda_status(); !s) return s;
    }
    if (in.n != out.n || in.c != out.c) {
        return Status::error("input and output must have the same batch and channel counts, got " +
                             shape_text(in) + " and " + shape_text(out));
    }
    if (overlaps(in.data, size_t(element_span(in)) * dtype_size(in.dtype), out)) {
        return Status::error("input and output memory overlap");
    }
    if (!distinct_elements(out)) {
        return Status::error("output elements overlap (strides n " + std::to_string(out.stride_n) + ", c " +
                             std::to_string(out.stride_c) + ", h " + std::to_string(out.stride_h) + ", w " +
                             std::to_string(out.stride_w) + " for " + shape_text(out) +
                             "): every element needs its own address");
    }
    return {};
}

// Whether every element of `image` has an address of its own: its axes of
// more than one element, by increasing stride, each step past the whole
// extent of the ones before (PyTorch refuses outputs that fail this too).
bool distinct_elements(const Image &image) {
    std::pair<int64_t, int64_t> axes[4] = {
        {image.stride_n, image.n}, {image.stride_c, image.c}, {image.stride_h, image.h}, {image.stride_w, image.w}};
    std::sort(std::begin(axes), std::end(axes));
    int64_t covered = 1;  // elements the axes so far span, as a stride
    for (auto [stride, extent] : axes) {
        if (extent == 1) continue;
        if (stride < covered) return false;
        covered = stride * extent;  // no overflow: check_image bounds both by 2^31-1
    }
    return true;
}

// Address ranges, compared as integers (pointers into different objects
// cannot be compared portably).
bool overlaps(const void *data, size_t bytes, const Image &image) {
    const uintptr_t begin = reinterpret_cast<uintptr_t>(data);
    const uintptr_t image_begin = reinterpret_cast<uintptr_t>(image.data);
    const uintptr_t image_end = image_begin + size_t(element_span(image)) * dtype_size(image.dtype);
    return begin < image_end && image_begin < begin + bytes;
}

Status run_kernel(const char *op, CallRef<int()> kernel) {
    install_handlers();
    kernels_started.store(true);
    last_error.clear();
    const int result = kernel();
    if (result == 0) return {};
    std::string message = last_error;
    if (message.empty()) {
        std::lock_guard<std::mutex> lock(global_error_mutex);
        message = global_error;
    }
    if (message.empty()) message = "Halide error code " + std::to_string(result);
    return Status::error(std::string(op) + ": " + message);
}

}  // namespace internal
}  // namespace hres
