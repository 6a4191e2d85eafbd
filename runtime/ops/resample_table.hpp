// Resampling filters (zimg's definitions) and the per-output weight tables the scale kernels
// consume.
#pragma once
#include <string_view>
#include <vector>

#include "clvf/clvf.h"
#include "runtime/cl.hpp"

namespace clvf::detail {

// Throws Error(INVALID_ARGUMENT) listing the known names.
clvf_scale_algorithm scale_algorithm_from_name(std::string_view name);
const char* scale_algorithm_name(int algorithm);  // "" when unknown
extern const char* const kScaleAlgorithmNames;                      // "point, bilinear, ..."

// Throws Error(INVALID_ARGUMENT) "OP: ..." for an unknown algorithm, bicubic B or C outside 0..1,
// or lanczos taps outside 1..16.
void validate_resample_filter(const char* op, int algorithm, double b, double c, int taps);

struct ResampleFilter {
  clvf_scale_algorithm algorithm = CLVF_SCALE_BICUBIC;
  double b = 1.0 / 3, c = 1.0 / 3;  // bicubic only
  int taps = 3;                      // lanczos only
  double support() const;            // half-width of the unscaled filter
  double operator()(double x) const;
};

// How one plane axis maps: output sample o sits at source position
//   ((o * dst_subsampling + dst_siting + 0.5) * ratio - 0.5 - src_siting) / src_subsampling
// in source sample units, where ratio = luma source size / luma destination size and a siting is
// a chroma sample's offset from its subsampled grid in luma samples (0 co-sited, 0.5 centred).
// A scaled plane keeps its subsampling and siting; a chroma plane brought to the luma grid (or
// back) changes them. The filter widens by the ratio in the plane's own samples when that
// exceeds 1.
struct AxisMapping {
  int src_size = 0, dst_size = 0;
  double ratio = 1.0;
  int src_subsampling = 1, dst_subsampling = 1;
  double src_siting = 0.0, dst_siting = 0.0;
  double source_position(int o) const;
  double stretch() const;
};

// Where source sample i (any, past an edge too) of a plane of n samples reads: half-sample
// symmetric extension (sample -1 repeats sample 0), repeated for planes smaller than a filter's
// reach.
int mirror_sample(int i, int n);

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

// Where the axis maps q source samples to p output samples (small whole numbers) and every output
// sample p * m + phi weighs source samples q * m + first[phi] + k (k < taps; those past an edge
// mirrored, as the table does) with the same weights[phi * taps + k] for every m (to 1e-6), a
// kernel can filter a phase-split, mirrored copy of the source with constant weights. The raw
// samples reach pad_left before the first and pad_right past the last. p == 0: no such pattern
// with p <= max_p and q <= max_q.
struct PhasePattern {
  int p = 0, q = 0, taps = 0, pad_left = 0, pad_right = 0;
  std::vector<int> first;
  std::vector<float> weights;
};
PhasePattern phase_pattern(const ResampleFilter& filter, const AxisMapping& axis, int max_p, int max_q);

// The weights tap-major (weights[k * dst_size + o]), unpadded: consecutive outputs' weights
// for one tap are contiguous, for kernels that run one output per work-item on CPUs.
ResampleTable tap_major(const ResampleTable& table);

// A table turned into one dense matrix per block of `pixels` consecutive outputs: each block
// reads `span` source samples from bases[b] (span a multiple of `pixels`, every block's window
// inside the source), and matrix[(b * span + s) * pixels * channels + j * channels + c] is the
// weight of source sample bases[b] + s for output j of the block (the same for each of its
// `channels` interleaved channels; 0 off its taps and past the last output).
struct BlockTable {
  int span = 0;
  std::vector<int> bases;
  std::vector<float> matrix;
  // Where the ratio's period divides the block, blocks away from the edges repeat one pattern:
  // output j's taps start pattern_first[j] samples after the base, with weights
  // pattern[k * pixels * channels + j * channels + c]. regular[b] is 1 for the blocks that repeat
  // it exactly (a kernel may apply it by lane permutations instead of the matrix), else 0.
  std::vector<int> regular, pattern_first;
  std::vector<float> pattern;
};
// Empty (span 0) when the span would exceed max_span or the source. The span is rounded up to a
// multiple of span_multiple (0: of pixels, for kernels that load it in vectors of `pixels`).
BlockTable block_table(const ResampleTable& table, int src_size, int pixels, int channels, int max_span,
                       int span_multiple = 0);

// A read-only device copy of v.
template <class T>
cl::Buffer read_only_copy(const cl::Context& context, const std::vector<T>& v) {
  return cl::Buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, v.size() * sizeof(T), const_cast<T*>(v.data()));
}

// The table on the device: read-only buffers of its offsets and weights.
struct DeviceTable {
  cl::Buffer offsets, weights;
};
DeviceTable upload_table(const cl::Context& context, const ResampleTable& table);

}  // namespace clvf::detail
