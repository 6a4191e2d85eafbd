#include "reference_scale.hpp"

#include <algorithm>
#include <cmath>

namespace clvf::test {
namespace {

double kernel(const RefScale& s, double x) {
  x = std::abs(x);
  if (s.algorithm == 1) return std::max(0.0, 1.0 - x);
  const double b = s.b, c = s.c, x2 = x * x, x3 = x2 * x;
  if (x < 1) return ((12 - 9 * b - 6 * c) * x3 + (-18 + 12 * b + 6 * c) * x2 + (6 - 2 * b)) / 6;
  if (x < 2) return ((-b - 6 * c) * x3 + (6 * b + 30 * c) * x2 + (-12 * b - 48 * c) * x + (8 * b + 24 * c)) / 6;
  return 0;
}

struct Tap {
  int index;
  double weight;
};

// The source samples (clamped) and weights that make output sample o along one axis.
std::vector<Tap> footprint(const RefScale& s, int o, int src_size, double ratio, double siting) {
  const int sub = s.subsampling;
  // Centre of output sample o in luma coordinates, mapped back through the luma ratio.
  const double luma_out = o * sub + siting;
  const double luma_in = (luma_out + 0.5) * ratio - 0.5;
  const double pos = (luma_in - siting) / sub;
  const double scale = std::max(1.0, ratio);
  const double radius = (s.algorithm == 1 ? 1.0 : 2.0) * scale;
  std::vector<Tap> taps;
  double sum = 0;
  for (int i = static_cast<int>(std::ceil(pos - radius)); i <= static_cast<int>(std::floor(pos + radius)); ++i) {
    const double w = kernel(s, (i - pos) / scale);
    if (w == 0) continue;
    taps.push_back({std::clamp(i, 0, src_size - 1), w});
    sum += w;
  }
  for (auto& t : taps) t.weight /= sum;
  return taps;
}

}  // namespace

std::vector<double> reference_scale(const RefPlane& src, int dst_w, int dst_h, const RefScale& s) {
  const double rx = double(s.luma_src_w) / s.luma_dst_w, ry = double(s.luma_src_h) / s.luma_dst_h;
  std::vector<std::vector<Tap>> fx(dst_w), fy(dst_h);
  for (int x = 0; x < dst_w; ++x) fx[x] = footprint(s, x, src.w, rx, s.siting_x);
  for (int y = 0; y < dst_h; ++y) fy[y] = footprint(s, y, src.h, ry, s.siting_y);
  std::vector<double> out(size_t(dst_w) * dst_h * src.channels);
  for (int y = 0; y < dst_h; ++y)
    for (int x = 0; x < dst_w; ++x)
      for (int c = 0; c < src.channels; ++c) {
        double acc = 0;
        for (const Tap& ty : fy[y])
          for (const Tap& tx : fx[x]) acc += ty.weight * tx.weight * src.at(tx.index, ty.index, c);
        out[(size_t(y) * dst_w + x) * src.channels + c] = acc;
      }
  return out;
}

}  // namespace clvf::test
