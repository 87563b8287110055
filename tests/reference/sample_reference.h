// Scalar reference implementation of torch.nn.functional.grid_sample (2-D),
// torch.nn.functional.affine_grid (2-D) and torch.flip over H / W, written
// from docs/SEMANTICS.md sections 6-8 (and checked against the Python oracle
// shared/spec_oracles/ref_gs.py and the PyTorch 2.11 conformance corpus).
//
// This is the test oracle the Halide kernels are compared against. All data is
// contiguous: images NCHW, grids N x H_out x W_out x 2 (x, y), thetas N x 2 x 3.
//
// What the float32 reference computes (op by op in float32, as ref_gs.py):
//   * unnormalisation in the CPU vectorised forms of SEMANTICS.md 6.1:
//       align_corners: (g + 1) * ((size - 1) / 2)
//       otherwise:     (g + 1) * (size / 2) - 0.5, one fused multiply-add as
//                      PyTorch's compiled kernel evaluates it
//   * reflection in the CPU vectorised form of SEMANTICS.md 6.2:
//       a = |u - low|, e = a - trunc(a / tw) * tw, r = min(e, tw - e) + low
//   * nearest: rne (std::nearbyint, ties to even) of the padded coordinate;
//   * bilinear: the four products formed first, summed left to right;
//   * bicubic: A = -0.75, taps padded then truncated, each row summed left to
//     right, then the rows weighted and summed left to right.
// uint8 (which PyTorch's grid_sample does not offer): the float32 reference
// on the uint8 values, then rounded half to even and saturated to 0..255.
//
// affine_grid: base coordinates are torch.linspace(-1, 1, n) in float32
// (element j = fma(step, j, -1) for j < n / 2, else fma(-step, n - 1 - j, 1),
// step = 2 / (n - 1); n <= 1 gives 0), multiplied by (n - 1) then divided by n
// without align_corners; grid x = fma(y, t01, x * t00) + t02 (y likewise with
// row 1). This matches PyTorch 2.11 CPU bit for bit on 99.7% of the corpus
// grids and within 1 ulp on the rest.
//
// Build note: sample_reference.cpp must be compiled with -ffp-contract=off
// (the products whose rounding matters also go through a volatile store).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hres_ref {

enum class GridMode { bilinear, nearest, bicubic };
enum class GridPadding { zeros, border, reflection };

struct GridSampleParams {
    GridMode mode = GridMode::bilinear;
    GridPadding padding = GridPadding::zeros;
    bool align_corners = false;
};

// `in`: contiguous NCHW n*c*h*w. `grid`: contiguous n*oh*ow*2. Returns
// contiguous NCHW n*c*oh*ow. Throws std::invalid_argument on bad sizes.
std::vector<float> grid_sample(const std::vector<float> &in, int n, int c, int h, int w,
                               const std::vector<float> &grid, int oh, int ow, const GridSampleParams &params);
std::vector<uint8_t> grid_sample(const std::vector<uint8_t> &in, int n, int c, int h, int w,
                                 const std::vector<float> &grid, int oh, int ow, const GridSampleParams &params);

// SEMANTICS.md 6.1 / 6.2 pieces, exposed for tests: the unnormalised coordinate (CPU
// vectorised form) and the padding transform P(u) for one axis of extent `size`.
float unnormalize(float g, int size, bool align_corners);
float pad_coordinate(float u, int size, GridPadding padding, bool align_corners);

// For nearest: one flag per output point (n*oh*ow) telling whether the padded
// source coordinate of either axis lies within float rounding of a .5
// rounding boundary, so that a kernel computing the same mathematical value
// with a different (but legitimate) float rounding may pick the neighbouring
// pixel. Exact ties (the grid value and every step of the coordinate
// computation exact, e.g. g = -1, 0, 1) are NOT flagged unless
// `grid_is_approximate`: those must round half to even in any implementation.
// Pass grid_is_approximate = true when the kernel builds the grid itself
// (affine_grid_sample), since its grid may differ from `grid` by an ulp.
std::vector<uint8_t> nearest_tie_mask(const std::vector<float> &grid, int n, int h, int w, int oh, int ow,
                                      const GridSampleParams &params, bool grid_is_approximate);

// torch.linspace(-1, 1, n)-based base coordinates of affine_grid along one
// axis of extent n (SEMANTICS.md 7).
std::vector<float> affine_base(int n, bool align_corners);

// affine_grid: `theta` contiguous n x 2 x 3; returns the contiguous n*h*w*2 grid.
std::vector<float> affine_grid(const std::vector<float> &theta, int n, int h, int w, bool align_corners);

// torch.flip over W (horizontal), H (vertical) or both, on contiguous NCHW.
enum class FlipAxes { horizontal, vertical, both };
std::vector<float> flip(const std::vector<float> &in, int n, int c, int h, int w, FlipAxes axes);
std::vector<uint8_t> flip(const std::vector<uint8_t> &in, int n, int c, int h, int w, FlipAxes axes);

// ---------------------------------------------------------------------------
// The comparison rules the tests apply to a kernel's output (NCHW, c x oh x ow
// per batch item) against this reference.
struct Comparison {
    size_t elements = 0;
    // Differences the rules do not allow; the first one is described.
    size_t failures = 0;
    std::string first_failure;
    // Differences at points flagged by a nearest_tie_mask (allowed, but the
    // caller limits their share).
    size_t tie_mismatches = 0;
    // uint8: off by one where the float value is within 1e-4 of a .5 boundary.
    size_t rounding_mismatches = 0;
};

// float32: |got - want| <= tolerance; elsewhere a difference is a tie mismatch
// if tie_mask (one flag per output point; may be empty) flags the point.
Comparison compare(const std::vector<float> &got, const std::vector<float> &want, int c, int oh, int ow,
                   double tolerance, const std::vector<uint8_t> &tie_mask);
// uint8: `want_float` is the float32 reference on the uint8 values (before
// rounding). got must equal rne(saturate(want_float)), or differ by one where
// want_float is within 1e-4 of a .5 boundary, or the point is tie-flagged.
Comparison compare(const std::vector<uint8_t> &got, const std::vector<float> &want_float, int c, int oh, int ow,
                   const std::vector<uint8_t> &tie_mask);

}  // namespace hres_ref
