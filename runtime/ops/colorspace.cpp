#include "runtime/ops/colorspace.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "runtime/error.hpp"
#include "runtime/kernels.hpp"
#include "runtime/ops/frame_format.hpp"
#include "runtime/ops/frame_run.hpp"

namespace clvf {
namespace {

constexpr const char* kOp = "colorspace";

[[noreturn]] void invalid(const std::string& message) { throw Error(CLVF_ERROR_INVALID_ARGUMENT, message); }

void check_coding(const PixelFormat& f, clvf_matrix matrix, clvf_range range, const char* side) {
  if (!f.rgb && !*matrix_name(matrix))
    invalid(fmt::format("{}: {} matrix {} is not known; allowed: {}", kOp, side, static_cast<int>(matrix), kMatrixNames));
  if (!*range_name(range))
    invalid(fmt::format("{}: {} range {} is not known; allowed: tv, pc", kOp, side, static_cast<int>(range)));
  if (f.rgb && range != CLVF_RANGE_PC)
    invalid(fmt::format("{}: {} format {} is full range: its range must be pc", kOp, side, f.name));
}

// Components 0-2 that the outputs `outputs` (component indices) read, given the map.
std::array<bool, 3> needed(const Affine& a, std::initializer_list<int> outputs) {
  std::array<bool, 3> need{};
  for (int k : outputs)
    for (int j = 0; j < 3; ++j) need[j] = need[j] || a[k][j] != 0.0;
  return need;
}

// "q.s0"-style names of the output components a plane's channels hold.
std::vector<std::string> channel_values(const PixelFormat& f, size_t plane, bool image) {
  std::vector<std::string> values(f.planes[plane].channels);
  for (int k = 0; k < 4; ++k) {
    const Component& c = f.components[k];
    if (c.plane != static_cast<int>(plane)) continue;
    // An image of CL_BGRA takes and gives R, G, B, A in that order, as CL_RGBA does.
    values[image && f.rgb ? k : c.channel] = fmt::format("q.s{}", k);
  }
  return values;
}

std::string store_statements(const PixelFormat& f, bool image, int sub) {
  std::string s;
  for (size_t p = 0; p < f.planes.size(); ++p) {
    if (f.planes[p].sub_x != sub) continue;
    auto v = channel_values(f, p, image);
    if (image) {
      while (v.size() < 4) v.push_back("0.0f");
      s += fmt::format("STORE_IMAGE(out{}, x, y, (float4)({}, {}, {}, {})); ", p, v[0], v[1], v[2], v[3]);
    } else if (v.size() == 1) {
      s += fmt::format("STORE1({}, x, y, {}); ", p, v[0]);
    } else {
      s += fmt::format("STORE{}({}, x, y, (float{})({})); ", v.size(), p, v.size(), fmt::join(v, ", "));
    }
  }
  return s;
}

}  // namespace

void validate_colorspace_params(const clvf_colorspace_params& p) {
  check_version(kOp, p.version);
  check_size(kOp, "width", p.width);
  check_size(kOp, "height", p.height);
  const PixelFormat& src = check_any_format(kOp, "source format", p.src_format);
  const PixelFormat& dst = check_any_format(kOp, "destination format", p.dst_format);
  check_coding(src, p.src_matrix, p.src_range, "source");
  check_coding(dst, p.dst_matrix, p.dst_range, "destination");
  check_chroma_location(kOp, p.chroma_location);
  validate_resample_filter(kOp, p.chroma_filter, p.param_b, p.param_c, p.taps);
  if (p.dither != CLVF_DITHER_AUTO && p.dither != CLVF_DITHER_NONE && p.dither != CLVF_DITHER_ORDERED)
    invalid(fmt::format("{}: dither {} is not known; allowed: auto, none, ordered", kOp, static_cast<int>(p.dither)));
  check_storages(kOp, p.src_storage, p.dst_storage);
}

Colorspace::Colorspace(std::shared_ptr<Device> device, const clvf_colorspace_params& params)
    : device_(std::move(device)), params_(params) {
  validate_colorspace_params(params_);
  src_format_ = find_pixel_format(params_.src_format);
  dst_format_ = find_pixel_format(params_.dst_format);
  check_image_support(kOp, *device_, params_.src_format, params_.src_storage);
  check_image_support(kOp, *device_, params_.dst_format, params_.dst_storage);
  affine_ = colour_affine({src_format_, params_.src_matrix, params_.src_range},
                          {dst_format_, params_.dst_matrix, params_.dst_range});
  dither_ = params_.dither == CLVF_DITHER_ORDERED ||
            (params_.dither == CLVF_DITHER_AUTO && dst_format_->depth < src_format_->depth);

  const int w = params_.width, h = params_.height, cw = (w + 1) / 2, ch = (h + 1) / 2;
  const ResampleFilter filter{params_.chroma_filter, params_.param_b, params_.param_c, params_.taps};
  const double sx = chroma_siting_x(params_.chroma_location), sy = chroma_siting_y(params_.chroma_location);
  const ResampleTable up_h = build_resample_table(filter, {cw, w, 1.0, 2, 1, sx, 0.0});
  const ResampleTable up_v = build_resample_table(filter, {ch, h, 1.0, 2, 1, sy, 0.0});
  const ResampleTable down_h = build_resample_table(filter, {w, cw, 1.0, 1, 2, 0.0, sx});
  const ResampleTable down_v = build_resample_table(filter, {h, ch, 1.0, 1, 2, 0.0, sy});

  const bool src_sub = src_format_->subsampled(), dst_sub = dst_format_->subsampled();
  const auto luma_need = dst_sub ? needed(affine_, {0}) : needed(affine_, {0, 1, 2});
  const bool luma_up = src_sub && (luma_need[1] || luma_need[2]);
  const bool chroma_down = dst_sub && !src_sub;
  if (dst_sub && src_sub && needed(affine_, {1, 2})[0])
    throw Error(CLVF_ERROR_INTERNAL, "colorspace: 4:2:0 chroma depends on luma");

  cl_float16 m{};
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 4; ++j) m.s[4 * k + j] = static_cast<float>(affine_[k][j]);
  no_table_ = cl::Buffer(device_->context(), CL_MEM_READ_ONLY, 16);
  const cl_uint plane_args = params_.src_storage == CLVF_STORAGE_CL_IMAGE ? 1 : 3;
  const cl_uint out_args = params_.dst_storage == CLVF_STORAGE_CL_IMAGE ? 1 : 3;
  const cl_uint first_static = 3 * plane_args + 3 * out_args;
  const auto add_pass = [&](const char* kernel, const std::string& source, cl::NDRange range,
                            const ResampleTable* th, const ResampleTable* tv) {
    Pass pass;
    pass.kernel = cl::Kernel(device_->program(source, "-cl-std=CL1.2"), kernel);
    pass.range = range;
    if (th) pass.h = upload_table(device_->context(), *th), pass.v = upload_table(device_->context(), *tv);
    pass.kernel.setArg(first_static, m);
    pass.kernel.setArg(first_static + 1, th ? pass.h.offsets : no_table_);
    pass.kernel.setArg(first_static + 2, th ? pass.h.weights : no_table_);
    pass.kernel.setArg(first_static + 3, th ? pass.v.offsets : no_table_);
    pass.kernel.setArg(first_static + 4, th ? pass.v.weights : no_table_);
    pass.name = kernel;
    passes_.push_back(std::move(pass));
  };
  add_pass("colour_luma", variant_source(luma_up, false, &up_h, &up_v, nullptr, nullptr), cl::NDRange(w, h),
           luma_up ? &up_h : nullptr, &up_v);
  if (dst_sub)
    add_pass("colour_chroma", variant_source(false, chroma_down, nullptr, nullptr, &down_h, &down_v),
             cl::NDRange(cw, ch), chroma_down ? &down_h : nullptr, &down_v);

  const bool zero_copy = device_->zero_copy_host();
  src_.emplace(device_->context(), params_.src_storage, plane_shapes(planes_of(params_.src_format, w, h)), "source",
               zero_copy, false);
  dst_.emplace(device_->context(), params_.dst_storage, plane_shapes(planes_of(params_.dst_format, w, h)),
               "destination", zero_copy, true);
}

std::string Colorspace::variant_source(bool luma_up, bool chroma_down, const ResampleTable* up_h,
                                       const ResampleTable* up_v, const ResampleTable* down_h,
                                       const ResampleTable* down_v) const {
  const PixelFormat& in = *src_format_;
  const PixelFormat& out = *dst_format_;
  const bool in_image = params_.src_storage == CLVF_STORAGE_CL_IMAGE;
  const bool out_image = params_.dst_storage == CLVF_STORAGE_CL_IMAGE;
  std::string d;
  const auto define = [&](const std::string& name, const auto& value) { d += fmt::format("#define {} {}\n", name, value); };
  define("IN_IMAGE", int(in_image));
  define("OUT_IMAGE", int(out_image));
  define("IN_BYTES", in.bytes);
  define("OUT_BYTES", out.bytes);
  define("IN_SHIFT", in.shift);
  define("OUT_SHIFT", out.shift);
  define("OUT_MAX", out.max_value());
  define("ALPHA", fmt::format("{}.0f", out.max_value()));
  define("DITHER", int(dither_));
  const bool alpha = in.components[3].plane >= 0 && out.components[3].plane >= 0;
  for (int k = 0; k < (alpha ? 4 : 3); ++k) {
    const Component& c = in.components[k];
    const int channels = in.planes[c.plane].channels;
    if (in_image)
      define(fmt::format("READ{}(x, y)", k), fmt::format("read_image_channel(in{}, (x), (y), {})", c.plane, in.rgb ? k : c.channel));
    else
      define(fmt::format("READ{}(x, y)", k),
             fmt::format("read_buffer(in{0}, in{0}_off, in{0}_pitch, (x) * {1} + {2}, (y))", c.plane, channels, c.channel));
  }
  const bool dst_sub = out.subsampled();
  const auto luma_need = dst_sub ? needed(affine_, {0}) : needed(affine_, {0, 1, 2});
  const auto chroma_need = needed(affine_, {1, 2});
  for (int j = 0; j < 3; ++j) {
    define(fmt::format("LUMA_NEED{}", j), int(luma_need[j]));
    define(fmt::format("CHROMA_NEED{}", j), int(chroma_need[j]));
  }
  define("LUMA_UP", int(luma_up));
  define("CHROMA_DOWN", int(chroma_down));
  const ResampleTable* th = luma_up ? up_h : chroma_down ? down_h : nullptr;
  const ResampleTable* tv = luma_up ? up_v : chroma_down ? down_v : nullptr;
  define("TAPS_H", th ? th->stride : 1);
  define("TAPS_V", tv ? tv->stride : 1);
  define("STORE_LUMA(x, y, q)", store_statements(out, out_image, 1));
  define("STORE_CHROMA(x, y, q)", dst_sub ? store_statements(out, out_image, 2) : std::string());
  return d + std::string(kernels::source("colour.cl"));
}

void Colorspace::process(const clvf_frame& src, const clvf_frame& dst) {
  const auto& q = device_->queue();
  const bool timed = device_->profiling();
  const size_t src_planes = src_format_->planes.size(), dst_planes = dst_format_->planes.size();
  run_frame(*device_, profile_, &*src_, &*dst_, src, dst, passes_.size(), [&](size_t i) {
    Pass& pass = passes_[i];
    cl_uint arg = 0;
    for (size_t p = 0; p < 3; ++p) arg = src_->set_args(pass.kernel, arg, src, std::min(p, src_planes - 1));
    for (size_t p = 0; p < 3; ++p) arg = dst_->set_args(pass.kernel, arg, dst, std::min(p, dst_planes - 1));
    q.enqueueNDRangeKernel(pass.kernel, cl::NullRange, pass.range, cl::NullRange, nullptr,
                           profile_.track(timed, pass.name));
  });
}

}  // namespace clvf
