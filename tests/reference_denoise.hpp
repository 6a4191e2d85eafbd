// Plain float64 reference for NL-means on one plane, written from the definition (FFmpeg's
// nlmeans weights): for every pixel p and offset o != 0 of the research window with p + o inside
// the plane, ssd = sum over the patch of (I(p + k) - I(p + o + k))^2 with coordinates clamped to
// the plane; w = exp(-ssd / (10 s)^2) when ssd < floor(ln(255) (10 s)^2), else 0. The value is
// (sum w I(p + o) + I(p)) / (sum w + 1), unrounded. Channels are filtered separately.
#pragma once
#include <vector>

#include "reference_scale.hpp"

namespace clvf::detail::test {

struct RefNlmeans {
  double strength = 1;
  int patch_size = 7, research_size = 15;
  // 0: the weights above; 1, 2, 3: bisquare, max(0, 1 - ssd / (10 s)^2) to the power 1, 2, 8
  // (KNLMeansCL's wmode 1-3)
  int weighting = 0;
};

// w * h * channels values, row-major.
std::vector<double> reference_nlmeans(const RefPlane& src, const RefNlmeans& p);
// Temporal: frames[0] is the current frame; every offset of the research window in each other
// frame ((0, 0) included) is a candidate too, with patches compared against the current frame's.
std::vector<double> reference_nlmeans(const std::vector<const RefPlane*>& frames, const RefNlmeans& p);

}  // namespace clvf::detail::test
