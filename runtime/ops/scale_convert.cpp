#include "runtime/ops/scale_convert.hpp"

#include <fmt/format.h>

#include "runtime/error.hpp"

namespace clvf::detail {

bool scale_conversion_asked(const clvf_scale_params& p) {
  return raw(p.dst_format) || raw(p.src_matrix) || raw(p.dst_matrix) || raw(p.src_range) || raw(p.dst_range) ||
         raw(p.dither);
}

bool scale_converts(const clvf_scale_params& p) {
  if (!scale_conversion_asked(p)) return false;
  // Asked for but the identity (same format, matrix and range; no forced dither): the scale
  // rounds as the conversion would, so no second pass.
  const clvf_colorspace_params c = conversion_params(p);
  return c.dst_format != c.src_format || c.dst_matrix != c.src_matrix || c.dst_range != c.src_range ||
         raw(p.dither) == CLVF_DITHER_ORDERED;
}

clvf_colorspace_params conversion_params(const clvf_scale_params& p) {
  clvf_colorspace_params c{};
  c.version = p.version;
  c.width = p.dst_width, c.height = p.dst_height;
  c.src_format = p.format;
  c.dst_format = p.dst_format ? p.dst_format : p.format;
  c.src_matrix = p.src_matrix ? p.src_matrix : CLVF_MATRIX_BT709;
  c.dst_matrix = p.dst_matrix ? p.dst_matrix : c.src_matrix;
  c.src_range = p.src_range ? p.src_range : CLVF_RANGE_TV;
  const PixelFormat* dst = find_pixel_format(c.dst_format);
  c.dst_range = p.dst_range ? p.dst_range : dst && dst->rgb ? CLVF_RANGE_PC : c.src_range;
  c.chroma_location = p.chroma_location;
  c.chroma_filter = p.algorithm, c.param_b = p.param_b, c.param_c = p.param_c, c.taps = p.taps;
  c.dither = p.dither;
  c.src_storage = CLVF_STORAGE_CL_BUFFER;
  c.dst_storage = p.dst_storage;
  return c;
}

void validate_scale_convert_params(const clvf_scale_params& p) {
  validate_scale_params(p);
  if (!scale_conversion_asked(p)) return;
  // The fields that may be 0 ("as the source") are checked before conversion_params reads them.
  const auto known_or_zero = [](int v, const char* name, bool known, const char* allowed) {
    if (v && !known)
      throw Error(CLVF_ERROR_INVALID_ARGUMENT,
                  fmt::format("scale: {} {} is not known; allowed: {} (0: as the source)", name, v, allowed));
  };
  known_or_zero(raw(p.dst_format), "destination format", find_pixel_format(raw(p.dst_format)), kPixelFormatNames);
  known_or_zero(raw(p.src_matrix), "source matrix", *matrix_name(raw(p.src_matrix)), kMatrixNames);
  known_or_zero(raw(p.dst_matrix), "destination matrix", *matrix_name(raw(p.dst_matrix)), kMatrixNames);
  known_or_zero(raw(p.src_range), "source range", *range_name(raw(p.src_range)), "tv, pc");
  known_or_zero(raw(p.dst_range), "destination range", *range_name(raw(p.dst_range)), "tv, pc");
  known_or_zero(raw(p.dither), "dither", raw(p.dither) >= 0 && raw(p.dither) <= CLVF_DITHER_ORDERED,
                "auto, none, ordered");
  validate_colorspace_params(conversion_params(p));
}

namespace {
// Everything is checked before the scale allocates anything.
const clvf_scale_params& validated(const clvf_scale_params& p) {
  validate_scale_convert_params(p);
  return p;
}
}  // namespace

ScaleConvert::ScaleConvert(std::shared_ptr<Device> device, const clvf_scale_params& params)
    : scale_(device, validated(params), scale_converts(params)) {
  if (scale_converts(params)) convert_.emplace(std::move(device), conversion_params(params), scale_.float_planes());
}

void ScaleConvert::process(const clvf_frame& src, const clvf_frame& dst) {
  submit(&src, dst, {});
  complete();
}

bool ScaleConvert::submit(const clvf_frame* src, const clvf_frame& dst, const std::vector<cl::Event>& wait) {
  if (!src) return false;
  // The conversion's kernels follow the scale's on the device's queue. A bad destination fails
  // before the scale starts.
  if (convert_) convert_->validate_destination(dst);
  scale_.submit(src, dst, wait);
  if (!convert_) return true;
  try {
    convert_->submit(src, dst, {});
  } catch (...) {
    scale_.complete();
    throw;
  }
  return true;
}

cl::Event ScaleConvert::enqueue(const clvf_frame& src, const clvf_frame& dst, const std::vector<cl::Event>& wait) {
  if (convert_) convert_->validate_destination(dst);
  cl::Event scaled = scale_.enqueue(src, dst, wait);
  if (!convert_) return scaled;
  try {
    return convert_->enqueue(src, dst, {});  // the same in-order queue: after the scale
  } catch (...) {
    scaled.wait();  // nothing may run on the caller's frames once the error returns
    throw;
  }
}

void ScaleConvert::complete() {
  scale_.complete();
  if (convert_) convert_->complete();
}

std::string ScaleConvert::profile_report() const {
  return scale_.profile_report() + (convert_ ? convert_->profile_report() : std::string());
}

}  // namespace clvf::detail
