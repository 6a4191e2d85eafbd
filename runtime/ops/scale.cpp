#include "runtime/ops/scale.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <utility>

#include "runtime/error.hpp"
#include "runtime/kernels.hpp"
#include "runtime/ops/frame_format.hpp"
#include "runtime/ops/frame_run.hpp"
#include "runtime/ops/resample_table.hpp"
#include "runtime/ops/scale_phase.hpp"
#include "runtime/ops/scale_taps.hpp"
#include "runtime/scratch.hpp"

namespace clvf::detail {
namespace {

// Pass 2 on GPUs reads taps 4 at a time; its intermediate rows carry room for the overhang.
constexpr int kHorizontalVector = 4;
// The block kernel makes this many output rows per work-item (the phase kernel kPhaseRows): each
// source row is loaded once for all of them, each horizontal matrix row too.
constexpr int kBlockRows = 4;
constexpr int kMaxBlockRowSpan = 64;  // source rows a group of output rows may span

// CPU devices run the one-pass phase kernel where the plane's ratio allows (else its taps form
// where that fits), else the one-pass block kernel where it fits, else the two passes in their
// CPU form; other devices the two passes in their GPU form. CLVF_SCALE_KERNELS=phase|block|cpu|gpu
// picks a form on any device (through the device's settings; block: never the phase kernel), so
// that tests check each and benchmarks compare them.
Scale::Kernels kernels_for(const Device& device) {
  const std::string& e = device.settings().scale_kernels;
  if (e.empty())
    return device.device().getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU ? Scale::Kernels::kPhase
                                                                          : Scale::Kernels::kGpu;
  const std::string_view v = e;
  if (v == "phase") return Scale::Kernels::kPhase;
  if (v == "block") return Scale::Kernels::kBlock;
  if (v == "cpu") return Scale::Kernels::kCpu;
  if (v == "gpu") return Scale::Kernels::kGpu;
  throw Error(CLVF_ERROR_INVALID_ARGUMENT,
              fmt::format("scale: CLVF_SCALE_KERNELS is '{}'; allowed: phase, block, cpu, gpu", v));
}

int tmp_pitch_of(const auto& plane) { return (plane.src_w + kHorizontalVector - 1) * plane.channels; }

}  // namespace

std::pair<BlockTable, int> block_columns(const ResampleTable& ht, int src_w, int channels) {
  const int pixels = 16 / channels;
  BlockTable one = block_table(ht, src_w, pixels, channels, kMaxBlockVectors * pixels);
  BlockTable two = block_table(ht, src_w, 2 * pixels, channels, kMaxBlockVectors * pixels, pixels);
  if (two.span && (!one.span || two.span < 2 * one.span)) return {std::move(two), 2};
  return {std::move(one), 1};
}

std::string pattern_sum(const BlockTable& bt, int channels) {
  if (std::find(bt.regular.begin(), bt.regular.end(), 1) == bt.regular.end()) return "";
  const int vector_pixels = 16 / channels, outs = static_cast<int>(bt.pattern_first.size()) / vector_pixels;
  const int taps = static_cast<int>(bt.pattern.size()) / (16 * outs);
  std::string sums;
  for (int o = 0; o < outs; ++o) {
    std::vector<std::string> terms;
    for (int k = 0; k < taps; ++k) {
      std::string lanes;
      for (int j = o * vector_pixels; j < (o + 1) * vector_pixels; ++j)
        for (int c = 0; c < channels; ++c) {
          const int lane = (bt.pattern_first[j] + k) * channels + c;
          lanes += fmt::format("{}(c)[{}].s{:x}", lanes.empty() ? "" : ", ", lane / 16, lane % 16);
        }
      terms.push_back(fmt::format("(w)[{}] * (float16)({})", k * outs + o, lanes));
    }
    while (terms.size() > 1) {
      std::vector<std::string> next;
      for (size_t i = 0; i + 1 < terms.size(); i += 2) next.push_back(fmt::format("({} + {})", terms[i], terms[i + 1]));
      if (terms.size() % 2) next.push_back(terms.back());
      terms = std::move(next);
    }
    sums += o + 1 < outs ? fmt::format("(o) == {} ? {} : ", o, terms[0]) : terms[0];
  }
  return fmt::format("#define PATTERN_SUM(c, w, o) ({})\n", sums);
}

namespace {
// Where a group of output rows repeats the ratio's pattern, each row's first tap in the group.
std::string row_shifts(const BlockTable& rows, int taps) {
  if (std::find(rows.regular.begin(), rows.regular.end(), 1) == rows.regular.end()) return "";
  std::string shifts;
  for (size_t r = 0; r < rows.pattern_first.size(); ++r)
    shifts += fmt::format("(r) == {} ? {} : ", r, rows.pattern_first[r]);
  return fmt::format("#define ROW_SHIFT(r) ({}{})\n", shifts, rows.span - taps);
}
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

std::pair<AxisMapping, AxisMapping> scale_axes(const clvf_scale_params& p, int src_w, int src_h, int dst_w,
                                               int dst_h, bool chroma) {
  const double h_siting = chroma ? chroma_siting_x(p.chroma_location) : 0.0;
  const double v_siting = chroma ? chroma_siting_y(p.chroma_location) : 0.0;
  const int sub = chroma ? 2 : 1;
  return {AxisMapping{src_w, dst_w, double(p.src_width) / p.dst_width, sub, sub, h_siting, h_siting},
          AxisMapping{src_h, dst_h, double(p.src_height) / p.dst_height, sub, sub, v_siting, v_siting}};
}

Scale::Scale(std::shared_ptr<Device> device, const clvf_scale_params& params, bool float_output)
    : device_(std::move(device)), params_(params), float_output_(float_output) {
  validate_scale_params(params_);
  check_image_support("scale", *device_, params_.format, params_.src_storage);
  if (!float_output_) check_image_support("scale", *device_, params_.format, params_.dst_storage);
  kernels_ = kernels_for(*device_);
  const auto src_planes = planes_of(params_.format, params_.src_width, params_.src_height);
  const auto dst_planes = planes_of(params_.format, params_.dst_width, params_.dst_height);
  planes_.resize(src_planes.size());
  const PixelFormat& f = *find_pixel_format(params_.format);
  size_t tmp_bytes = 0;
  // yuv420p's U and V: one launch makes both where the phase kernel takes them (one wake of
  // PoCL's workers and one launch a frame fewer). Not with float output, which binds its planes
  // at plan time.
  const auto same_shape = [&](size_t a, size_t b) { return src_planes[a] == src_planes[b] && dst_planes[a] == dst_planes[b]; };
  for (size_t i = 0; i < planes_.size(); ++i) {
    Plane& pl = planes_[i];
    pl.channels = src_planes[i].channels;
    pl.src_w = src_planes[i].width, pl.src_h = src_planes[i].height;
    pl.dst_w = dst_planes[i].width, pl.dst_h = dst_planes[i].height;
    if (i > 0 && planes_[i - 1].paired) {
      pl.with_previous = pl.block = true;  // no kernels of its own (nothing binds the intermediate)
      continue;
    }
    const bool pair = !float_output_ && i > 0 && i + 1 < planes_.size() && same_shape(i, i + 1);
    plan_plane(pl, f.planes[i].sub_x > 1, pair);
    if (!pl.block) tmp_bytes = std::max(tmp_bytes, sizeof(float) * tmp_pitch_of(pl) * pl.dst_h);
  }
  // Without an intermediate (one-pass kernels, the CPU forms) the planes share nothing, so they
  // run at once: on PoCL the chroma's work-groups fill the cores the luma's last ones leave, with
  // no gap between the launches (1080p -> 720p yuv420p spline36 through ffmpeg, alternated runs:
  // 2137 -> 2251 fps). The two-pass planes share tmp_; float output is read by a conversion that
  // follows on the device's queue (ScaleConvert).
  pipeline_.set_side_queue(!tmp_bytes && !float_output_);
  if (tmp_bytes) {
    // Pass 2 may read whole vectors past a row's last tap (with zero weight): the padding must
    // hold finite values, so the intermediate starts finite (zero, or poison for the tests of
    // unwritten reads) and pass 1 only writes finite sums.
    tmp_ = cl::Buffer(device_->context(), CL_MEM_READ_WRITE, tmp_bytes);
    device_->queue().enqueueFillBuffer(tmp_, float_scratch_fill(*device_), 0, tmp_bytes);
    for (Plane& pl : planes_) {
      if (pl.block) continue;
      pl.v.set("tmp", tmp_);
      pl.h.set("tmp", tmp_);
    }
  }
  const int slots = FramePipeline::kDepth;
  src_.emplace(*device_, params_.src_storage, plane_shapes(src_planes), "source", false, slots);
  if (!float_output_) dst_.emplace(*device_, params_.dst_storage, plane_shapes(dst_planes), "destination", true, slots);
}

std::string Scale::build_options(const Plane& pl, bool src_image, bool dst_image) const {
  const PixelFormat& f = *find_pixel_format(params_.format);
  return fmt::format("-cl-std=CL1.2 -DCHANNELS={} -DSRC_IMAGE={} -DDST_IMAGE={} -DSAMPLE_BYTES={} -DSAMPLE_SHIFT={} "
                     "-DSAMPLE_MAX={} -DDST_FLOAT={}",
                     pl.channels, int(src_image), int(dst_image), f.bytes, f.shift, f.max_value(), int(float_output_));
}

void Scale::plan_plane(Plane& pl, bool chroma, bool pair) {
  const ResampleFilter filter{params_.algorithm, params_.param_b, params_.param_c, params_.taps};
  const auto [h_axis, v_axis] = scale_axes(params_, pl.src_w, pl.src_h, pl.dst_w, pl.dst_h, chroma);
  const auto vt = build_resample_table(filter, v_axis);
  const bool src_image = kernel_storage(*device_, params_.src_storage) == CLVF_STORAGE_CL_IMAGE;
  const bool dst_image = kernel_storage(*device_, params_.dst_storage) == CLVF_STORAGE_CL_IMAGE && !float_output_;
  const int index = static_cast<int>(&pl - planes_.data());
  if (float_output_)
    pl.float_plane = scratch_buffer(*device_, CL_MEM_READ_WRITE,
                                    sizeof(float) * pl.dst_w * pl.channels * pl.dst_h);
  const auto bind_float_output = [&](Kernel& k) {
    k.set("dst", pl.float_plane);
    k.set("dst_offset", 0);
    k.set("dst_pitch", pl.dst_w * pl.channels);
  };

  const bool one_pass = (kernels_ == Kernels::kPhase || kernels_ == Kernels::kBlock) && !src_image && !dst_image;
  if (one_pass && kernels_ == Kernels::kPhase &&
      (plan_phase(pl, filter, h_axis, vt, index, pair) || plan_taps(pl, filter, h_axis, vt, index, pair))) {
    if (float_output_) bind_float_output(pl.v);
    return;
  }
  if (one_pass) {
    const auto ht = build_resample_table(filter, h_axis);
    const auto [bt, outs] = block_columns(ht, pl.src_w, pl.channels);
    const int pixels = outs * 16 / pl.channels;
    if (bt.span) {
      // A row fewer where a work-item makes two output vectors (with 4 rows of 4 vectors of
      // columns the NV12 chroma kernel ran slower than with one vector).
      const size_t groups = one_pass_kernel(pl, vt, outs > 1 ? kBlockRows - 1 : kBlockRows, pattern_sum(bt, pl.channels),
                                            "scale_block", fmt::format(" -DSPAN={} -DOUTS={}", bt.span, outs));
      const auto upload = [&](const auto& v) { return read_only_copy(device_->context(), v); };
      std::vector<cl_int2> blocks(bt.bases.size());
      for (size_t b = 0; b < blocks.size(); ++b) blocks[b] = {{bt.bases[b], bt.regular[b]}};
      pl.h_table = {upload(blocks), upload(bt.matrix)};
      // A plane without a pattern still passes a (never read) buffer.
      pl.pattern = bt.pattern.empty() ? pl.h_table.weights : upload(bt.pattern);
      if (float_output_) bind_float_output(pl.v);
      pl.v.set("blocks", pl.h_table.offsets);
      pl.v.set("matrix", pl.h_table.weights);
      pl.v.set("pattern", pl.pattern);
      pl.v_range = cl::NDRange((pl.dst_w + pixels - 1) / pixels, groups);
      pl.v_name = fmt::format("scale_block plane {}", index);
      return;
    }
  }

  pl.v_table = upload_table(device_->context(), vt);
  // Two passes. Pass 2 on CPUs runs one output per work-item with tap-major weights (what
  // vectorises across work-items there); on GPUs it reads its taps 4 at a time.
  const bool tap_major_weights = kernels_ != Kernels::kGpu;
  const auto ht =
      tap_major_weights ? tap_major(build_resample_table(filter, h_axis)) : build_resample_table(filter, h_axis, 4);
  pl.h_table = upload_table(device_->context(), ht);
  const std::string source = std::string(kernels::source("plane.h")) + std::string(kernels::source("scale.cl"));
  // Pass 1 (vertical) reads the source plane, pass 2 (horizontal) writes the destination plane;
  // each program variant fixes only the storage its pass touches.
  const auto taps = [](const ResampleTable& t) { return fmt::format(" -DTAPS={} -DTAPS_PAD={}", t.taps, t.stride); };
  pl.v = device_->kernel(source, build_options(pl, src_image, false) + taps(vt), "scale_v");
  pl.h = device_->kernel(source,
                         build_options(pl, false, dst_image) + taps(ht) +
                             fmt::format(" -DTAP_MAJOR={}", int(tap_major_weights)),
                         "scale_h");
  if (float_output_) bind_float_output(pl.h);

  // Arguments after the plane's own (which a frame supplies) never change; the intermediate is
  // bound once it exists.
  const int tmp_pitch = tmp_pitch_of(pl);
  pl.v.set("tmp_pitch", tmp_pitch);
  pl.v.set("offsets", pl.v_table.offsets);
  pl.v.set("weights", pl.v_table.weights);
  pl.h.set("tmp_pitch", tmp_pitch);
  pl.h.set("offsets", pl.h_table.offsets);
  pl.h.set("weights", pl.h_table.weights);
  // Work-items: pass 1 one per lane (sample of one channel), pass 2 one per pixel.
  pl.v_range = cl::NDRange(size_t(pl.src_w) * pl.channels, pl.dst_h);
  pl.h_range = cl::NDRange(pl.dst_w, pl.dst_h);
  pl.v_name = fmt::format("scale_v plane {}", index);
  pl.h_name = fmt::format("scale_h plane {}", index);
}

bool Scale::plan_phase(Plane& pl, const ResampleFilter& filter, const AxisMapping& h_axis, const ResampleTable& vt,
                       int index, bool pair) {
  // Upscales too, since its merges became two-vector shuffles (scale_phase.cpp's gather16): 720p
  // -> 1080p spline36 kernel minima 0.436 ms a frame against 0.885 with the block kernel (PoCL,
  // 2 cores, yuv420p).
  const PhasePattern pp = phase_pattern(filter, h_axis, kMaxPhaseP, kMaxPhaseQ);
  if (!pp.p) return false;
  const PhaseKernel pk = phase_kernel(pp, pl.channels, pl.src_w, pl.dst_w, kPhaseRows);
  // With the group's vertical weights as vectors (at most kMaxBlockRowSpan source rows a group).
  const size_t weight_bytes = sizeof(cl_float16) * kMaxBlockRowSpan * kPhaseRows;
  if (pk.local_bytes + weight_bytes > device_->device().getInfo<CL_DEVICE_LOCAL_MEM_SIZE>()) return false;
  const size_t groups =
      one_pass_kernel(pl, vt, kPhaseRows, pk.defines, "scale_phase", pk.options + (pair ? " -DPAIRED=1" : ""));
  launch_rows(pl, groups, "scale_phase", index, pair);
  return true;
}

bool Scale::plan_taps(Plane& pl, const ResampleFilter& filter, const AxisMapping& h_axis, const ResampleTable& vt,
                      int index, bool pair) {
  const TapsKernel tk = taps_kernel(build_resample_table(filter, h_axis), pl.channels, pl.src_w, pl.dst_w, kPhaseRows);
  if (tk.options.empty()) return false;
  const size_t weight_bytes = sizeof(cl_float16) * kMaxBlockRowSpan * kPhaseRows;
  if (tk.local_bytes + weight_bytes > device_->device().getInfo<CL_DEVICE_LOCAL_MEM_SIZE>()) return false;
  const size_t groups =
      one_pass_kernel(pl, vt, kPhaseRows, tk.defines, "scale_phase", tk.options + (pair ? " -DPAIRED=1" : ""));
  pl.h_table = {read_only_copy(device_->context(), tk.blocks), read_only_copy(device_->context(), tk.weights)};
  pl.v.set("tap_blocks", pl.h_table.offsets);
  pl.v.set("tap_weights", pl.h_table.weights);
  launch_rows(pl, groups, "scale_taps", index, pair);
  return true;
}

void Scale::launch_rows(Plane& pl, size_t groups, const char* name, int index, bool pair) {
  pl.v_range = cl::NDRange(pair ? 2 * groups : groups);
  pl.v.set("src_lanes", pl.src_w * pl.channels);
  pl.v_local = cl::NDRange(1);
  pl.v_name = pair ? fmt::format("{} planes {}-{}", name, index, index + 1) : fmt::format("{} plane {}", name, index);
  if (pair) pl.v.set("pair_groups", static_cast<int>(groups));
  pl.paired = pair;
}

size_t Scale::one_pass_kernel(Plane& pl, const ResampleTable& vt, int group, const std::string& defines,
                              const char* name, const std::string& options) {
  // One row a group where a group's span would not fit the source.
  BlockTable rows = block_table(vt, pl.src_h, group, 1, kMaxBlockRowSpan, 1);
  if (!rows.span) rows = block_table(vt, pl.src_h, group = 1, 1, vt.taps, 1);
  const std::string source = defines + row_shifts(rows, vt.taps) + std::string(kernels::source("plane.h")) +
                             std::string(kernels::source("vstore.h")) + std::string(kernels::source("scale_rows.h")) +
                             std::string(kernels::source(std::string(name) + ".cl"));
  pl.v = device_->kernel(source,
                         build_options(pl, false, false) + options +
                             fmt::format(" -DSPAN_V={} -DROWS={} -DTAPS_V={}", rows.span, group, vt.taps),
                         name);
  std::vector<cl_int2> groups(rows.bases.size());
  for (size_t g = 0; g < groups.size(); ++g) groups[g] = {{rows.bases[g], rows.regular[g]}};
  pl.v_table = {read_only_copy(device_->context(), groups), read_only_copy(device_->context(), rows.matrix)};
  pl.block = true;
  pl.v.set("row_groups", pl.v_table.offsets);
  pl.v.set("row_weights", pl.v_table.weights);
  pl.v.set("dst_lanes", pl.dst_w * pl.channels);
  pl.v.set("dst_rows", pl.dst_h);
  return groups.size();
}

void Scale::process(const clvf_frame& src, const clvf_frame& dst) {
  submit(&src, dst, {});
  complete();
}

void Scale::enqueue_plane(size_t i, const cl::CommandQueue& q, const clvf_frame& src, const clvf_frame& dst) {
  const bool timed = device_->profiling();
  Plane& pl = planes_[i];
  if (pl.with_previous) return;
  src_->set_args(pl.v, "src", src, i);
  if (!float_output_) dst_->set_args(pl.block ? pl.v : pl.h, "dst", dst, i);
  if (pl.paired) {
    src_->set_args(pl.v, "src2", src, i + 1);
    dst_->set_args(pl.v, "dst2", dst, i + 1);
  }
  q.enqueueNDRangeKernel(pl.v.get(), cl::NullRange, pl.v_range, pl.v_local, nullptr,
                         profile_.track(timed, pl.v_name));
  if (!pl.block)
    q.enqueueNDRangeKernel(pl.h.get(), cl::NullRange, pl.h_range, cl::NullRange, nullptr,
                           profile_.track(timed, pl.h_name));
}

bool Scale::submit(const clvf_frame* src, const clvf_frame& dst, const std::vector<cl::Event>& wait) {
  if (!src) return false;
  pipeline_.submit(*device_, profile_, &*src_, dst_ ? &*dst_ : nullptr, *src, dst, planes_.size(),
                   [&](size_t i, const cl::CommandQueue& q) { enqueue_plane(i, q, *src, dst); }, &wait);
  return true;
}

cl::Event Scale::enqueue(const clvf_frame& src, const clvf_frame& dst, const std::vector<cl::Event>& wait) {
  check_enqueue_storages(params_.src_storage, float_output_ ? CLVF_STORAGE_CL_BUFFER : params_.dst_storage,
                         "clvf_scale_enqueue");
  return pipeline_.enqueue(*device_, profile_, &*src_, dst_ ? &*dst_ : nullptr, src, dst, planes_.size(),
                           [&](size_t i, const cl::CommandQueue& q) { enqueue_plane(i, q, src, dst); }, wait);
}

void Scale::complete() { pipeline_.complete(dst_ ? &*dst_ : nullptr, profile_); }

std::vector<FloatPlane> Scale::float_planes() const {
  std::vector<FloatPlane> planes;
  for (const Plane& pl : planes_) planes.push_back({pl.float_plane, pl.dst_w * pl.channels});
  return planes;
}

}  // namespace clvf::detail
