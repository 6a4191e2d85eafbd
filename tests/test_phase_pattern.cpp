// The phase pattern the CPU phase kernel applies (resample_table.hpp): found for ratios of small
// whole numbers, absent otherwise, and equal, once its taps are mirrored and folded, to the weight
// table every other form applies, for every output (edges included).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
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

int option(const std::string& options, const std::string& name) {
  const auto at = options.find("-D" + name + "=");
  return at == std::string::npos ? -1 : std::stoi(options.substr(at + name.size() + 3));
}

// The kernel's phase rows hold every float it writes (whole 16-lane blocks of the source, the pads)
// and every one it reads (16 lanes per nonzero tap of each output block), counted here from the
// pattern and the kernel's layout (phase pixel m at float (m + M0) * channels).
TEST(PhasePattern, KernelLocalMemoryCoversEveryReadAndWrite) {
  struct Plane { ResampleFilter f; AxisMapping a; int channels; };
  for (const Plane& pl : {Plane{ResampleFilter{CLVF_SCALE_SPLINE36}, axis(1920, 1280), 1},
                          Plane{ResampleFilter{CLVF_SCALE_SPLINE36}, axis(960, 640, 2, 0.0), 2},
                          Plane{ResampleFilter{CLVF_SCALE_LANCZOS, 0, 0, 8}, axis(36, 9), 2},
                          Plane{ResampleFilter{CLVF_SCALE_BICUBIC, 0, 0.5}, axis(3844, 961), 1}}) {
    SCOPED_TRACE(testing::Message() << pl.a.src_size << " -> " << pl.a.dst_size);
    const PhasePattern pp = phase_pattern(pl.f, pl.a, kMaxPhaseP, kMaxPhaseQ);
    ASSERT_GT(pp.p, 0);
    const PhaseKernel k = phase_kernel(pp, pl.channels, pl.a.src_size, pl.a.dst_size, kPhaseRows);
    const int pitch = option(k.options, "PH_PITCH"), m0 = option(k.options, "M0"), ch = pl.channels;
    const int px = 16 / ch;
    ASSERT_GT(pitch, 0);
    EXPECT_EQ(k.local_bytes, sizeof(float) * kPhaseRows * pp.q * pitch);
    EXPECT_GE(m0 * pp.q, pp.pad_left);  // the left pad's phase pixels start at index 0 or after
    // Writes: each source block's q vectors, then the right pad.
    const int src_blocks = (pl.a.src_size * ch + 16 * pp.q - 1) / (16 * pp.q);
    int last = ((src_blocks - 1) * px + m0) * ch + 16;
    last = std::max(last, ((pl.a.src_size + pp.pad_right - 1) / pp.q + m0) * ch + ch);
    // Reads: output block b of phase phi loads 16 lanes from phase pixel b * px + shift.
    const int out_blocks = (pl.a.dst_size * ch + 16 * pp.p - 1) / (16 * pp.p);
    for (int phi = 0; phi < pp.p; ++phi)
      for (int t = 0; t < pp.taps; ++t) {
        if (pp.weights[phi * pp.taps + t] == 0.0f) continue;
        const int raw = pp.first[phi] + t, shift = raw >= 0 ? raw / pp.q : -((-raw + pp.q - 1) / pp.q);
        EXPECT_GE(shift + m0, 0);
        last = std::max(last, ((out_blocks - 1) * px + shift + m0) * ch + 16);
      }
    EXPECT_GE(pitch, last);
  }
}

}  // namespace
}  // namespace clvf::detail
