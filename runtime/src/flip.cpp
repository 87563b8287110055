// hres::flip: argument checks and dispatch over (device, dtype) to the kernels of
// generators/flip_generator.cpp.
#include "internal.h"

#include "hres_flip_f32.h"
#include "hres_flip_u8.h"
#include "hres_flip_f32_cuda.h"
#include "hres_flip_u8_cuda.h"
#include "hres_flip_u8_rgb_rows.h"

namespace hres {

Status flip(const Image &in, const Image &out, FlipAxes axes) {
    if (Status s = internal::check_pair(in, out); !s) return Status::error("flip: " + s.message());
    if (in.h != out.h || in.w != out.w) {
        return Status::error("flip: output must have the input's height and width");
    }
    if (axes != FlipAxes::horizontal && axes != FlipAxes::vertical && axes != FlipAxes::both) {
        return Status::error("flip: invalid FlipAxes value");
    }
    const bool horizontal = axes != FlipAxes::vertical;
    const bool vertical = axes != FlipAxes::horizontal;
    internal::CopyViews views(in, out);
    // [device][dtype]
    constexpr decltype(&hres_flip_u8) kFlip[2][2] = {{hres_flip_u8, hres_flip_f32},
                                                     {hres_flip_u8_cuda, hres_flip_f32_cuda}};
    auto kernel = kFlip[internal::device_index(in)][internal::dtype_index(views.in)];
    // NHWC RGB uint8 mirrored along x on the CPU: the kernel that reads each
    // row mirrored as one flat run first (schedules/flip_x86.cpp has why
    // and its times on the Sapphire Rapids entry), on the entries where it
    // was faster. It needs byte permutes across a whole register: the
    // Sapphire Rapids entry has them (vpermb, vpermt2b); the AVX2 entry
    // builds them from in-lane shuffles, and took 2.0-2.7x the general
    // kernel's time there (build machine, AMD Zen 3, `hres flip --isa avx2
    // --bench 300`, 1 thread, 3 rounds: 1x3x1080x1920 293-366 -> 689-781
    // us); the SSE4.1 entry, with 16-byte vectors either way, took 0.5-0.9x
    // the general kernel's staged copy's time (3 rounds each for an earlier
    // version, which allocated its row buffer per row, and for this one:
    // 810-905 -> 442-480 and 948-1435 -> 664-1012 us; 224x224 19-36 ->
    // 11-13 and 20-38 -> 13-22 us).
    const auto rgb_rows_faster = [] { return internal::sapphire_rapids_entry_runs() || active_isa() == Isa::sse41; };
    if (horizontal && internal::dense_rgb_u8(views.in, views.out) && rgb_rows_faster()) kernel = hres_flip_u8_rgb_rows;
    return internal::run_kernel("flip", [&] {
        return kernel(views.input.get(), horizontal, vertical, views.output.get());
    });
}

}  // namespace hres
