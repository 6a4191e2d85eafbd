#include "runtime/ops/denoise.hpp"

#include <fmt/format.h>

#include <cmath>

#include "runtime/error.hpp"
#include "runtime/kernels.hpp"
#include "runtime/ops/frame_format.hpp"
#include "runtime/ops/frame_run.hpp"

namespace clvf {
namespace {

constexpr int kMaxWindow = 99;
constexpr int kTileRows = 16;

// A work-group covers `lanes` lanes with WX work-items: CPU devices give each work-item a 16-lane
// vector (their compilers do not vectorise these loops across work-items); on GPUs each
// work-item has one lane and the work-group is as wide as the tile plus the patch's overhang, so
// that the column pass takes one round.
struct Shape {
  int wx, vec, lanes;
};

Shape shape_for(bool cpu, int patch_r, int channels) {
  if (cpu) return {4, 16, 64};
  const int overhang = 2 * patch_r * channels;
  int wx = 64;
  while (wx - overhang < 32 && wx < 256) wx *= 2;
  return {wx, 1, (wx - overhang) / channels * channels};
}

[[noreturn]] void invalid(const std::string& message) { throw Error(CLVF_ERROR_INVALID_ARGUMENT, message); }

void check_window(const char* name, int v, bool zero_allowed) {
  if (zero_allowed && v == 0) return;
  if (v < 1 || v > kMaxWindow || v % 2 == 0)
    invalid(fmt::format("denoise: {} is {}; allowed: odd sizes 1 to {}{}", name, v, kMaxWindow,
                        zero_allowed ? " (0: as for luma)" : ""));
}

void check_strength(const char* name, double v, bool zero_allowed) {
  if (zero_allowed && v == 0) return;
  if (!std::isfinite(v) || v < 1 || v > 30)
    invalid(fmt::format("denoise: {} is {}; allowed: 1 to 30{}", name, v, zero_allowed ? " (0: as for luma)" : ""));
}

// Local memory a work-group needs: the source tile with its halo, the column sums, the results.
// (The arrays of nlmeans.cl.)
size_t local_bytes(Shape shape, int patch_r, int search_r, int channels) {
  const size_t vcols = (shape.lanes + 2 * patch_r * channels + shape.vec - 1) / shape.vec * shape.vec;
  const size_t tile = (kTileRows + 2 * (patch_r + search_r)) * (vcols + 2 * search_r * channels);
  return tile + sizeof(int) * kTileRows * vcols + sizeof(float) * kTileRows * shape.lanes;
}

}  // namespace

void validate_denoise_params(const clvf_denoise_params& p) {
  if (p.version != CLVF_API_VERSION)
    invalid(fmt::format("denoise: params.version is {}, this library speaks version {}", p.version, CLVF_API_VERSION));
  check_format("denoise", p.format);
  check_size("denoise", "width", p.width);
  check_size("denoise", "height", p.height);
  check_strength("strength (s)", p.strength, false);
  check_strength("chroma strength (sc)", p.strength_chroma, true);
  check_window("patch size (p)", p.patch_size, false);
  check_window("chroma patch size (pc)", p.patch_size_chroma, true);
  check_window("research size (r)", p.research_size, false);
  check_window("chroma research size (rc)", p.research_size_chroma, true);
  if (p.planes > 0xf) invalid(fmt::format("denoise: planes is {:#x}; allowed: a mask of bits 0 to 3", p.planes));
  check_storages("denoise", p.src_storage, p.dst_storage);
}

Denoise::Denoise(std::shared_ptr<Device> device, const clvf_denoise_params& params)
    : device_(std::move(device)), params_(params) {
  validate_denoise_params(params_);
  check_image_support("denoise", *device_, params_.format, params_.src_storage, params_.dst_storage);
  const auto geometry = planes_of(params_.format, params_.width, params_.height);
  const bool src_image = params_.src_storage == CLVF_STORAGE_CL_IMAGE;
  const bool dst_image = params_.dst_storage == CLVF_STORAGE_CL_IMAGE;
  const std::string source = std::string(kernels::source("plane.h")) + std::string(kernels::source("nlmeans.cl"));
  const size_t local_limit = device_->device().getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
  // (Oclgrind calls itself a CPU and a GPU: it gets, and checks, the GPU shape.)
  const cl_device_type type = device_->device().getInfo<CL_DEVICE_TYPE>();
  const bool cpu = (type & CL_DEVICE_TYPE_CPU) && !(type & CL_DEVICE_TYPE_GPU);
  for (size_t i = 0; i < geometry.size(); ++i) {
    const PlaneGeometry& g = geometry[i];
    const bool chroma = i > 0;
    const double s = chroma && params_.strength_chroma ? params_.strength_chroma : params_.strength;
    const int patch = chroma && params_.patch_size_chroma ? params_.patch_size_chroma : params_.patch_size;
    const int research = chroma && params_.research_size_chroma ? params_.research_size_chroma : params_.research_size;
    // A plane left out is copied: a research window of one pixel has no candidates.
    const bool filtered = params_.planes & (chroma && g.channels == 2 ? 0x6u : 1u << i);
    const int patch_r = filtered ? patch / 2 : 0, search_r = filtered ? research / 2 : 0;
    const Shape shape = shape_for(cpu, patch_r, g.channels);
    const size_t need = local_bytes(shape, patch_r, search_r, g.channels);
    if (need > local_limit)
      throw Error(CLVF_ERROR_UNSUPPORTED,
                  fmt::format("denoise: patch size {} with research size {} needs {} bytes of local memory; device {} "
                              "has {}. Use smaller sizes",
                              patch, research, need, device_->name(), local_limit));
    const std::string options =
        fmt::format("-cl-std=CL1.2 -DCHANNELS={} -DSRC_IMAGE={} -DDST_IMAGE={} -DPATCH_R={} -DSEARCH_R={} -DWX={} -DVEC={} -DTH={} -DTW={}",
                    g.channels, int(src_image), int(dst_image), patch_r, search_r, shape.wx, shape.vec, kTileRows,
                    shape.lanes);
    Plane pl;
    pl.kernel = cl::Kernel(device_->program(source, options), "nlmeans");
    // FFmpeg's nlmeans: h = 10 s; weights below 1/255 are dropped (ssd at or above max_ssd).
    const double h = 10.0 * s;
    const cl_uint first = (src_image ? 1 : 3) + (dst_image ? 1 : 3);
    pl.kernel.setArg(first, g.width);
    pl.kernel.setArg(first + 1, g.height);
    pl.kernel.setArg(first + 2, static_cast<float>(-1.0 / (std::log(2.0) * h * h)));
    pl.kernel.setArg(first + 3, static_cast<int>(std::log(255.0) * h * h));
    const size_t lanes = size_t(g.width) * g.channels;
    const size_t groups = (lanes + shape.lanes - 1) / shape.lanes;
    pl.global = cl::NDRange(groups * shape.wx, (size_t(g.height) + kTileRows - 1) / kTileRows);
    pl.local = cl::NDRange(shape.wx, 1);
    pl.name = fmt::format("nlmeans plane {}{}", i, filtered ? "" : " (copy)");
    planes_.push_back(std::move(pl));
  }
  const bool zero_copy = device_->zero_copy_host();
  src_.emplace(device_->context(), params_.src_storage, plane_shapes(geometry), "source", zero_copy, false);
  dst_.emplace(device_->context(), params_.dst_storage, plane_shapes(geometry), "destination", zero_copy, true);
}

void Denoise::process(const clvf_frame& src, const clvf_frame& dst) {
  const auto& q = device_->queue();
  const bool timed = device_->profiling();
  run_frame(*device_, profile_, *src_, *dst_, src, dst, planes_.size(), [&](size_t i) {
    Plane& pl = planes_[i];
    const cl_uint next = src_->set_args(pl.kernel, 0, src, i);
    dst_->set_args(pl.kernel, next, dst, i);
    q.enqueueNDRangeKernel(pl.kernel, cl::NullRange, pl.global, pl.local, nullptr, profile_.track(timed, pl.name));
  });
}

}  // namespace clvf
