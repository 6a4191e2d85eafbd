// libFuzzer target: scale parameters from the fuzzer's bytes, validated as clvf_scale_create
// validates them; where valid, every plane's resampling tables and one-pass block tables are
// planned as the scale operation plans them, and their invariants checked (a violation aborts,
// which the fuzzer reports): every window inside the source, finite weights summing to 1,
// blocks that claim the pattern repeat it exactly, and the pattern's lanes inside the span; where
// the phase kernel's pattern is found, it folds to the table.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "runtime/error.hpp"
#include "runtime/ops/frame_format.hpp"
#include "runtime/ops/pixel_format.hpp"
#include "runtime/ops/resample_table.hpp"
#include "runtime/ops/scale.hpp"
#include "runtime/ops/scale_phase.hpp"

namespace {

void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "planning invariant broken: %s\n", what);
    std::abort();
  }
}

void check_table(const clvf::detail::ResampleTable& t, const clvf::detail::AxisMapping& axis) {
  require(static_cast<int>(t.offsets.size()) == axis.dst_size, "one offset per output");
  for (int o = 0; o < axis.dst_size; ++o) {
    require(t.offsets[o] >= 0 && t.offsets[o] + t.taps <= axis.src_size, "window inside the source");
    double sum = 0;
    for (int k = 0; k < t.stride; ++k) {
      const float w = t.weights[static_cast<size_t>(o) * t.stride + k];
      require(std::isfinite(w), "finite weight");
      require(k < t.taps || w == 0.0f, "padding weights are 0");
      sum += w;
    }
    require(std::fabs(sum - 1.0) < 1e-3, "weights sum to 1");
  }
}

void check_blocks(const clvf::detail::ResampleTable& t, int src_size, int channels) {
  const auto [bt, outs] = clvf::detail::block_columns(t, src_size, channels);
  if (!bt.span) return;
  const int pixels = outs * 16 / channels;
  require(bt.span % (16 / channels) == 0 && bt.span * channels <= clvf::detail::kMaxBlockVectors * 16 &&
              bt.span <= src_size, "span");
  const int n = static_cast<int>(t.offsets.size());
  for (size_t b = 0; b < bt.bases.size(); ++b) {
    require(bt.bases[b] >= 0 && bt.bases[b] + bt.span <= src_size, "block window inside the source");
    for (int j = 0; j < pixels && static_cast<int>(b) * pixels + j < n; ++j) {
      const int o = static_cast<int>(b) * pixels + j;
      require(t.offsets[o] >= bt.bases[b] && t.offsets[o] + t.taps <= bt.bases[b] + bt.span, "taps inside the block");
      if (bt.regular[b]) require(t.offsets[o] - bt.bases[b] == bt.pattern_first[j], "regular block repeats the pattern");
    }
  }
  for (int first : bt.pattern_first) require(first >= 0 && first + t.taps <= bt.span, "pattern inside the span");
  (void)clvf::detail::pattern_sum(bt, channels);
}

// Where the phase kernel's pattern is found, each output's pattern taps, mirrored and folded, give
// its table row.
void check_phases(const clvf::detail::ResampleFilter& f, const clvf::detail::AxisMapping& a,
                  const clvf::detail::ResampleTable& t) {
  const auto pp = clvf::detail::phase_pattern(f, a, clvf::detail::kMaxPhaseP, clvf::detail::kMaxPhaseQ);
  if (!pp.p) return;
  std::vector<double> folded(a.src_size);
  for (int o = 0; o < a.dst_size; ++o) {
    std::fill(folded.begin(), folded.end(), 0.0);
    const int phi = o % pp.p, base = pp.q * (o / pp.p) + pp.first[phi];
    for (int k = 0; k < pp.taps; ++k) {
      require(base + k >= -pp.pad_left && base + k < a.src_size + pp.pad_right, "pattern taps inside the pads");
      folded[clvf::detail::mirror_sample(base + k, a.src_size)] += pp.weights[phi * pp.taps + k];
    }
    for (int i = 0; i < a.src_size; ++i) {
      const int k = i - t.offsets[o];
      const double w = k >= 0 && k < t.taps ? t.weights[static_cast<size_t>(o) * t.stride + k] : 0.0;
      require(std::fabs(folded[i] - w) < 1e-5, "phase pattern folds to the table");
    }
  }
  (void)clvf::detail::phase_kernel(pp, 1, a.src_size, a.dst_size, clvf::detail::kPhaseRows);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  clvf_scale_params p;
  clvf_scale_params_default(&p);
  const auto dim = [&] {
    return in.ConsumeBool() ? in.ConsumeIntegralInRange<int>(-2, 64) : in.ConsumeIntegralInRange<int>(-2, 4096);
  };
  p.format = static_cast<clvf_pixel_format>(in.ConsumeIntegralInRange<int>(-1, 9));
  p.src_width = dim(), p.src_height = dim(), p.dst_width = dim(), p.dst_height = dim();
  p.algorithm = static_cast<clvf_scale_algorithm>(in.ConsumeIntegralInRange<int>(-1, 10));
  p.param_b = in.ConsumeFloatingPoint<double>();
  p.param_c = in.ConsumeBool() ? in.ConsumeProbability<double>() : in.ConsumeFloatingPoint<double>();
  p.taps = in.ConsumeIntegralInRange<int>(-1, 20);
  p.chroma_location = static_cast<clvf_chroma_location>(in.ConsumeIntegralInRange<int>(-1, 5));
  try {
    clvf::detail::validate_scale_params(p);
  } catch (const clvf::detail::Error&) {
    return 0;
  }
  const clvf::detail::ResampleFilter filter{p.algorithm, p.param_b, p.param_c, p.taps};
  const clvf::detail::PixelFormat& f = *clvf::detail::find_pixel_format(p.format);
  const auto src = clvf::detail::planes_of(p.format, p.src_width, p.src_height);
  const auto dst = clvf::detail::planes_of(p.format, p.dst_width, p.dst_height);
  for (size_t i = 0; i < src.size(); ++i) {
    const auto [h, v] = clvf::detail::scale_axes(p, src[i].width, src[i].height, dst[i].width, dst[i].height,
                                         f.planes[i].sub_x > 1);
    const auto ht = clvf::detail::build_resample_table(filter, h), vt = clvf::detail::build_resample_table(filter, v);
    check_table(ht, h);
    check_table(vt, v);
    check_table(clvf::detail::build_resample_table(filter, h, 4), h);
    check_blocks(ht, src[i].width, src[i].channels);
    check_phases(filter, h, ht);
  }
  return 0;
}
