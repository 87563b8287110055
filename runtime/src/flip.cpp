// hres::flip: argument checks and dispatch over (device, dtype) to the kernels of
// generators/flip_generator.cpp.
#include "internal.h"

#include "hres_flip_f32.h"
#include "hres_flip_u8.h"
#include "hres_flip_f32_cuda.h"
#include "hres_flip_u8_cuda.h"

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
    return internal::run_kernel("flip", [&] {
        return kernel(views.input.get(), horizontal, vertical, views.output.get());
    });
}

}  // namespace hres
