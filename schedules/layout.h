// Memory-layout facts every schedule specialises on. Kernels take (x, y, c, n)
// buffers with free strides on x and c (generators/layout.h), so one library
// serves planar NCHW and interleaved NHWC memory.
#pragma once

#include "Halide.h"

#include <vector>

namespace hres {

// The densely interleaved pixels (channel counts) that x86 schedules give
// branches of their own, unless a kernel leaves one to its generic strides.
inline const std::vector<int> kPixelBranches = {3, 4};

struct LayoutConditions {
    Halide::Expr in_x_stride, out_x_stride;  // element strides of x
    Halide::Expr in_c_stride, out_c_stride;  // and of c
    Halide::Expr channels;                   // C

    // x has unit stride in input and output (NCHW).
    Halide::Expr planar() const { return in_x_stride == 1 && out_x_stride == 1; }
    // ... in the input alone.
    Halide::Expr planar_input() const { return in_x_stride == 1; }
    // Densely interleaved pixels of `count` channels in the input alone.
    Halide::Expr interleaved_input(int count) const {
        return channels == count && in_c_stride == 1 && in_x_stride == count;
    }
    // Densely interleaved pixels of `count` channels in input and output
    // (NHWC). Every stride is pinned to a constant so that specialising on
    // this turns the strided accesses into ones the compiler can vectorise.
    Halide::Expr interleaved(int count) const {
        return channels == count && in_c_stride == 1 && out_c_stride == 1 && in_x_stride == count &&
               out_x_stride == count;
    }
};

}  // namespace hres
