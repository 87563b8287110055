#include "corpus.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <variant>

namespace hres_test {

namespace {

// A JSON value, enough of JSON for the flat objects of cases.jsonl.
struct Json {
    std::variant<std::nullptr_t, bool, double, std::string, std::vector<Json>, std::map<std::string, Json>> v;
};

class Parser {
public:
    explicit Parser(const std::string &text) : s_(text) {}
    bool parse(Json *out) { return value(out) && (skip(), pos_ == s_.size()); }

private:
    void skip() { while (pos_ < s_.size() && std::isspace((unsigned char)s_[pos_])) pos_++; }
    bool eat(char c) { skip(); if (pos_ < s_.size() && s_[pos_] == c) { pos_++; return true; } return false; }
    bool literal(const char *word) {
        const std::string w = word;
        if (s_.compare(pos_, w.size(), w) != 0) return false;
        pos_ += w.size();
        return true;
    }
    bool string(std::string *out) {
        if (!eat('"')) return false;
        while (pos_ < s_.size() && s_[pos_] != '"') {
            if (s_[pos_] == '\\') pos_++;  // the corpus has no escapes beyond \" and \\ in messages
            if (pos_ < s_.size()) out->push_back(s_[pos_++]);
        }
        return eat('"');
    }
    bool value(Json *out) {
        skip();
        if (pos_ >= s_.size()) return false;
        const char c = s_[pos_];
        if (c == '"') { std::string str; if (!string(&str)) return false; out->v = str; return true; }
        if (c == '{') {
            pos_++;
            std::map<std::string, Json> object;
            if (eat('}')) { out->v = object; return true; }
            do {
                std::string key; Json item;
                if (!string(&key) || !eat(':') || !value(&item)) return false;
                object[key] = item;
            } while (eat(','));
            out->v = object;
            return eat('}');
        }
        if (c == '[') {
            pos_++;
            std::vector<Json> array;
            if (eat(']')) { out->v = array; return true; }
            do { Json item; if (!value(&item)) return false; array.push_back(item); } while (eat(','));
            out->v = array;
            return eat(']');
        }
        if (literal("null")) { out->v = nullptr; return true; }
        if (literal("true")) { out->v = true; return true; }
        if (literal("false")) { out->v = false; return true; }
        char *end = nullptr;
        const double number = std::strtod(s_.c_str() + pos_, &end);
        if (end == s_.c_str() + pos_) return false;
        pos_ = end - s_.c_str();
        out->v = number;
        return true;
    }
    const std::string &s_;
    size_t pos_ = 0;
};

template<typename T>
const T *get(const std::map<std::string, Json> &object, const std::string &key) {
    auto it = object.find(key);
    return it == object.end() ? nullptr : std::get_if<T>(&it->second.v);
}

template<typename T>
std::vector<T> numbers(const std::map<std::string, Json> &object, const std::string &key) {
    std::vector<T> out;
    if (auto *array = get<std::vector<Json>>(object, key)) {
        for (const Json &item : *array) out.push_back(T(std::get<double>(item.v)));
    }
    return out;
}

std::string text(const std::map<std::string, Json> &object, const std::string &key) {
    auto *s = get<std::string>(object, key);
    return s ? *s : std::string();
}

}  // namespace

// HRES_TEST_DATA overrides the source tree's tests/data, so built tests can
// run on another machine (the GPU host) from a copy.
std::string test_data_dir() {
    const char *override_dir = std::getenv("HRES_TEST_DATA");
    return override_dir ? override_dir : HRES_TEST_DATA_DIR;
}

const std::vector<Corpus> &corpora() {
    static const std::vector<Corpus> all = {{"conformance", "2.11"}, {"conformance-2.15", "2.15"}};
    return all;
}

std::vector<CorpusCase> load_corpus(const Corpus &corpus) {
    std::ifstream file(test_data_dir() + "/" + corpus.dir + "/cases.jsonl");
    EXPECT_TRUE(file.good()) << "cannot open the conformance manifest";
    std::vector<CorpusCase> cases;
    std::string line;
    while (std::getline(file, line)) {
        if (line.empty()) continue;
        Json json;
        if (!Parser(line).parse(&json)) {
            ADD_FAILURE() << "malformed manifest line: " << line;
            return {};
        }
        const auto &o = std::get<std::map<std::string, Json>>(json.v);
        CorpusCase c;
        c.corpus = corpus.dir;
        c.id = text(o, "id");
        c.op = text(o, "op");
        c.mode = text(o, "mode");
        c.dtype = text(o, "dtype");
        c.padding_mode = text(o, "padding_mode");
        c.axes = text(o, "axes");
        c.unsupported = text(o, "unsupported");
        if (auto *b = get<bool>(o, "antialias")) c.antialias = *b;
        if (auto *b = get<bool>(o, "align_corners")) c.align_corners = *b;
        c.input_shape = numbers<int64_t>(o, "input_shape");
        c.output_shape = numbers<int64_t>(o, "output_shape");
        c.size = numbers<int64_t>(o, "size");
        c.scale_factor = numbers<double>(o, "scale_factor");
        if (auto *files = get<std::map<std::string, Json>>(o, "files")) {
            for (const auto &[role, name] : *files) c.files[role] = std::get<std::string>(name.v);
        }
        cases.push_back(c);
    }
    EXPECT_GT(cases.size(), 600u) << "the corpus looks truncated";
    return cases;
}

namespace {

// Reads the case's `role` array with `read` (into *out); a missing role or an
// unreadable file fails the current test.
template<typename T, typename Reader>
T load_role(const CorpusCase &c, const std::string &role, Reader read) {
    T out;
    std::string error;
    auto it = c.files.find(role);
    EXPECT_NE(it, c.files.end()) << c.id << " has no " << role << " array";
    if (it == c.files.end()) return out;
    EXPECT_TRUE(read(test_data_dir() + "/" + c.corpus + "/" + it->second, &out, &error)) << error;
    return out;
}

}  // namespace

hres::io::HostImage load_array(const CorpusCase &c, const std::string &role) {
    return load_role<hres::io::HostImage>(c, role, hres::io::read_image);
}

hres::io::NpyArray load_npy(const CorpusCase &c, const std::string &role) {
    return load_role<hres::io::NpyArray>(c, role, hres::io::read_npy_array);
}

}  // namespace hres_test
