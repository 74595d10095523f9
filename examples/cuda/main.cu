// ej-example-cuda: residual add + RMSNorm, the pair of operations between the layers of every
// LLM, either as two kernels (unfused: the sum goes to memory and is read back) or as one kernel
// (fused: the sum is normalised while it is still on chip). Both variants write the same two
// outputs, so the fused one saves exactly one read of the sum; the gap in time is what a fusion
// attempt in ej would measure. Data is bf16 in memory, all arithmetic in fp32.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr int k_exit_cuda_error = 1;
constexpr int k_exit_usage = 2;
constexpr int k_exit_no_device = 3;
constexpr int k_exit_mismatch = 4;

constexpr int k_threads = 256; // threads per block in every kernel
constexpr int k_vector = 8;    // bf16 values per 16-byte load or store
constexpr float k_epsilon = 1e-6f;
constexpr long k_max_hidden = 65536;
constexpr long k_max_tokens = 1L << 20;
constexpr long k_max_elements = 1L << 31; // 4 GiB per bf16 tensor, four tensors

struct Options {
  std::string variant = "fused";
  long hidden = 4096;
  long tokens = 4096;
  long warmup = 10;
  long iters = 100;
};

constexpr const char* k_usage =
    "usage: ej-example-cuda [--variant fused|unfused] [--hidden N] [--tokens N]\n"
    "                       [--warmup N] [--iters N]\n"
    "\n"
    "Residual add + RMSNorm over a TOKENS x HIDDEN bf16 activation (fp32 arithmetic):\n"
    "  sum = x + residual;  out = sum / sqrt(mean(sum^2) + 1e-6) * weight\n"
    "unfused runs two kernels (add, then norm reading the sum back), fused runs one.\n"
    "Both variants are run once and compared with each other (and 3 rows with a CPU\n"
    "reference) before timing. Prints, one per line:\n"
    "  # device: NAME\n"
    "  metric: kernel_us=VALUE us         mean time of one add + norm (CUDA events)\n"
    "  metric: bandwidth_gbs=VALUE GB/s   bytes the variant must move / kernel time\n"
    "\n"
    "  --variant NAME   fused or unfused; default fused\n"
    "  --hidden N       row length, a multiple of 8 up to 65536; default 4096\n"
    "  --tokens N       rows, 1..1048576; default 4096\n"
    "  --warmup N       untimed runs first, 0..1000000; default 10\n"
    "  --iters N        timed runs, 1..1000000; default 100\n"
    "  --help           this text\n"
    "\n"
    "Exit codes: 0 success, 1 CUDA error, 2 bad arguments, 3 no CUDA device,\n"
    "4 fused and unfused results disagree.\n";

[[noreturn]] void usage_error(const std::string& message)
{
  std::fprintf(stderr, "ej-example-cuda: %s; see --help\n", message.c_str());
  std::exit(k_exit_usage);
}

long parse_count(std::string_view option, std::string_view text, long min, long max)
{
  long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < min || value > max) {
    usage_error(std::string(option) + " wants a whole number from " + std::to_string(min) + " to " +
                std::to_string(max) + ", not '" + std::string(text) + "'");
  }
  return value;
}

Options parse_options(int argc, char** argv)
{
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(k_usage, stdout);
      std::exit(0);
    }
    // Both "--name value" and "--name=value".
    std::string_view name = arg;
    std::string_view value;
    bool has_value = false;
    if (const auto eq = arg.find('='); arg.substr(0, 2) == "--" && eq != std::string_view::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      has_value = true;
    }
    if (name != "--variant" && name != "--hidden" && name != "--tokens" && name != "--warmup" &&
        name != "--iters") {
      usage_error("unknown argument '" + std::string(arg) + "'");
    }
    if (!has_value) {
      if (i + 1 >= argc) {
        usage_error(std::string(name) + " needs a value");
      }
      value = argv[++i];
    }
    if (name == "--variant") {
      if (value != "fused" && value != "unfused") {
        usage_error("unknown variant '" + std::string(value) + "' (known: fused, unfused)");
      }
      options.variant = value;
    } else if (name == "--hidden") {
      options.hidden = parse_count(name, value, 1, k_max_hidden);
      if (options.hidden % k_vector != 0) {
        usage_error("--hidden must be a multiple of 8 (rows are read 16 bytes at a time), not " +
                    std::string(value));
      }
    } else if (name == "--tokens") {
      options.tokens = parse_count(name, value, 1, k_max_tokens);
    } else if (name == "--warmup") {
      options.warmup = parse_count(name, value, 0, 1000000);
    } else {
      options.iters = parse_count(name, value, 1, 1000000);
    }
  }
  if (options.hidden * options.tokens > k_max_elements) {
    usage_error("--hidden x --tokens is at most 2^31 elements");
  }
  return options;
}

void check(cudaError_t error, const char* what)
{
  if (error != cudaSuccess) {
    std::fprintf(stderr, "ej-example-cuda: %s failed: %s\n", what, cudaGetErrorString(error));
    std::exit(k_exit_cuda_error);
  }
}

// Eight bf16 values: one 16-byte memory transaction per thread.
struct alignas(16) Bf16x8 {
  __nv_bfloat162 pair[k_vector / 2];
};

// The sum is rounded to bf16 because that is what is stored; both variants then normalise the
// rounded values, so they compute exactly the same thing.
__device__ Bf16x8 add(const Bf16x8& a, const Bf16x8& b)
{
  Bf16x8 sum;
  for (int k = 0; k < k_vector / 2; ++k) {
    const float2 fa = __bfloat1622float2(a.pair[k]);
    const float2 fb = __bfloat1622float2(b.pair[k]);
    sum.pair[k] = __floats2bfloat162_rn(fa.x + fb.x, fa.y + fb.y);
  }
  return sum;
}

__device__ float sum_of_squares(const Bf16x8& v)
{
  float total = 0.0f;
  for (int k = 0; k < k_vector / 2; ++k) {
    const float2 f = __bfloat1622float2(v.pair[k]);
    total += f.x * f.x + f.y * f.y;
  }
  return total;
}

__device__ Bf16x8 scale(const Bf16x8& v, const Bf16x8& weight, float inv_rms)
{
  Bf16x8 out;
  for (int k = 0; k < k_vector / 2; ++k) {
    const float2 f = __bfloat1622float2(v.pair[k]);
    const float2 w = __bfloat1622float2(weight.pair[k]);
    out.pair[k] = __floats2bfloat162_rn(f.x * inv_rms * w.x, f.y * inv_rms * w.y);
  }
  return out;
}

// Sum over the block (blockDim.x == k_threads): warp shuffles, then one value per warp through
// shared memory. Every thread gets the total. Call once per kernel (the shared array is reused).
__device__ float block_sum(float value)
{
  __shared__ float per_warp[k_threads / 32];
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_xor_sync(0xffffffffu, value, offset);
  }
  const int lane = static_cast<int>(threadIdx.x % 32);
  if (lane == 0) {
    per_warp[threadIdx.x / 32] = value;
  }
  __syncthreads();
  value = lane < k_threads / 32 ? per_warp[lane] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_xor_sync(0xffffffffu, value, offset);
  }
  return value;
}

// Unfused, step 1: sum = x + residual over the whole tensor.
__global__ void residual_add_kernel(const Bf16x8* x, const Bf16x8* residual, Bf16x8* sum, std::size_t chunks)
{
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t c = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; c < chunks;
       c += stride) {
    sum[c] = add(x[c], residual[c]);
  }
}

// Unfused, step 2: one block per token reads its row of the sum back from memory.
__global__ void rms_norm_kernel(const Bf16x8* sum, const Bf16x8* weight, Bf16x8* out, int row_chunks,
                                int hidden)
{
  const std::size_t row = static_cast<std::size_t>(blockIdx.x) * row_chunks;
  float squares = 0.0f;
  for (int c = static_cast<int>(threadIdx.x); c < row_chunks; c += k_threads) {
    squares += sum_of_squares(sum[row + c]);
  }
  const float inv_rms = rsqrtf(block_sum(squares) / static_cast<float>(hidden) + k_epsilon);
  for (int c = static_cast<int>(threadIdx.x); c < row_chunks; c += k_threads) {
    out[row + c] = scale(sum[row + c], weight[c], inv_rms);
  }
}

// Fused: one block per token adds, stores the sum (the next layer's residual) and normalises.
// The second pass re-reads the chunks this same thread just wrote: they come from L1/L2, not
// DRAM, which is the whole point of fusing.
__global__ void fused_add_rms_norm_kernel(const Bf16x8* x, const Bf16x8* residual, Bf16x8* sum,
                                          const Bf16x8* weight, Bf16x8* out, int row_chunks, int hidden)
{
  const std::size_t row = static_cast<std::size_t>(blockIdx.x) * row_chunks;
  float squares = 0.0f;
  for (int c = static_cast<int>(threadIdx.x); c < row_chunks; c += k_threads) {
    const Bf16x8 s = add(x[row + c], residual[row + c]);
    sum[row + c] = s;
    squares += sum_of_squares(s);
  }
  const float inv_rms = rsqrtf(block_sum(squares) / static_cast<float>(hidden) + k_epsilon);
  for (int c = static_cast<int>(threadIdx.x); c < row_chunks; c += k_threads) {
    out[row + c] = scale(sum[row + c], weight[c], inv_rms);
  }
}

template <typename T> struct DeviceBuffer {
  T* data = nullptr;
  explicit DeviceBuffer(std::size_t count)
  {
    check(cudaMalloc(reinterpret_cast<void**>(&data), count * sizeof(T)), "cudaMalloc");
  }
  ~DeviceBuffer() { cudaFree(data); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

struct Tensors {
  const Bf16x8* x;
  const Bf16x8* residual;
  const Bf16x8* weight;
  Bf16x8* sum;
  Bf16x8* out;
  int tokens;
  int hidden;
};

void launch(const std::string& variant, const Tensors& t)
{
  const int row_chunks = t.hidden / k_vector;
  if (variant == "fused") {
    fused_add_rms_norm_kernel<<<t.tokens, k_threads>>>(t.x, t.residual, t.sum, t.weight, t.out, row_chunks,
                                                       t.hidden);
  } else {
    const std::size_t chunks = static_cast<std::size_t>(t.tokens) * row_chunks;
    const auto blocks =
        static_cast<unsigned>(std::min<std::size_t>((chunks + k_threads - 1) / k_threads, 65535));
    residual_add_kernel<<<blocks, k_threads>>>(t.x, t.residual, t.sum, chunks);
    rms_norm_kernel<<<t.tokens, k_threads>>>(t.sum, t.weight, t.out, row_chunks, t.hidden);
  }
  check(cudaGetLastError(), "kernel launch");
}

// Deterministic inputs in [-1, 1): the same on every machine, so runs are comparable.
std::vector<__nv_bfloat16> make_values(std::size_t count, std::uint32_t seed)
{
  std::vector<__nv_bfloat16> values(count);
  std::uint32_t state = seed;
  for (auto& v : values) {
    state = state * 1664525u + 1013904223u;
    v = __float2bfloat16(static_cast<float>(state >> 8) / 8388608.0f - 1.0f);
  }
  return values;
}

std::vector<__nv_bfloat16> copy_to_host(const Bf16x8* device, std::size_t count)
{
  std::vector<__nv_bfloat16> host(count);
  check(cudaMemcpy(host.data(), device, count * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost),
        "cudaMemcpy to host");
  return host;
}

// Largest difference between two bf16 tensors, relative to max(1, |b|).
double max_difference(const std::vector<__nv_bfloat16>& a, const std::vector<__nv_bfloat16>& b)
{
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double fa = __bfloat162float(a[i]);
    const double fb = __bfloat162float(b[i]);
    worst = std::max(worst, std::fabs(fa - fb) / std::max(1.0, std::fabs(fb)));
  }
  return worst;
}

// Largest difference between the device's output rows and a double-precision reference computed
// here, over the given rows (relative to max(1, |reference|)). Catches a bug shared by both
// variants, which comparing them with each other cannot.
double max_reference_difference(const std::vector<__nv_bfloat16>& x,
                                const std::vector<__nv_bfloat16>& residual,
                                const std::vector<__nv_bfloat16>& weight,
                                const std::vector<__nv_bfloat16>& out, std::size_t hidden,
                                const std::vector<std::size_t>& rows)
{
  double worst = 0.0;
  std::vector<double> sum(hidden);
  for (const std::size_t row : rows) {
    double squares = 0.0;
    for (std::size_t i = 0; i < hidden; ++i) {
      const std::size_t k = row * hidden + i;
      // Rounded to bf16 like the stored sum the kernels normalise.
      sum[i] = __bfloat162float(__float2bfloat16(__bfloat162float(x[k]) + __bfloat162float(residual[k])));
      squares += sum[i] * sum[i];
    }
    const double inv_rms = 1.0 / std::sqrt(squares / static_cast<double>(hidden) + k_epsilon);
    for (std::size_t i = 0; i < hidden; ++i) {
      const double expected = sum[i] * inv_rms * __bfloat162float(weight[i]);
      const double got = __bfloat162float(out[row * hidden + i]);
      worst = std::max(worst, std::fabs(got - expected) / std::max(1.0, std::fabs(expected)));
    }
  }
  return worst;
}

} // namespace

int main(int argc, char** argv)
{
  const Options options = parse_options(argc, argv);

  int device_count = 0;
  const cudaError_t status = cudaGetDeviceCount(&device_count);
  if (status != cudaSuccess || device_count == 0) {
    std::fprintf(stderr, "ej-example-cuda: no CUDA device: %s; run it on a machine with an NVIDIA GPU\n",
                 status != cudaSuccess ? cudaGetErrorString(status) : "none found");
    return k_exit_no_device;
  }
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");

  // Upload inputs.
  const std::size_t elements = static_cast<std::size_t>(options.tokens) * options.hidden;
  const std::size_t chunks = elements / k_vector;
  const std::size_t row_chunks = static_cast<std::size_t>(options.hidden) / k_vector;
  DeviceBuffer<Bf16x8> x(chunks), residual(chunks), weight(row_chunks), sum(chunks), out(chunks);
  const std::size_t bytes = elements * sizeof(__nv_bfloat16);
  const auto host_x = make_values(elements, 1);
  const auto host_residual = make_values(elements, 2);
  const auto host_weight = make_values(static_cast<std::size_t>(options.hidden), 3);
  check(cudaMemcpy(x.data, host_x.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy x");
  check(cudaMemcpy(residual.data, host_residual.data(), bytes, cudaMemcpyHostToDevice),
        "cudaMemcpy residual");
  check(cudaMemcpy(weight.data, host_weight.data(), options.hidden * sizeof(__nv_bfloat16),
                   cudaMemcpyHostToDevice),
        "cudaMemcpy weight");
  const Tensors tensors{x.data,
                        residual.data,
                        weight.data,
                        sum.data,
                        out.data,
                        static_cast<int>(options.tokens),
                        static_cast<int>(options.hidden)};

  // Check: both variants once, outputs compared (both outputs, every element).
  launch("unfused", tensors);
  check(cudaDeviceSynchronize(), "unfused run");
  const auto unfused_sum = copy_to_host(sum.data, elements);
  const auto unfused_out = copy_to_host(out.data, elements);
  check(cudaMemset(sum.data, 0, bytes), "cudaMemset");
  check(cudaMemset(out.data, 0, bytes), "cudaMemset");
  launch("fused", tensors);
  check(cudaDeviceSynchronize(), "fused run");
  const double sum_difference = max_difference(copy_to_host(sum.data, elements), unfused_sum);
  const double out_difference = max_difference(copy_to_host(out.data, elements), unfused_out);
  // Both variants round and reduce identically, so anything beyond one bf16 step is a bug.
  constexpr double k_tolerance = 1.0 / 128.0;
  if (sum_difference > k_tolerance || out_difference > k_tolerance) {
    std::fprintf(stderr,
                 "ej-example-cuda: fused and unfused results disagree (largest relative "
                 "difference: sum %.6g, output %.6g); the kernels are wrong\n",
                 sum_difference, out_difference);
    return k_exit_mismatch;
  }
  const std::vector<std::size_t> rows{0, static_cast<std::size_t>(options.tokens) / 2,
                                      static_cast<std::size_t>(options.tokens) - 1};
  const double reference_difference = max_reference_difference(
      host_x, host_residual, host_weight, unfused_out, static_cast<std::size_t>(options.hidden), rows);
  // The reference normalises in double, the kernels in fp32 then round to bf16 (2^-8).
  constexpr double k_reference_tolerance = 1.0 / 64.0;
  if (reference_difference > k_reference_tolerance) {
    std::fprintf(stderr,
                 "ej-example-cuda: the output differs from the CPU reference (largest relative "
                 "difference %.6g); the kernels are wrong\n",
                 reference_difference);
    return k_exit_mismatch;
  }

  // Time: warmup, then ITERS back-to-back launches between two events.
  for (long i = 0; i < options.warmup; ++i) {
    launch(options.variant, tensors);
  }
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  check(cudaEventRecord(start), "cudaEventRecord");
  for (long i = 0; i < options.iters; ++i) {
    launch(options.variant, tensors);
  }
  check(cudaEventRecord(stop), "cudaEventRecord");
  check(cudaEventSynchronize(stop), "timed runs");
  float elapsed_ms = 0.0f;
  check(cudaEventElapsedTime(&elapsed_ms, start, stop), "cudaEventElapsedTime");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);

  // Bytes each variant must move through DRAM, counting each tensor once:
  // unfused reads x, residual (add), writes sum, reads sum back, writes out: 5 tensors;
  // fused reads x, residual, writes sum and out: 4 tensors. The weight row is read once.
  const double tensor_bytes = static_cast<double>(bytes);
  const double moved = (options.variant == "fused" ? 4.0 : 5.0) * tensor_bytes +
                       static_cast<double>(options.hidden) * sizeof(__nv_bfloat16);
  const double kernel_us = static_cast<double>(elapsed_ms) * 1000.0 / options.iters;
  const double bandwidth_gbs = moved / (kernel_us * 1e-6) / 1e9;

  std::printf("# device: %s\n", properties.name);
  std::printf("# ej-example-cuda: add+rmsnorm variant=%s hidden=%ld tokens=%ld dtype=bf16 "
              "warmup=%ld iters=%ld bytes=%.0f\n",
              options.variant.c_str(), options.hidden, options.tokens, options.warmup, options.iters, moved);
  std::printf("# check: fused and unfused agree (largest relative difference %.3g), "
              "CPU reference on 3 rows %.3g\n",
              std::max(sum_difference, out_difference), reference_difference);
  std::printf("metric: kernel_us=%.3f us\n", kernel_us);
  std::printf("metric: bandwidth_gbs=%.1f GB/s\n", bandwidth_gbs);
  return 0;
}
