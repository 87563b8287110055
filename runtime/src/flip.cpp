// hres::flip: argument checks, the call described for the dispatcher
// (dispatch.h), and the kernel it chooses.
#include "dispatch.h"
#include "internal.h"

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
    internal::CopyViews views(in, out);  // uint8 RGBA pixels as one float32 channel
    internal::Call call{internal::Op::flip, views.in.device, views.in.dtype};
    call.layout = internal::layout_of(views.in, views.out);
    call.facts = horizontal ? uint32_t(internal::Fact::mirrors_x) : 0u;
    const internal::Kernel *kernel = internal::choose(call);
    if (!kernel) return internal::no_kernel("flip");
    return internal::run_kernel("flip", [&] {
        return kernel->run.flip(views.input.get(), horizontal, vertical, views.output.get());
    });
}

}  // namespace hres
