#include "runtime/ops/scale_phase.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace clvf::detail {
namespace {

int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// "(k) == 0 ? a : (k) == 1 ? b : c" over the cases.
std::string choice(const char* k, const std::vector<std::string>& cases) {
  std::string s;
  for (size_t i = 0; i + 1 < cases.size(); ++i) s += fmt::format("({}) == {} ? {} : ", k, i, cases[i]);
  return "(" + s + cases.back() + ")";
}

}  // namespace

// Clang's __builtin_shufflevector, one vector more at each (-1: a lane a later shuffle fills). A
// vector literal of lanes from three vectors became a dozen shuffles, inserts and blends (PoCL,
// the 2:3 merge).
std::string gather16(const char* array, const std::vector<int>& lanes) {
  std::vector<int> sources;
  for (int l : lanes)
    if (std::find(sources.begin(), sources.end(), l / 16) == sources.end()) sources.push_back(l / 16);
  const auto vec = [&](int v) { return fmt::format("({})[{}]", array, v); };
  if (sources.size() == 1) sources.push_back(sources[0]);
  std::string expr = vec(sources[0]);
  for (size_t k = 1; k < sources.size(); ++k) {
    std::string index;
    for (size_t i = 0; i < lanes.size(); ++i) {
      const int from = lanes[i] / 16, lane = lanes[i] % 16;
      const auto at = std::find(sources.begin(), sources.begin() + static_cast<long>(k), from);
      int idx = -1;
      if (from == sources[k] && at == sources.begin() + static_cast<long>(k)) idx = 16 + lane;
      else if (at != sources.begin() + static_cast<long>(k)) idx = k == 1 ? lane : static_cast<int>(i);
      index += fmt::format(", {}", idx);
    }
    expr = fmt::format("__builtin_shufflevector({}, {}{})", expr, vec(sources[k]), index);
  }
  return expr;
}

PhaseKernel phase_kernel(const PhasePattern& pp, int channels, int src_w, int dst_w, int rows) {
  const int ch = channels, px = 16 / ch;
  // SPLIT(c, q): phase q of Q source vectors c, lane i: pixel q + Q * (i / CH), channel i % CH.
  std::vector<std::string> splits;
  for (int q = 0; q < pp.q; ++q) {
    std::vector<int> lanes;
    for (int i = 0; i < 16; ++i) lanes.push_back((pp.q * (i / ch) + q) * ch + i % ch);
    splits.push_back(gather16("c", lanes));
  }
  // HSUM(phi): the pattern's nonzero taps of phase phi as multiply-adds of PH(q, shift).
  std::vector<std::string> sums;
  int shift_max = 0;
  // Three independent chains a phase, added at the end: a chain of 9 multiply-adds waits on
  // itself (chroma 0.126 -> 0.115 ms a frame at 1080p -> 720p, luma unchanged).
  constexpr int chains = 3;
  for (int phi = 0; phi < pp.p; ++phi) {
    std::vector<std::string> chain(chains);
    int terms = 0;
    for (int k = 0; k < pp.taps; ++k) {
      const float w = pp.weights[phi * pp.taps + k];
      if (w == 0.0f) continue;
      const int raw = pp.first[phi] + k, shift = floor_div(raw, pp.q), q = raw - shift * pp.q;
      shift_max = std::max(shift_max, shift);
      const std::string term = fmt::format("PH({}, {})", q, shift), weight = fmt::format("{:a}f", double(w));
      std::string& sum = chain[terms++ % chains];
      sum = sum.empty() ? fmt::format("{} * {}", weight, term) : fmt::format("fma({}, {}, {})", weight, term, sum);
    }
    std::string sum;
    for (const std::string& c : chain)
      if (!c.empty()) sum = sum.empty() ? c : fmt::format("({}) + ({})", sum, c);
    sums.push_back(sum.empty() ? "(float16)0.0f" : sum);
  }
  // MERGE(o, v): output vector v of the block from the phases' vectors o[phi].
  std::vector<std::string> merges;
  for (int v = 0; v < pp.p; ++v) {
    std::vector<int> lanes;
    for (int i = 0; i < 16; ++i) {
      const int l = v * 16 + i, n = l / ch;
      lanes.push_back((n % pp.p) * 16 + (n / pp.p) * ch + l % ch);
    }
    merges.push_back(gather16("o", lanes));
  }
  PhaseKernel k;
  k.defines = fmt::format("#define SPLIT(c, q) {}\n#define HSUM(phi) {}\n#define MERGE(o, v) {}\n",
                          choice("q", splits), choice("phi", sums), choice("v", merges));
  // PAD_COPIES(p): the pixels the taps reach past the edges (the pad_left before pixel 0, the
  // pad_right past the last) from the ones they repeat, in a work-item row p of phase rows, as
  // constant indices: with the plane's width known here, the kernel does no index arithmetic.
  const int m0 = (pp.pad_left + pp.q - 1) / pp.q;
  const auto at = [&](int x, int c) {
    const int q = ((x % pp.q) + pp.q) % pp.q;
    return fmt::format("(p)[{}][{}]", q, (x - q) / pp.q * ch + m0 * ch + c);
  };
  std::string copies;
  for (int i = 0; i < pp.pad_left + pp.pad_right; ++i) {
    const int x = i < pp.pad_left ? i - pp.pad_left : src_w + i - pp.pad_left;
    for (int c = 0; c < ch; ++c) copies += fmt::format(" {} = {};", at(x, c), at(mirror_sample(x, src_w), c));
  }
  if (!copies.empty()) k.defines += fmt::format("#define PAD_COPIES(p) do {{{} }} while (0)\n", copies);
  // Local memory: phase pixels from -M0; written up to the source's blocks and the right edge's
  // mirror, read up to the last output block's furthest tap.
  const int src_blocks = (src_w + pp.q * px - 1) / (pp.q * px), dst_blocks = (dst_w + pp.p * px - 1) / (pp.p * px);
  const int pitch = std::max({(src_blocks * px + m0) * ch, ((src_w + pp.pad_right - 1) / pp.q + m0 + 1) * ch,
                              ((dst_blocks - 1) * px + shift_max + m0) * ch + 16});
  k.options = fmt::format(" -DPHASE_P={} -DPHASE_Q={} -DM0={} -DPH_PITCH={}", pp.p, pp.q, m0, pitch);
  k.local_bytes = sizeof(float) * rows * pp.q * pitch;
  return k;
}

}  // namespace clvf::detail
