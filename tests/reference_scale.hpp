// Plain float64 reference for scaling one plane: the definition written out directly (2-D sum
// over the filter footprint, edges mirrored half-sample symmetrically as zimg does, weights
// normalised), independent of the library's weight tables. Returns unrounded values so callers
// can judge rounding exactly.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace clvf::test {

struct RefPlane {
  int w = 0, h = 0, channels = 1;
  std::vector<uint8_t> data;  // w * channels bytes per row, tightly packed
  uint8_t at(int x, int y, int c) const { return data[(std::size_t(y) * w + x) * channels + c]; }
};

struct RefScale {
  int algorithm = 2;  // clvf_scale_algorithm values
  double b = 1.0 / 3, c = 1.0 / 3;
  int taps = 3;
  // Luma sizes give the ratio; a chroma plane has subsampling 2 and siting offsets in luma samples.
  int luma_src_w = 0, luma_src_h = 0, luma_dst_w = 0, luma_dst_h = 0;
  int subsampling = 1;
  double siting_x = 0, siting_y = 0;
};

// dst_w x dst_h x channels values, row-major.
std::vector<double> reference_scale(const RefPlane& src, int dst_w, int dst_h, const RefScale& s);

}  // namespace clvf::test
