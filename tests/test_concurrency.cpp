// Calls from several threads at once, while another changes the thread
// count: every op (the resize modes with and without antialias, grid_sample,
// affine_grid_sample, flip), both dtypes and both layouts, each call's output
// bit-identical to the same call made alone beforehand.
#include "support/harness.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <random>
#include <thread>

namespace hres_test {
namespace {

struct Call {
    int op;  // 0..5 resize modes (nearest, nearest-exact, bilinear, bicubic, bilinear+aa, bicubic+aa), 6 grid, 7 affine, 8 flip
    bool uint8;
    Layout layout;
    int64_t n, c, h, w, oh, ow;
    std::vector<uint8_t> in8, out8;
    std::vector<float> in32, out32, params;
};

template<typename T>
hres::Status run(Call &call, std::vector<T> &in, std::vector<T> *result) {
    std::vector<T> source = to_layout(in, call.n, call.c, call.h, call.w, call.layout);
    std::vector<T> out(size_t(call.n * call.c * call.oh * call.ow), T(0));
    const hres::Image i = view(source, call.n, call.c, call.h, call.w, call.layout);
    const hres::Image o = view(out, call.n, call.c, call.oh, call.ow, call.layout);
    const hres::Interp modes[] = {hres::Interp::nearest, hres::Interp::nearest_exact, hres::Interp::bilinear,
                                  hres::Interp::bicubic, hres::Interp::bilinear, hres::Interp::bicubic};
    hres::Status s;
    if (call.op < 6) {
        s = hres::resize(i, o, {modes[call.op], call.op >= 4});
    } else if (call.op == 6) {
        s = hres::grid_sample(i, call.params.data(), o, {hres::Interp::bilinear, hres::Padding::reflection});
    } else if (call.op == 7) {
        s = hres::affine_grid_sample(i, call.params.data(), o, {hres::Interp::bicubic, hres::Padding::border});
    } else {
        s = hres::flip(i, o, hres::FlipAxes::both);
    }
    *result = from_layout(out, call.n, call.c, call.oh, call.ow, call.layout);
    return s;
}

hres::Status run(Call &call, std::vector<uint8_t> *out8, std::vector<float> *out32) {
    return call.uint8 ? run(call, call.in8, out8) : run(call, call.in32, out32);
}

TEST(Concurrency, ThreadsMatchSingleCalls) {
    std::mt19937 rng(20261201);
    std::vector<Call> calls;
    for (int k = 0; k < 72; k++) {
        Call call;
        call.op = k % 9;
        call.uint8 = (k / 9) % 2 == 0;
        call.layout = (k / 18) % 2 ? Layout::nhwc : Layout::nchw;
        call.n = 1 + rng() % 2;
        call.c = 1 + rng() % 4;
        call.h = 8 + rng() % 120;
        call.w = 8 + rng() % 120;
        call.oh = call.op == 8 ? call.h : 4 + rng() % 150;
        call.ow = call.op == 8 ? call.w : 4 + rng() % 150;
        const size_t count = size_t(call.n * call.c * call.h * call.w);
        call.in8 = random_pixels<uint8_t>(rng, count);
        call.in32 = random_pixels<float>(rng, count);
        if (call.op == 6) {
            std::uniform_real_distribution<float> g(-1.2f, 1.2f);
            call.params.resize(size_t(call.n * call.oh * call.ow * 2));
            for (float &v : call.params) v = g(rng);
        } else if (call.op == 7) {
            std::uniform_real_distribution<float> t(-1.0f, 1.0f);
            for (int64_t b = 0; b < call.n; b++)
                for (float v : {1.0f + 0.2f * t(rng), 0.3f * t(rng), 0.1f * t(rng), 0.3f * t(rng),
                                1.0f + 0.2f * t(rng), 0.1f * t(rng)}) call.params.push_back(v);
        }
        ASSERT_TRUE(run(call, &call.out8, &call.out32)) << "call " << k;
        calls.push_back(std::move(call));
    }
    std::atomic<int> failures{0}, done{0};
    std::atomic<bool> stop{false};
    // Halide's pool resized under the callers.
    std::thread resizer([&] {
        for (int k = 0; !stop.load(); k++) {
            hres::set_num_threads(k % 4 == 3 ? 0 : 1 << (k % 4));
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
    });
    std::vector<std::thread> callers;
    for (int t = 0; t < 6; t++) {
        callers.emplace_back([&, t] {
            for (int round = 0; round < 4; round++) {
                for (size_t k = 0; k < calls.size(); k++) {
                    Call &call = calls[(k * 7 + size_t(t) * 11 + size_t(round) * 5) % calls.size()];
                    std::vector<uint8_t> out8;
                    std::vector<float> out32;
                    const bool ok = run(call, &out8, &out32).ok();
                    const bool same = call.uint8 ? out8 == call.out8
                                                 : std::memcmp(out32.data(), call.out32.data(), out32.size() * 4) == 0;
                    if (!ok || !same) failures++;
                    done++;
                }
            }
        });
    }
    for (auto &caller : callers) caller.join();
    stop = true;
    resizer.join();
    hres::set_num_threads(0);
    EXPECT_EQ(failures.load(), 0) << "of " << done.load() << " concurrent calls";
    EXPECT_EQ(done.load(), 6 * 4 * int(calls.size()));
}

}  // namespace
}  // namespace hres_test
