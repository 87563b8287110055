// A generator's knobs, resolved for the target it compiles. A knob is a
// GeneratorParam declared with kTuned: a kernel of the kernel table may set
// it; otherwise its tuned default comes from the knob table
// (kernels/knobs.toml): the first row whose targets, kernels and facts all
// hold for this build (rows the tuner writes name their kernel).
#pragma once

#include <string>

#include "Halide.h"
#include "schedules/x86_loops.h"
#include "tuned.h"

namespace hres {

// A knob's declared value: take the knob table's.
constexpr int kTuned = -1;

class Tuned {
public:
    // `kernel`: the kernel table's name for the kernel being built (its
    // GeneratorParam `kernel`); `facts`: its knobs::fact bits; the target's
    // own (LLVM's vectorizer, and whether it gathers) are added here.
    Tuned(std::string section, std::string kernel, const Halide::Target &target, uint32_t facts)
        : section_(std::move(section)), kernel_(std::move(kernel)), target_(target_of(target)), facts_(facts) {
        if (llvm_vectorizer(target)) facts_ |= knobs::fact::llvm_vectorizer;
        if (llvm_gathers(target)) facts_ |= knobs::fact::llvm_gathers;
    }

    // The same with one more fact, where it holds.
    Tuned with(uint32_t fact, bool holds) const {
        Tuned t = *this;
        if (holds) t.facts_ |= fact;
        return t;
    }

    int operator()(const Halide::GeneratorParam<int> &knob) const {
        if (knob >= 0) return knob;
        const double v = lookup(knob.name());
        _halide_user_assert(v == static_cast<int>(v))
            << "kernels/knobs.toml: " << section_ << "." << knob.name() << " is an integer knob, not " << v;
        return static_cast<int>(v);
    }
    float operator()(const Halide::GeneratorParam<float> &knob) const {
        return knob >= 0 ? float(knob) : static_cast<float>(lookup(knob.name()));
    }
    bool on(const Halide::GeneratorParam<int> &knob) const { return (*this)(knob) > 0; }

private:
    // The knob table's target: cuda, or the most specific x86 entry all of
    // whose features the target has.
    static int target_of(const Halide::Target &target) {
        if (target.has_gpu_feature()) return knobs::cuda;
        const std::string have = "-" + target.to_string() + "-";
        for (int t = 0; t < knobs::cuda; t++) {
            std::string features = knobs::kTargetFeatures[t];
            bool all = true;
            for (size_t at = 0; at < features.size() && all;) {
                const size_t end = std::min(features.find('-', at), features.size());
                all = have.find("-" + features.substr(at, end - at) + "-") != std::string::npos;
                at = end + 1;
            }
            if (all) return t;
        }
        _halide_user_assert(false) << "kernels/knobs.toml has no target for " << target.to_string()
                                   << " (the kernel table's x86 entries, or cuda)";
        return 0;
    }

    double lookup(const std::string &knob) const {
        const std::optional<double> v =
            tuned_default(section_.c_str(), knob.c_str(), kernel_.c_str(), target_, facts_);
        _halide_user_assert(v.has_value()) << "kernels/knobs.toml has no default for " << section_ << "." << knob;
        return *v;
    }

    std::string section_, kernel_;
    int target_;
    uint32_t facts_;
};

}  // namespace hres
