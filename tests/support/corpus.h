// The conformance corpora: tests/data/conformance (PyTorch 2.11, copied from
// shared/conformance) and tests/data/conformance-2.15 (its cases recomputed by
// PyTorch 2.15, make_corpus.py there): cases.jsonl read into plain structs,
// arrays via .npy.
#pragma once

#include "image_io.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hres_test {

struct CorpusCase {
    std::string corpus;  // its directory under tests/data
    std::string id, op, mode, dtype, padding_mode, axes, unsupported;
    bool antialias = false;
    bool align_corners = false;
    std::vector<int64_t> input_shape, output_shape, size;
    std::vector<double> scale_factor;
    std::map<std::string, std::string> files;  // role -> file name
};

// The corpora's directories, the PyTorch version each was made with.
struct Corpus {
    std::string dir, torch;
};
const std::vector<Corpus> &corpora();

// All cases of a corpus; fails the calling test (and returns empty) if the
// manifest cannot be read.
std::vector<CorpusCase> load_corpus(const Corpus &corpus);

// tests/data, or HRES_TEST_DATA where set (a copy on another machine).
std::string test_data_dir();

// Reads one of a case's 4-D arrays ("input", "expected", "grid") as an NCHW image.
hres::io::HostImage load_array(const CorpusCase &c, const std::string &role);

// Reads one of a case's arrays of any rank ("grid": N,H,W,2; "theta": N,2,3).
hres::io::NpyArray load_npy(const CorpusCase &c, const std::string &role);

}  // namespace hres_test
