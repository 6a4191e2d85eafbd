#include "reference_denoise.hpp"

#include <algorithm>
#include <cmath>

namespace clvf::detail::test {

std::vector<double> reference_nlmeans(const RefPlane& src, const RefNlmeans& p) {
  return reference_nlmeans(std::vector<const RefPlane*>{&src}, p);
}

std::vector<double> reference_nlmeans(const std::vector<const RefPlane*>& frames, const RefNlmeans& p) {
  const RefPlane& src = *frames[0];
  const int pr = p.patch_size / 2, sr = p.research_size / 2;
  const double h = 10.0 * p.strength;
  const long long max_ssd = static_cast<long long>(std::log(255.0) * h * h);
  auto sample = [&](const RefPlane& f, int x, int y, int c) {
    return int(f.at(std::clamp(x, 0, f.w - 1), std::clamp(y, 0, f.h - 1), c));
  };
  auto at = [&](int x, int y, int c) { return sample(src, x, y, c); };
  std::vector<double> out(size_t(src.w) * src.h * src.channels);
  for (int y = 0; y < src.h; ++y)
    for (int x = 0; x < src.w; ++x)
      for (int c = 0; c < src.channels; ++c) {
        double sum = at(x, y, c), total = 1.0;
        for (size_t f = 0; f < frames.size(); ++f)
          for (int oy = -sr; oy <= sr; ++oy)
            for (int ox = -sr; ox <= sr; ++ox) {
              const int qx = x + ox, qy = y + oy;
              if ((f == 0 && ox == 0 && oy == 0) || qx < 0 || qx >= src.w || qy < 0 || qy >= src.h) continue;
              long long ssd = 0;
              for (int ky = -pr; ky <= pr; ++ky)
                for (int kx = -pr; kx <= pr; ++kx) {
                  const int d = at(x + kx, y + ky, c) - sample(*frames[f], qx + kx, qy + ky, c);
                  ssd += d * d;
                }
              double w;
              if (p.weighting == 0) {
                if (ssd >= max_ssd) continue;
                w = std::exp(-double(ssd) / (h * h));
              } else {
                w = std::pow(std::max(0.0, 1.0 - double(ssd) / (h * h)), p.weighting == 1 ? 1 : p.weighting == 2 ? 2 : 8);
              }
              sum += w * sample(*frames[f], qx, qy, c);
              total += w;
            }
        out[(size_t(y) * src.w + x) * src.channels + c] = sum / total;
      }
  return out;
}

}  // namespace clvf::detail::test
