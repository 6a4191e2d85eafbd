#include "runtime/ops/resample_table.hpp"

#include <algorithm>
#include <cmath>

namespace clvf {

double ResampleFilter::support() const { return algorithm == CLVF_SCALE_BILINEAR ? 1.0 : 2.0; }

double ResampleFilter::operator()(double x) const {
  x = std::fabs(x);
  if (algorithm == CLVF_SCALE_BILINEAR) return x < 1.0 ? 1.0 - x : 0.0;
  // Mitchell-Netravali cubic with parameters B and C.
  if (x < 1.0)
    return ((12 - 9 * b - 6 * c) * x * x * x + (-18 + 12 * b + 6 * c) * x * x + (6 - 2 * b)) / 6;
  if (x < 2.0)
    return ((-b - 6 * c) * x * x * x + (6 * b + 30 * c) * x * x + (-12 * b - 48 * c) * x + (8 * b + 24 * c)) / 6;
  return 0.0;
}

double AxisMapping::source_position(int o) const {
  return ((o * subsampling + siting + 0.5) * ratio - 0.5 - siting) / subsampling;
}

ResampleTable build_resample_table(const ResampleFilter& filter, const AxisMapping& axis, int stride_multiple) {
  const double stretch = std::max(1.0, axis.ratio);  // widen the filter when downscaling
  const double reach = filter.support() * stretch;
  const int taps = static_cast<int>(std::ceil(2 * reach)) + 1;
  ResampleTable t;
  // A window never reaches past the edges: samples beyond them repeat the edge sample, so their
  // weights are folded onto it and the window slides inside. Kernels then need no clamping.
  t.taps = std::min(taps, axis.src_size);
  t.stride = (t.taps + stride_multiple - 1) / stride_multiple * stride_multiple;
  t.offsets.resize(axis.dst_size);
  t.weights.assign(static_cast<size_t>(axis.dst_size) * t.stride, 0.0f);
  std::vector<double> w(t.taps);
  for (int o = 0; o < axis.dst_size; ++o) {
    const double pos = axis.source_position(o);
    const int first = static_cast<int>(std::floor(pos - reach)) + 1;
    const int window = std::clamp(first, 0, axis.src_size - t.taps);
    std::fill(w.begin(), w.end(), 0.0);
    double sum = 0;
    for (int k = 0; k < taps; ++k) {
      const double v = filter((first + k - pos) / stretch);
      w[std::clamp(first + k, 0, axis.src_size - 1) - window] += v;
      sum += v;
    }
    t.offsets[o] = window;
    for (int k = 0; k < t.taps; ++k) t.weights[static_cast<size_t>(o) * t.stride + k] = static_cast<float>(w[k] / sum);
  }
  return t;
}

}  // namespace clvf
