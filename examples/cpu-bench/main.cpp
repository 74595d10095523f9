// ej-example-cpu: transposes an N x N matrix of floats, either naively (row by row, so every
// write lands on a different cache line) or in cache-sized blocks, and prints how long it took
// in the line format of examples/README.md. The blocked variant is several times faster once the
// matrix no longer fits in the caches, which makes the pair a clear first experiment for ej.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr int k_exit_usage = 2;
constexpr std::size_t k_max_size = 16384; // two 1 GiB matrices: larger is surely a typo
constexpr long k_max_iterations = 1000000;
constexpr std::size_t k_block = 16; // 16 x 16 floats: one cache line per row of a tile

struct Options {
  std::string variant = "blocked";
  std::size_t size = 2048;
  long iterations = 3;
};

constexpr const char* k_usage =
    "usage: ej-example-cpu [--variant naive|blocked] [--size N] [--iterations N]\n"
    "\n"
    "Transposes an N x N matrix of floats ITERATIONS times and prints, one per line:\n"
    "  metric: time_ms=VALUE ms          median time of one transpose\n"
    "  metric: throughput_gbs=VALUE GB/s bytes read and written per second (2 * N * N * 4)\n"
    "\n"
    "  --variant NAME    naive (row by row) or blocked (16 x 16 tiles); default blocked\n"
    "  --size N          matrix side, 1..16384; default 2048\n"
    "  --iterations N    timed transposes, 1..1000000; default 3 (after one untimed warmup)\n"
    "  --help            this text\n"
    "\n"
    "Exit codes: 0 success, 1 wrong result, 2 bad arguments.\n";

[[noreturn]] void usage_error(const std::string& message)
{
  std::fprintf(stderr, "ej-example-cpu: %s; see --help\n", message.c_str());
  std::exit(k_exit_usage);
}

long parse_count(std::string_view option, std::string_view text, long max)
{
  long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 1 || value > max) {
    usage_error(std::string(option) + " wants a whole number from 1 to " + std::to_string(max) + ", not '" +
                std::string(text) + "'");
  }
  return value;
}

Options parse_options(int argc, char** argv)
{
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(k_usage, stdout);
      std::exit(0);
    }
    // Both "--name value" and "--name=value".
    std::string_view name = arg;
    std::string_view value;
    bool has_value = false;
    if (const auto eq = arg.find('='); arg.starts_with("--") && eq != std::string_view::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      has_value = true;
    }
    if (name != "--variant" && name != "--size" && name != "--iterations") {
      usage_error("unknown argument '" + std::string(arg) + "'");
    }
    if (!has_value) {
      if (i + 1 >= argc) {
        usage_error(std::string(name) + " needs a value");
      }
      value = argv[++i];
    }
    if (name == "--variant") {
      if (value != "naive" && value != "blocked") {
        usage_error("unknown variant '" + std::string(value) + "' (known: naive, blocked)");
      }
      options.variant = value;
    } else if (name == "--size") {
      options.size = static_cast<std::size_t>(parse_count(name, value, k_max_size));
    } else {
      options.iterations = parse_count(name, value, k_max_iterations);
    }
  }
  return options;
}

void transpose_naive(const float* in, float* out, std::size_t n)
{
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      out[j * n + i] = in[i * n + j];
    }
  }
}

void transpose_blocked(const float* in, float* out, std::size_t n)
{
  for (std::size_t jb = 0; jb < n; jb += k_block) {
    const std::size_t j_end = std::min(jb + k_block, n);
    for (std::size_t ib = 0; ib < n; ib += k_block) {
      const std::size_t i_end = std::min(ib + k_block, n);
      // Within a tile the writes run along a row of `out`; the k_block rows of `in` it reads
      // stay in L1 until the tile is done, so each cache line is fetched once.
      for (std::size_t j = jb; j < j_end; ++j) {
        float* dst = out + j * n;
        for (std::size_t i = ib; i < i_end; ++i) {
          dst[i] = in[i * n + j];
        }
      }
    }
  }
}

bool is_transpose(const std::vector<float>& in, const std::vector<float>& out, std::size_t n)
{
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (out[j * n + i] != in[i * n + j]) {
        return false;
      }
    }
  }
  return true;
}

} // namespace

int main(int argc, char** argv)
{
  const Options options = parse_options(argc, argv);
  const std::size_t n = options.size;
  const auto transpose = options.variant == "naive" ? transpose_naive : transpose_blocked;

  std::vector<float> in(n * n);
  std::vector<float> out(n * n);
  for (std::size_t k = 0; k < in.size(); ++k) {
    in[k] = static_cast<float>(k % 1000003); // distinct enough that a wrong index shows
  }

  transpose(in.data(), out.data(), n); // warmup: pages touched, caches in a steady state
  std::vector<double> times_ms;
  for (long it = 0; it < options.iterations; ++it) {
    const auto start = std::chrono::steady_clock::now();
    transpose(in.data(), out.data(), n);
    const auto stop = std::chrono::steady_clock::now();
    times_ms.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  if (!is_transpose(in, out, n)) {
    std::fprintf(stderr, "ej-example-cpu: the %s transpose gave a wrong result\n", options.variant.c_str());
    return 1;
  }

  std::sort(times_ms.begin(), times_ms.end());
  const std::size_t mid = times_ms.size() / 2;
  const double median_ms =
      times_ms.size() % 2 == 1 ? times_ms[mid] : (times_ms[mid - 1] + times_ms[mid]) / 2.0;
  const double bytes = 2.0 * static_cast<double>(n) * static_cast<double>(n) * sizeof(float);
  // A transpose can take less than the clock's resolution; report a tiny time, not infinity.
  const double throughput_gbs = bytes / (std::max(median_ms, 1e-6) * 1e-3) / 1e9;

  std::printf("# ej-example-cpu: transpose variant=%s size=%zu iterations=%ld\n", options.variant.c_str(), n,
              options.iterations);
  std::printf("metric: time_ms=%.4f ms\n", median_ms);
  std::printf("metric: throughput_gbs=%.3f GB/s\n", throughput_gbs);
  return 0;
}
