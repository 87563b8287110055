// Buffer conventions shared by every generator: 4-D (x, y, c, n) buffers with
// free strides on x and c, so one library serves NCHW and NHWC memory, and
// the layout facts handed to the schedules.
#pragma once

#include "Halide.h"
#include "schedules/layout.h"

namespace hres {

template<typename Buf>
void accept_any_layout(Buf &buffer) {
    buffer.dim(0).set_stride(Halide::Expr());
}

template<typename In, typename Out>
LayoutConditions layout_of(In &input, Out &output) {
    return {input.dim(0).stride(), output.dim(0).stride(), input.dim(2).stride(), output.dim(2).stride(),
            output.dim(2).extent()};
}

}  // namespace hres
