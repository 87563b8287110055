// The dispatcher: each call described once (Call), the CPU described once
// (Cpu), and the kernel the first row of the kernel table (kernels/kernels.toml,
// compiled into kernel_registry.cpp by kernels/table.py) that serves both.
// No Halide headers here: the tests include it to dispatch as another CPU.
#pragma once

#include "hres/hres.h"

#include <cstdint>
#include <string>

struct halide_buffer_t;

namespace hres::internal {

enum class Op : uint8_t { resize, grid_sample, affine_grid_sample, flip, resize_taps };

// The layout class of a call's two images, both alike (else mixed): unit x
// stride; dense NHWC of 3 or of 4 channels; dense NHWC of other counts.
enum class Layout : uint8_t { planar, rgb, rgba, interleaved, mixed };
Layout layout_of(const Image &in, const Image &out);

// Size facts a kernel's rule may require (the table's `facts`).
namespace Fact {
enum : uint32_t {
    keeps_width = 1u << 0,     // resize: out.w == in.w and the horizontal pass is the identity there
    rows_not_up = 1u << 1,     // resize: out.h <= in.h
    two_columns = 1u << 2,     // in.w >= 2
    tile_wide = 1u << 3,       // resize: in.w and out.w at least a 16-lane tile
    vertical_first = 1u << 4,  // float32 resize: out.h within the fraction of in.h for which the
                               // vertical pass goes first (kernels/knobs.toml, vertical_first_below)
    copy_fits = 1u << 5,       // sampling: the padded copy within set_padded_copy_limit
    word_span = 1u << 6,       // sampling: the input spans at least one 32-bit word of elements
    three_channels = 1u << 7,  // c == 3
    mirrors_x = 1u << 8,       // flip: horizontal or both
};
}

// The CPU as the rules see it: the x86 entry the kernels run (the first of
// kX86Entries the CPU has, at most set_isa's level) and the vendor.
struct Cpu {
    int entry = 0;  // index into kX86Entries
    bool amd = false;
};
Cpu dispatch_cpu();
// For tests: dispatch as on another CPU ("avx2,amd", "avx512_spr"), or as
// on this one again (""). Every kernel is built for every entry and gives the
// same results on each, so any row can run here.
Status dispatch_as(const std::string &cpu);

// A call, described once by its op (each op's describe()), with the CPU its
// rules are matched on.
struct Call {
    Op op;
    Device device;
    DType dtype;
    Interp mode = Interp::nearest;
    bool antialias = false;
    Padding padding = Padding::zeros;
    Layout layout = Layout::mixed;
    uint32_t facts = 0;
    Cpu cpu = dispatch_cpu();
};

// The x86 levels in order, sse41 < avx2 < avx512 (automatic: above all).
constexpr int isa_rank(Isa isa) {
    return isa == Isa::sse41 ? 0 : isa == Isa::avx2 ? 1 : isa == Isa::avx512 ? 2 : 3;
}

// The calling forms of the kernels: one entry point of the generator's
// signature; the table's `call` names the form.
enum class Form : uint8_t { resize_nearest, resize_filtered, resize_vertical, resize_tabled, resize_taps, sample, flip };
struct EntryPoint {
    using Nearest = int (*)(halide_buffer_t *, double, double, bool, halide_buffer_t *);
    using Filtered = int (*)(halide_buffer_t *, bool, double, double, bool, halide_buffer_t *);
    // Filtered with host tap tables per axis (x, then y): start, weight, shift.
    using Tabled = int (*)(halide_buffer_t *, bool, double, double, bool, halide_buffer_t *, halide_buffer_t *, int,
                           halide_buffer_t *, halide_buffer_t *, int, halide_buffer_t *);
    // in extent, out extent, align_corners, scale -> start, weight, shift, taps.
    using Taps = int (*)(int, int, bool, double, halide_buffer_t *, halide_buffer_t *, halide_buffer_t *,
                         halide_buffer_t *);
    // input, grid or theta, padding, align_corners, output.
    using Sample = int (*)(halide_buffer_t *, halide_buffer_t *, int, bool, halide_buffer_t *);
    using Flip = int (*)(halide_buffer_t *, bool, bool, halide_buffer_t *);

    Form form;
    union {  // the one of `form`
        Nearest nearest;
        Filtered filtered;
        Tabled tabled;
        Taps taps;
        Sample sample;
        Flip flip;
    };
    constexpr EntryPoint(Form f, Nearest e) : form(f), nearest(e) {}
    constexpr EntryPoint(Form f, Filtered e) : form(f), filtered(e) {}
    constexpr EntryPoint(Form f, Tabled e) : form(f), tabled(e) {}
    constexpr EntryPoint(Form f, Taps e) : form(f), taps(e) {}
    constexpr EntryPoint(Form f, Sample e) : form(f), sample(e) {}
    constexpr EntryPoint(Form f, Flip e) : form(f), flip(e) {}

    // The table's `call` forms, as kernel_registry.cpp names them.
    static constexpr EntryPoint of_resize_nearest(Nearest e) { return {Form::resize_nearest, e}; }
    static constexpr EntryPoint of_resize_filtered(Filtered e) { return {Form::resize_filtered, e}; }
    static constexpr EntryPoint of_resize_vertical(Filtered e) { return {Form::resize_vertical, e}; }
    static constexpr EntryPoint of_resize_tabled(Tabled e) { return {Form::resize_tabled, e}; }
    static constexpr EntryPoint of_resize_taps(Taps e) { return {Form::resize_taps, e}; }
    static constexpr EntryPoint of_grid_sample(Sample e) { return {Form::sample, e}; }
    static constexpr EntryPoint of_affine_grid_sample(Sample e) { return {Form::sample, e}; }
    static constexpr EntryPoint of_flip(Flip e) { return {Form::flip, e}; }
};

constexpr uint8_t kAny = 0xff;
template<typename E>
constexpr uint8_t bit(E value) {
    return uint8_t(1u << static_cast<uint32_t>(value));
}
enum class Flag : uint8_t { no, yes };  // antialias as a bit index

// The names, rules and reasons of the rows, one 0-terminated text after
// another (kernel_registry.cpp).
extern const char kKernelText[];

// One row of the kernel table: what it serves, what its rule requires, how
// it is called.
struct Kernel {
    uint16_t name_at, rule_at, why_at;  // offsets into kKernelText
    Op op;
    Device device;
    uint8_t dtypes, modes, antialias, paddings, layouts, entries;  // bit masks; kAny: any
    bool amd;                                                      // AMD CPUs only
    uint16_t facts;                                                // Fact bits all required
    int16_t tables;                                                // its resize_taps helper's row, or -1
    bool splits_batch;  // with few threads per image, one image per call
    EntryPoint run;

    const char *name() const { return kKernelText + name_at; }  // the table's; its library is hres_<name>
    const char *rule() const { return kKernelText + rule_at; }  // the rule, as text (explain)
    const char *why() const { return kKernelText + why_at; }    // the table's reason for the kernel
};

struct X86Entry {
    const char *name;
    Isa isa;
    bool llvm_gathers;  // kernels built with LLVM's loop vectorizer gather in hardware here
    int features[16];  // halide_target_feature_t values; 0-terminated (0 is no x86 feature)
};

// The registry (kernel_registry.cpp): the rows in table order, grouped by
// op and device (kKernelGroups[op][device] = first row, one past the last).
extern const Kernel kKernels[];
extern const int kKernelCount;
extern const int kKernelGroups[5][2][2];
extern const X86Entry kX86Entries[];
extern const int kX86EntryCount;
// Whether this CPU has entry `entry`'s features.
bool x86_entry_usable(int entry);

// The first kernel that serves `call` on `call.cpu`, recorded as the
// calling thread's last choice; nullptr if none does (an internal error:
// every op and device ends with an unconditional row).
const Kernel *choose(const Call &call);

// For measurements: rows the dispatcher skips (comma-separated names; ""
// skips none), so that a variant can be timed against what runs without it.
// The general rows cannot be skipped. Fails on a name the table lacks.
Status disable_kernels(const std::string &names);

// The thread's last choice (nullptr before any) and the CPU it was made on.
const Kernel *last_choice(Cpu *cpu = nullptr);

// A Status for a call no row serves.
Status no_kernel(const char *op);

}  // namespace hres::internal
