// The PyTorch 2.11 conformance corpus (tests/data/conformance, copied from
// shared/conformance): cases.jsonl read into plain structs, arrays via .npy.
#pragma once

#include "image_io.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hres_test {

struct CorpusCase {
    std::string id, op, mode, dtype, padding_mode, axes, unsupported;
    bool antialias = false;
    bool align_corners = false;
    std::vector<int64_t> input_shape, output_shape, size;
    std::vector<double> scale_factor;
    std::map<std::string, std::string> files;  // role -> file name
};

// All cases of the corpus; fails the calling test (and returns empty) if the
// manifest cannot be read.
std::vector<CorpusCase> load_corpus();

// Reads one of a case's 4-D arrays ("input", "expected", "grid") as an NCHW image.
hres::io::HostImage load_array(const CorpusCase &c, const std::string &role);

// Reads one of a case's arrays of any rank ("grid": N,H,W,2; "theta": N,2,3).
hres::io::NpyArray load_npy(const CorpusCase &c, const std::string &role);

}  // namespace hres_test
