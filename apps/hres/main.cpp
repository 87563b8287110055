// hres: command-line front end to the hres resampling kernels.
//
//   hres resize IN OUT (--size HxW | --scale SH[,SW]) [options]
//   hres affine IN OUT (--theta a,b,c,d,e,f | --theta-file THETA.npy) [--size HxW] [options]
//   hres grid-sample IN GRID.npy OUT [options]
//   hres flip IN OUT (--horizontal | --vertical | --both) [options]
//
// How it is put together, so a subcommand only adds what is specific to it:
//  * kSubcommands maps a name to a handler; main() and `hres help` dispatch
//    through it and the top-level usage is generated from it.
//  * Options are data: a handler builds a table of OptionSpec (name, value
//    placeholder, help text, setter) for its own options and appends the
//    shared ones: add_sampling_options() (--mode, --padding, --align-corners
//    of affine and grid-sample) and add_common_options() (--layout, --threads,
//    --isa, --bench, --device, --max-memory). parse_options() does all generic
//    parsing and print_command_help() renders --help from the same table.
//  * The shared execution path is also common: apply_execution_settings()
//    (ISA, threads, memory budget) and load_input(), then execute_kernel(), which runs
//    prepare_output(), run_kernel() (layout conversion, upload to and
//    download from the GPU for --device cuda, timing, --bench),
//    save_output() and print_report(). A handler only validates its
//    arguments, loads its extra inputs (theta, grid) and names the kernel.
//  * Every failure is thrown as a CliError carrying its exit status and
//    reported once, as a single "hres: error: ..." line, by main(). Status 2:
//    the command line itself is wrong (unknown or repeated option, bad value,
//    missing or conflicting options, an impossible output size). Status 1: a
//    well-formed request failed (unreadable or malformed IN, GRID or THETA
//    file, a GRID or THETA whose dtype, shape or batch does not fit IN, an
//    unwritable OUT, an unsupported ISA, a kernel error).
//    The output file is written only after the kernel succeeded, atomically.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iterator>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "hres/hres.h"
#include "image_io.h"
#include "kernel_buffer.h"

#ifndef HRES_VERSION
#define HRES_VERSION "0.1.0"
#endif

namespace {

using hres::io::HostImage;

constexpr int kExitRuntimeError = 1;  // a well-formed request that failed (I/O, kernel, CPU)
constexpr int kExitUsageError = 2;    // the command line itself is wrong

// Halide buffer extents are 32-bit; anything larger cannot be run anyway.
constexpr int64_t kMaxExtent = std::numeric_limits<int32_t>::max();
constexpr int64_t kMaxThreads = hres::kMaxThreads;
constexpr int64_t kMaxBenchIters = 1000000;

class CliError : public std::runtime_error {
public:
    CliError(int exit_code, const std::string &message) : std::runtime_error(message), exit_code_(exit_code) {}
    int exit_code() const { return exit_code_; }

private:
    int exit_code_;
};

[[noreturn]] void fail_usage(const std::string &message) {
    throw CliError(kExitUsageError, message);
}
[[noreturn]] void fail_runtime(const std::string &message) {
    throw CliError(kExitRuntimeError, message);
}

// ---------------------------------------------------------------------------
// Strict value parsing. The C library parsers accept leading whitespace, signs,
// trailing junk and (for strtod) "inf"/"nan"/hex; a typo in a size should be an
// error, not a silently different size, so inputs are checked character-wise.

enum class CountError { none, malformed, zero, too_large };

// A positive decimal integer <= max: digits only.
CountError parse_count(const std::string &text, int64_t max, int64_t *out) {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return CountError::malformed;
    int64_t value = 0;
    for (char ch : text) {
        const int digit = ch - '0';
        if (value > (max - digit) / 10) return CountError::too_large;
        value = value * 10 + digit;
    }
    if (value == 0) return CountError::zero;
    *out = value;
    return CountError::none;
}

std::string count_problem(CountError error, int64_t max) {
    switch (error) {
        case CountError::zero:
            return "must be positive";
        case CountError::too_large:
            return "must be at most " + std::to_string(max);
        default:
            return "expected a positive integer";
    }
}

int64_t parse_count_option(const std::string &option, const std::string &text, int64_t max) {
    int64_t value = 0;
    const CountError error = parse_count(text, max, &value);
    if (error != CountError::none) {
        fail_usage("invalid " + option + " value '" + text + "': " + count_problem(error, max));
    }
    return value;
}

// A finite decimal number such as 0.5, -2 or 1e-1: an optional '-', then a
// digit or '.', then only digits, '.', exponent letters and exponent signs,
// all consumed by strtod (no "inf", "nan", hex, spaces or trailing junk).
std::optional<double> parse_real(const std::string &text) {
    const size_t body = !text.empty() && text[0] == '-' ? 1 : 0;
    if (text.size() == body || text.find_first_not_of("0123456789.eE+-", body) != std::string::npos ||
        !(std::isdigit(static_cast<unsigned char>(text[body])) || text[body] == '.')) {
        return std::nullopt;
    }
    errno = 0;
    char *end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(value)) return std::nullopt;
    return value;
}

// A finite positive decimal number such as 0.5, 2 or 1e-1 (no sign).
std::optional<double> parse_positive_real(const std::string &text) {
    if (!text.empty() && text[0] == '-') return std::nullopt;
    const std::optional<double> value = parse_real(text);
    if (!value || *value <= 0.0) return std::nullopt;
    return value;
}

// Splits at every `separator`, keeping empty fields ("1,,2" has three).
std::vector<std::string> split(const std::string &text, char separator) {
    std::vector<std::string> fields;
    size_t start = 0;
    for (size_t at = text.find(separator); at != std::string::npos; at = text.find(separator, start)) {
        fields.push_back(text.substr(start, at - start));
        start = at + 1;
    }
    fields.push_back(text.substr(start));
    return fields;
}

std::string format_real(double value) {
    char text[32];
    std::snprintf(text, sizeof(text), "%g", value);
    return text;
}

// Fixed vocabularies (modes, ISAs, layouts) as name/value tables, so parsing,
// error messages, help text and the report all use the same spelling.
template <typename T>
struct Choice {
    const char *name;
    T value;
};

enum class Layout { nchw, nhwc };

constexpr Choice<hres::Interp> kModes[] = {{"nearest", hres::Interp::nearest},
                                           {"nearest-exact", hres::Interp::nearest_exact},
                                           {"bilinear", hres::Interp::bilinear},
                                           {"bicubic", hres::Interp::bicubic}};
// grid_sample's modes: no nearest-exact (see parse_grid_mode).
constexpr Choice<hres::Interp> kGridModes[] = {{"bilinear", hres::Interp::bilinear},
                                               {"nearest", hres::Interp::nearest},
                                               {"bicubic", hres::Interp::bicubic}};
constexpr Choice<hres::Padding> kPaddings[] = {{"zeros", hres::Padding::zeros},
                                               {"border", hres::Padding::border},
                                               {"reflection", hres::Padding::reflection}};
constexpr Choice<hres::Isa> kIsas[] = {{"auto", hres::Isa::automatic},
                                       {"avx512", hres::Isa::avx512},
                                       {"avx2", hres::Isa::avx2},
                                       {"sse41", hres::Isa::sse41}};
constexpr Choice<Layout> kLayouts[] = {{"nchw", Layout::nchw}, {"nhwc", Layout::nhwc}};
constexpr Choice<hres::Device> kDevices[] = {{"cpu", hres::Device::cpu}, {"cuda", hres::Device::cuda}};

template <typename T, size_t N>
std::string choice_list(const Choice<T> (&choices)[N]) {
    std::string list;
    for (const auto &choice : choices) list += (list.empty() ? "" : "|") + std::string(choice.name);
    return list;
}

template <typename T, size_t N>
T parse_choice(const std::string &option, const std::string &text, const Choice<T> (&choices)[N]) {
    for (const auto &choice : choices) {
        if (text == choice.name) return choice.value;
    }
    fail_usage("invalid " + option + " value '" + text + "': expected one of " + choice_list(choices));
}

template <typename T, size_t N>
const char *choice_name(T value, const Choice<T> (&choices)[N]) {
    for (const auto &choice : choices) {
        if (choice.value == value) return choice.name;
    }
    return "?";
}

// ---------------------------------------------------------------------------
// Option tables and the generic parser.

struct OptionSpec {
    std::string name;        // "--size"
    std::string value_name;  // placeholder shown in help ("HxW"); empty for a flag
    std::string help;
    std::function<void(const std::string &value)> apply;  // parses and stores; "" for flags
};

struct ParsedArgs {
    std::vector<std::string> operands;
    bool help = false;
};

// Accepts `--opt value`, `--opt=value` and `--` (everything after it is an
// operand). Unknown, repeated, value-less and flag-with-value options are
// usage errors. --help/-h anywhere before `--` wins over everything else, so
// `hres resize --mode bogus --help` still shows the help.
ParsedArgs parse_options(const std::string &command, const std::vector<std::string> &args,
                         const std::vector<OptionSpec> &specs) {
    ParsedArgs parsed;
    for (const std::string &arg : args) {
        if (arg == "--") break;
        if (arg == "--help" || arg == "-h") {
            parsed.help = true;
            return parsed;
        }
    }
    const std::string see_help = " (see 'hres " + command + " --help')";
    std::vector<const OptionSpec *> seen;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        if (arg == "--") {
            parsed.operands.insert(parsed.operands.end(), args.begin() + long(i) + 1, args.end());
            break;
        }
        if (arg.size() < 2 || arg[0] != '-') {
            parsed.operands.push_back(arg);
            continue;
        }
        const size_t eq = arg.find('=');
        const std::string name = arg.substr(0, eq);
        const auto spec =
            std::find_if(specs.begin(), specs.end(), [&](const OptionSpec &s) { return s.name == name; });
        if (spec == specs.end()) fail_usage("unknown option '" + name + "'" + see_help);
        if (std::find(seen.begin(), seen.end(), &*spec) != seen.end()) {
            fail_usage("option " + name + " given more than once");
        }
        seen.push_back(&*spec);
        std::string value;
        if (spec->value_name.empty()) {
            if (eq != std::string::npos) fail_usage("option " + name + " takes no value");
        } else if (eq != std::string::npos) {
            value = arg.substr(eq + 1);
        } else if (i + 1 < args.size()) {
            value = args[++i];  // taken even if it starts with '-', so "--size -3x4" reports the bad size
        } else {
            fail_usage("option " + name + " needs a value " + spec->value_name + see_help);
        }
        spec->apply(value);
    }
    return parsed;
}

// Options every kernel subcommand shares. A subcommand embeds this struct and
// calls add_common_options(); the execution helpers below consume it.
struct CommonOptions {
    Layout layout = Layout::nchw;
    std::optional<int> threads;
    std::optional<hres::Isa> isa;
    hres::Device device = hres::Device::cpu;
    int bench_iters = 0;  // 0: no --bench
    uint64_t max_memory = hres::io::kDefaultMemoryBudget;
    bool explain = false;
};

// A byte count: digits with an optional K, M or G (binary units), e.g. 512M.
uint64_t parse_bytes_option(const std::string &option, const std::string &text) {
    const size_t digits = text.find_first_not_of("0123456789");
    const std::string suffix = digits == std::string::npos ? "" : text.substr(digits);
    const int shift = suffix.empty() ? 0 : suffix == "K" ? 10 : suffix == "M" ? 20 : suffix == "G" ? 30 : -1;
    constexpr uint64_t kMost = uint64_t(1) << 50;
    uint64_t value = 0;
    bool ok = digits != 0 && shift >= 0 && digits <= 16;
    for (size_t i = 0; ok && i < (digits == std::string::npos ? text.size() : digits); i++) value = value * 10 + (text[i] - '0');
    ok = ok && value > 0 && value <= (kMost >> shift);
    if (!ok) fail_usage("invalid " + option + " value '" + text + "': a positive byte count with an optional K, M or G, at most 1024T");
    return value << shift;
}

void add_common_options(CommonOptions *common, std::vector<OptionSpec> *specs) {
    specs->push_back({"--layout", "LAYOUT",
                      "memory layout the kernel works on: " + choice_list(kLayouts) + " (default nchw)",
                      [common](const std::string &v) { common->layout = parse_choice("--layout", v, kLayouts); }});
    specs->push_back(
        {"--threads", "N", "number of worker threads (default: one per core)", [common](const std::string &v) {
             common->threads = int(parse_count_option("--threads", v, kMaxThreads));
         }});
    specs->push_back({"--isa", "ISA", "x86 code path: " + choice_list(kIsas) + " (default auto)",
                      [common](const std::string &v) { common->isa = parse_choice("--isa", v, kIsas); }});
    specs->push_back({"--device", "DEVICE",
                      "where the kernel runs: " + choice_list(kDevices) +
                          " (default cpu; cuda uploads IN, runs on GPU 0 and downloads OUT)",
                      [common](const std::string &v) { common->device = parse_choice("--device", v, kDevices); }});
    specs->push_back({"--max-memory", "BYTES",
                      "the most the tool holds at once, e.g. 512M or 16G (default 4G); inputs, outputs and "
                      "file headers beyond it are refused before anything is allocated",
                      [common](const std::string &v) { common->max_memory = parse_bytes_option("--max-memory", v); }});
    specs->push_back({"--explain", "",
                      "print the kernel that ran and the rule of the kernel table (kernels/kernels.toml) "
                      "that chose it",
                      [common](const std::string &) { common->explain = true; }});
    specs->push_back({"--bench", "ITERS",
                      "after a warm-up run, time ITERS runs; print median and min (cuda: per call, "
                      "device synchronised)",
                      [common](const std::string &v) {
                          common->bench_iters = int(parse_count_option("--bench", v, kMaxBenchIters));
                      }});
}

// grid_sample's --mode: resize's nearest-exact is not one of them, which gets
// its own hint rather than the bare list.
hres::Interp parse_grid_mode(const std::string &text) {
    if (text == "nearest-exact") {
        fail_usage(std::string("invalid --mode value 'nearest-exact': grid sampling has no nearest-exact mode ") +
                   "(nearest rounds half to even); expected one of " + choice_list(kGridModes));
    }
    return parse_choice("--mode", text, kGridModes);
}

// The grid-sampling options of affine and grid-sample.
void add_sampling_options(hres::GridSampleOptions *options, std::vector<OptionSpec> *specs) {
    specs->push_back({"--mode", "MODE", "interpolation: " + choice_list(kGridModes) + " (default bilinear)",
                      [options](const std::string &v) { options->mode = parse_grid_mode(v); }});
    specs->push_back({"--padding", "PADDING", "value outside the image: " + choice_list(kPaddings) + " (default zeros)",
                      [options](const std::string &v) { options->padding = parse_choice("--padding", v, kPaddings); }});
    specs->push_back({"--align-corners", "", "-1 and 1 are the corner pixels' centres, not their outer edges",
                      [options](const std::string &) { options->align_corners = true; }});
}

// "bilinear padding=zeros align_corners=0", for the report.
std::string describe_sampling(const hres::GridSampleOptions &options) {
    return std::string(choice_name(options.mode, kGridModes)) + " padding=" + choice_name(options.padding, kPaddings) +
           " align_corners=" + (options.align_corners ? "1" : "0");
}

// ---------------------------------------------------------------------------
// Subcommand table and help.

struct Subcommand {
    const char *name;
    const char *synopsis;     // what follows "hres NAME" in the usage line
    const char *summary;      // one line for `hres --help`
    const char *description;  // extra paragraph for `hres NAME --help`
    int (*run)(const Subcommand &self, const std::vector<std::string> &args);
};

void print_command_help(const Subcommand &command, const std::vector<OptionSpec> &specs) {
    std::printf("Usage: hres %s %s\n\n%s\n\nOptions:\n", command.name, command.synopsis, command.description);
    std::vector<std::pair<std::string, std::string>> rows;
    for (const OptionSpec &spec : specs) {
        rows.emplace_back(spec.name + (spec.value_name.empty() ? "" : " " + spec.value_name), spec.help);
    }
    rows.emplace_back("-h, --help", "show this help and exit");
    size_t width = 0;
    for (const auto &row : rows) width = std::max(width, row.first.size());
    for (const auto &row : rows) std::printf("  %-*s  %s\n", int(width), row.first.c_str(), row.second.c_str());
}

// Parses a subcommand's arguments; returns nullopt when --help was handled.
std::optional<std::vector<std::string>> parse_command_line(const Subcommand &self,
                                                           const std::vector<std::string> &args,
                                                           const std::vector<OptionSpec> &specs,
                                                           const std::vector<const char *> &operand_names) {
    ParsedArgs parsed = parse_options(self.name, args, specs);
    if (parsed.help) {
        print_command_help(self, specs);
        return std::nullopt;
    }
    if (parsed.operands.size() < operand_names.size()) {
        fail_usage(std::string("missing ") + operand_names[parsed.operands.size()] + " (usage: hres " + self.name +
                   " " + self.synopsis + ")");
    }
    if (parsed.operands.size() > operand_names.size()) {
        fail_usage("unexpected argument '" + parsed.operands[operand_names.size()] + "' (see 'hres " + self.name +
                   " --help')");
    }
    return std::move(parsed.operands);
}

// ---------------------------------------------------------------------------
// The shared execution path.

// ISA and thread count must be settled before the first kernel call, and the
// memory budget before the first file is read.
void apply_execution_settings(const CommonOptions &common) {
    hres::io::set_memory_budget(common.max_memory);
    if (common.isa) {
        const std::string name = choice_name(*common.isa, kIsas);
        if (*common.isa != hres::Isa::automatic && !hres::cpu_supports(*common.isa)) {
            fail_runtime("--isa " + name + ": this CPU does not support " + name +
                         " (best available: " + choice_name(hres::best_cpu_isa(), kIsas) + ")");
        }
        const hres::Status status = hres::set_isa(*common.isa);
        if (!status.ok()) fail_runtime("--isa " + name + ": " + status.message());
    }
    if (common.threads) hres::set_num_threads(*common.threads);
}

HostImage load_input(const std::string &path) {
    HostImage image;
    std::string error;
    if (!hres::io::read_image(path, &image, &error)) fail_runtime(error);
    return image;
}

// Validates the output shape (a usage error: it follows from the arguments) and
// that OUT can be written in that format, then allocates it; all before the
// kernel runs, so a doomed run fails fast.
// A plain NCHW run on the CPU works on the files' bytes. NHWC (a layout
// conversion), --bench (whose timings should see memory aligned as callers
// allocate it) and CUDA (uploaded from there) work on aligned copies.
bool works_on_copies(const CommonOptions &common) {
    return common.layout == Layout::nhwc || common.bench_iters > 0 || common.device == hres::Device::cuda;
}

// The tool then holds IN and OUT, and where the kernel works on copies
// (works_on_copies) both again, which must fit the memory budget.
HostImage prepare_output(const std::string &path, const CommonOptions &common, const HostImage &in, int64_t h,
                         int64_t w) {
    const hres::DType dtype = in.dtype;
    const int64_t n = in.n, c = in.c;
    std::string error;
    size_t bytes = 0;
    if (!hres::io::image_byte_count(dtype, n, c, h, w, &bytes, &error)) fail_usage("output " + error);
    const int copies = works_on_copies(common) ? 2 : 1;
    const uint64_t held = copies * (uint64_t(in.bytes.size()) + bytes);
    if (held > hres::io::memory_budget()) {
        fail_runtime("input " + hres::io::shape_string(in) + " and output " + std::to_string(n) + "x" +
                     std::to_string(c) + "x" + std::to_string(h) + "x" + std::to_string(w) + " need " +
                     hres::io::byte_text(held) + (copies == 2 ? " (with the kernel's copies)" : "") +
                     ", more than the memory budget of " + hres::io::byte_text(hres::io::memory_budget()) +
                     " (--max-memory)");
    }
    HostImage out;
    out.dtype = dtype;
    out.n = n;
    out.c = c;
    out.h = h;
    out.w = w;
    if (!hres::io::check_writable(path, out, &error)) fail_runtime(error);
    if (!hres::io::allocate_image(dtype, n, c, h, w, &out, &error)) fail_runtime(error);
    return out;
}

void save_output(const std::string &path, const HostImage &image) {
    std::string error;
    if (!hres::io::write_image(path, image, &error)) fail_runtime(error);
}

// A kernel call; `params` is the op's float array (theta, grid) or null, on
// the images' device.
using Kernel = std::function<hres::Status(const hres::Image &in, const float *params, const hres::Image &out)>;

struct KernelTimes {
    double first_us = 0.0;         // the first call (also the --bench warm-up)
    std::vector<double> bench_us;  // --bench: the calls after it
};

// Copies `bytes` from `host` into `buffer` for --device cuda, or fails the run.
void upload(hres::CudaBuffer *buffer, const void *host, size_t bytes) {
    if (const hres::Status s = buffer->upload(host, bytes); !s.ok()) fail_runtime("--device cuda: " + s.message());
}

// Runs `kernel` over `in` and `out` in the requested memory layout, once plus
// --bench more times. Only the kernel calls are timed: the copies into and
// out of the kernels' buffers (kernel_buffer.h), in the requested layout,
// happen outside, so nchw and nhwc timings compare kernel against kernel.
KernelTimes run_kernel(const CommonOptions &common, const HostImage &in, HostImage *out,
                       const std::vector<float> *params, const Kernel &kernel) {
    std::unique_ptr<hres::io::KernelBuffer> in_buffer, out_buffer;
    hres::Image in_view, out_view;
    if (!works_on_copies(common)) {
        in_view = hres::nchw(const_cast<uint8_t *>(in.bytes.data()), in.dtype, in.n, in.c, in.h, in.w);
        out_view = hres::nchw(out->bytes.data(), out->dtype, out->n, out->c, out->h, out->w);
    } else {
        in_buffer = std::make_unique<hres::io::KernelBuffer>(in.bytes.size());
        out_buffer = std::make_unique<hres::io::KernelBuffer>(out->bytes.size());
        std::memset(out_buffer->data(), 0, out_buffer->size());  // faults its pages in before the first call
        if (common.layout == Layout::nhwc) {
            hres::io::to_interleaved(in, in_buffer->data());
            in_view = hres::nhwc(in_buffer->data(), in.dtype, in.n, in.c, in.h, in.w);
            out_view = hres::nhwc(out_buffer->data(), out->dtype, out->n, out->c, out->h, out->w);
        } else {
            std::memcpy(in_buffer->data(), in.bytes.data(), in.bytes.size());
            in_view = hres::nchw(in_buffer->data(), in.dtype, in.n, in.c, in.h, in.w);
            out_view = hres::nchw(out_buffer->data(), out->dtype, out->n, out->c, out->h, out->w);
        }
    }
    const float *params_view = params ? params->data() : nullptr;
    void *const out_host = out_view.data;

    // On the GPU: the same views over device copies (the layouts are dense).
    const bool cuda = common.device == hres::Device::cuda;
    hres::CudaBuffer in_device, out_device, params_device;
    if (cuda) {
        if (const hres::Status usable = hres::cuda_status(); !usable.ok()) {
            fail_runtime("--device cuda: " + usable.message());
        }
        upload(&in_device, in_view.data, in.bytes.size());
        upload(&out_device, out_view.data, out->bytes.size());
        if (params) upload(&params_device, params->data(), params->size() * sizeof(float));
        in_view.data = in_device.get();
        out_view.data = out_device.get();
        in_view.device = out_view.device = hres::Device::cuda;
        if (params) params_view = static_cast<const float *>(params_device.get());
    }

    const auto call = [&] {
        const hres::Status status = kernel(in_view, params_view, out_view);
        if (!status.ok()) fail_runtime(status.message());
    };
    const auto synchronise = [&] {
        if (!cuda) return;
        const hres::Status status = hres::cuda_synchronize();
        if (!status.ok()) fail_runtime("--device cuda: " + status.message());
    };
    using Clock = std::chrono::steady_clock;
    const auto micros = [](Clock::time_point a, Clock::time_point b) {
        return std::chrono::duration<double, std::micro>(b - a).count();
    };
    KernelTimes times;
    auto start = Clock::now();
    call();
    synchronise();
    times.first_us = micros(start, Clock::now());
    if (cuda && common.bench_iters > 0) {
        // GPU calls are asynchronous: time batches of calls between
        // synchronisations, so each sample is the per-call time including
        // launch, as a stream of calls sees it.
        const int batch = 20;
        for (int i = 0; i < common.bench_iters; ++i) {
            start = Clock::now();
            for (int j = 0; j < batch; ++j) call();
            synchronise();
            times.bench_us.push_back(micros(start, Clock::now()) / batch);
        }
    } else {
        for (int i = 0; i < common.bench_iters; ++i) {
            start = Clock::now();
            call();
            times.bench_us.push_back(micros(start, Clock::now()));
        }
    }

    if (cuda) {
        const hres::Status status = hres::cuda_download(out_host, out_device.get(), out->bytes.size());
        if (!status.ok()) fail_runtime("--device cuda: " + status.message());
    }
    if (!out_buffer) return times;
    if (common.layout == Layout::nhwc) {
        hres::io::from_interleaved(out_buffer->data(), out);
    } else {
        std::memcpy(out->bytes.data(), out_buffer->data(), out->bytes.size());
    }
    return times;
}

std::string describe(const HostImage &image) {
    return hres::io::shape_string(image) + " " + hres::io::dtype_name(image.dtype);
}

// "<what> layout=.. isa=.. threads=..: T us" and, with --bench, the statistics line.
void print_report(const std::string &what, const CommonOptions &common, const KernelTimes &times) {
    const std::string threads = common.threads ? std::to_string(*common.threads) : "auto";
    if (common.device == hres::Device::cuda) {
        std::printf("%s layout=%s device=cuda (%s): %.1f us (first call, module load included)\n", what.c_str(),
                    choice_name(common.layout, kLayouts), hres::cuda_device_name().c_str(), times.first_us);
    } else {
        std::printf("%s layout=%s isa=%s threads=%s: %.1f us\n", what.c_str(), choice_name(common.layout, kLayouts),
                    choice_name(hres::active_isa(), kIsas), threads.c_str(), times.first_us);
    }
    if (common.explain) {
        const hres::KernelChoice choice = hres::last_kernel_choice();
        std::printf("kernel: %s\nrule: %s\n", choice.kernel, choice.rule);
        if (*choice.x86_entry) std::printf("cpu: x86 entry %s%s\n", choice.x86_entry, choice.amd ? ", AMD" : "");
        std::printf("why: %s\n", choice.why);
    }
    if (times.bench_us.empty()) return;
    std::vector<double> sorted = times.bench_us;
    std::sort(sorted.begin(), sorted.end());
    const size_t mid = sorted.size() / 2;
    const double median = sorted.size() % 2 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid]);
    std::printf("bench: %zu iters, median %.1f us, min %.1f us\n", sorted.size(), median, sorted.front());
}

// The rest of every kernel command once IN is loaded and OUT's height and
// width are known (OUT has IN's dtype, batch and channels): OUT is checked and
// allocated before the kernel runs, the kernel runs in the requested layout
// (and --bench), OUT is written atomically and the report printed as
// "<command> <IN shape dtype> -> <OUT shape> <details> layout=...".
void execute_kernel(const char *command, const std::string &details, const CommonOptions &common, const HostImage &in,
                    const std::string &out_path, int64_t out_h, int64_t out_w, const std::vector<float> *params,
                    const Kernel &kernel) {
    HostImage out = prepare_output(out_path, common, in, out_h, out_w);
    const KernelTimes times = run_kernel(common, in, &out, params, kernel);
    save_output(out_path, out);
    print_report(std::string(command) + " " + describe(in) + " -> " + hres::io::shape_string(out) + " " + details,
                 common, times);
}

// ---------------------------------------------------------------------------
// resize

struct ResizeArgs {
    std::optional<std::pair<int64_t, int64_t>> size;  // --size H, W
    std::optional<std::pair<double, double>> scale;   // --scale SH, SW
    hres::Interp mode = hres::Interp::bilinear;
    bool antialias = false;
    bool align_corners = false;
    CommonOptions common;
};

std::pair<int64_t, int64_t> parse_size(const std::string &text) {
    const size_t x = text.find('x');
    if (x == std::string::npos || text.find('x', x + 1) != std::string::npos) {
        fail_usage("invalid --size value '" + text + "': expected HxW, e.g. 256x320");
    }
    int64_t extent[2] = {0, 0};
    const std::string parts[2] = {text.substr(0, x), text.substr(x + 1)};
    const char *names[2] = {"height", "width"};
    for (int i = 0; i < 2; ++i) {
        const CountError error = parse_count(parts[i], kMaxExtent, &extent[i]);
        if (error != CountError::none) {
            fail_usage("invalid --size value '" + text + "': " + names[i] + " " +
                       (error == CountError::malformed ? "'" + parts[i] + "' is not a positive integer"
                                                       : count_problem(error, kMaxExtent)));
        }
    }
    return {extent[0], extent[1]};
}

std::pair<double, double> parse_scale(const std::string &text) {
    const size_t comma = text.find(',');
    const std::string sh = text.substr(0, comma);
    const std::string sw = comma == std::string::npos ? sh : text.substr(comma + 1);
    const std::optional<double> h = parse_positive_real(sh), w = parse_positive_real(sw);
    if (!h || !w) fail_usage("invalid --scale value '" + text + "': expected SH or SH,SW with positive numbers");
    return {*h, *w};
}

std::vector<OptionSpec> resize_options(ResizeArgs *a) {
    std::vector<OptionSpec> specs = {
        {"--size", "HxW", "output height and width", [a](const std::string &v) { a->size = parse_size(v); }},
        // Sampling uses 1/s, as PyTorch's scale_factor with recompute_scale_factor=False.
        {"--scale", "SH[,SW]", "scale factors (one value: both); output size trunc(in*s)",
         [a](const std::string &v) { a->scale = parse_scale(v); }},
        {"--mode", "MODE", "interpolation: " + choice_list(kModes) + " (default bilinear)",
         [a](const std::string &v) { a->mode = parse_choice("--mode", v, kModes); }},
        {"--antialias", "", "antialiased downscaling (bilinear and bicubic only)",
         [a](const std::string &) { a->antialias = true; }},
        {"--align-corners", "", "align the corner pixel centers (bilinear and bicubic only)",
         [a](const std::string &) { a->align_corners = true; }},
    };
    add_common_options(&a->common, &specs);
    return specs;
}

int run_resize(const Subcommand &self, const std::vector<std::string> &args) {
    ResizeArgs a;
    const std::vector<OptionSpec> specs = resize_options(&a);
    const auto operands = parse_command_line(self, args, specs, {"IN", "OUT"});
    if (!operands) return 0;
    const std::string &in_path = (*operands)[0];
    const std::string &out_path = (*operands)[1];

    if (a.size && a.scale) fail_usage("--size and --scale are mutually exclusive");
    if (!a.size && !a.scale) fail_usage("resize needs --size HxW or --scale SH[,SW]");
    const bool linear = a.mode == hres::Interp::bilinear || a.mode == hres::Interp::bicubic;
    const char *mode_name = choice_name(a.mode, kModes);
    if (a.antialias && !linear) {
        fail_usage(std::string("--antialias needs --mode bilinear or bicubic, not ") + mode_name);
    }
    if (a.align_corners && !linear) {
        fail_usage(std::string("--align-corners needs --mode bilinear or bicubic, not ") + mode_name);
    }

    apply_execution_settings(a.common);
    const HostImage in = load_input(in_path);

    hres::ResizeOptions options;
    options.mode = a.mode;
    options.antialias = a.antialias;
    options.align_corners = a.align_corners;
    int64_t out_h = 0, out_w = 0;
    std::string scale_note;
    if (a.size) {
        std::tie(out_h, out_w) = *a.size;
    } else {
        options.scale_h = a.scale->first;
        options.scale_w = a.scale->second;
        const auto scaled = [&](int64_t extent, double scale, const char *axis) {
            int64_t result = 0;
            const hres::Status status = hres::scaled_size(extent, scale, &result);
            if (!status.ok()) {
                fail_usage("--scale " + format_real(scale) + " cannot resize " + axis + " " +
                           std::to_string(extent) + ": " + status.message());
            }
            return result;
        };
        out_h = scaled(in.h, options.scale_h, "height");
        out_w = scaled(in.w, options.scale_w, "width");
        scale_note = " scale=" + format_real(options.scale_h) + "," + format_real(options.scale_w);
    }

    const std::string details = mode_name + scale_note + " antialias=" + (a.antialias ? "1" : "0") +
                                " align_corners=" + (a.align_corners ? "1" : "0");
    execute_kernel(self.name, details, a.common, in, out_path, out_h, out_w, nullptr,
                   [&](const hres::Image &src, const float *, const hres::Image &dst) {
                       return hres::resize(src, dst, options);
                   });
    return 0;
}

// ---------------------------------------------------------------------------
// Auxiliary float32 arrays: affine's THETA and grid-sample's GRID.

std::string npy_shape(const std::vector<int64_t> &shape) {
    std::string text = "(";
    for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + (shape.size() == 1 ? ",)" : ")");
}

// Reads a float32 .npy array into floats (a copy, so no alignment is assumed).
// `what` names the array in messages ("--theta-file 't.npy'"); a missing,
// malformed or non-float32 file is a runtime error, like a bad IN.
std::vector<float> load_float_array(const std::string &what, const std::string &path, std::vector<int64_t> *shape) {
    hres::io::NpyArray array;
    std::string error;
    if (!hres::io::read_npy_array(path, &array, &error)) fail_runtime(error);
    if (array.dtype != hres::DType::f32) {
        fail_runtime(what + ": expected a float32 array, got uint8 of shape " + npy_shape(array.shape));
    }
    std::vector<float> values(array.bytes.size() / sizeof(float));
    std::memcpy(values.data(), array.bytes.data(), values.size() * sizeof(float));
    *shape = std::move(array.shape);
    return values;
}

// ---------------------------------------------------------------------------
// affine

constexpr size_t kThetaSize = 6;  // one row-major 2x3 matrix

struct AffineArgs {
    std::optional<std::vector<float>> theta;  // --theta: one matrix for the whole batch
    std::optional<std::string> theta_file;    // --theta-file
    std::optional<std::pair<int64_t, int64_t>> size;
    hres::GridSampleOptions sampling;
    CommonOptions common;
};

// "a,b,c,d,e,f": exactly six finite numbers that float32 can hold.
std::vector<float> parse_theta(const std::string &text) {
    const std::string bad = "invalid --theta value '" + text + "': ";
    const std::vector<std::string> fields = split(text, ',');
    if (fields.size() != kThetaSize) {
        fail_usage(bad + "expected 6 comma-separated numbers a,b,c,d,e,f (the matrix [[a,b,c],[d,e,f]]), got " +
                   std::to_string(fields.size()));
    }
    std::vector<float> theta;
    for (const std::string &field : fields) {
        const std::optional<double> value = parse_real(field);
        if (!value) fail_usage(bad + "'" + field + "' is not a finite number");
        if (std::fabs(*value) > double(std::numeric_limits<float>::max())) {
            fail_usage(bad + "'" + field + "' is beyond the float32 range");
        }
        theta.push_back(float(*value));
    }
    return theta;
}

// THETA.npy: float32 (N, 2, 3) with N = IN's batch, or (1, 2, 3): one matrix
// for every image. Returns N matrices either way.
std::vector<float> load_theta_file(const std::string &path, int64_t batch) {
    const std::string what = "--theta-file '" + path + "'";
    std::vector<int64_t> shape;
    std::vector<float> theta = load_float_array(what, path, &shape);
    if (shape.size() != 3 || shape[1] != 2 || shape[2] != 3 || (shape[0] != batch && shape[0] != 1)) {
        fail_runtime(what + ": expected shape (" + std::to_string(batch) + ", 2, 3) for IN's batch of " +
                     std::to_string(batch) + " (or (1, 2, 3): one matrix for all), got " + npy_shape(shape));
    }
    if (shape[0] == batch) return theta;
    std::vector<float> repeated;
    repeated.reserve(size_t(batch) * kThetaSize);
    for (int64_t i = 0; i < batch; ++i) repeated.insert(repeated.end(), theta.begin(), theta.end());
    return repeated;
}

std::vector<OptionSpec> affine_options(AffineArgs *a) {
    std::vector<OptionSpec> specs = {
        {"--theta", "a,b,c,d,e,f", "the 2x3 matrix [[a,b,c],[d,e,f]], applied to every image",
         [a](const std::string &v) { a->theta = parse_theta(v); }},
        {"--theta-file", "THETA.npy", "float32 matrices of shape (N, 2, 3), one per image, or (1, 2, 3)",
         [a](const std::string &v) { a->theta_file = v; }},
        {"--size", "HxW", "output height and width (default: IN's)",
         [a](const std::string &v) { a->size = parse_size(v); }},
    };
    add_sampling_options(&a->sampling, &specs);
    add_common_options(&a->common, &specs);
    return specs;
}

int run_affine(const Subcommand &self, const std::vector<std::string> &args) {
    AffineArgs a;
    const std::vector<OptionSpec> specs = affine_options(&a);
    const auto operands = parse_command_line(self, args, specs, {"IN", "OUT"});
    if (!operands) return 0;
    const std::string &in_path = (*operands)[0];
    const std::string &out_path = (*operands)[1];

    if (a.theta && a.theta_file) fail_usage("--theta and --theta-file are mutually exclusive");
    if (!a.theta && !a.theta_file) fail_usage("affine needs --theta a,b,c,d,e,f or --theta-file THETA.npy");

    apply_execution_settings(a.common);
    const HostImage in = load_input(in_path);

    std::vector<float> theta;
    std::string theta_note;
    if (a.theta) {
        theta.reserve(size_t(in.n) * kThetaSize);
        for (int64_t i = 0; i < in.n; ++i) theta.insert(theta.end(), a.theta->begin(), a.theta->end());
        for (float value : *a.theta) theta_note += (theta_note.empty() ? " theta=" : ",") + format_real(value);
    } else {
        theta = load_theta_file(*a.theta_file, in.n);
        theta_note = " theta-file=" + *a.theta_file;
    }
    const auto [out_h, out_w] = a.size ? *a.size : std::pair<int64_t, int64_t>(in.h, in.w);

    execute_kernel(self.name, describe_sampling(a.sampling) + theta_note, a.common, in, out_path, out_h, out_w, &theta,
                   [&](const hres::Image &src, const float *theta_data, const hres::Image &dst) {
                       return hres::affine_grid_sample(src, theta_data, dst, a.sampling);
                   });
    return 0;
}

// ---------------------------------------------------------------------------
// grid-sample

struct GridSampleArgs {
    hres::GridSampleOptions sampling;
    CommonOptions common;
};

std::vector<OptionSpec> grid_sample_options(GridSampleArgs *a) {
    std::vector<OptionSpec> specs;
    add_sampling_options(&a->sampling, &specs);
    add_common_options(&a->common, &specs);
    return specs;
}

int run_grid_sample(const Subcommand &self, const std::vector<std::string> &args) {
    GridSampleArgs a;
    const std::vector<OptionSpec> specs = grid_sample_options(&a);
    const auto operands = parse_command_line(self, args, specs, {"IN", "GRID", "OUT"});
    if (!operands) return 0;
    const std::string &in_path = (*operands)[0];
    const std::string &grid_path = (*operands)[1];
    const std::string &out_path = (*operands)[2];

    apply_execution_settings(a.common);
    const HostImage in = load_input(in_path);

    // GRID.npy: float32 (N, H_out, W_out, 2) with N = IN's batch.
    const std::string what = "GRID '" + grid_path + "'";
    std::vector<int64_t> shape;
    const std::vector<float> grid = load_float_array(what, grid_path, &shape);
    if (shape.size() != 4 || shape[3] != 2) {
        fail_runtime(what + ": expected shape (N, H_out, W_out, 2) of (x, y) points, got " + npy_shape(shape));
    }
    if (shape[0] != in.n) {
        fail_runtime(what + ": has " + std::to_string(shape[0]) + " grids for IN's batch of " + std::to_string(in.n) +
                     ", shape " + npy_shape(shape));
    }
    if (shape[1] > kMaxExtent || shape[2] > kMaxExtent) {
        fail_runtime(what + ": output size " + std::to_string(shape[1]) + "x" + std::to_string(shape[2]) +
                     " is beyond 32-bit extents");
    }

    execute_kernel(self.name, describe_sampling(a.sampling), a.common, in, out_path, shape[1], shape[2], &grid,
                   [&](const hres::Image &src, const float *grid_data, const hres::Image &dst) {
                       return hres::grid_sample(src, grid_data, dst, a.sampling);
                   });
    return 0;
}

// ---------------------------------------------------------------------------
// flip

// Each axis is a flag of its own name: --horizontal, --vertical, --both.
constexpr Choice<hres::FlipAxes> kFlipAxes[] = {{"horizontal", hres::FlipAxes::horizontal},
                                                {"vertical", hres::FlipAxes::vertical},
                                                {"both", hres::FlipAxes::both}};

struct FlipArgs {
    std::optional<hres::FlipAxes> axes;
    CommonOptions common;
};

std::vector<OptionSpec> flip_options(FlipArgs *a) {
    const char *helps[] = {"reverse each row (flip over W)", "reverse each column (flip over H)",
                           "reverse rows and columns (a 180 degree rotation)"};
    std::vector<OptionSpec> specs;
    for (size_t i = 0; i < std::size(kFlipAxes); ++i) {
        const Choice<hres::FlipAxes> choice = kFlipAxes[i];
        specs.push_back({std::string("--") + choice.name, "", helps[i], [a, choice](const std::string &) {
                             if (a->axes) {
                                 fail_usage(std::string("--") + choice.name + " conflicts with --" +
                                            choice_name(*a->axes, kFlipAxes) +
                                            ": give exactly one of --horizontal, --vertical, --both");
                             }
                             a->axes = choice.value;
                         }});
    }
    add_common_options(&a->common, &specs);
    return specs;
}

int run_flip(const Subcommand &self, const std::vector<std::string> &args) {
    FlipArgs a;
    const std::vector<OptionSpec> specs = flip_options(&a);
    const auto operands = parse_command_line(self, args, specs, {"IN", "OUT"});
    if (!operands) return 0;
    const std::string &in_path = (*operands)[0];
    const std::string &out_path = (*operands)[1];
    if (!a.axes) fail_usage("flip needs one of --horizontal, --vertical, --both");
    const hres::FlipAxes axes = *a.axes;

    apply_execution_settings(a.common);
    const HostImage in = load_input(in_path);
    execute_kernel(self.name, choice_name(axes, kFlipAxes), a.common, in, out_path, in.h, in.w, nullptr,
                   [&](const hres::Image &src, const float *, const hres::Image &dst) {
                       return hres::flip(src, dst, axes);
                   });
    return 0;
}

// ---------------------------------------------------------------------------
// Top level.

const Subcommand kSubcommands[] = {
    {"resize", "IN OUT (--size HxW | --scale SH[,SW]) [options]",
     "resize images (torch.nn.functional.interpolate)",
     "Resizes IN into OUT the way torch.nn.functional.interpolate does. IN and OUT\n"
     "are .png or .npy files; OUT keeps IN's element type (8-bit PNG: u8, 16-bit\n"
     "PNG: f32 in [0,1]; .npy: 4-D NCHW uint8 or float32).",
     run_resize},
    {"affine", "IN OUT (--theta a,b,c,d,e,f | --theta-file THETA.npy) [options]",
     "affine-warp images (torch.nn.functional.affine_grid + grid_sample)",
     "Warps IN into OUT the way torch.nn.functional.grid_sample does on the grid\n"
     "torch.nn.functional.affine_grid builds from a 2x3 matrix theta per image\n"
     "(the same --align-corners for both): an output pixel at normalized (x, y)\n"
     "samples IN at theta @ (x, y, 1), coordinates in [-1, 1]. --theta gives one\n"
     "matrix [[a,b,c],[d,e,f]] for every image; --theta-file a float32 .npy of\n"
     "shape (N, 2, 3), N being IN's batch, or (1, 2, 3) for one matrix for all.\n"
     "OUT keeps IN's element type (uint8 results round half to even).",
     run_affine},
    {"grid-sample", "IN GRID.npy OUT [options]", "sample images at given points (torch.nn.functional.grid_sample)",
     "Samples IN at the points of GRID the way torch.nn.functional.grid_sample\n"
     "does. GRID is a float32 .npy of shape (N, H_out, W_out, 2) holding (x, y) in\n"
     "normalized coordinates ([-1, 1] spans IN), N being IN's batch; OUT is\n"
     "N x C x H_out x W_out and keeps IN's element type (uint8 results round half\n"
     "to even).",
     run_grid_sample},
    {"flip", "IN OUT (--horizontal | --vertical | --both) [options]", "flip images (torch.flip)",
     "Flips IN into OUT the way torch.flip over W (--horizontal), H (--vertical)\n"
     "or both does. OUT has IN's shape and element type.",
     run_flip},
};

const Subcommand *find_subcommand(const std::string &name) {
    for (const Subcommand &command : kSubcommands) {
        if (name == command.name) return &command;
    }
    return nullptr;
}

void print_main_usage() {
    std::printf("Usage: hres COMMAND [ARGS...]\n\nCommands:\n");
    for (const Subcommand &command : kSubcommands) std::printf("  %-12s %s\n", command.name, command.summary);
    std::printf(
        "\nImages are .png (8/16-bit, 1-4 channels) or .npy (4-D NCHW uint8/float32);\n"
        "affine matrices and sampling grids are float32 .npy.\n"
        "Run 'hres COMMAND --help' for a command's options.\n\n"
        "  -h, --help   show this help and exit\n"
        "  --version    show the version and exit\n");
}

int run_cli(const std::vector<std::string> &args) {
    if (args.empty()) fail_usage("missing command (see 'hres --help')");
    const std::string &first = args[0];
    if (first == "--help" || first == "-h") {
        print_main_usage();
        return 0;
    }
    if (first == "--version") {
        std::printf("hres %s\n", HRES_VERSION);
        return 0;
    }
    if (first == "help") {
        if (args.size() == 1) {
            print_main_usage();
            return 0;
        }
        const Subcommand *command = find_subcommand(args[1]);
        if (!command) fail_usage("unknown command '" + args[1] + "' (see 'hres --help')");
        if (args.size() > 2) fail_usage("unexpected argument '" + args[2] + "' (usage: hres help [COMMAND])");
        return command->run(*command, {"--help"});
    }
    const Subcommand *command = find_subcommand(first);
    if (!command) {
        fail_usage((first[0] == '-' ? "unknown option '" : "unknown command '") + first + "' (see 'hres --help')");
    }
    return command->run(*command, std::vector<std::string>(args.begin() + 1, args.end()));
}

// One line on stderr, whatever the message holds (library messages may span
// lines). Character-wise so it cannot itself fail for lack of memory.
void report_error(const char *message, const char *prefix = "") {
    std::fputs("hres: error: ", stderr);
    std::fputs(prefix, stderr);
    for (const char *p = message; *p; ++p) std::fputc(*p == '\n' || *p == '\r' ? ' ' : *p, stderr);
    std::fputc('\n', stderr);
}

}  // namespace

int main(int argc, char **argv) {
    // Writing to a closed pipe should be a reported error with exit status 1,
    // not death by SIGPIPE (status 141).
    std::signal(SIGPIPE, SIG_IGN);
    int code = 0;
    try {
        code = run_cli(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const CliError &e) {
        report_error(e.what());
        code = e.exit_code();
    } catch (const std::bad_alloc &) {
        report_error("out of memory");
        code = kExitRuntimeError;
    } catch (const std::exception &e) {
        report_error(e.what(), "internal error: ");
        code = kExitRuntimeError;
    } catch (...) {
        report_error("internal error");
        code = kExitRuntimeError;
    }
    if ((std::fflush(stdout) != 0 || std::ferror(stdout)) && code == 0) {
        report_error("cannot write to standard output");
        code = kExitRuntimeError;
    }
    return code;
}
