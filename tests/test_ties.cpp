// Every index decision that can fall on a tie, against PyTorch's own answers
// (tests/data/ties, made by make_ties.py with PyTorch 2.15 on x86): nearest
// and nearest-exact index maps for every input size 1..64 and output size
// 1..300 along both axes, with explicit scale factors too; the first and
// last tap of float32 bilinear and bicubic resizes (which the floor of the
// source coordinate decides) for inputs 1..32 and outputs 1..160, with and
// without align_corners; grid_sample's nearest pick on and next to every half
// pixel. Each is run in the shape and layout PyTorch ran it, so that hres
// takes the decision of the PyTorch kernel that made the table (coords.h,
// channels_last_kernel): generic and "channels-last".
#include "support/harness.h"
#include "support/tables.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace hres_test {
namespace {

enum Kernel { generic, channels_last };  // the tables' kernel axis
const char *kKernelNames[] = {"generic", "channels-last"};
enum Axis { along_w, along_h };

// Output rows (or columns) beside the resized axis: enough for PyTorch's
// generic kernel (out_h + out_w > 128), one for its channels-last kernel.
int64_t other_extent(Kernel k, int64_t out) { return k == generic ? std::max<int64_t>(1, 129 - out) : 1; }

// hres::resize of the NCHW image `in` (1 x channels x ih x iw) handed to
// the kernel in `layout`; the result back in NCHW. False (after a test
// failure) where the call fails.
template<typename T>
bool resized(const std::vector<T> &in, int64_t channels, int64_t ih, int64_t iw, int64_t oh, int64_t ow,
             Layout layout, const hres::ResizeOptions &options, std::vector<T> *out) {
    std::vector<T> source = to_layout(in, 1, channels, ih, iw, layout), result(size_t(channels * oh * ow), T(255));
    hres::Status s =
        run_resize(view(source, 1, channels, ih, iw, layout), view(result, 1, channels, oh, ow, layout), options);
    if (!s) {
        ADD_FAILURE() << s.message();
        return false;
    }
    *out = from_layout(result, 1, channels, oh, ow, layout);
    return true;
}

// What a nearest resize of n -> o along `axis` picks, as a map of o indices:
// the input holds each pixel's index along that axis in every channel. In
// make_ties.py's shapes: generic NCHW with 2 channels and NHWC with 3 (both
// the generic kernel, C <= 3), channels-last NHWC with 4 channels and NCHW
// with a small output. Returns false (after a test failure) on a mismatch
// within the call; `map` then holds the first channel's row.
template<typename T>
bool nearest_map(hres::Interp mode, Kernel kernel, Layout layout, Axis axis, int64_t n, int64_t o, double scale,
                 std::vector<int> *map) {
    const int64_t channels = kernel == channels_last ? (layout == Layout::nhwc ? 4 : 2) : (layout == Layout::nhwc ? 3 : 2);
    const int64_t other = kernel == channels_last ? 1 : other_extent(kernel, o);
    const int64_t ih = axis == along_h ? n : 1, iw = axis == along_w ? n : 1;
    const int64_t oh = axis == along_h ? o : other, ow = axis == along_w ? o : other;
    std::vector<T> in(size_t(channels * ih * iw));
    for (int64_t c = 0; c < channels; c++)
        for (int64_t j = 0; j < n; j++) in[size_t(c * n + j)] = T(j);
    hres::ResizeOptions options{mode};
    if (scale > 0) {
        // PyTorch was given the other axis' factor too (its extent from 1).
        options.scale_h = axis == along_h ? scale : double(other);
        options.scale_w = axis == along_w ? scale : double(other);
    }
    std::vector<T> out;
    if (!resized(in, channels, ih, iw, oh, ow, layout, options, &out)) return false;
    map->assign(size_t(o), -1);
    for (int64_t c = 0; c < channels; c++)
        for (int64_t y = 0; y < oh; y++)
            for (int64_t x = 0; x < ow; x++) {
                const int picked = int(out[size_t((c * oh + y) * ow + x)]);
                int &m = (*map)[size_t(axis == along_w ? x : y)];
                if (m < 0) m = picked;
                if (m != picked) {
                    ADD_FAILURE() << "n " << n << " -> o " << o << ": channels or rows disagree";
                    return false;
                }
            }
    return true;
}

struct Case {
    hres::Interp mode;
    Kernel kernel;
    Layout layout;
};

// The hres configurations that meet each of the tables' kernels.
std::vector<Case> nearest_cases(hres::Interp mode) {
    return {{mode, generic, Layout::nchw}, {mode, generic, Layout::nhwc}, {mode, channels_last, Layout::nhwc},
            {mode, channels_last, Layout::nchw}};
}

template<typename T>
void check_nearest_maps() {
    const Table maps = load_table("nearest_maps");  // (mode, kernel, in 1..64, out 1..300, i)
    ASSERT_EQ(maps.shape.size(), 3u);
    const int64_t per_kernel = maps.shape[2];
    int64_t checked = 0;
    for (int m = 0; m < 2; m++) {
        const hres::Interp mode = m == 0 ? hres::Interp::nearest : hres::Interp::nearest_exact;
        for (const Case &c : nearest_cases(mode)) {
            int failures = 0;
            for (Axis axis : {along_w, along_h}) {
                int64_t at = (m * 2 + c.kernel) * per_kernel;
                for (int64_t n = 1; n <= 64; n++) {
                    for (int64_t o = 1; o <= 300; at += o, o++) {
                        // NCHW meets the channels-last kernel only with a small output.
                        if (c.kernel == channels_last && c.layout == Layout::nchw && o > 127) continue;
                        std::vector<int> map;
                        if (!nearest_map<T>(mode, c.kernel, c.layout, axis, n, o, 0.0, &map)) return;
                        for (int64_t i = 0; i < o; i++) {
                            const int expected = maps.u8(at + i);
                            checked++;
                            if (map[size_t(i)] != expected && ++failures <= 10) {
                                ADD_FAILURE() << (m ? "nearest-exact " : "nearest ") << kKernelNames[c.kernel]
                                              << " kernel, " << name(c.layout) << (axis == along_w ? ", W " : ", H ")
                                              << n << " -> " << o << ": output " << i << " reads " << map[size_t(i)]
                                              << ", PyTorch " << expected;
                            }
                        }
                    }
                }
            }
            ASSERT_EQ(failures, 0);
        }
    }
    EXPECT_GT(checked, 4 * 64 * 45150);  // every map of the table, both axes, both layouts
}

TEST(Ties, NearestMapsUint8) { check_nearest_maps<uint8_t>(); }
TEST(Ties, NearestMapsFloat32) { check_nearest_maps<float>(); }

TEST(Ties, NearestMapsScaleFactors) {
    const Table rows = load_table("nearest_scaled_rows");  // (mode, kernel, scale index, in, out, offset)
    const Table maps = load_table("nearest_scaled_maps");
    const Table scales = load_table("nearest_scales");
    ASSERT_EQ(rows.shape.size(), 2u);
    int failures = 0;
    for (int64_t r = 0; r < rows.shape[0]; r++) {
        const int m = rows.i32(r * 6), kernel = rows.i32(r * 6 + 1);
        const double scale = scales.f32(rows.i32(r * 6 + 2));
        const int64_t n = rows.i32(r * 6 + 3), o = rows.i32(r * 6 + 4), at = rows.i32(r * 6 + 5);
        int64_t hres_o = 0;
        ASSERT_TRUE(hres::scaled_size(n, scale, &hres_o));
        ASSERT_EQ(hres_o, o) << n << " x " << scale;
        const hres::Interp mode = m == 0 ? hres::Interp::nearest : hres::Interp::nearest_exact;
        for (const Case &c : nearest_cases(mode)) {
            if (c.kernel != kernel || (kernel == channels_last && c.layout == Layout::nchw && o > 127)) continue;
            for (Axis axis : {along_w, along_h}) {
                std::vector<int> map;
                if (!nearest_map<uint8_t>(mode, c.kernel, c.layout, axis, n, o, scale, &map)) return;
                for (int64_t i = 0; i < o; i++) {
                    if (map[size_t(i)] != maps.u8(at + i) && ++failures <= 10) {
                        ADD_FAILURE() << (m ? "nearest-exact " : "nearest ") << kKernelNames[kernel] << " kernel, "
                                      << name(c.layout) << ", scale " << scale << ", " << n << " -> " << o
                                      << ": output " << i << " reads " << map[size_t(i)] << ", PyTorch "
                                      << int(maps.u8(at + i));
                    }
                }
            }
        }
    }
    EXPECT_EQ(failures, 0);
}

// First and last input pixel of non-zero weight of each output of a float32
// bilinear or bicubic resize n -> o along `axis`: channel j holds a one-hot
// row (column) at j, in make_ties.py's shape (max(n, 4) channels; generic:
// NCHW with the other axis 1 -> other_extent; channels-last: NHWC).
bool filtered_support(hres::Interp mode, bool align, Kernel kernel, Axis axis, int64_t n, int64_t o,
                      std::vector<int> *first, std::vector<int> *last) {
    const int64_t channels = std::max<int64_t>(n, 4);
    const Layout layout = kernel == generic ? Layout::nchw : Layout::nhwc;
    const int64_t other = other_extent(kernel, o);
    const int64_t ih = axis == along_h ? n : 1, iw = axis == along_w ? n : 1;
    const int64_t oh = axis == along_h ? o : other, ow = axis == along_w ? o : other;
    std::vector<float> in(size_t(channels * n), 0.0f), out;
    for (int64_t j = 0; j < n; j++) in[size_t(j * n + j)] = 1.0f;
    if (!resized(in, channels, ih, iw, oh, ow, layout, {mode, false, align}, &out)) return false;
    first->assign(size_t(o), -1);
    last->assign(size_t(o), -1);
    for (int64_t i = 0; i < o; i++) {
        const int64_t x = axis == along_w ? i : 0, y = axis == along_h ? i : 0;
        for (int64_t j = 0; j < n; j++) {
            if (out[size_t((j * oh + y) * ow + x)] == 0.0f) continue;
            if ((*first)[size_t(i)] < 0) (*first)[size_t(i)] = int(j);
            (*last)[size_t(i)] = int(j);
        }
    }
    return true;
}

TEST(Ties, FilteredSupports) {
    const Table table = load_table("linear_support");  // (mode, align, kernel, first/last, in 1..32, out 1..160, i)
    ASSERT_EQ(table.shape.size(), 5u);
    const int64_t per = table.shape[4];
    int failures = 0;
    for (int m = 0; m < 2; m++) {
        const hres::Interp mode = m == 0 ? hres::Interp::bilinear : hres::Interp::bicubic;
        for (int a = 0; a < 2; a++) {
            for (Kernel kernel : {generic, channels_last}) {
                for (Axis axis : {along_w, along_h}) {
                    const int64_t base = ((m * 2 + a) * 2 + kernel) * 2 * per;
                    int64_t at = 0;
                    for (int64_t n = 1; n <= 32; n++) {
                        for (int64_t o = 1; o <= 160; at += o, o++) {
                            std::vector<int> first, last;
                            if (!filtered_support(mode, a == 1, kernel, axis, n, o, &first, &last)) return;
                            for (int64_t i = 0; i < o; i++) {
                                const int f = table.u8(base + at + i), l = table.u8(base + per + at + i);
                                if ((first[size_t(i)] != f || last[size_t(i)] != l) && ++failures <= 10) {
                                    ADD_FAILURE() << (m ? "bicubic" : "bilinear") << (a ? " align_corners " : " ")
                                                  << kKernelNames[kernel] << " kernel, "
                                                  << (axis == along_w ? "W " : "H ") << n << " -> " << o
                                                  << ": output " << i << " weighs inputs " << first[size_t(i)]
                                                  << ".." << last[size_t(i)] << ", PyTorch " << f << ".." << l;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    EXPECT_EQ(failures, 0);
}

// The pixel grid_sample's nearest mode picks at each coordinate along `axis`
// of an n-pixel row (column) whose pixel j holds j + 1 (0: zeros padding).
template<typename T>
void check_grid_nearest() {
    const Table rows = load_table("grid_nearest_rows");  // (n, align, offset, count)
    const Table coords = load_table("grid_nearest_coords");
    const Table picks = load_table("grid_nearest_picks");  // (padding, axis, coordinate)
    ASSERT_EQ(picks.shape.size(), 3u);
    const int64_t total = picks.shape[2];
    const hres::Padding paddings[] = {hres::Padding::zeros, hres::Padding::border, hres::Padding::reflection};
    int failures = 0;
    for (int64_t r = 0; r < rows.shape[0]; r++) {
        const int64_t n = rows.i32(r * 4), at = rows.i32(r * 4 + 2), count = rows.i32(r * 4 + 3);
        const bool align = rows.i32(r * 4 + 1) == 1;
        for (int p = 0; p < 3; p++) {
            for (Axis axis : {along_w, along_h}) {
                for (Layout layout : {Layout::nchw, Layout::nhwc}) {
                    const int64_t channels = layout == Layout::nchw ? 1 : 3;
                    const int64_t ih = axis == along_h ? n : 1, iw = axis == along_w ? n : 1;
                    std::vector<T> in(size_t(channels * n)), out(size_t(channels * count), T(255));
                    for (int64_t c = 0; c < channels; c++)
                        for (int64_t j = 0; j < n; j++) in[size_t(c * n + j)] = T(j + 1);
                    in = to_layout(in, 1, channels, ih, iw, layout);
                    std::vector<float> grid(size_t(2 * count), 0.0f);
                    for (int64_t k = 0; k < count; k++) grid[size_t(2 * k + (axis == along_w ? 0 : 1))] = coords.f32(at + k);
                    hres::GridSampleOptions options{hres::Interp::nearest, paddings[p], align};
                    hres::Status s = run_grid_sample(view(in, 1, channels, ih, iw, layout), grid.data(),
                                                     view(out, 1, channels, 1, count, layout), options);
                    ASSERT_TRUE(s) << s.message();
                    out = from_layout(out, 1, channels, 1, count, layout);
                    for (int64_t c = 0; c < channels; c++) {
                        for (int64_t k = 0; k < count; k++) {
                            const int got = int(out[size_t(c * count + k)]);
                            const int expected = picks.u8((p * 2 + axis) * total + at + k);
                            if (got != expected && ++failures <= 10) {
                                ADD_FAILURE() << "n " << n << (align ? " align_corners" : "") << " padding " << p
                                              << (axis == along_w ? " x " : " y ") << coords.f32(at + k) << " ("
                                              << name(layout) << "): picks " << got - 1 << ", PyTorch "
                                              << expected - 1;
                            }
                        }
                    }
                }
            }
        }
    }
    EXPECT_EQ(failures, 0);
}

TEST(Ties, GridNearestFloat32) { check_grid_nearest<float>(); }
TEST(Ties, GridNearestUint8) { check_grid_nearest<uint8_t>(); }

}  // namespace
}  // namespace hres_test
