// The host's half of kernels/scale_phase.cl: the macros that fix a plane's phase pattern into the
// kernel (lane permutations, taps and constant weights) and the local memory it needs.
#pragma once
#include <string>
#include <vector>

#include "runtime/ops/resample_table.hpp"

namespace clvf::detail {

// Ratios the phase kernel takes: up to this many output and source samples a period.
constexpr int kMaxPhaseP = 4, kMaxPhaseQ = 4;
// Output rows a work-item makes (each source row is loaded and converted once for all of them).
// PoCL, 2 cores, kernel minima against 4 rows: 1080p->720p spline36 3% faster, 1080p->1440x810
// 8-18%, 4K->1080p 4%; 8 rows spilled registers at 1440x810 (a third slower).
constexpr int kPhaseRows = 6;

struct PhaseKernel {
  std::string defines;  // source lines before the kernel's own
  std::string options;  // its -D build options
  size_t local_bytes = 0;
};
// For a plane of src_w x channels lanes scaled to dst_w pixels, ROWS output rows a work-item.
PhaseKernel phase_kernel(const PhasePattern& pp, int channels, int src_w, int dst_w, int rows);

// An OpenCL C expression of a float16 whose lane i is lane lanes[i] of the array of float16 named
// `array` (flat: vector lanes[i] / 16, lane lanes[i] % 16), as a chain of two-vector shuffles.
std::string gather16(const char* array, const std::vector<int>& lanes);

}  // namespace clvf::detail
