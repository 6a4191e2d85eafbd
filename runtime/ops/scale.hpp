// The scale operation: validated and planned once (tables, programs, buffers), then run per
// frame without allocating. Serves the C API and, through it, the FFmpeg filter.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "clvf/clvf.h"
#include "runtime/frame_planes.hpp"
#include "runtime/cl.hpp"
#include "runtime/device.hpp"
#include "runtime/ops/frame_run.hpp"
#include "runtime/ops/operation.hpp"
#include "runtime/ops/resample_table.hpp"
#include "runtime/profile.hpp"

namespace clvf::detail {

// Throws Error(INVALID_ARGUMENT) naming the bad field and what is allowed.
void validate_scale_params(const clvf_scale_params& p);

// A plane's horizontal and vertical mappings (chroma: subsampled 2x, sited per chroma_location).
std::pair<AxisMapping, AxisMapping> scale_axes(const clvf_scale_params& p, int src_w, int src_h, int dst_w,
                                               int dst_h, bool chroma);
// The one-pass CPU kernel keeps up to this many 16-lane vectors of vertically filtered source.
constexpr int kMaxBlockVectors = 4;
// The block kernel's columns for a plane, and how many 16-lane output vectors a work-item makes:
// two where that filters fewer source columns per output (a block's span overhangs its outputs
// by the taps; a wider block shares the overhang), else one. (Two with more than
// kMaxBlockVectors columns, tried for 4K -> 1080p, ran slower, presumably
// spilling registers.)
std::pair<BlockTable, int> block_columns(const ResampleTable& ht, int src_w, int channels);
// PATTERN_SUM(c, w, o) for scale_block.cl: the pattern's taps for output vector o applied to the
// block's columns c (an array of float16) as lane permutations, summed as a tree; "" when no block
// repeats it.
std::string pattern_sum(const BlockTable& bt, int channels);

// A plane of unrounded samples on the device (row-major, pitch in floats).
struct FloatPlane {
  cl::Buffer buffer;
  int pitch = 0;
};

class Scale final : public Operation {
 public:
  // The kernels' forms: one-pass phases (CPUs, where the ratio allows) else one-pass blocks,
  // one-pass blocks only, two passes for CPUs, two passes for GPUs.
  enum class Kernels { kPhase, kBlock, kCpu, kGpu };
  // float_output: the result goes to float planes of its own (float_planes()), unrounded, for an
  // operation that continues from them; dst_storage is then ignored.
  Scale(std::shared_ptr<Device> device, const clvf_scale_params& params, bool float_output = false);
  // With float_output, dst is not used (what follows on the device's queue sees the result).
  void process(const clvf_frame& src, const clvf_frame& dst);
  // Asynchronous (Operation): up to FramePipeline::kDepth frames in flight; complete() finishes
  // the oldest. src and dst must stay valid until their frame completes.
  bool submit(const clvf_frame* src, const clvf_frame& dst, const std::vector<cl::Event>& wait) override;
  const std::vector<cl::Event>& submitted() const override { return pipeline_.newest_done(); }
  void complete() override;
  // Event-driven, for OpenCL frames (FramePipeline::enqueue).
  cl::Event enqueue(const clvf_frame& src, const clvf_frame& dst, const std::vector<cl::Event>& wait);
  std::vector<FloatPlane> float_planes() const;
  // Kernel times so far (profiling devices only; "" otherwise).
  std::string profile_report() const override { return profile_.report(); }

 private:
  // A plane runs either a one-pass kernel (in `v`; CPUs, buffers: the phase kernel, or the block
  // kernel for narrow spans) or the two passes `v` then `h` through the intermediate.
  struct Plane {
    bool block = false;  // one pass (phase or block kernel)
    int channels = 1;
    int src_w = 0, src_h = 0, dst_w = 0, dst_h = 0;
    DeviceTable h_table, v_table;  // block: h_table holds the blocks and their matrix; taps: its
                                   // vectors and weights
    cl::Buffer pattern;            // block only
    cl::Buffer float_plane;  // float_output only
    Kernel h, v;
    cl::NDRange h_range, v_range, v_local;
    std::string v_name, h_name;  // in kernel-time reports
    // paired: the phase kernel also makes the next plane (of the same shape) in the same launch;
    // with_previous: this plane is that next one, and launches nothing of its own.
    bool paired = false, with_previous = false;
  };
  // pair: the plane may take the next one into its launch (plan_phase).
  void plan_plane(Plane& plane, bool chroma, bool pair = false);
  // The phase kernel for the plane where its horizontal ratio has a pattern and its local memory
  // fits the device; false (nothing planned) otherwise.
  bool plan_phase(Plane& plane, const ResampleFilter& filter, const AxisMapping& h_axis, const ResampleTable& vt,
                  int index, bool pair);
  // Else the phase kernel's form for any ratio (TAPS_H, scale_taps.hpp) where its windows and
  // patterns fit; false otherwise.
  bool plan_taps(Plane& plane, const ResampleFilter& filter, const AxisMapping& h_axis, const ResampleTable& vt,
                 int index, bool pair);
  // The launch of a plane's one-pass row kernel: `groups` work-items (twice that for a pair).
  void launch_rows(Plane& plane, size_t groups, const char* name, int index, bool pair);
  // A one-pass kernel (kernels/NAME.cl) in plane.v: its output rows in groups of up to `group`
  // that share their source rows, the program from `defines` and `options` and the kernel's
  // files, the row groups and the plane's arguments bound. Returns the number of groups.
  size_t one_pass_kernel(Plane& plane, const ResampleTable& vt, int group, const std::string& defines,
                         const char* name, const std::string& options);
  std::string build_options(const Plane& plane, bool src_image, bool dst_image) const;

  std::shared_ptr<Device> device_;
  // Sets one plane's frame arguments and enqueues its kernels.
  void enqueue_plane(size_t i, const cl::CommandQueue& q, const clvf_frame& src, const clvf_frame& dst);

  clvf_scale_params params_;
  std::vector<Plane> planes_;
  cl::Buffer tmp_;
  std::optional<FramePlanes> src_, dst_;
  KernelProfile profile_;
  FramePipeline pipeline_;
  Kernels kernels_ = Kernels::kGpu;
  bool float_output_ = false;
};

}  // namespace clvf::detail
