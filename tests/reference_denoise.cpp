#include "reference_denoise.hpp"

#include <algorithm>
#include <cmath>

namespace clvf::test {

std::vector<double> reference_nlmeans(const RefPlane& src, const RefNlmeans& p) {
  const int pr = p.patch_size / 2, sr = p.research_size / 2;
  const double h = 10.0 * p.strength;
  const long long max_ssd = static_cast<long long>(std::log(255.0) * h * h);
  auto at = [&](int x, int y, int c) { return int(src.at(std::clamp(x, 0, src.w - 1), std::clamp(y, 0, src.h - 1), c)); };
  std::vector<double> out(size_t(src.w) * src.h * src.channels);
  for (int y = 0; y < src.h; ++y)
    for (int x = 0; x < src.w; ++x)
      for (int c = 0; c < src.channels; ++c) {
        double sum = at(x, y, c), total = 1.0;
        for (int oy = -sr; oy <= sr; ++oy)
          for (int ox = -sr; ox <= sr; ++ox) {
            const int qx = x + ox, qy = y + oy;
            if ((ox == 0 && oy == 0) || qx < 0 || qx >= src.w || qy < 0 || qy >= src.h) continue;
            long long ssd = 0;
            for (int ky = -pr; ky <= pr; ++ky)
              for (int kx = -pr; kx <= pr; ++kx) {
                const int d = at(x + kx, y + ky, c) - at(qx + kx, qy + ky, c);
                ssd += d * d;
              }
            if (ssd >= max_ssd) continue;
            const double w = std::exp(-double(ssd) / (h * h));
            sum += w * at(qx, qy, c);
            total += w;
          }
        out[(size_t(y) * src.w + x) * src.channels + c] = sum / total;
      }
  return out;
}

}  // namespace clvf::test
