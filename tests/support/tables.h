// Tables of PyTorch's own answers stored as gzip-compressed .npy files
// (tests/data/ties, made by its make_ties.py): read whole into memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hres_test {

struct Table {
    std::string dtype;            // numpy's descr: "|u1", "<i4" or "<f4"
    std::vector<int64_t> shape;   // C order
    std::vector<uint8_t> bytes;

    int64_t size() const;
    // Element `i` of the flat array; the dtype must be the one named.
    uint8_t u8(int64_t i) const;
    int32_t i32(int64_t i) const;
    float f32(int64_t i) const;
};

// Reads tests/data/ties/<name>.npy.gz; fails the calling test (and returns an
// empty table) if it cannot.
Table load_table(const std::string &name);

}  // namespace hres_test
