// Resampling filters (zimg's definitions) and the per-output weight tables the scale kernels
// consume.
#pragma once
#include <string_view>
#include <vector>

#include "clvf/clvf.h"

namespace clvf {

// Throws Error(INVALID_ARGUMENT) listing the known names.
clvf_scale_algorithm scale_algorithm_from_name(std::string_view name);
const char* scale_algorithm_name(clvf_scale_algorithm algorithm);  // "" when unknown
extern const char* const kScaleAlgorithmNames;                      // "point, bilinear, ..."

struct ResampleFilter {
  clvf_scale_algorithm algorithm = CLVF_SCALE_BICUBIC;
  double b = 1.0 / 3, c = 1.0 / 3;  // bicubic only
  int taps = 3;                      // lanczos only
  double support() const;            // half-width of the unscaled filter
  double operator()(double x) const;
};

// How one plane axis maps: output sample o sits at source position
//   ((o * subsampling + siting + 0.5) * ratio - 0.5 - siting) / subsampling
// in source sample units, where ratio = luma source size / luma destination size and siting is
// the chroma sample's offset from the subsampled grid in luma samples (0 co-sited, 0.5 centred).
struct AxisMapping {
  int src_size = 0, dst_size = 0;
  double ratio = 1.0;
  int subsampling = 1;
  double siting = 0.0;
  double source_position(int o) const;
};

// For each output sample: the first source index and `taps` normalised weights. Samples beyond
// an edge are mirrored back in and folded onto the samples they repeat, so every window lies
// inside the plane: offsets[o] + taps <= src_size.
struct ResampleTable {
  int taps = 0;
  int stride = 0;  // taps rounded up to a whole number of vectors; the extra weights are 0
  std::vector<int> offsets;
  std::vector<float> weights;  // dst_size * stride
};

// Weight rows are padded for a kernel that reads them `max_vector` at a time (4 at a time when
// there are no more than 4 taps; 1 means no padding).
ResampleTable build_resample_table(const ResampleFilter& filter, const AxisMapping& axis, int max_vector = 1);

}  // namespace clvf
