#include "runtime/ops/resample_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "runtime/error.hpp"

namespace clvf::detail {
namespace {

struct NamedAlgorithm {
  const char* name;
  clvf_scale_algorithm algorithm;
};
constexpr NamedAlgorithm kAlgorithms[] = {
    {"point", CLVF_SCALE_POINT},       {"neighbor", CLVF_SCALE_POINT},    {"bilinear", CLVF_SCALE_BILINEAR},
    {"bicubic", CLVF_SCALE_BICUBIC},   {"lanczos", CLVF_SCALE_LANCZOS},   {"spline16", CLVF_SCALE_SPLINE16},
    {"spline36", CLVF_SCALE_SPLINE36}, {"spline64", CLVF_SCALE_SPLINE64}, {"area", CLVF_SCALE_AREA},
};

double sinc(double x) { return x == 0.0 ? 1.0 : std::sin(x * std::numbers::pi) / (x * std::numbers::pi); }

// Cubic pieces of the splines, each a(t) = c0 + c1 t + c2 t^2 + c3 t^3 on t = |x| - piece.
double spline(const double (*pieces)[4], int count, double x) {
  x = std::fabs(x);
  const int i = static_cast<int>(x);
  if (i >= count) return 0.0;
  const double t = x - i;
  const double* p = pieces[i];
  return p[0] + t * (p[1] + t * (p[2] + t * p[3]));
}
constexpr double kSpline16[][4] = {{1, -1.0 / 5, -9.0 / 5, 1}, {0, -7.0 / 15, 4.0 / 5, -1.0 / 3}};
constexpr double kSpline36[][4] = {{1, -3.0 / 209, -453.0 / 209, 13.0 / 11},
                                   {0, -156.0 / 209, 270.0 / 209, -6.0 / 11},
                                   {0, 26.0 / 209, -45.0 / 209, 1.0 / 11}};
constexpr double kSpline64[][4] = {{1, -3.0 / 2911, -6387.0 / 2911, 49.0 / 41},
                                   {0, -2328.0 / 2911, 4032.0 / 2911, -24.0 / 41},
                                   {0, 582.0 / 2911, -1008.0 / 2911, 6.0 / 41},
                                   {0, -97.0 / 2911, 168.0 / 2911, -1.0 / 41}};

struct Tap {
  int index;
  double weight;
};

// Source samples (before mirroring: they may lie past an edge) and normalised weights that make
// output sample o.
std::vector<Tap> footprint(const ResampleFilter& filter, const AxisMapping& axis, int o) {
  const double pos = axis.source_position(o);
  const double stretch = axis.stretch();
  std::vector<Tap> taps;
  if (filter.algorithm == CLVF_SCALE_POINT) {
    // Nearest sample centre; ties go up, so that shifting by one sample shifts the choice by one.
    taps.push_back({static_cast<int>(std::floor(pos + 0.5)), 1.0});
    return taps;
  }
  const double reach = filter.support() * stretch;
  double sum = 0;
  for (int i = static_cast<int>(std::floor(pos - reach)); i <= static_cast<int>(std::ceil(pos + reach)); ++i) {
    double w;
    if (filter.algorithm == CLVF_SCALE_AREA)  // overlap of [i - 1/2, i + 1/2] with the output's footprint
      w = std::max(0.0, std::min(i + 0.5, pos + stretch / 2) - std::max(i - 0.5, pos - stretch / 2));
    else
      w = filter((i - pos) / stretch);
    if (w == 0.0) continue;
    taps.push_back({i, w});
    sum += w;
  }
  for (Tap& t : taps) t.weight /= sum;
  return taps;
}

}  // namespace

int mirror_sample(int i, int n) {
  const int period = 2 * n;
  i %= period;
  if (i < 0) i += period;
  return i < n ? i : period - 1 - i;
}

const char* const kScaleAlgorithmNames = "point (or neighbor), bilinear, bicubic, lanczos, spline16, spline36, spline64, area";

clvf_scale_algorithm scale_algorithm_from_name(std::string_view name) {
  for (const auto& a : kAlgorithms)
    if (name == a.name) return a.algorithm;
  throw Error(CLVF_ERROR_INVALID_ARGUMENT,
              fmt::format("algorithm '{}' is not known; allowed: {}", name, kScaleAlgorithmNames));
}

const char* scale_algorithm_name(int algorithm) {
  for (const auto& a : kAlgorithms)
    if (a.algorithm == algorithm) return a.name;
  return "";
}

void validate_resample_filter(const char* op, int algorithm, double b, double c, int taps) {
  const auto invalid = [&](const std::string& what) {
    throw Error(CLVF_ERROR_INVALID_ARGUMENT, fmt::format("{}: {}", op, what));
  };
  if (!*scale_algorithm_name(algorithm))
    invalid(fmt::format("algorithm {} is not known; allowed: {}", algorithm, kScaleAlgorithmNames));
  if (algorithm == CLVF_SCALE_BICUBIC) {
    if (!std::isfinite(b) || b < 0 || b > 1) invalid(fmt::format("bicubic B (param0) is {}; allowed: 0 to 1", b));
    if (!std::isfinite(c) || c < 0 || c > 1) invalid(fmt::format("bicubic C (param1) is {}; allowed: 0 to 1", c));
  }
  if (algorithm == CLVF_SCALE_LANCZOS && (taps < 1 || taps > CLVF_MAX_LANCZOS_TAPS))
    invalid(fmt::format("lanczos taps is {}; allowed: 1 to {}", taps, CLVF_MAX_LANCZOS_TAPS));
}

double ResampleFilter::support() const {
  switch (algorithm) {
    case CLVF_SCALE_POINT: return 0.0;
    case CLVF_SCALE_BILINEAR: return 1.0;
    case CLVF_SCALE_AREA: return 1.0;  // half the box plus one sample of overlap, before widening
    case CLVF_SCALE_BICUBIC: return 2.0;
    case CLVF_SCALE_SPLINE16: return 2.0;
    case CLVF_SCALE_SPLINE36: return 3.0;
    case CLVF_SCALE_SPLINE64: return 4.0;
    case CLVF_SCALE_LANCZOS: return taps;
  }
  return 0.0;
}

double ResampleFilter::operator()(double x) const {
  x = std::fabs(x);
  switch (algorithm) {
    case CLVF_SCALE_POINT: return 1.0;
    case CLVF_SCALE_BILINEAR:
    case CLVF_SCALE_AREA: return std::max(0.0, 1.0 - x);
    case CLVF_SCALE_BICUBIC:  // Mitchell-Netravali
      if (x < 1.0) return ((12 - 9 * b - 6 * c) * x * x * x + (-18 + 12 * b + 6 * c) * x * x + (6 - 2 * b)) / 6;
      if (x < 2.0)
        return ((-b - 6 * c) * x * x * x + (6 * b + 30 * c) * x * x + (-12 * b - 48 * c) * x + (8 * b + 24 * c)) / 6;
      return 0.0;
    case CLVF_SCALE_SPLINE16: return spline(kSpline16, 2, x);
    case CLVF_SCALE_SPLINE36: return spline(kSpline36, 3, x);
    case CLVF_SCALE_SPLINE64: return spline(kSpline64, 4, x);
    case CLVF_SCALE_LANCZOS: return x < taps ? sinc(x) * sinc(x / taps) : 0.0;
  }
  return 0.0;
}

double AxisMapping::source_position(int o) const {
  return ((o * dst_subsampling + dst_siting + 0.5) * ratio - 0.5 - src_siting) / src_subsampling;
}

double AxisMapping::stretch() const { return std::max(1.0, ratio * dst_subsampling / src_subsampling); }

ResampleTable build_resample_table(const ResampleFilter& filter, const AxisMapping& axis, int max_vector) {
  std::vector<std::vector<Tap>> footprints(axis.dst_size);
  ResampleTable t;
  t.taps = 1;
  for (int o = 0; o < axis.dst_size; ++o) {
    footprints[o] = footprint(filter, axis, o);
    for (Tap& tap : footprints[o]) tap.index = mirror_sample(tap.index, axis.src_size);
    const auto [lo, hi] = std::minmax_element(footprints[o].begin(), footprints[o].end(),
                                              [](const Tap& a, const Tap& b) { return a.index < b.index; });
    t.taps = std::max(t.taps, hi->index - lo->index + 1);
  }
  const int vector = t.taps > 4 ? max_vector : std::min(4, max_vector);
  t.stride = (t.taps + vector - 1) / vector * vector;
  t.offsets.resize(axis.dst_size);
  t.weights.assign(static_cast<size_t>(axis.dst_size) * t.stride, 0.0f);
  std::vector<double> w(t.taps);
  for (int o = 0; o < axis.dst_size; ++o) {
    int lo = axis.src_size;
    for (const Tap& tap : footprints[o]) lo = std::min(lo, tap.index);
    const int window = std::min(lo, axis.src_size - t.taps);
    std::fill(w.begin(), w.end(), 0.0);
    for (const Tap& tap : footprints[o]) w[tap.index - window] += tap.weight;
    t.offsets[o] = window;
    for (int k = 0; k < t.taps; ++k) t.weights[static_cast<size_t>(o) * t.stride + k] = static_cast<float>(w[k]);
  }
  return t;
}

PhasePattern phase_pattern(const ResampleFilter& filter, const AxisMapping& axis, int max_p, int max_q) {
  const int n = axis.dst_size;
  for (int p = 1; p <= max_p && 2 * p <= n; ++p) {
    const double d = axis.source_position(p) - axis.source_position(0);
    const int q = static_cast<int>(std::lround(d));
    if (q < 1 || q > max_q || std::fabs(d - q) > 1e-9) continue;
    // The middle outputs give the pattern; every output must repeat it.
    const int mid = n / p / 2;
    PhasePattern pp;
    pp.p = p, pp.q = q;
    std::vector<std::vector<Tap>> ref(p);
    for (int phi = 0; phi < p; ++phi) {
      ref[phi] = footprint(filter, axis, mid * p + phi);
      const auto [lo, hi] = std::minmax_element(ref[phi].begin(), ref[phi].end(),
                                                [](const Tap& a, const Tap& b) { return a.index < b.index; });
      pp.first.push_back(lo->index - q * mid);
      pp.taps = std::max(pp.taps, hi->index - lo->index + 1);
    }
    pp.weights.assign(static_cast<size_t>(p) * pp.taps, 0.0f);
    for (int phi = 0; phi < p; ++phi)
      for (const Tap& t : ref[phi])
        pp.weights[phi * pp.taps + t.index - q * mid - pp.first[phi]] += static_cast<float>(t.weight);
    bool same = true;
    int lo = 0, hi = axis.src_size - 1;
    std::vector<double> w(pp.taps);
    for (int o = 0; o < n && same; ++o) {
      const int phi = o % p, base = q * (o / p) + pp.first[phi];
      std::fill(w.begin(), w.end(), 0.0);
      for (const Tap& t : footprint(filter, axis, o)) {
        const int k = t.index - base;
        if (k >= 0 && k < pp.taps) w[k] += t.weight;
        else same = same && std::fabs(t.weight) <= 1e-6;  // (area: a rounding's sliver of overlap)
      }
      for (int k = 0; k < pp.taps && same; ++k) same = std::fabs(w[k] - pp.weights[phi * pp.taps + k]) <= 1e-6;
      lo = std::min(lo, base), hi = std::max(hi, base + pp.taps - 1);
    }
    if (!same) continue;
    pp.pad_left = -lo, pp.pad_right = hi - (axis.src_size - 1);
    return pp;
  }
  return {};
}

ResampleTable tap_major(const ResampleTable& table) {
  ResampleTable t = table;
  const size_t n = table.offsets.size();
  t.stride = table.taps;
  t.weights.resize(n * table.taps);
  for (size_t o = 0; o < n; ++o)
    for (int k = 0; k < table.taps; ++k) t.weights[k * n + o] = table.weights[o * table.stride + k];
  return t;
}

namespace {

// The middle block's taps as the pattern, and which blocks repeat it exactly.
void find_pattern(const ResampleTable& table, int pixels, int channels, BlockTable& bt) {
  const int n = static_cast<int>(table.offsets.size()), blocks = static_cast<int>(bt.bases.size());
  const int mid = blocks / 2;
  bt.regular.assign(blocks, 0);
  if ((mid + 1) * pixels > n) return;
  const auto weight = [&](int o, int k) { return table.weights[static_cast<size_t>(o) * table.stride + k]; };
  for (int j = 0; j < pixels; ++j) bt.pattern_first.push_back(table.offsets[mid * pixels + j] - bt.bases[mid]);
  bt.pattern.resize(static_cast<size_t>(table.taps) * pixels * channels);
  for (int k = 0; k < table.taps; ++k)
    for (int j = 0; j < pixels; ++j)
      for (int c = 0; c < channels; ++c) bt.pattern[(k * pixels + j) * channels + c] = weight(mid * pixels + j, k);
  for (int b = 0; (b + 1) * pixels <= n; ++b) {
    bool same = true;
    for (int j = 0; j < pixels && same; ++j) {
      const int o = b * pixels + j, m = mid * pixels + j;
      same = table.offsets[o] - bt.bases[b] == bt.pattern_first[j];
      for (int k = 0; k < table.taps && same; ++k) same = weight(o, k) == weight(m, k);
    }
    bt.regular[b] = same;
  }
}

}  // namespace

BlockTable block_table(const ResampleTable& table, int src_size, int pixels, int channels, int max_span,
                       int span_multiple) {
  const int n = static_cast<int>(table.offsets.size()), blocks = (n + pixels - 1) / pixels;
  const auto first_of = [&](int b) {
    return *std::min_element(table.offsets.begin() + b * pixels, table.offsets.begin() + std::min(n, (b + 1) * pixels));
  };
  int span = 0;
  for (int b = 0; b < blocks; ++b) {
    const int end = *std::max_element(table.offsets.begin() + b * pixels,
                                      table.offsets.begin() + std::min(n, (b + 1) * pixels)) + table.taps;
    span = std::max(span, end - first_of(b));
  }
  const int multiple = span_multiple ? span_multiple : pixels;
  span = (span + multiple - 1) / multiple * multiple;
  if (span > max_span || span > src_size) return {};
  BlockTable bt;
  bt.span = span;
  bt.bases.resize(blocks);
  const size_t lanes = static_cast<size_t>(pixels) * channels;
  bt.matrix.assign(blocks * span * lanes, 0.0f);
  for (int b = 0; b < blocks; ++b) {
    const int base = bt.bases[b] = std::min(first_of(b), src_size - span);
    for (int j = 0; j < pixels && b * pixels + j < n; ++j) {
      const int o = b * pixels + j;
      for (int k = 0; k < table.taps; ++k)
        for (int c = 0; c < channels; ++c)
          bt.matrix[(b * span + table.offsets[o] + k - base) * lanes + j * channels + c] =
              table.weights[static_cast<size_t>(o) * table.stride + k];
    }
  }
  find_pattern(table, pixels, channels, bt);
  return bt;
}

DeviceTable upload_table(const cl::Context& context, const ResampleTable& table) {
  return {read_only_copy(context, table.offsets), read_only_copy(context, table.weights)};
}

}  // namespace clvf::detail
