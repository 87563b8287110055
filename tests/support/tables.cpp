#include "support/tables.h"

#include "support/corpus.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstring>
#include <regex>

namespace hres_test {

int64_t Table::size() const {
    int64_t count = 1;
    for (int64_t d : shape) count *= d;
    return count;
}

uint8_t Table::u8(int64_t i) const { return bytes.at(size_t(i)); }

int32_t Table::i32(int64_t i) const {
    int32_t v;
    std::memcpy(&v, &bytes.at(size_t(i) * 4), 4);
    return v;
}

float Table::f32(int64_t i) const {
    float v;
    std::memcpy(&v, &bytes.at(size_t(i) * 4), 4);
    return v;
}

Table load_table(const std::string &name) {
    const std::string path = test_data_dir() + "/ties/" + name + ".npy.gz";
    Table t;
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) {
        ADD_FAILURE() << "cannot open " << path;
        return t;
    }
    std::vector<uint8_t> raw;
    uint8_t chunk[1 << 16];
    int got;
    while ((got = gzread(f, chunk, sizeof chunk)) > 0) raw.insert(raw.end(), chunk, chunk + got);
    const bool read_error = got < 0;
    gzclose(f);
    // .npy: magic, version 1.0 (2-byte header length) or 2.0/3.0 (4-byte), a
    // Python dict literal, then the data.
    if (read_error || raw.size() < 12 || std::memcmp(raw.data(), "\x93NUMPY", 6) != 0) {
        ADD_FAILURE() << path << " is not a gzip-compressed .npy file";
        return t;
    }
    const size_t length_bytes = raw[6] == 1 ? 2 : 4;
    size_t header_length = 0;
    for (size_t i = 0; i < length_bytes; i++) header_length |= size_t(raw[8 + i]) << (8 * i);
    const size_t data_at = 8 + length_bytes + header_length;
    const std::string header(raw.begin() + 8 + length_bytes, raw.begin() + std::min(data_at, raw.size()));
    std::smatch descr, shape;
    if (!std::regex_search(header, descr, std::regex("'descr': *'([^']*)'")) ||
        header.find("'fortran_order': False") == std::string::npos ||
        !std::regex_search(header, shape, std::regex("'shape': *\\(([^)]*)\\)"))) {
        ADD_FAILURE() << path << ": unexpected .npy header " << header;
        return t;
    }
    t.dtype = descr[1];
    const std::string dims = shape[1];
    for (size_t at = dims.find_first_of("0123456789"); at != std::string::npos;
         at = dims.find_first_of("0123456789", at)) {
        const size_t end = dims.find_first_not_of("0123456789", at);
        t.shape.push_back(std::stoll(dims.substr(at, end - at)));
        at = end;
    }
    const size_t element = t.dtype == "|u1" ? 1 : (t.dtype == "<i4" || t.dtype == "<f4") ? 4 : 0;
    if (element == 0 || raw.size() - data_at != size_t(t.size()) * element) {
        ADD_FAILURE() << path << ": dtype " << t.dtype << " or size does not match its shape";
        return Table{};
    }
    t.bytes.assign(raw.begin() + data_at, raw.end());
    return t;
}

}  // namespace hres_test
