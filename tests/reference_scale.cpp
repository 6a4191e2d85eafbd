#include "reference_scale.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace clvf::detail::test {
namespace {

constexpr double pi = std::numbers::pi;

// The filters by their textbook formulas (AviSynth's splines, Mitchell-Netravali, Lanczos).
double kernel(const RefScale& s, double x) {
  x = std::abs(x);
  const double x2 = x * x, x3 = x2 * x;
  switch (s.algorithm) {
    case 1:  // bilinear
    case 8:  // area when upscaling
      return std::max(0.0, 1.0 - x);
    case 2: {
      const double b = s.b, c = s.c;
      if (x < 1) return ((12 - 9 * b - 6 * c) * x3 + (-18 + 12 * b + 6 * c) * x2 + (6 - 2 * b)) / 6;
      if (x < 2) return ((-b - 6 * c) * x3 + (6 * b + 30 * c) * x2 + (-12 * b - 48 * c) * x + (8 * b + 24 * c)) / 6;
      return 0;
    }
    case 4: {
      if (x >= s.taps) return 0;
      if (x == 0) return 1;
      return s.taps * std::sin(pi * x) * std::sin(pi * x / s.taps) / (pi * pi * x2);
    }
    case 5:
      if (x < 1) return ((x - 9.0 / 5) * x - 1.0 / 5) * x + 1;
      if (x < 2) return ((-1.0 / 3 * (x - 1) + 4.0 / 5) * (x - 1) - 7.0 / 15) * (x - 1);
      return 0;
    case 6:
      if (x < 1) return ((13.0 / 11 * x - 453.0 / 209) * x - 3.0 / 209) * x + 1;
      if (x < 2) return ((-6.0 / 11 * (x - 1) + 270.0 / 209) * (x - 1) - 156.0 / 209) * (x - 1);
      if (x < 3) return ((1.0 / 11 * (x - 2) - 45.0 / 209) * (x - 2) + 26.0 / 209) * (x - 2);
      return 0;
    case 7:
      if (x < 1) return ((49.0 / 41 * x - 6387.0 / 2911) * x - 3.0 / 2911) * x + 1;
      if (x < 2) return ((-24.0 / 41 * (x - 1) + 4032.0 / 2911) * (x - 1) - 2328.0 / 2911) * (x - 1);
      if (x < 3) return ((6.0 / 41 * (x - 2) - 1008.0 / 2911) * (x - 2) + 582.0 / 2911) * (x - 2);
      if (x < 4) return ((-1.0 / 41 * (x - 3) + 168.0 / 2911) * (x - 3) - 97.0 / 2911) * (x - 3);
      return 0;
  }
  return 0;
}

double support(const RefScale& s) {
  switch (s.algorithm) {
    case 3: return 0.5;
    case 4: return s.taps;
    case 6: return 3;
    case 7: return 4;
    case 1: return 1;
  }
  return 2;  // bicubic, spline16; area is bounded by this too
}

// Reflects an index about the plane's edges (sample -1 is sample 0) until it lies inside.
int reflect(int i, int n) {
  if (n == 1) return 0;
  while (i < 0 || i >= n) i = i < 0 ? -1 - i : 2 * n - 1 - i;
  return i;
}

struct Tap {
  int index;
  double weight;
};

// The source samples (mirrored) and weights that make output sample o along one axis.
std::vector<Tap> footprint(const RefScale& s, int o, int src_size, double ratio, double siting, double dst_siting) {
  const int sub = s.subsampling, dst_sub = s.dst_subsampling > 0 ? s.dst_subsampling : sub;
  if (dst_siting < 0) dst_siting = siting;
  // Centre of output sample o in luma coordinates, mapped back through the luma ratio.
  const double luma_out = o * dst_sub + dst_siting;
  const double luma_in = (luma_out + 0.5) * ratio - 0.5;
  const double pos = (luma_in - siting) / sub;
  if (s.algorithm == 3) return {{reflect(static_cast<int>(std::floor(pos + 0.5)), src_size), 1.0}};
  // Downscaling in the plane's own samples widens the filter.
  ratio = ratio * dst_sub / sub;
  const double scale = std::max(1.0, ratio);
  const double radius = support(s) * scale;
  std::vector<Tap> taps;
  double sum = 0;
  for (int i = static_cast<int>(std::ceil(pos - radius)); i <= static_cast<int>(std::floor(pos + radius)); ++i) {
    double w;
    if (s.algorithm == 8 && ratio > 1) {  // area: the part of sample i's extent the output covers
      const double lo = std::max(i - 0.5, pos - ratio / 2), hi = std::min(i + 0.5, pos + ratio / 2);
      w = std::max(0.0, hi - lo);
    } else {
      w = kernel(s, (i - pos) / scale);
    }
    if (w == 0) continue;
    taps.push_back({reflect(i, src_size), w});
    sum += w;
  }
  for (auto& t : taps) t.weight /= sum;
  return taps;
}

}  // namespace

std::vector<double> reference_scale(const std::vector<double>& src, int src_w, int src_h, int channels, int dst_w,
                                    int dst_h, const RefScale& s) {
  const double rx = double(s.luma_src_w) / s.luma_dst_w, ry = double(s.luma_src_h) / s.luma_dst_h;
  std::vector<std::vector<Tap>> fx(dst_w), fy(dst_h);
  for (int x = 0; x < dst_w; ++x) fx[x] = footprint(s, x, src_w, rx, s.siting_x, s.dst_siting_x);
  for (int y = 0; y < dst_h; ++y) fy[y] = footprint(s, y, src_h, ry, s.siting_y, s.dst_siting_y);
  std::vector<double> out(size_t(dst_w) * dst_h * channels);
  for (int y = 0; y < dst_h; ++y)
    for (int x = 0; x < dst_w; ++x)
      for (int c = 0; c < channels; ++c) {
        double acc = 0;
        for (const Tap& ty : fy[y])
          for (const Tap& tx : fx[x]) acc += ty.weight * tx.weight * src[(size_t(ty.index) * src_w + tx.index) * channels + c];
        out[(size_t(y) * dst_w + x) * channels + c] = acc;
      }
  return out;
}

std::vector<double> reference_scale(const RefPlane& src, int dst_w, int dst_h, const RefScale& s) {
  return reference_scale(std::vector<double>(src.data.begin(), src.data.end()), src.w, src.h, src.channels, dst_w,
                         dst_h, s);
}

}  // namespace clvf::detail::test
