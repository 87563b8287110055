// Image files for the hres command-line tool: PNG (via libpng) and NumPy .npy.
//
// Everything here reports failure through a bool and a human-readable message
// (which already names the file); nothing throws, prints, or aborts, even on
// corrupt input. Only hres::DType is taken from the library header, so this
// file builds and is tested without linking the hres library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hres/hres.h"

namespace hres::io {

// What the tool allocates is bounded before it allocates: sizes come from
// untrusted file headers and command lines. An image spans at most
// kMaxElements elements, the library's own limit (its kernels index in 32
// bits), and the buffers held at once fit the memory budget (default 4 GiB;
// the CLI's --max-memory).
constexpr int64_t kMaxElements = (int64_t(1) << 31) - 1;
constexpr uint64_t kDefaultMemoryBudget = uint64_t(4) << 30;
void set_memory_budget(uint64_t bytes);
uint64_t memory_budget();
// "3.2 GiB", "512 MiB", "12345 bytes".
std::string byte_text(uint64_t bytes);

// A host-memory image: contiguous planar N x C x H x W, element type `dtype`.
struct HostImage {
    hres::DType dtype = hres::DType::u8;
    int64_t n = 0, c = 0, h = 0, w = 0;
    std::vector<uint8_t> bytes;  // contiguous NCHW, n*c*h*w*element_size(dtype) bytes
};

// Bytes per element (1 for u8, 4 for f32); the library's dtype_size without linking it.
size_t element_size(hres::DType dtype);
// "u8" or "f32".
const char *dtype_name(hres::DType dtype);
// "NxCxHxW".
std::string shape_string(const HostImage &image);

// The byte size of an image of this type and shape. Fails (with a message) on a
// non-positive dimension, more than kMaxElements elements, or more bytes than
// the memory budget.
bool image_byte_count(hres::DType dtype, int64_t n, int64_t c, int64_t h, int64_t w, size_t *bytes,
                      std::string *error);
// Sets the shape and allocates zeroed bytes after image_byte_count's checks;
// an allocation failure is reported, not thrown.
bool allocate_image(hres::DType dtype, int64_t n, int64_t c, int64_t h, int64_t w, HostImage *out,
                    std::string *error);

// Reads a .png or .npy file (extension matched case-insensitively).
//  PNG: N=1, C=1..4 (gray, gray+alpha, RGB, RGBA; palettes and low bit depths
//       are expanded, tRNS becomes alpha). 8-bit -> u8; 16-bit -> f32 in [0,1].
//  NPY: 4-D, C order, dtype u1 or little-endian f4, format versions 1.0-3.0.
bool read_image(const std::string &path, HostImage *out, std::string *error);

// A C-order uint8 or float32 array of any rank from a .npy file (grids: N,H,W,2;
// affine matrices: N,2,3), under the same checks as read_image's NPY branch.
struct NpyArray {
    hres::DType dtype = hres::DType::f32;
    std::vector<int64_t> shape;
    std::vector<uint8_t> bytes;  // C order, element_size(dtype) bytes per element
};
bool read_npy_array(const std::string &path, NpyArray *out, std::string *error);

// Writes a .png or .npy file atomically: the data goes to a temporary file in
// the same directory that is renamed over `path` only once complete, so a
// failure never leaves a partial or corrupt `path` behind.
//  PNG: needs N=1 and C=1..4. u8 -> 8-bit; f32 -> 16-bit as round(clamp(v,0,1)*65535).
//  NPY: version 1.0, dtype '|u1' or '<f4'.
bool write_image(const std::string &path, const HostImage &image, std::string *error);

// The checks write_image makes before touching the file system, plus "does the
// target directory exist": lets a caller reject an unwritable output before
// doing expensive work. `image` only needs its dtype and shape set.
bool check_writable(const std::string &path, const HostImage &image, std::string *error);

// Layout conversion between planar NCHW (HostImage::bytes) and interleaved NHWC.
// to_interleaved returns (or writes to `nhwc`, image.bytes.size() bytes) the
// NHWC bytes of `image`; from_interleaved overwrites image->bytes (which must
// already have the right size) from NHWC data.
std::vector<uint8_t> to_interleaved(const HostImage &image);
void to_interleaved(const HostImage &image, uint8_t *nhwc);
void from_interleaved(const uint8_t *nhwc, HostImage *image);

}  // namespace hres::io
