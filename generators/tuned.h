// The knob table's lookup (kernels/knobs.toml, written into knob_table.h by
// kernels/table.py): a knob's tuned default for a target and the facts of a
// kernel. No Halide here: the runtime reads the table too, where it must
// agree with a kernel (runtime/src/resize.cpp, the pass order).
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>

#include "knob_table.h"

namespace hres {

// Whether a row's comma-separated kernel list (empty: every kernel) names `kernel`.
inline bool names_kernel(const char *list, const char *kernel) {
    if (!*list) return true;
    const size_t length = std::strlen(kernel);
    for (const char *at = list; at; at = std::strchr(at, ',') ? std::strchr(at, ',') + 1 : nullptr) {
        if (std::strncmp(at, kernel, length) == 0 && (at[length] == ',' || at[length] == '\0')) return true;
    }
    return false;
}

// The value of the first row of section.knob that applies to `kernel` (the
// kernel table's name) on `target` (knobs::Target) and whose facts
// (knobs::fact bits) hold; none where the table lacks the knob.
inline std::optional<double> tuned_default(const char *section, const char *knob, const char *kernel, int target,
                                           uint32_t facts) {
    for (const knobs::Row &row : knobs::kRows) {
        if (std::strcmp(row.section, section) != 0 || std::strcmp(row.knob, knob) != 0) continue;
        if ((row.targets >> target & 1) && (facts & row.all_of) == row.all_of && (facts & row.none_of) == 0 &&
            names_kernel(row.kernels, kernel)) {
            return row.value;
        }
    }
    return std::nullopt;
}

}  // namespace hres
