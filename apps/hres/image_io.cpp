// PNG and .npy reading/writing for the hres tool. See image_io.h for the contract.
//
// Layout of this file: small shared helpers, then atomic output files, then PNG
// (libpng, with setjmp-based error recovery), then NPY, then the extension
// dispatch that forms the public API.
#include "image_io.h"

#include <fcntl.h>
#include <png.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <limits>
#include <new>
#include <utility>

// .npy float data is written and read as raw little-endian bytes.
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "image_io.cpp assumes a little-endian host"
#endif

namespace hres::io {
namespace {

// Sets *error (when the caller wants it) and returns false, so failure paths
// read as `return fail(error, "...")`.
bool fail(std::string *error, std::string message) {
    if (error) *error = std::move(message);
    return false;
}

std::string errno_text(int err) {
    return std::strerror(err);
}

enum class Format { png, npy, unknown };

// The extension of the file name (not of a directory in the path), lowercased.
std::string lowercase_extension(const std::string &path) {
    const size_t slash = path.find_last_of('/');
    const size_t name_start = slash == std::string::npos ? 0 : slash + 1;
    const size_t dot = path.find_last_of('.');
    if (dot == std::string::npos || dot < name_start) return {};
    std::string ext = path.substr(dot);
    for (char &ch : ext) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return ext;
}

Format format_of(const std::string &path, std::string *error) {
    const std::string ext = lowercase_extension(path);
    if (ext == ".png") return Format::png;
    if (ext == ".npy") return Format::npy;
    fail(error, ext.empty() ? "file name has no extension (expected .png or .npy)"
                            : "unsupported file extension '" + ext + "' (expected .png or .npy)");
    return Format::unknown;
}

// Directory part of `path` ("." when there is none) and the file name part.
void split_path(const std::string &path, std::string *dir, std::string *name) {
    const size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) {
        *dir = ".";
        *name = path;
    } else {
        *dir = slash == 0 ? "/" : path.substr(0, slash);
        *name = path.substr(slash + 1);
    }
}

// An input file opened for reading, with its size; closed on destruction.
struct InputFile {
    std::FILE *stream = nullptr;
    uint64_t size = 0;

    InputFile() = default;
    InputFile(const InputFile &) = delete;
    InputFile &operator=(const InputFile &) = delete;
    ~InputFile() {
        if (stream) std::fclose(stream);
    }

    bool open(const std::string &path, std::string *reason) {
        stream = std::fopen(path.c_str(), "rb");
        if (!stream) return fail(reason, errno_text(errno));
        struct stat st {};
        if (fstat(fileno(stream), &st) != 0) return fail(reason, errno_text(errno));
        // Directories open fine on Linux and then fail oddly on read; FIFOs and
        // devices have no meaningful size to validate against.
        if (!S_ISREG(st.st_mode)) return fail(reason, "not a regular file");
        size = static_cast<uint64_t>(st.st_size);
        return true;
    }

    // Reads exactly `count` bytes or fails with a message saying what was missing.
    bool read_exact(void *dst, size_t count, const char *what, std::string *reason) {
        if (std::fread(dst, 1, count, stream) == count) return true;
        if (std::ferror(stream)) return fail(reason, std::string("I/O error reading ") + what);
        return fail(reason, std::string("file is truncated (ends inside the ") + what + ")");
    }
};

// ---------------------------------------------------------------------------
// Atomic output: a temporary sibling file, renamed over the target on commit.
// Same directory so the rename cannot cross file systems; unlinked on any
// failure (including destruction without commit), so the target is either
// untouched or complete.
class AtomicFile {
public:
    AtomicFile() = default;
    AtomicFile(const AtomicFile &) = delete;
    AtomicFile &operator=(const AtomicFile &) = delete;
    ~AtomicFile() { discard(); }

    bool open(const std::string &target, std::string *reason) {
        target_ = target;
        std::string dir, name;
        split_path(target, &dir, &name);
        if (name.empty()) return fail(reason, "path names a directory, not a file");
        // Keep the temporary name within NAME_MAX even for long targets.
        const std::string stem = "." + name.substr(0, 100) + ".tmp-" + std::to_string(getpid()) + "-";
        static std::atomic<unsigned> counter{0};
        const auto clock_bits = static_cast<unsigned>(std::chrono::steady_clock::now().time_since_epoch().count());
        for (int attempt = 0; attempt < 100; ++attempt) {
            std::string candidate = (dir == "/" ? "/" : dir + "/") + stem +
                                    std::to_string(clock_bits ^ (counter.fetch_add(1) * 2654435761u));
            // O_EXCL: never reuse (or follow a symlink at) an existing name.
            // Mode 0666 lets the umask decide permissions, like any new file.
            const int fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
            if (fd < 0) {
                if (errno == EEXIST) continue;
                return fail(reason, errno_text(errno));
            }
            temp_ = std::move(candidate);
            stream_ = fdopen(fd, "wb");
            if (!stream_) {
                const int err = errno;
                ::close(fd);
                discard();
                return fail(reason, errno_text(err));
            }
            return true;
        }
        return fail(reason, "could not create a temporary file next to it");
    }

    std::FILE *stream() const { return stream_; }

    // Flushes the data to disk, then atomically replaces the target.
    bool commit(std::string *reason) {
        if (std::fflush(stream_) != 0 || std::ferror(stream_)) return fail_discard(reason, errno);
        if (fsync(fileno(stream_)) != 0) return fail_discard(reason, errno);
        std::FILE *stream = std::exchange(stream_, nullptr);
        if (std::fclose(stream) != 0) return fail_discard(reason, errno);
        if (std::rename(temp_.c_str(), target_.c_str()) != 0) return fail_discard(reason, errno);
        temp_.clear();
        // Persist the rename itself; best effort, the data is already in place.
        std::string dir, name;
        split_path(target_, &dir, &name);
        const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dir_fd >= 0) {
            fsync(dir_fd);
            ::close(dir_fd);
        }
        return true;
    }

private:
    bool fail_discard(std::string *reason, int err) {
        discard();
        return fail(reason, errno_text(err));
    }

    void discard() {
        if (stream_) std::fclose(std::exchange(stream_, nullptr));
        if (!temp_.empty()) {
            ::unlink(temp_.c_str());
            temp_.clear();
        }
    }

    std::string target_, temp_;
    std::FILE *stream_ = nullptr;
};

// Runs `write_body(FILE*, reason)` into an AtomicFile for `path`.
template <typename WriteBody>
bool write_atomically(const std::string &path, std::string *reason, WriteBody &&write_body) {
    AtomicFile file;
    if (!file.open(path, reason)) return false;
    if (!write_body(file.stream(), reason)) return false;  // ~AtomicFile removes the temp file
    return file.commit(reason);
}

// ---------------------------------------------------------------------------
// PNG.
//
// libpng reports errors by calling an error callback that must not return; we
// longjmp back to a setjmp in png_decode/png_encode. longjmp skips C++
// destructors, so those two functions keep no non-trivial locals: everything
// that outlives a longjmp (vectors, libpng structs, the FILE) is owned by the
// caller and reached through a pointer.

// Where the error callback leaves libpng's message. A fixed buffer because the
// callback runs inside libpng's C frames, where nothing may throw.
struct PngErrorSink {
    char message[256] = {};
};

[[noreturn]] void png_on_error(png_structp png, png_const_charp message) {
    if (auto *sink = static_cast<PngErrorSink *>(png_get_error_ptr(png))) {
        std::snprintf(sink->message, sizeof(sink->message), "%s", message ? message : "libpng error");
    }
    png_longjmp(png, 1);
}

// Warnings (unknown chunks, gamma oddities, ...) never stop a decode; keep quiet.
void png_on_warning(png_structp, png_const_charp) {}

struct PngDecode {
    png_structp png = nullptr;
    png_infop info = nullptr;
    std::FILE *stream = nullptr;
    uint64_t file_size = 0;
    // Output of png_decode: 8- or 16-bit (big-endian) interleaved samples.
    uint32_t width = 0, height = 0;
    int channels = 0, bit_depth = 0;
    std::vector<uint8_t> pixels;
    std::vector<png_bytep> rows;
    std::string reason;  // set for failures detected by us rather than libpng
};

bool png_decode(PngDecode *d) {
    if (setjmp(png_jmpbuf(d->png))) return false;  // libpng error: message is in the sink

    png_init_io(d->png, d->stream);
    png_set_sig_bytes(d->png, 8);  // the caller already consumed and checked the signature
    png_read_info(d->png, d->info);

    // The header is untrusted, and libpng allocates its row buffers when the
    // transforms are set up (png_read_update_info): bounded first.
    const uint32_t width = png_get_image_width(d->png, d->info), height = png_get_image_height(d->png, d->info);
    const std::string size = std::to_string(width) + "x" + std::to_string(height);
    if (uint64_t(width) * height > uint64_t(kMaxElements)) {
        d->reason = "PNG of " + size + " pixels is too large: more than 2^31-1 elements, the most hres indexes";
        return false;
    }
    if (uint64_t(width) * 8 > memory_budget() / 4) {  // a row of RGBA16, in libpng's buffers
        d->reason = "PNG rows of " + std::to_string(width) + " pixels need more than the memory budget of " +
                    byte_text(memory_budget()) + " allows (--max-memory)";
        return false;
    }
    // Deflate expands at most 1032:1 (zlib's bound), and the compressed rows
    // hold at least a filter byte and a bit per pixel each: a header that
    // declares more than the file can hold is a decompression bomb (or a
    // truncated file), refused before its buffers are allocated.
    const uint64_t fewest_stored = uint64_t(height) * (1 + (uint64_t(width) + 7) / 8);
    if (fewest_stored > (d->file_size + 1024) * 1032) {
        d->reason = "PNG declares " + size + " pixels, more than its " + byte_text(d->file_size) + " file can hold";
        return false;
    }
    const int color_type = png_get_color_type(d->png, d->info);
    const int depth = png_get_bit_depth(d->png, d->info);
    // Normalize everything to 8/16-bit gray, gray+alpha, RGB or RGBA.
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(d->png);
    if (color_type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(d->png);
    if (png_get_valid(d->png, d->info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(d->png);
    png_set_interlace_handling(d->png);
    png_read_update_info(d->png, d->info);

    d->width = png_get_image_width(d->png, d->info);
    d->height = png_get_image_height(d->png, d->info);
    d->channels = png_get_channels(d->png, d->info);
    d->bit_depth = png_get_bit_depth(d->png, d->info);
    if (d->channels < 1 || d->channels > 4 || (d->bit_depth != 8 && d->bit_depth != 16)) {
        d->reason = "unsupported PNG pixel format";
        return false;
    }
    // The header is untrusted: size-check (in the output's f32 terms for 16-bit,
    // the larger of the two buffers) before allocating anything.
    size_t bytes = 0;
    const hres::DType dtype = d->bit_depth == 16 ? hres::DType::f32 : hres::DType::u8;
    if (!image_byte_count(dtype, 1, d->channels, d->height, d->width, &bytes, &d->reason)) return false;
    const size_t row_bytes = png_get_rowbytes(d->png, d->info);
    if (row_bytes != size_t(d->width) * d->channels * (d->bit_depth / 8)) {
        d->reason = "unexpected PNG row size";
        return false;
    }
    // The decoded rows and the planar image are held at once.
    if (uint64_t(row_bytes) * d->height + bytes > memory_budget()) {
        d->reason = "PNG of " + std::to_string(d->width) + "x" + std::to_string(d->height) + " needs " +
                    byte_text(uint64_t(row_bytes) * d->height + bytes) + " to decode, more than the memory budget of " +
                    byte_text(memory_budget()) + " (--max-memory)";
        return false;
    }
    d->pixels.resize(row_bytes * d->height);
    d->rows.resize(d->height);
    for (uint32_t y = 0; y < d->height; ++y) d->rows[y] = d->pixels.data() + size_t(y) * row_bytes;
    png_read_image(d->png, d->rows.data());
    // Reading through IEND verifies the rest of the stream: a file cut after
    // the last row, or with a damaged trailing chunk, is still reported.
    png_read_end(d->png, nullptr);
    return true;
}

bool read_png(const std::string &path, HostImage *out, std::string *reason) {
    InputFile file;
    if (!file.open(path, reason)) return false;
    png_byte signature[8];
    if (std::fread(signature, 1, 8, file.stream) != 8 || png_sig_cmp(signature, 0, 8) != 0) {
        return fail(reason, "not a PNG file (bad signature)");
    }

    PngErrorSink sink;
    PngDecode d;
    d.stream = file.stream;
    d.file_size = file.size;
    d.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &sink, png_on_error, png_on_warning);
    if (!d.png) return fail(reason, "out of memory");
    // PNG's own bounds on a side, and libpng's on an ancillary chunk's
    // memory (compressed text and ICC profiles are bombs of their own).
    png_set_user_limits(d.png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    png_set_chunk_malloc_max(d.png, 8 << 20);
    struct Destroy {
        PngDecode *d;
        ~Destroy() { png_destroy_read_struct(&d->png, d->info ? &d->info : nullptr, nullptr); }
    } destroy{&d};
    d.info = png_create_info_struct(d.png);
    if (!d.info) return fail(reason, "out of memory");

    if (!png_decode(&d)) {
        return fail(reason,
                    !d.reason.empty() ? d.reason : std::string("corrupt or truncated PNG (") + sink.message + ")");
    }

    // Interleaved rows -> planar channels; 16-bit samples become [0,1] floats.
    HostImage image;
    const hres::DType dtype = d.bit_depth == 16 ? hres::DType::f32 : hres::DType::u8;
    if (!allocate_image(dtype, 1, d.channels, d.height, d.width, &image, reason)) return false;
    const size_t plane = size_t(d.width) * d.height;
    const size_t channels = d.channels;
    if (d.bit_depth == 8) {
        for (size_t i = 0; i < plane; ++i) {
            for (size_t ch = 0; ch < channels; ++ch) image.bytes[ch * plane + i] = d.pixels[i * channels + ch];
        }
    } else {
        auto *dst = reinterpret_cast<float *>(image.bytes.data());
        for (size_t i = 0; i < plane; ++i) {
            for (size_t ch = 0; ch < channels; ++ch) {
                const uint8_t *s = &d.pixels[(i * channels + ch) * 2];
                const unsigned v = (unsigned(s[0]) << 8) | s[1];  // PNG samples are big-endian
                dst[ch * plane + i] = static_cast<float>(v / 65535.0);
            }
        }
    }
    *out = std::move(image);
    return true;
}

struct PngEncode {
    png_structp png = nullptr;
    png_infop info = nullptr;
    std::FILE *stream = nullptr;
    uint32_t width = 0, height = 0;
    int color_type = 0, bit_depth = 0;
    std::vector<png_bytep> rows;
};

bool png_encode(PngEncode *e) {
    if (setjmp(png_jmpbuf(e->png))) return false;
    png_init_io(e->png, e->stream);
    // libpng's default write limit is 1M pixels per side; PNG itself allows 2^31-1.
    png_set_user_limits(e->png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    png_set_IHDR(e->png, e->info, e->width, e->height, e->bit_depth, e->color_type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(e->png, e->info);
    png_write_image(e->png, e->rows.data());
    png_write_end(e->png, nullptr);
    return true;
}

bool write_png_stream(const HostImage &image, std::FILE *stream, std::string *reason) {
    const size_t channels = size_t(image.c), width = size_t(image.w), height = size_t(image.h);
    const size_t plane = width * height;
    const bool sixteen = image.dtype == hres::DType::f32;
    const size_t sample_bytes = sixteen ? 2 : 1;

    // Interleave (and for f32 quantize) into PNG's row format up front, so the
    // setjmp region below only drives libpng.
    std::vector<uint8_t> pixels(plane * channels * sample_bytes);
    if (!sixteen) {
        for (size_t i = 0; i < plane; ++i) {
            for (size_t ch = 0; ch < channels; ++ch) pixels[i * channels + ch] = image.bytes[ch * plane + i];
        }
    } else {
        const auto *src = reinterpret_cast<const float *>(image.bytes.data());
        for (size_t i = 0; i < plane; ++i) {
            for (size_t ch = 0; ch < channels; ++ch) {
                const float v = src[ch * plane + i];
                // Written so NaN lands on 0 instead of reaching an undefined float->int cast.
                const unsigned q = !(v > 0.0f) ? 0u
                                   : v >= 1.0f ? 65535u
                                               : unsigned(std::lround(double(v) * 65535.0));
                uint8_t *s = &pixels[(i * channels + ch) * 2];
                s[0] = uint8_t(q >> 8);
                s[1] = uint8_t(q & 0xff);
            }
        }
    }

    static constexpr int kColorTypes[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                          PNG_COLOR_TYPE_RGB_ALPHA};
    PngErrorSink sink;
    PngEncode e;
    e.stream = stream;
    e.width = uint32_t(width);
    e.height = uint32_t(height);
    e.color_type = kColorTypes[channels - 1];
    e.bit_depth = sixteen ? 16 : 8;
    e.rows.resize(height);
    for (size_t y = 0; y < height; ++y) e.rows[y] = pixels.data() + y * width * channels * sample_bytes;

    e.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, png_on_error, png_on_warning);
    if (!e.png) return fail(reason, "out of memory");
    struct Destroy {
        PngEncode *e;
        ~Destroy() { png_destroy_write_struct(&e->png, e->info ? &e->info : nullptr); }
    } destroy{&e};
    e.info = png_create_info_struct(e.png);
    if (!e.info) return fail(reason, "out of memory");
    if (!png_encode(&e)) return fail(reason, std::string("PNG encoding failed (") + sink.message + ")");
    return true;
}

// ---------------------------------------------------------------------------
// NPY (https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html).

constexpr char kNpyMagic[] = "\x93NUMPY";  // 6 bytes + NUL
constexpr size_t kNpyMagicSize = 6;
// numpy itself refuses headers over 10000 bytes by default; ours are ~100.
constexpr uint32_t kMaxNpyHeaderBytes = 65536;

struct NpyHeader {
    std::string descr;
    bool fortran_order = false;
    std::vector<int64_t> shape;
};

// A strict parser for the single Python literal an .npy header holds:
//   {'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 4, 4), }
// Exactly those three keys, each once; values restricted to what they can
// legally be. Anything else is rejected with a message naming the problem.
class NpyHeaderParser {
public:
    explicit NpyHeaderParser(const std::string &text) : text_(text) {}

    bool parse(NpyHeader *out, std::string *reason) {
        bool seen_descr = false, seen_fortran = false, seen_shape = false;
        skip_space();
        if (!consume('{')) return fail(reason, "header is not a Python dict");
        skip_space();
        while (!consume('}')) {
            std::string key;
            if (!parse_string(&key)) return fail(reason, "malformed header: expected a quoted key");
            skip_space();
            if (!consume(':')) return fail(reason, "malformed header: expected ':' after '" + key + "'");
            skip_space();
            bool *seen = nullptr;
            bool ok = false;
            if (key == "descr") {
                seen = &seen_descr;
                ok = parse_string(&out->descr);
            } else if (key == "fortran_order") {
                seen = &seen_fortran;
                ok = parse_bool(&out->fortran_order);
            } else if (key == "shape") {
                seen = &seen_shape;
                ok = parse_shape(&out->shape, reason);
                if (!ok && !reason->empty()) return false;
            } else {
                return fail(reason, "unexpected key '" + key + "' in header");
            }
            if (*seen) return fail(reason, "key '" + key + "' appears twice in header");
            if (!ok) return fail(reason, "malformed value for '" + key + "' in header");
            *seen = true;
            skip_space();
            // Entries are comma-separated; a trailing comma before '}' is allowed (numpy writes one).
            if (!consume(',')) {
                skip_space();
                if (!consume('}')) return fail(reason, "malformed header: expected ',' or '}'");
                break;
            }
            skip_space();
        }
        skip_space();
        if (pos_ != text_.size()) return fail(reason, "malformed header: unexpected text after the dict");
        if (!seen_descr || !seen_fortran || !seen_shape) {
            return fail(reason, std::string("header lacks the '") +
                                    (!seen_descr     ? "descr"
                                     : !seen_fortran ? "fortran_order"
                                                     : "shape") +
                                    "' key");
        }
        return true;
    }

private:
    void skip_space() {
        while (pos_ < text_.size() &&
               (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r')) {
            ++pos_;
        }
    }

    bool consume(char ch) {
        if (pos_ < text_.size() && text_[pos_] == ch) {
            ++pos_;
            return true;
        }
        return false;
    }

    bool consume_word(const char *word) {
        const size_t len = std::strlen(word);
        if (text_.compare(pos_, len, word) != 0) return false;
        pos_ += len;
        return true;
    }

    // '...' or "..." without escapes (no valid descr or key needs one).
    bool parse_string(std::string *out) {
        if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) return false;
        const char quote = text_[pos_++];
        const size_t end = text_.find(quote, pos_);
        if (end == std::string::npos) return false;
        std::string value = text_.substr(pos_, end - pos_);
        if (value.find('\\') != std::string::npos || value.find('\n') != std::string::npos) return false;
        *out = std::move(value);
        pos_ = end + 1;
        return true;
    }

    bool parse_bool(bool *out) {
        if (consume_word("True")) {
            *out = true;
        } else if (consume_word("False")) {
            *out = false;
        } else {
            return false;
        }
        return true;
    }

    // A tuple of non-negative decimal integers; zero is a valid numpy extent
    // and is rejected later, with the other size checks.
    bool parse_shape(std::vector<int64_t> *out, std::string *reason) {
        reason->clear();
        out->clear();
        if (!consume('(')) return false;
        skip_space();
        while (!consume(')')) {
            if (pos_ < text_.size() && text_[pos_] == '-') return fail(reason, "negative dimension in shape");
            if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_]))) return false;
            int64_t value = 0;
            while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
                const int digit = text_[pos_++] - '0';
                if (value > (std::numeric_limits<int64_t>::max() - digit) / 10) {
                    return fail(reason, "shape dimension too large");
                }
                value = value * 10 + digit;
            }
            out->push_back(value);
            skip_space();
            if (!consume(',')) {
                skip_space();
                return consume(')');
            }
            skip_space();
        }
        return true;
    }

    const std::string &text_;
    size_t pos_ = 0;
};

uint32_t little_endian(const uint8_t *bytes, int count) {
    uint32_t value = 0;
    for (int i = count - 1; i >= 0; --i) value = (value << 8) | bytes[i];
    return value;
}

std::string shape_tuple(const std::vector<int64_t> &shape) {
    std::string text = "(";
    for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + (shape.size() == 1 ? ",)" : ")");
}

// Reads any C-order u1/f4 array; the total size is bounded as an image's.
bool read_npy_file(const std::string &path, NpyArray *out, std::string *reason) {
    InputFile file;
    if (!file.open(path, reason)) return false;

    uint8_t prefix[12];
    if (file.size < 10) return fail(reason, "not an .npy file (too short)");
    if (!file.read_exact(prefix, 8, "header", reason)) return false;
    if (std::memcmp(prefix, kNpyMagic, kNpyMagicSize) != 0) return fail(reason, "not an .npy file (bad magic)");
    const int major = prefix[6], minor = prefix[7];
    if ((major != 1 && major != 2 && major != 3) || minor != 0) {
        return fail(reason, "unsupported .npy format version " + std::to_string(major) + "." +
                                std::to_string(minor) + " (supported: 1.0, 2.0, 3.0)");
    }
    // Version 1 has a 16-bit header length; 2 and 3 a 32-bit one (3 only
    // changes the header's text encoding, which is irrelevant for ASCII).
    const int len_bytes = major == 1 ? 2 : 4;
    if (!file.read_exact(prefix + 8, len_bytes, "header", reason)) return false;
    const uint32_t header_len = little_endian(prefix + 8, len_bytes);
    const uint64_t data_offset = 8 + uint64_t(len_bytes) + header_len;
    if (header_len > kMaxNpyHeaderBytes) return fail(reason, "implausibly large .npy header");
    if (data_offset > file.size) return fail(reason, "file is truncated (ends inside the header)");
    std::string text(header_len, '\0');
    if (!file.read_exact(text.data(), header_len, "header", reason)) return false;

    NpyHeader header;
    std::string why;
    if (!NpyHeaderParser(text).parse(&header, &why)) return fail(reason, "invalid .npy header: " + why);

    hres::DType dtype;
    if (header.descr == "|u1" || header.descr == "<u1") {
        dtype = hres::DType::u8;
    } else if (header.descr == "<f4") {
        dtype = hres::DType::f32;
    } else {
        return fail(reason, "unsupported dtype '" + header.descr + "' (supported: '|u1', '<u1', '<f4')");
    }
    if (header.fortran_order) {
        return fail(reason, "Fortran-order (column-major) arrays are not supported; save a C-order array");
    }
    const auto &s = header.shape;
    uint64_t bytes = element_size(dtype);
    for (int64_t extent : s) {
        if (extent <= 0) {
            return fail(reason, "invalid shape " + shape_tuple(s) + ": every dimension must be positive");
        }
        if (bytes > memory_budget() / uint64_t(extent)) {
            return fail(reason, "array of shape " + shape_tuple(s) + " is too large: more than the memory budget of " +
                                    byte_text(memory_budget()) + " (--max-memory)");
        }
        bytes *= uint64_t(extent);
    }
    // Exact size match: short files are truncated, long ones are not what the header describes.
    const uint64_t expected = data_offset + bytes;
    if (file.size < expected) {
        return fail(reason, "file is truncated: shape " + shape_tuple(s) + " needs " + std::to_string(bytes) +
                                " data bytes, the file holds " + std::to_string(file.size - data_offset));
    }
    if (file.size > expected) {
        return fail(reason, "file has " + std::to_string(file.size - expected) +
                                " bytes beyond the data its header describes");
    }

    NpyArray array;
    array.dtype = dtype;
    array.shape = s;
    try {
        array.bytes.resize(size_t(bytes));
    } catch (const std::bad_alloc &) {
        return fail(reason, "out of memory allocating " + std::to_string(bytes) + " bytes");
    }
    if (!file.read_exact(array.bytes.data(), size_t(bytes), "data", reason)) return false;
    *out = std::move(array);
    return true;
}

bool read_npy(const std::string &path, HostImage *out, std::string *reason) {
    NpyArray array;
    if (!read_npy_file(path, &array, reason)) return false;
    const auto &s = array.shape;
    if (s.size() != 4) {
        return fail(reason, "expected a 4-D (N, C, H, W) array, got shape " + shape_tuple(s));
    }
    size_t bytes = 0;
    if (!image_byte_count(array.dtype, s[0], s[1], s[2], s[3], &bytes, reason)) return false;
    out->dtype = array.dtype;
    out->n = s[0];
    out->c = s[1];
    out->h = s[2];
    out->w = s[3];
    out->bytes = std::move(array.bytes);
    return true;
}

bool write_npy_stream(const HostImage &image, std::FILE *stream, std::string *reason) {
    // Version 1.0 with the preamble padded to a multiple of 64 bytes, as numpy writes it.
    std::string header =
        std::string("{'descr': '") + (image.dtype == hres::DType::f32 ? "<f4" : "|u1") +
        "', 'fortran_order': False, 'shape': " + shape_tuple({image.n, image.c, image.h, image.w}) + ", }";
    const size_t preamble = kNpyMagicSize + 2 + 2;
    const size_t unpadded = preamble + header.size() + 1;  // + the terminating newline
    header.append((64 - unpadded % 64) % 64, ' ');
    header.push_back('\n');
    const size_t header_len = header.size();  // < 200 for any 4-D shape, fits the 16-bit field

    uint8_t head[preamble];
    std::memcpy(head, kNpyMagic, kNpyMagicSize);
    head[6] = 1;
    head[7] = 0;
    head[8] = uint8_t(header_len & 0xff);
    head[9] = uint8_t(header_len >> 8);
    if (std::fwrite(head, 1, preamble, stream) != preamble ||
        std::fwrite(header.data(), 1, header_len, stream) != header_len ||
        std::fwrite(image.bytes.data(), 1, image.bytes.size(), stream) != image.bytes.size()) {
        return fail(reason, errno_text(errno));
    }
    return true;
}

template <size_t E>
void planar_to_interleaved(const uint8_t *src, uint8_t *dst, size_t n, size_t c, size_t hw) {
    for (size_t b = 0; b < n; ++b) {
        for (size_t ch = 0; ch < c; ++ch) {
            const uint8_t *plane = src + (b * c + ch) * hw * E;
            uint8_t *out = dst + (b * hw * c + ch) * E;
            for (size_t i = 0; i < hw; ++i) std::memcpy(out + i * c * E, plane + i * E, E);
        }
    }
}

template <size_t E>
void interleaved_to_planar(const uint8_t *src, uint8_t *dst, size_t n, size_t c, size_t hw) {
    for (size_t b = 0; b < n; ++b) {
        for (size_t ch = 0; ch < c; ++ch) {
            const uint8_t *in = src + (b * hw * c + ch) * E;
            uint8_t *plane = dst + (b * c + ch) * hw * E;
            for (size_t i = 0; i < hw; ++i) std::memcpy(plane + i * E, in + i * c * E, E);
        }
    }
}

}  // namespace

// ---------------------------------------------------------------------------
// Public API.

size_t element_size(hres::DType dtype) {
    return dtype == hres::DType::f32 ? 4 : 1;
}

const char *dtype_name(hres::DType dtype) {
    return dtype == hres::DType::f32 ? "f32" : "u8";
}

std::string shape_string(const HostImage &image) {
    return std::to_string(image.n) + "x" + std::to_string(image.c) + "x" + std::to_string(image.h) + "x" +
           std::to_string(image.w);
}

namespace {
uint64_t budget = kDefaultMemoryBudget;
}  // namespace

void set_memory_budget(uint64_t bytes) { budget = bytes; }
uint64_t memory_budget() { return budget; }

std::string byte_text(uint64_t bytes) {
    char text[32];
    if (bytes >= (uint64_t(1) << 30)) {
        std::snprintf(text, sizeof text, "%.1f GiB", double(bytes) / double(uint64_t(1) << 30));
    } else if (bytes >= (uint64_t(1) << 20)) {
        std::snprintf(text, sizeof text, "%.1f MiB", double(bytes) / double(uint64_t(1) << 20));
    } else {
        std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
    }
    return text;
}

bool image_byte_count(hres::DType dtype, int64_t n, int64_t c, int64_t h, int64_t w, size_t *bytes,
                      std::string *error) {
    const int64_t dims[4] = {n, c, h, w};
    const std::string shape =
        std::to_string(n) + "x" + std::to_string(c) + "x" + std::to_string(h) + "x" + std::to_string(w);
    for (int64_t d : dims) {
        if (d <= 0) return fail(error, "invalid image shape " + shape + ": every dimension must be positive");
    }
    // Compare before multiplying so the check itself cannot overflow.
    int64_t elements = 1;
    for (int64_t d : dims) {
        if (d > kMaxElements / elements) {
            return fail(error, "image of shape " + shape + " is too large: more than 2^31-1 elements, the most hres indexes");
        }
        elements *= d;
    }
    const uint64_t total = uint64_t(elements) * element_size(dtype);
    if (total > memory_budget()) {
        return fail(error, "image of shape " + shape + " is too large: " + byte_text(total) +
                               ", more than the memory budget of " + byte_text(memory_budget()) + " (--max-memory)");
    }
    *bytes = size_t(total);
    return true;
}

bool allocate_image(hres::DType dtype, int64_t n, int64_t c, int64_t h, int64_t w, HostImage *out,
                    std::string *error) {
    size_t bytes = 0;
    if (!image_byte_count(dtype, n, c, h, w, &bytes, error)) return false;
    try {
        out->bytes.assign(bytes, 0);
    } catch (const std::bad_alloc &) {
        return fail(error, "out of memory allocating " + std::to_string(bytes) + " bytes");
    }
    out->dtype = dtype;
    out->n = n;
    out->c = c;
    out->h = h;
    out->w = w;
    return true;
}

bool read_npy_array(const std::string &path, NpyArray *out, std::string *error) {
    std::string reason;
    bool ok = false;
    try {
        ok = read_npy_file(path, out, &reason);
    } catch (const std::bad_alloc &) {
        reason = "out of memory";
    }
    if (!ok) return fail(error, "cannot read '" + path + "': " + reason);
    return true;
}

bool read_image(const std::string &path, HostImage *out, std::string *error) {
    std::string reason;
    bool ok = false;
    try {
        switch (format_of(path, &reason)) {
            case Format::png:
                ok = read_png(path, out, &reason);
                break;
            case Format::npy:
                ok = read_npy(path, out, &reason);
                break;
            case Format::unknown:
                break;
        }
    } catch (const std::bad_alloc &) {
        reason = "out of memory";
        ok = false;
    }
    if (!ok) return fail(error, "cannot read '" + path + "': " + reason);
    return true;
}

bool check_writable(const std::string &path, const HostImage &image, std::string *error) {
    std::string reason;
    const auto failed = [&](const std::string &why) { return fail(error, "cannot write '" + path + "': " + why); };
    const Format format = format_of(path, &reason);
    if (format == Format::unknown) return failed(reason);
    size_t bytes = 0;
    if (!image_byte_count(image.dtype, image.n, image.c, image.h, image.w, &bytes, &reason)) return failed(reason);
    if (format == Format::png) {
        if (image.n != 1 || image.c < 1 || image.c > 4) {
            return failed("PNG holds one image of 1-4 channels, not " + shape_string(image) +
                          "; use .npy instead");
        }
        if (image.h > int64_t(PNG_UINT_31_MAX) || image.w > int64_t(PNG_UINT_31_MAX)) {
            return failed("image too large for PNG; use .npy instead");
        }
    }
    std::string dir, name;
    split_path(path, &dir, &name);
    if (name.empty()) return failed("path names a directory, not a file");
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        return failed("directory '" + dir + "' does not exist");
    if (::access(dir.c_str(), W_OK) != 0) return failed("directory '" + dir + "' is not writable");
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return failed("it is a directory");
    return true;
}

bool write_image(const std::string &path, const HostImage &image, std::string *error) {
    if (!check_writable(path, image, error)) return false;
    size_t bytes = 0;
    image_byte_count(image.dtype, image.n, image.c, image.h, image.w, &bytes, nullptr);
    if (image.bytes.size() != bytes) {
        return fail(error, "cannot write '" + path + "': pixel buffer holds " +
                               std::to_string(image.bytes.size()) + " bytes, shape " + shape_string(image) +
                               " needs " + std::to_string(bytes));
    }
    std::string reason;
    bool ok = false;
    try {
        const bool png = format_of(path, nullptr) == Format::png;
        ok = write_atomically(path, &reason, [&](std::FILE *stream, std::string *why) {
            return png ? write_png_stream(image, stream, why) : write_npy_stream(image, stream, why);
        });
    } catch (const std::bad_alloc &) {
        // The AtomicFile has already been unwound (and its temporary removed).
        reason = "out of memory";
        ok = false;
    }
    if (!ok) return fail(error, "cannot write '" + path + "': " + reason);
    return true;
}

std::vector<uint8_t> to_interleaved(const HostImage &image) {
    std::vector<uint8_t> out(image.bytes.size());
    to_interleaved(image, out.data());
    return out;
}

void to_interleaved(const HostImage &image, uint8_t *nhwc) {
    const size_t n = size_t(image.n), c = size_t(image.c), hw = size_t(image.h) * size_t(image.w);
    if (element_size(image.dtype) == 4) {
        planar_to_interleaved<4>(image.bytes.data(), nhwc, n, c, hw);
    } else {
        planar_to_interleaved<1>(image.bytes.data(), nhwc, n, c, hw);
    }
}

void from_interleaved(const uint8_t *nhwc, HostImage *image) {
    const size_t n = size_t(image->n), c = size_t(image->c), hw = size_t(image->h) * size_t(image->w);
    if (element_size(image->dtype) == 4) {
        interleaved_to_planar<4>(nhwc, image->bytes.data(), n, c, hw);
    } else {
        interleaved_to_planar<1>(nhwc, image->bytes.data(), n, c, hw);
    }
}

}  // namespace hres::io
