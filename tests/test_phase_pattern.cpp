// The phase pattern the CPU phase kernel applies (resample_table.hpp): found for ratios of small
// whole numbers, absent otherwise, and equal, once its taps are mirrored and folded, to the weight
// table every other form applies, for every output (edges included).
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "runtime/ops/resample_table.hpp"
#include "runtime/ops/scale_phase.hpp"

namespace clvf::detail {
namespace {

AxisMapping axis(int src, int dst, int subsampling = 1, double siting = 0.0) {
  return AxisMapping{src, dst, double(src) / dst, subsampling, subsampling, siting, siting};
}

// Every output's pattern taps, mirrored into the source and folded, against its table row.
void expect_pattern_matches_table(const ResampleFilter& f, const AxisMapping& a) {
  SCOPED_TRACE(testing::Message() << a.src_size << " -> " << a.dst_size << ", algorithm " << f.algorithm);
  const PhasePattern pp = phase_pattern(f, a, kMaxPhaseP, kMaxPhaseQ);
  ASSERT_GT(pp.p, 0);
  const ResampleTable t = build_resample_table(f, a);
  for (int o = 0; o < a.dst_size; ++o) {
    std::map<int, double> folded;
    const int phi = o % pp.p, base = pp.q * (o / pp.p) + pp.first[phi];
    for (int k = 0; k < pp.taps; ++k) {
      EXPECT_GE(base + k, -pp.pad_left);
      EXPECT_LE(base + k, a.src_size - 1 + pp.pad_right);
      folded[mirror_sample(base + k, a.src_size)] += pp.weights[phi * pp.taps + k];
    }
    for (int k = 0; k < t.taps; ++k) {
      const int i = t.offsets[o] + k;
      const double expected = t.weights[static_cast<size_t>(o) * t.stride + k];
      EXPECT_NEAR(folded.count(i) ? folded[i] : 0.0, expected, 1e-5) << "output " << o << ", source " << i;
      folded.erase(i);
    }
    for (const auto& [i, w] : folded) EXPECT_NEAR(w, 0.0, 1e-5) << "output " << o << " weighs source " << i;
  }
}

TEST(PhasePattern, FoundForSmallRatiosAndMatchesTheTable) {
  const ResampleFilter spline36{CLVF_SCALE_SPLINE36};
  const PhasePattern pp = phase_pattern(spline36, axis(1920, 1280), kMaxPhaseP, kMaxPhaseQ);
  EXPECT_EQ(pp.p, 2);
  EXPECT_EQ(pp.q, 3);
  expect_pattern_matches_table(spline36, axis(1920, 1280));
  expect_pattern_matches_table(spline36, axis(960, 640, 2, 0.0));  // 4:2:0 chroma, left-sited
  expect_pattern_matches_table(ResampleFilter{CLVF_SCALE_BICUBIC, 0, 0.5}, axis(3840, 1920));
  expect_pattern_matches_table(ResampleFilter{CLVF_SCALE_LANCZOS, 0, 0, 4}, axis(3840, 1280, 2, 0.5));
  expect_pattern_matches_table(ResampleFilter{CLVF_SCALE_AREA}, axis(1440, 1080));
  expect_pattern_matches_table(ResampleFilter{CLVF_SCALE_POINT}, axis(1280, 1920));
  // Planes smaller than the filter's reach: the taps mirror more than once.
  expect_pattern_matches_table(spline36, axis(6, 4));
  expect_pattern_matches_table(ResampleFilter{CLVF_SCALE_LANCZOS, 0, 0, 8}, axis(4, 2));
}

TEST(PhasePattern, AbsentForOtherRatios) {
  const ResampleFilter spline36{CLVF_SCALE_SPLINE36};
  EXPECT_EQ(phase_pattern(spline36, axis(1920, 1279), kMaxPhaseP, kMaxPhaseQ).p, 0);
  EXPECT_EQ(phase_pattern(spline36, axis(1920, 1080), kMaxPhaseP, kMaxPhaseQ).p, 0);  // 16:9, beyond 4
  EXPECT_EQ(phase_pattern(spline36, axis(1000, 200), kMaxPhaseP, kMaxPhaseQ).p, 0);   // 5:1
}

TEST(PhasePattern, KernelLocalMemoryCoversEveryRead) {
  const PhasePattern pp = phase_pattern(ResampleFilter{CLVF_SCALE_SPLINE36}, axis(1920, 1280), kMaxPhaseP, kMaxPhaseQ);
  const PhaseKernel k = phase_kernel(pp, 1, 1920, 1280, 4);
  // Phases of 640 pixels, 2 before pixel 0 for the left edge's taps, the last output block's
  // furthest tap: 644 floats a phase row.
  EXPECT_NE(k.options.find("-DPH_PITCH=644"), std::string::npos) << k.options;
  EXPECT_EQ(k.local_bytes, sizeof(float) * 4 * 3 * 644);
}

}  // namespace
}  // namespace clvf::detail
