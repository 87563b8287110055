// Downscales a 2x2 ramp with every mode through the installed library and
// checks values that follow from the definitions (docs/SEMANTICS.md 2, 3).
#include <hres/hres.h>

#include <cstdio>

int main() {
    float in[4] = {0.f, 1.f, 2.f, 3.f};  // 1x1x2x2
    float out[1] = {-1.f};
    const hres::Image src = hres::nchw(in, hres::DType::f32, 1, 1, 2, 2);
    const hres::Image dst = hres::nchw(out, hres::DType::f32, 1, 1, 1, 1);

    // Bilinear to 1x1 samples the centre: the mean of the four pixels.
    hres::Status s = hres::resize(src, dst, {hres::Interp::bilinear});
    if (!s.ok() || out[0] != 1.5f) {
        std::printf("bilinear: %s, got %g, want 1.5\n", s.message().c_str(), out[0]);
        return 1;
    }
    // Nearest to 1x1 picks the top-left pixel; nearest-exact the centre-right one.
    s = hres::resize(src, dst, {hres::Interp::nearest});
    if (!s.ok() || out[0] != 0.f) return 1;
    s = hres::resize(src, dst, {hres::Interp::nearest_exact});
    if (!s.ok() || out[0] != 3.f) return 1;
    // Errors come back as a Status.
    if (hres::resize(src, dst, {hres::Interp::nearest, true}).ok()) return 1;
    std::printf("consumer: hres package OK (isa %s)\n", hres::to_string(hres::active_isa()));
    return 0;
}
