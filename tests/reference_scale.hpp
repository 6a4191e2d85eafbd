// Plain float64 reference for scaling one plane: the definition written out directly (2-D sum
// over the filter footprint, edges mirrored half-sample symmetrically as zimg does, weights
// normalised), independent of the library's weight tables. Returns unrounded values so callers
// can judge rounding exactly.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace clvf::detail::test {

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
  // The destination's grid when it differs from the source's (chroma brought to the luma grid
  // or back); 0 / negative: the same as the source's.
  int dst_subsampling = 0;
  double dst_siting_x = -1, dst_siting_y = -1;
};

// dst_w x dst_h x channels values, row-major.
std::vector<double> reference_scale(const RefPlane& src, int dst_w, int dst_h, const RefScale& s);
// The same on values (src_w x src_h x channels, row-major).
std::vector<double> reference_scale(const std::vector<double>& src, int src_w, int src_h, int channels, int dst_w,
                                    int dst_h, const RefScale& s);

}  // namespace clvf::detail::test
