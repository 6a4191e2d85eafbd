#include "runtime/ops/scale.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "runtime/error.hpp"
#include "runtime/kernels.hpp"
#include "runtime/ops/frame_format.hpp"
#include "runtime/ops/frame_run.hpp"
#include "runtime/ops/resample_table.hpp"

namespace clvf {
namespace {

// Pass 2 reads taps 8 at a time (4 for short filters); its intermediate rows carry room for the
// overhang.
constexpr int kHorizontalVector = 8;

int tmp_pitch_of(const auto& plane) { return (plane.src_w + kHorizontalVector - 1) * plane.channels; }

}  // namespace

void validate_scale_params(const clvf_scale_params& p) {
  check_version("scale", p.version);
  const PixelFormat& f = check_any_format("scale", "format", raw(p.format));
  if (f.rgb)
    throw Error(CLVF_ERROR_UNSUPPORTED, fmt::format("scale: {} is not supported; allowed: nv12, yuv420p, yv12, p010, "
                                                    "yuv444p (convert RGB with colorspace)", f.name));
  check_size("scale", "source width", p.src_width);
  check_size("scale", "source height", p.src_height);
  check_size("scale", "destination width", p.dst_width);
  check_size("scale", "destination height", p.dst_height);
  validate_resample_filter("scale", raw(p.algorithm), p.param_b, p.param_c, p.taps);
  check_chroma_location("scale", raw(p.chroma_location));
  check_storages("scale", raw(p.src_storage), raw(p.dst_storage));
}

Scale::Scale(std::shared_ptr<Device> device, const clvf_scale_params& params, bool float_output)
    : device_(std::move(device)), params_(params), float_output_(float_output) {
  validate_scale_params(params_);
  check_image_support("scale", *device_, params_.format, params_.src_storage);
  if (!float_output_) check_image_support("scale", *device_, params_.format, params_.dst_storage);
  // 8 taps per vector in pass 2 is ~30% faster on PoCL and up to 3x slower on NVIDIA (long filters).
  wide_horizontal_ = device_->device().getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU;
  const auto src_planes = planes_of(params_.format, params_.src_width, params_.src_height);
  const auto dst_planes = planes_of(params_.format, params_.dst_width, params_.dst_height);
  planes_.resize(src_planes.size());
  size_t tmp_bytes = 0;
  for (size_t i = 0; i < planes_.size(); ++i) {
    Plane& pl = planes_[i];
    pl.channels = src_planes[i].channels;
    pl.src_w = src_planes[i].width, pl.src_h = src_planes[i].height;
    pl.dst_w = dst_planes[i].width, pl.dst_h = dst_planes[i].height;
    tmp_bytes = std::max(tmp_bytes, sizeof(float) * tmp_pitch_of(pl) * pl.dst_h);
  }
  // Pass 2 reads whole vectors past a row's last tap (with zero weight): the padding must hold
  // finite values, so the intermediate starts zeroed and pass 1 only ever writes finite sums.
  tmp_ = cl::Buffer(device_->context(), CL_MEM_READ_WRITE, tmp_bytes);
  device_->queue().enqueueFillBuffer(tmp_, 0.0f, 0, tmp_bytes);
  const PixelFormat& f = *find_pixel_format(params_.format);
  for (size_t i = 0; i < planes_.size(); ++i) plan_plane(planes_[i], f.planes[i].sub_x > 1);
  const bool zero_copy = device_->zero_copy_host();
  const int slots = FramePipeline::kDepth;
  src_.emplace(device_->context(), device_->queue(), params_.src_storage, plane_shapes(src_planes), "source",
               zero_copy, false, slots);
  if (!float_output_)
    dst_.emplace(device_->context(), device_->queue(), params_.dst_storage, plane_shapes(dst_planes), "destination",
                 zero_copy, true, slots);
}

void Scale::plan_plane(Plane& pl, bool chroma) {
  const ResampleFilter filter{params_.algorithm, params_.param_b, params_.param_c, params_.taps};
  const double h_siting = chroma ? chroma_siting_x(params_.chroma_location) : 0.0;
  const double v_siting = chroma ? chroma_siting_y(params_.chroma_location) : 0.0;
  const int sub = chroma ? 2 : 1;
  const AxisMapping h_axis{pl.src_w, pl.dst_w, double(params_.src_width) / params_.dst_width, sub, sub, h_siting, h_siting};
  const AxisMapping v_axis{pl.src_h, pl.dst_h, double(params_.src_height) / params_.dst_height, sub, sub, v_siting, v_siting};
  // Pass 2 reads HVEC taps at a time: the weight rows are padded to match.
  const auto ht = build_resample_table(filter, h_axis, wide_horizontal_ ? 8 : 4);
  const int hvec = ht.stride % 8 == 0 && wide_horizontal_ ? 8 : 4;
  const auto vt = build_resample_table(filter, v_axis);
  pl.h_table = upload_table(device_->context(), ht);
  pl.v_table = upload_table(device_->context(), vt);

  const std::string source = std::string(kernels::source("plane.h")) + std::string(kernels::source("scale.cl"));
  const PixelFormat& f = *find_pixel_format(params_.format);
  const auto options = [&](bool src_image, bool dst_image, const ResampleTable& t) {
    return fmt::format("-cl-std=CL1.2 -DCHANNELS={} -DSRC_IMAGE={} -DDST_IMAGE={} -DTAPS={} -DTAPS_PAD={} "
                       "-DSAMPLE_BYTES={} -DSAMPLE_SHIFT={} -DSAMPLE_MAX={} -DDST_FLOAT={}",
                       pl.channels, int(src_image), int(dst_image), t.taps, t.stride, f.bytes, f.shift, f.max_value(),
                       int(float_output_));
  };
  const bool src_image = params_.src_storage == CLVF_STORAGE_CL_IMAGE;
  const bool dst_image = params_.dst_storage == CLVF_STORAGE_CL_IMAGE && !float_output_;
  // Pass 1 (vertical) reads the source plane, pass 2 (horizontal) writes the destination plane;
  // each program variant fixes only the storage its pass touches.
  pl.v = cl::Kernel(device_->program(source, options(src_image, false, vt)), "scale_v");
  pl.h = cl::Kernel(device_->program(source, options(false, dst_image, ht) + fmt::format(" -DHVEC={}", hvec)),
                    "scale_h");

  const size_t src_row = size_t(pl.src_w) * pl.channels;
  if (float_output_) {
    pl.float_plane = cl::Buffer(device_->context(), CL_MEM_READ_WRITE, sizeof(float) * pl.dst_w * pl.channels * pl.dst_h);
    pl.h.setArg(2, pl.float_plane);
    pl.h.setArg(3, 0);
    pl.h.setArg(4, pl.dst_w * pl.channels);
  }

  // Arguments after the plane's own (which a frame supplies) never change.
  const int tmp_pitch = tmp_pitch_of(pl);
  const cl_uint v_first = src_image ? 1 : 3;
  pl.v.setArg(v_first, tmp_);
  pl.v.setArg(v_first + 1, tmp_pitch);
  pl.v.setArg(v_first + 2, pl.v_table.offsets);
  pl.v.setArg(v_first + 3, pl.v_table.weights);
  pl.h.setArg(0, tmp_);
  pl.h.setArg(1, tmp_pitch);
  const cl_uint h_first = dst_image && !float_output_ ? 3 : 5;
  pl.h.setArg(h_first, pl.h_table.offsets);
  pl.h.setArg(h_first + 1, pl.h_table.weights);
  // Work-items: pass 1 one per lane (sample of one channel), pass 2 one per pixel.
  pl.v_range = cl::NDRange(src_row, pl.dst_h);
  pl.h_range = cl::NDRange(pl.dst_w, pl.dst_h);
  pl.v_name = fmt::format("scale_v plane {}", &pl - planes_.data());
  pl.h_name = fmt::format("scale_h plane {}", &pl - planes_.data());
}

void Scale::process(const clvf_frame& src, const clvf_frame& dst) {
  submit(src, dst);
  complete();
}

void Scale::submit(const clvf_frame& src, const clvf_frame& dst) {
  const auto& q = device_->queue();
  const bool timed = device_->profiling();
  pipeline_.submit(*device_, profile_, &*src_, dst_ ? &*dst_ : nullptr, src, dst, planes_.size(), [&](size_t i) {
    Plane& pl = planes_[i];
    src_->set_args(pl.v, 0, src, i);
    if (!float_output_) dst_->set_args(pl.h, 2, dst, i);
    q.enqueueNDRangeKernel(pl.v, cl::NullRange, pl.v_range, cl::NullRange, nullptr, profile_.track(timed, pl.v_name));
    q.enqueueNDRangeKernel(pl.h, cl::NullRange, pl.h_range, cl::NullRange, nullptr, profile_.track(timed, pl.h_name));
  });
}

void Scale::complete() { pipeline_.complete(dst_ ? &*dst_ : nullptr, profile_); }

std::vector<FloatPlane> Scale::float_planes() const {
  std::vector<FloatPlane> planes;
  for (const Plane& pl : planes_) planes.push_back({pl.float_plane, pl.dst_w * pl.channels});
  return planes;
}

}  // namespace clvf
