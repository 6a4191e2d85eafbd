// The colour conversion operation: validated and planned once (matrix, resampling tables,
// programs), then run per frame without allocating. Serves the C API and the FFmpeg filter.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "clvf/clvf.h"
#include "runtime/frame_planes.hpp"
#include "runtime/cl.hpp"
#include "runtime/device.hpp"
#include "runtime/ops/colour_matrix.hpp"
#include "runtime/ops/frame_run.hpp"
#include "runtime/ops/operation.hpp"
#include "runtime/ops/resample_table.hpp"
#include "runtime/ops/scale.hpp"
#include "runtime/profile.hpp"

namespace clvf::detail {

// Throws Error(INVALID_ARGUMENT) naming the bad field and what is allowed.
void validate_colorspace_params(const clvf_colorspace_params& p);

struct VectorPlan;  // how a pass takes 16 pixels per work-item (colorspace.cpp)

class Colorspace final : public Operation {
 public:
  // float_source: the source is these planes of unrounded samples (a Scale's float output, in the
  // layout of src_format) instead of a caller's frame; src_storage is then ignored.
  Colorspace(std::shared_ptr<Device> device, const clvf_colorspace_params& params,
             std::vector<FloatPlane> float_source = {});
  // With a float source, src is not used.
  void process(const clvf_frame& src, const clvf_frame& dst);
  // Asynchronous (Operation), as Scale's. With a float source, src only says whether there is a
  // frame.
  bool submit(const clvf_frame* src, const clvf_frame& dst, const std::vector<cl::Event>& wait) override;
  const std::vector<cl::Event>& submitted() const override { return pipeline_.newest_done(); }
  void complete() override;
  // Event-driven, for OpenCL frames (FramePipeline::enqueue).
  cl::Event enqueue(const clvf_frame& src, const clvf_frame& dst, const std::vector<cl::Event>& wait);
  // The checks submit makes of a destination frame, alone (Error(INVALID_ARGUMENT)).
  void validate_destination(const clvf_frame& dst) const { dst_->validate(dst); }
  std::string profile_report() const override { return profile_.report(); }

 private:
  struct Pass {
    Kernel kernel;
    cl::NDRange range, local;
    DeviceTable h, v;            // resampling tables, when the pass reads another grid
    cl::Buffer fast, pattern;    // 16 pixels per work-item: the blocks that take vector code
    cl::Buffer edge;             // and the taps of those at a plane edge
    std::string name;  // in kernel-time reports
  };
  // The program text of the luma or chroma pass; vec null: one pixel per work-item, else 16;
  // row_group > 1: luma in groups of rows reading group_span chroma rows (see colour.cl).
  std::string variant_source(bool luma, bool resample, const VectorPlan* vec, const ResampleTable& th,
                             const ResampleTable& tv, int row_group, int group_span) const;

  std::shared_ptr<Device> device_;
  clvf_colorspace_params params_;
  const PixelFormat* src_format_ = nullptr;
  const PixelFormat* dst_format_ = nullptr;
  Affine affine_{};
  bool dither_ = false;
  // Sets one pass's frame arguments and enqueues it.
  void enqueue_pass(size_t i, const cl::CommandQueue& q, const clvf_frame& src, const clvf_frame& dst);

  std::vector<Pass> passes_;
  cl::Buffer no_table_;  // bound where a pass reads no table
  std::vector<FloatPlane> float_source_;
  std::optional<FramePlanes> src_, dst_;
  KernelProfile profile_;
  FramePipeline pipeline_;
};

}  // namespace clvf::detail
