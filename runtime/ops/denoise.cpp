#include "runtime/ops/denoise.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <span>

#include "runtime/error.hpp"
#include "runtime/kernels.hpp"
#include "runtime/log.hpp"
#include "runtime/ops/frame_format.hpp"
#include "runtime/ops/frame_run.hpp"
#include "runtime/scratch.hpp"

namespace clvf::detail {
namespace {


// A work-group covers `lanes` lanes x `rows` rows with WX work-items: CPU devices give each
// work-item a 16-lane vector (their compilers do not vectorise these loops across work-items); on
// GPUs each work-item has one lane in the column pass, and the work-group is as wide as the tile
// plus the patch's overhang, so that the column pass takes one round (and keeps its column in
// registers); the output pass then gives each work-item a run of lanes of one row (`segs` runs per
// row; 0: one column of lanes per work-item). Measured on an H200, 1080p NV12 p=7 r=15, kernel
// time with float sums, luma + chroma: 0.437 + 0.307 ms with 128 work-items x 12 rows for luma,
// 96 x 12 for chroma (luma: 96 x 12 0.495, 128 x 10 0.446, x 14 0.517, x 16 0.506, 160 x 12
// 0.540; chroma: 128 x 10 0.343, x 14 0.313, x 16 0.323, 160 x 12 0.367; minima of 300 runs).
// With integer sums 128 x 12 took 0.59 + 0.38 ms. Chroma's runs of 10 lanes with 12 rows put two of
// a warp's reads on some banks (counted, not profiled); on an H100 (2026-12-05, CLVF_DENOISE_SHAPE,
// minima, with the multiply-add column pass) runs as long as the rows took
// 0.269 ms with 108 x 12 and 8 runs (0.307 before), 0.285-0.303 with 96 x 12 (7 runs), 128 x 12
// (9), 96 x 10 (8), 128 x 10 (11), 112 x 14 (7), 128 x 14 (8); 128 x 16 (7) 0.325.
struct Shape {
  int wx, vec, lanes, rows, segs = 0;
  bool float_sums = false;
  int planar = 0;  // two-channel planes with this one-channel shape: 1 channels in turn, 2 a work-group each
};

// GPUs sum squares in float (the kernel's FLOAT_SUMS) where that is exact (every sum and sliding
// partial sum of a patch below 2^24) and the shape allows (the column pass in one round, runs).
bool float_sums_exact(Shape s, bool cpu, int patch_r) {
  const long patch = 2 * patch_r + 1;
  return !cpu && s.segs && s.vec == 1 && s.rows + 2 * patch_r <= 64 && (patch + 1) * patch * 255 * 255 < (1L << 24);
}

// Runs of a row for the output pass: `segs` of them (0: as many as fit the work-items; callers
// keep segs x rows within the work-items), each a whole number of pixels.
Shape with_runs(Shape s, int patch_r, int channels, int segs = 0) {
  if (!segs) segs = s.wx / s.rows;
  if (segs < 1) return s;
  const int run = std::min(s.lanes, s.wx - 2 * patch_r * channels) / segs / channels * channels;
  if (run < channels) return s;
  s.segs = segs;
  s.lanes = segs * run;
  return s;
}

// The settings' denoise shape, CLVF_DENOISE_SHAPE=WX,VEC,LANES,ROWS[,RUNS], overrides (a tuning
// aid for bench/denoise_shapes.sh; on GPUs NV12's chroma takes it as one-channel planes, PLANAR);
// LANES is cut to what the work-group covers in one round of the column pass; RUNS (VEC 1 only)
// gives the output pass runs of lanes: 1 as many as fit the work-items, more that many per row.
std::optional<Shape> shape_override(const std::string& text, int patch_r, int channels) {
  const char* e = text.c_str();
  Shape s{};
  int runs = 0;
  if (std::sscanf(e, "%d,%d,%d,%d,%d", &s.wx, &s.vec, &s.lanes, &s.rows, &runs) < 4) return std::nullopt;
  const bool vec_ok = s.vec == 1 || s.vec == 2 || s.vec == 4 || s.vec == 8 || s.vec == 16;
  if (!vec_ok || s.wx < 1 || s.wx > 1024 || s.rows < 1 || s.rows > 64 || runs < 0 || (runs && s.vec != 1) ||
      (runs > 1 && runs * s.rows > s.wx))
    throw Error(CLVF_ERROR_INVALID_ARGUMENT,
                fmt::format("CLVF_DENOISE_SHAPE '{}' is not WX,VEC(1,2,4,8,16),LANES,ROWS[,RUNS (VEC 1; RUNS x ROWS "
                            "at most WX)]",
                            e));
  const int step = std::lcm(s.vec, channels);
  s.lanes = std::min(s.lanes, s.wx * s.vec - 2 * patch_r * channels) / step * step;
  if (s.lanes < step) throw Error(CLVF_ERROR_INVALID_ARGUMENT, fmt::format("CLVF_DENOISE_SHAPE '{}' leaves no lanes", e));
  return runs ? with_runs(s, patch_r, channels, runs > 1 ? runs : 0) : s;
}

Shape shape_for(const Device& device, bool cpu, int patch_r, int channels) {
  if (const auto s = shape_override(device.settings().denoise_shape, patch_r, channels)) return *s;
  if (cpu) return {4, 16, 64, 32};
  const int overhang = 2 * patch_r * channels;
  if (channels == 2) {
    // Runs as long as the rows, so that a warp's rows x runs read distinct banks (the output pass
    // maps work-item i to row i % rows, run i / rows): 8 runs of 12 lanes, 12 rows.
    constexpr int rows = 12, runs = 8;
    return with_runs({runs * rows + overhang, 1, runs * rows, rows}, patch_r, channels, runs);
  }
  int wx = 128;
  while (wx - overhang < 64 && wx < 256) wx *= 2;
  return with_runs({wx, 1, wx - overhang, 12}, patch_r, channels);
}

// GPUs filter a two-channel plane's channels as planes of their own, with the one-channel shape
// (nlmeans.cl's PLANAR): a work-group per channel where the destination is a byte buffer, else
// (images) a work-group's two channels in turn, but only spatially (with t > 0 that made the
// work-groups long and the chroma kernel's last round half empty). H100, 1080p NV12 p=7 r=15,
// frames in flight: channels in turn 0.523 -> 0.493 ms (4K 2.020 -> 1.872); t=1 1.688 -> 1.757.
Shape plane_shape(const Device& device, bool cpu, int patch_r, int channels, bool temporal, bool dst_image) {
  if (!cpu && channels == 2 && !(temporal && dst_image)) {
    Shape s = shape_for(device, cpu, patch_r, 1);
    if (s.segs) {
      s.planar = dst_image ? 1 : 2;
      return s;
    }
  }
  return shape_for(device, cpu, patch_r, channels);
}

[[noreturn]] void invalid(const std::string& message) { throw Error(CLVF_ERROR_INVALID_ARGUMENT, message); }

void check_window(const char* name, int v, bool zero_allowed) {
  if (zero_allowed && v == 0) return;
  if (v < 1 || v > CLVF_MAX_WINDOW || v % 2 == 0)
    invalid(fmt::format("denoise: {} is {}; allowed: odd sizes 1 to {}{}", name, v, CLVF_MAX_WINDOW,
                        zero_allowed ? " (0: as for luma)" : ""));
}

void check_strength(const char* name, double v, bool zero_allowed) {
  if (zero_allowed && v == 0) return;
  if (!std::isfinite(v) || v < 1 || v > CLVF_MAX_STRENGTH)
    invalid(fmt::format("denoise: {} is {}; allowed: 1 to {}{}", name, v, CLVF_MAX_STRENGTH,
                        zero_allowed ? " (0: as for luma)" : ""));
}

// Local memory a work-group needs: the source tile with its halo, the column sums, the results.
// (The arrays of nlmeans.cl.)
size_t local_bytes(Shape shape, int patch_r, int search_r, int channels, bool temporal) {
  if (shape.planar) channels = 1;
  const size_t vcols = (shape.lanes + 2 * patch_r * channels + shape.vec - 1) / shape.vec * shape.vec;
  const size_t tile_w = vcols + 2 * search_r * channels;
  const size_t tile_pitch = shape.float_sums ? (tile_w + 31) / 32 * 32 + 1 : tile_w;
  const size_t tile = (shape.rows + 2 * (patch_r + search_r)) * tile_pitch * (shape.float_sums ? sizeof(float) : 1);
  const size_t vsum_pitch = shape.segs ? (vcols + 31) / 32 * 32 + 1 : vcols;
  // (With float sums the results reuse the sums' memory.)
  const size_t results = shape.float_sums ? 0 : sizeof(float) * shape.rows * shape.lanes;
  const size_t first_channel = shape.planar == 1 ? size_t(shape.rows) * shape.lanes : 0;
  return tile * (temporal ? 2 : 1) + sizeof(int) * shape.rows * vsum_pitch + results + first_channel;
}

}  // namespace

void validate_denoise_params(const clvf_denoise_params& p) {
  check_version("denoise", p.version);
  check_format("denoise", raw(p.format));
  check_size("denoise", "width", p.width);
  check_size("denoise", "height", p.height);
  check_strength("strength (s)", p.strength, false);
  check_strength("chroma strength (sc)", p.strength_chroma, true);
  check_window("patch size (p)", p.patch_size, false);
  check_window("chroma patch size (pc)", p.patch_size_chroma, true);
  check_window("research size (r)", p.research_size, false);
  check_window("chroma research size (rc)", p.research_size_chroma, true);
  if (p.planes > 0xf) invalid(fmt::format("denoise: planes is {:#x}; allowed: a mask of bits 0 to 3", p.planes));
  if (p.temporal_radius < 0 || p.temporal_radius > CLVF_MAX_TEMPORAL_RADIUS)
    invalid(fmt::format("denoise: temporal radius (t) is {}; allowed: 0 (spatial) to {}", p.temporal_radius,
                        CLVF_MAX_TEMPORAL_RADIUS));
  const int weighting = raw(p.weighting);
  if (weighting < CLVF_WEIGHT_WELSCH || weighting > CLVF_WEIGHT_BISQUARE_C)
    invalid(fmt::format("denoise: weighting (wmode) is {}; allowed: 0 welsch, 1 bisquare-a, 2 bisquare-b, 3 bisquare-c",
                        weighting));
  check_storages("denoise", raw(p.src_storage), raw(p.dst_storage));
}

Denoise::Denoise(std::shared_ptr<Device> device, const clvf_denoise_params& params)
    : device_(std::move(device)), params_(params), radius_(params.temporal_radius) {
  validate_denoise_params(params_);
  check_image_support("denoise", *device_, params_.format, params_.src_storage, params_.dst_storage);
  const auto geometry = planes_of(params_.format, params_.width, params_.height);
  const bool src_image = kernel_storage(*device_, params_.src_storage) == CLVF_STORAGE_CL_IMAGE;
  const bool dst_image = kernel_storage(*device_, params_.dst_storage) == CLVF_STORAGE_CL_IMAGE;
  const std::string source = std::string(kernels::source("plane.h")) + std::string(kernels::source("nlmeans.cl"));
  const size_t local_limit = device_->device().getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
  // (Oclgrind calls itself a CPU and a GPU: it gets, and checks, the GPU shape.)
  const cl_device_type type = device_->device().getInfo<CL_DEVICE_TYPE>();
  const bool cpu = (type & CL_DEVICE_TYPE_CPU) && !(type & CL_DEVICE_TYPE_GPU);
  // Weights' exp2 (nlmeans.cl's NATIVE_EXP2): a polynomial on CPUs, NVIDIA's flushing ex2 through
  // its OpenCL's inline PTX (native_exp2 there adds instructions around it), else native_exp2.
  const cl::Platform platform(device_->device().getInfo<CL_DEVICE_PLATFORM>());
  int exp2_form = cpu ? 0 : platform.getInfo<CL_PLATFORM_NAME>() == "NVIDIA CUDA" ? 2 : 1;
  const bool temporal = radius_ > 0;
  for (size_t i = 0; i < geometry.size(); ++i) {
    const PlaneGeometry& g = geometry[i];
    const bool chroma = i > 0;
    const double s = chroma && params_.strength_chroma ? params_.strength_chroma : params_.strength;
    const int patch = chroma && params_.patch_size_chroma ? params_.patch_size_chroma : params_.patch_size;
    const int research = chroma && params_.research_size_chroma ? params_.research_size_chroma : params_.research_size;
    // A plane left out is copied: a research window of one pixel has no candidates.
    const bool filtered = params_.planes & (chroma && g.channels == 2 ? 0x6u : 1u << i);
    const int patch_r = filtered ? patch / 2 : 0, search_r = filtered ? research / 2 : 0;
    Shape shape = plane_shape(*device_, cpu, patch_r, g.channels, temporal, dst_image);
    // Float tiles take four times the memory of bytes: where they do not fit, bytes.
    Shape float_tiles = shape;
    float_tiles.float_sums = true;
    shape.float_sums = float_sums_exact(shape, cpu, patch_r) &&
                       local_bytes(float_tiles, patch_r, search_r, g.channels, temporal) <= local_limit;
    const size_t need = local_bytes(shape, patch_r, search_r, g.channels, temporal);
    if (need > local_limit)
      throw Error(CLVF_ERROR_UNSUPPORTED,
                  fmt::format("denoise: patch size {} with research size {} needs {} bytes of local memory; device {} "
                              "has {}. Use smaller sizes",
                              patch, research, need, device_->name(), local_limit));
    // FFmpeg's nlmeans: h = 10 s; weights below 1/255 are dropped (ssd at or above max_ssd).
    // Bisquare weights reach 0 by themselves.
    const double h = 10.0 * s;
    const bool welsch = params_.weighting == CLVF_WEIGHT_WELSCH;
    const double k = 1.0 / (std::log(2.0) * h * h);  // ssd to -log2 of the Welsch weight
    const int max_ssd = welsch ? static_cast<int>(std::log(255.0) * h * h) : INT32_MAX;
    // nlmeans.cl's FTZ_CUTOFF where half a unit of ssd, k / 2, is at least 2^-15 in the exp2's
    // argument (about -126 there): four times its rounding, about 8e-6 (the bias's, the multiply-add's,
    // the exp2's). That holds up to s = 15. Only with the output pass's runs, whose loop counts the
    // centre with the same scale (a shape override without runs adds it with weight 1).
    const bool cutoff_fits = welsch && k >= 0x1p-14 && shape.segs;
    const auto cutoff = [&] { return exp2_form == 2 && cutoff_fits; };  // (exp2_form may fall back below)
    // Offsets per candidate column read (nlmeans.cl's OY_STEP): 5, but 4 for interleaved
    // two-channel planes with t > 0, whose kernel then needs 127 registers instead of 157 (ptxas,
    // H100), 4 work-groups a multiprocessor instead of 3.
    const auto options = [&](bool src_img, bool dst_img, int pr, int sr, bool ring, Shape sh) {
      return fmt::format(
          "-cl-std=CL1.2 -DCHANNELS={} -DSRC_IMAGE={} -DDST_IMAGE={} -DPATCH_R={} -DSEARCH_R={} -DWX={} -DVEC={} "
          "-DTH={} -DTW={} -DTEMPORAL={} -DWEIGHTING={} -DSEGS={} -DSEG_L={} -DNATIVE_EXP2={} -DFLOAT_SUMS={} "
          "-DFTZ_CUTOFF={} -DOY_STEP={} -DPLANAR={} -DMAX_FRAMES={}",
          g.channels, int(src_img), int(dst_img), pr, sr, sh.wx, sh.vec, sh.rows, sh.lanes, int(ring),
          int(params_.weighting), sh.segs, sh.segs ? sh.lanes / sh.segs : 0, exp2_form, int(sh.float_sums),
          int(cutoff()), ring && g.channels == 2 && !sh.planar ? 4 : 5, sh.planar, RingOffsets::kFrames);
    };
    // Temporal: the kernel reads the ring (a buffer), and a copy (no candidates) fills it.
    const bool reads_image = src_image && !temporal;
    Plane pl;
    const auto nlmeans = [&] {
      return device_->kernel(source, options(reads_image, dst_image, patch_r, search_r, temporal, shape), "nlmeans");
    };
    try {
      pl.kernel = nlmeans();
    } catch (const Error& e) {
      if (exp2_form != 2) throw;
      log(CLVF_LOG_WARNING, "denoise: the kernel with inline PTX did not build ({}); using native_exp2", e.what());
      exp2_form = 1;
      pl.kernel = nlmeans();
    }
    // With the cutoff, weights (the centre's too) are scaled by 2^bias: ssd = max_ssd - 1/2 at 2^-126.
    const float bias = cutoff() ? static_cast<float>(-126.0 + (max_ssd - 0.5) * k) : 0.0f;
    const auto set_plane_args = [&](Kernel& kernel) {
      kernel.set("width", g.width);
      kernel.set("height", g.height);
      kernel.set("weight_scale", static_cast<float>(welsch ? -k : 1.0 / (h * h)));
      kernel.set("weight_bias", bias);
      kernel.set("max_ssd", max_ssd);
    };
    set_plane_args(pl.kernel);
    if (temporal) {
      const size_t row = size_t(g.width) * g.channels, bytes = row * g.height;
      if (bytes * (2 * radius_ + 1) > size_t(INT32_MAX))
        invalid(fmt::format("denoise: {} frames of {}x{} for temporal radius {} exceed 2 GiB", 2 * radius_ + 1,
                            params_.width, params_.height, radius_));
      pl.slot_bytes = static_cast<int>(bytes);
      pl.pitch = static_cast<int>(row);
      pl.ring = scratch_buffer(*device_, CL_MEM_READ_WRITE, bytes * (2 * radius_ + 1));
      pl.kernel.set("src", pl.ring);
      pl.kernel.set("src_offset", 0);
      pl.kernel.set("src_pitch", pl.pitch);
      const Shape copy_shape = shape_for(*device_, cpu, 0, g.channels);
      pl.copy = device_->kernel(source, options(src_image, false, 0, 0, false, copy_shape), "nlmeans");
      pl.copy.set("dst", pl.ring);  // dst_offset: the frame's slot, at send
      pl.copy.set("dst_pitch", pl.pitch);
      set_plane_args(pl.copy);
      const size_t copy_groups = (size_t(g.width) * g.channels + copy_shape.lanes - 1) / copy_shape.lanes;
      pl.copy_global = cl::NDRange(copy_groups * copy_shape.wx, (size_t(g.height) + copy_shape.rows - 1) / copy_shape.rows);
      pl.copy_local = cl::NDRange(copy_shape.wx, 1);
    }
    pl.filtered = filtered;
    const size_t lanes = size_t(g.width) * (shape.planar ? 1 : g.channels);
    const size_t groups = (lanes + shape.lanes - 1) / shape.lanes;
    const size_t row_groups = (size_t(g.height) + shape.rows - 1) / shape.rows;
    pl.global = shape.planar == 2 ? cl::NDRange(groups * shape.wx, row_groups, 2) : cl::NDRange(groups * shape.wx, row_groups);
    pl.local = shape.planar == 2 ? cl::NDRange(shape.wx, 1, 1) : cl::NDRange(shape.wx, 1);
    pl.name = fmt::format("nlmeans plane {}{}", i, filtered ? "" : " (copy)");
    pl.copy_name = fmt::format("ring copy plane {}", i);
    planes_.push_back(std::move(pl));
  }
  copied_.reserve(1);
  // Staging for each frame in flight (a temporal source that starts no output is copied to the
  // ring through slot 0).
  const int slots = FramePipeline::kDepth;
  src_.emplace(*device_, params_.src_storage, plane_shapes(geometry), "source", false, slots);
  dst_.emplace(*device_, params_.dst_storage, plane_shapes(geometry), "destination", true, slots);
}

void Denoise::process(const clvf_frame& src, const clvf_frame& dst) {
  if (radius_ > 0)
    invalid(fmt::format("denoise: with temporal radius {}, frames go through send and receive", radius_));
  pipeline_.run(*device_, profile_, &*src_, &*dst_, src, dst, planes_.size(),
                [&](size_t i, const cl::CommandQueue& q) { enqueue_spatial(i, q, src, dst); });
}

void Denoise::enqueue_spatial(size_t i, const cl::CommandQueue& q, const clvf_frame& src, const clvf_frame& dst) {
  Plane& pl = planes_[i];
  src_->set_args(pl.kernel, "src", src, i);
  dst_->set_args(pl.kernel, "dst", dst, i);
  q.enqueueNDRangeKernel(pl.kernel.get(), cl::NullRange, pl.global, pl.local, nullptr,
                         profile_.track(device_->profiling(), pl.name));
}

bool Denoise::take(const clvf_frame* src) {
  if (!src) return ended_ = true, false;  // the end given again is the same end
  if (ended_ && received_ == sent_) ended_ = false, sent_ = received_ = 0;  // a new stream
  if (ended_) invalid("denoise: a frame sent after the end of the stream while outputs are still to be received");
  return true;
}

bool Denoise::output_ready(bool sending) const {
  const int64_t sent = sent_ + sending;
  return received_ < sent && (ended_ || sent > received_ + radius_);
}

void Denoise::check_ring_room() const {
  if (sent_ - received_ > radius_)
    invalid(fmt::format("denoise: {} frames are waiting; receive before sending more", sent_ - received_));
}

void Denoise::enqueue_ring_copy(size_t i, const cl::CommandQueue& q, const clvf_frame& src, int64_t frame) {
  Plane& pl = planes_[i];
  src_->set_args(pl.copy, "src", src, i);
  pl.copy.set("dst_offset", static_cast<int>(frame % (2 * radius_ + 1)) * pl.slot_bytes);
  q.enqueueNDRangeKernel(pl.copy.get(), cl::NullRange, pl.copy_global, pl.copy_local, nullptr,
                         profile_.track(device_->profiling(), pl.copy_name));
}

void Denoise::copy_to_ring(const clvf_frame& src, const std::vector<cl::Event>& wait) {
  check_ring_room();
  // A source in host memory (or a staged image) goes through staging slot 0 (or is wrapped in
  // place): the previous copy, or frame in flight, must have read it first.
  const bool staged_source = params_.src_storage == CLVF_STORAGE_HOST || src_->images_staged();
  if (staged_source && !copied_.empty()) cl::Event::waitForEvents(copied_);
  cl::Event done = pipeline_.enqueue(*device_, profile_, &*src_, nullptr, src, src, planes_.size(),
                                     [&](size_t i, const cl::CommandQueue& q) { enqueue_ring_copy(i, q, src, sent_); },
                                     wait);
  copied_.clear();  // emptied by destruction (see submit_frame)
  copied_.push_back(std::move(done));
  ++sent_;
}

void Denoise::send(const clvf_frame* src) {
  if (!take(src)) return;
  if (radius_ == 0) {
    if (pending_) invalid("denoise: send before the previous frame's output was received");
    src_->validate(*src);  // checked now; used at receive
    pending_ = *src;
    ++sent_;
    return;
  }
  copy_to_ring(*src, {});
  cl::Event::waitForEvents(copied_);  // in the ring before send returns
}

bool Denoise::receive(const clvf_frame& dst) {
  if (!output_ready()) return false;
  if (radius_ == 0) {
    const clvf_frame src = *pending_;
    pending_.reset();
    ++received_;
    process(src, dst);
    return true;
  }
  submit_temporal(dst, nullptr, {});
  complete();
  return true;
}

bool Denoise::submit(const clvf_frame* src, const clvf_frame& dst, const std::vector<cl::Event>& wait) {
  pipeline_.check_room();  // refused whether or not this frame would start an output
  if (radius_ == 0) {
    if (!src) return false;
    if (pending_) invalid("denoise: submit while a frame sent is still to be received");
    pipeline_.submit(*device_, profile_, &*src_, &*dst_, *src, dst, planes_.size(),
                     [&](size_t i, const cl::CommandQueue& q) { enqueue_spatial(i, q, *src, dst); }, &wait);
    return true;
  }
  const bool frame = take(src);
  if (frame) check_ring_room();
  if (!output_ready(frame)) {
    if (frame) {
      copy_to_ring(*src, wait);
      cl::Event::waitForEvents(copied_);  // the caller may reuse the source on return
    }
    return false;
  }
  submit_temporal(dst, frame ? src : nullptr, wait);
  return true;
}

void Denoise::complete() { pipeline_.complete(&*dst_, profile_); }

void Denoise::submit_temporal(const clvf_frame& dst, const clvf_frame* src, const std::vector<cl::Event>& wait) {
  // With a source, each plane's step copies it into the ring first, on the queue of the plane's
  // kernel (one wait between the queues a frame, not one for the copy and one for the kernel).
  const int64_t frame = received_, newest = sent_, known = sent_ + (src ? 1 : 0);
  // The current frame first, then its neighbours that exist (at the ends of the stream, fewer),
  // in order of time.
  const int slots = 2 * radius_ + 1;
  std::array<int64_t, 2 * CLVF_MAX_TEMPORAL_RADIUS + 1> frame_list;
  size_t count = 0;
  frame_list[count++] = frame;
  for (int64_t n = frame - radius_; n <= frame + radius_; ++n)
    if (n != frame && n >= 0 && n < known) frame_list[count++] = n;
  const std::span<const int64_t> frames(frame_list.data(), count);
  const bool timed = device_->profiling();
  pipeline_.submit(*device_, profile_, src ? &*src_ : nullptr, &*dst_, src ? *src : dst, dst, planes_.size(),
                   [&](size_t i, const cl::CommandQueue& q) {
    if (src) enqueue_ring_copy(i, q, *src, newest);
    Plane& pl = planes_[i];
    RingOffsets offsets{};
    for (size_t f = 0; f < frames.size(); ++f) offsets.at[f] = static_cast<cl_int>(frames[f] % slots) * pl.slot_bytes;
    pl.kernel.set("frame_offsets", offsets);
    pl.kernel.set("frames", pl.filtered ? static_cast<int>(frames.size()) : 1);
    dst_->set_args(pl.kernel, "dst", dst, i);
    q.enqueueNDRangeKernel(pl.kernel.get(), cl::NullRange, pl.global, pl.local, nullptr, profile_.track(timed, pl.name));
  }, &wait);
  ++received_;
  if (src) {  // a later copy_to_ring of a host source waits for this frame's upload (see there)
    ++sent_;
    copied_.clear();
    copied_.push_back(pipeline_.newest_done().front());
  }
}

}  // namespace clvf::detail
