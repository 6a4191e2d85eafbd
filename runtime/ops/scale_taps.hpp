// The host's half of scale_phase.cl's TAPS_H form, for planes whose horizontal ratio has no short
// pattern (1080p -> 1366x768, -> 854x480): the vertical pass as in the phase form, then each
// 16-lane output vector gathered tap by tap from a window of its row's vertical results by
// shuffles with constant indices. The indices depend only on where the vector's first output falls
// between two source samples, so a plane has few sets of them (a pattern each): a block's
// pattern is picked at run time, its window start and weights come from tables.
#pragma once
#include "runtime/cl.hpp"

#include <string>
#include <vector>

#include "runtime/ops/resample_table.hpp"

namespace clvf::detail {

// The window a vector's taps may reach (vectors of 16 lanes), and the patterns a plane may have.
constexpr int kMaxTapVectors = 4, kMaxTapPatterns = 32;

struct TapsKernel {
  std::string defines;  // TAP_CASES (the switch's cases), before the kernel's source
  std::string options;  // its -D build options
  std::vector<cl_int2> blocks;  // per output vector: its window's first lane, its pattern
  std::vector<float> weights;   // per output vector and tap: 16 lanes (0 past the last output)
  size_t local_bytes = 0;       // for ROWS rows of vertical results
};
// For a plane of src_w x channels lanes scaled to dst_w pixels by the horizontal table ht, ROWS
// output rows a work-item. Empty options where the form does not fit the plane (a vector's taps
// reach past kMaxTapVectors vectors, or more than kMaxTapPatterns patterns).
TapsKernel taps_kernel(const ResampleTable& ht, int channels, int src_w, int dst_w, int rows);

}  // namespace clvf::detail
