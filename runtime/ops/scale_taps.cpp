#include "runtime/ops/scale_taps.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "runtime/ops/scale_phase.hpp"

namespace clvf::detail {

TapsKernel taps_kernel(const ResampleTable& ht, int channels, int src_w, int dst_w, int rows) {
  const int ch = channels, px = 16 / ch, lanes = dst_w * ch, vectors = (lanes + 15) / 16;
  TapsKernel k;
  k.weights.resize(size_t(vectors) * ht.taps * 16);
  std::map<std::vector<int>, int> patterns;
  int window = 0, max_first = 0;
  for (int b = 0; b < vectors; ++b) {
    const int x0 = b * px, x_last = std::min(x0 + px - 1, dst_w - 1);
    // The window starts at the vector's lowest first tap (near the edges, where the table folds
    // mirrored taps in, an output's first tap may come before its left neighbour's).
    const int base = *std::min_element(ht.offsets.begin() + x0, ht.offsets.begin() + x_last + 1);
    std::vector<int> rel(16);
    for (int i = 0; i < 16; ++i) {
      // Lanes past the last output repeat it, with zero weights.
      const int x = std::min(x0 + i / ch, x_last);
      rel[i] = (ht.offsets[x] - base) * ch + i % ch;
      window = std::max(window, rel[i] + (ht.taps - 1) * ch + 1);
      for (int t = 0; t < ht.taps && x0 + i / ch < dst_w; ++t)
        k.weights[(size_t(b) * ht.taps + t) * 16 + i] = ht.weights[size_t(x) * ht.stride + t];
    }
    const int pattern = patterns.emplace(rel, static_cast<int>(patterns.size())).first->second;
    k.blocks.push_back({{base * ch, pattern}});
    max_first = std::max(max_first, base * ch);
  }
  const int window_vectors = (window + 15) / 16;
  if (window_vectors > kMaxTapVectors || static_cast<int>(patterns.size()) > kMaxTapPatterns) return {};

  // A case per pattern: each row's window loaded, its taps gathered and weighted in two chains.
  std::string cases;
  for (const auto& [rel, id] : patterns) {
    std::string sum[2];
    for (int t = 0; t < ht.taps; ++t) {
      std::vector<int> lanes(rel);
      for (int& l : lanes) l += t * ch;
      const std::string term = gather16("win", lanes);
      std::string& s = sum[t % 2];
      s = s.empty() ? fmt::format("wt[{}] * {}", t, term) : fmt::format("fma(wt[{}], {}, {})", t, term, s);
    }
    std::string loads;
    for (int v = 0; v < window_vectors; ++v) loads += fmt::format(" win[{0}] = load_local16(at + {1});", v, 16 * v);
    cases += fmt::format(
        " case {0}: for (int r = 0; r < ROWS && y0 + r < dst_rows; ++r) {{ __local const float *at = &row[r][blk.x];"
        " float16 win[{1}];{2} const float16 o = {3}; STORE_LANES(o, y0 + r, b * 16, dst_lanes); }} break;",
        id, window_vectors, loads, sum[1].empty() ? sum[0] : fmt::format("({}) + ({})", sum[0], sum[1]));
  }
  k.defines = fmt::format("#define TAP_CASES{}\n", cases);
  // Rows of vertical results: the source's whole blocks of 3 vectors, and every window.
  const int src_lanes = src_w * ch, written = (src_lanes + 47) / 48 * 48;
  const int pitch = (std::max(written, max_first + 16 * window_vectors) + 15) / 16 * 16;
  k.options = fmt::format(" -DTAPS_H={} -DPHASE_Q=3 -DPHASE_P=1 -DM0=0 -DPH_PITCH={} -DWRITTEN={}",
                          ht.taps, pitch, written);
  k.local_bytes = sizeof(float) * rows * pitch;
  return k;
}

}  // namespace clvf::detail
