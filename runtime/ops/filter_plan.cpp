#include "runtime/ops/filter_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <numeric>
#include <string>

#include "runtime/error.hpp"
#include "runtime/ops/colorspace.hpp"
#include "runtime/ops/pixel_format.hpp"
#include "runtime/ops/scale.hpp"

namespace clvf::detail {

namespace {

[[noreturn]] void invalid(const std::string& message) { throw Error(CLVF_ERROR_INVALID_ARGUMENT, message); }

bool is_rgb(int f) { return f == CLVF_PIX_RGBA || f == CLVF_PIX_BGRA; }
const char* name_of(int f) {
  const PixelFormat* p = find_pixel_format(f);
  return p ? p->name : "?";
}
bool given(int option) { return option != CLVF_UNSET; }

// How an untagged stream is read: BT.709 from 720 lines up, else BT.601; tv (pc for RGB); left.
clvf_matrix matrix_of(const clvf_stream& s) {
  switch (raw(s.matrix)) {
    case CLVF_MATRIX_BT709:
    case CLVF_MATRIX_BT470BG:
    case CLVF_MATRIX_SMPTE170M:
    case CLVF_MATRIX_SMPTE240M:
    case CLVF_MATRIX_BT2020_NCL:
      return s.matrix;
    default:
      return s.height >= 720 ? CLVF_MATRIX_BT709 : CLVF_MATRIX_SMPTE170M;
  }
}
clvf_range range_of(const clvf_stream& s) {
  return is_rgb(s.format) || raw(s.range) == CLVF_RANGE_PC ? CLVF_RANGE_PC : CLVF_RANGE_TV;
}
clvf_chroma_location chroma_of(const clvf_stream& s) {
  const int c = raw(s.chroma_location);
  return c == CLVF_CHROMA_CENTER || c == CLVF_CHROMA_TOPLEFT ? s.chroma_location : CLVF_CHROMA_LEFT;
}
// The tags of a converted stream: RGB has no matrix, 4:4:4 and RGB no chroma siting.
void tag(clvf_stream& s, clvf_pixel_format format, clvf_matrix matrix, clvf_range range, clvf_chroma_location loc) {
  s.format = format;
  s.matrix = is_rgb(format) ? clvf_matrix{} : matrix;
  s.range = range;
  s.chroma_location = format == CLVF_PIX_YUV444P || is_rgb(format) ? clvf_chroma_location{} : loc;
}

void check_input(const char* filter, const clvf_stream& in, std::initializer_list<clvf_pixel_format> allowed) {
  if (in.version != CLVF_API_VERSION)
    invalid(fmt::format("{}: input.version is {}, this library speaks version {}", filter, in.version,
                        CLVF_API_VERSION));
  if (in.width < 1 || in.height < 1 || in.width > CLVF_MAX_SIDE || in.height > CLVF_MAX_SIDE)
    invalid(fmt::format("{}: input size {}x{} is not allowed: each side must be 1 to {}", filter, in.width,
                        in.height, CLVF_MAX_SIDE));
  for (clvf_pixel_format f : allowed)
    if (f == raw(in.format)) return;
  std::string list;
  for (clvf_pixel_format f : allowed) list += (list.empty() ? "" : ", ") + std::string(name_of(f));
  invalid(fmt::format("{}: input format {} is not taken; it takes {} (convert first with colorspace_clvf)", filter,
                      name_of(raw(in.format)), list));
}

// An output format option: 0 (the input's) or any format but yv12.
clvf_pixel_format output_format(const char* filter, int format, const clvf_stream& in) {
  if (!format) return in.format;
  if (!find_pixel_format(format) || format == CLVF_PIX_YV12)
    invalid(fmt::format("{}: option 'format': {} is not an output format; allowed: nv12, yuv420p, p010le, "
                        "yuv444p, rgba, bgra",
                        filter, format == CLVF_PIX_YV12 ? "yv12" : std::to_string(format)));
  return static_cast<clvf_pixel_format>(format);
}

std::string quoted(const char* text, int value) { return text ? text : std::to_string(value); }

// FFmpeg's ff_scale_adjust_dimensions (5.1): -n sides from the aspect ratio, then
// force_original_aspect_ratio and force_divisible_by; then clvf's limits.
void output_size(const clvf_scale_request& r, const clvf_stream& in, clvf_pixel_format out_format, int* out_w,
                 int* out_h) {
  const int oar = r.force_original_aspect_ratio == CLVF_UNSET ? 0 : r.force_original_aspect_ratio;
  const int divisible = r.force_divisible_by == CLVF_UNSET ? 1 : r.force_divisible_by;
  if (oar < 0 || oar > 2)
    invalid(fmt::format("scale_clvf: option 'force_original_aspect_ratio' is {}; allowed: 0 (disable), 1 "
                        "(decrease), 2 (increase)",
                        oar));
  if (divisible < 1 || divisible > 256)
    invalid(fmt::format("scale_clvf: option 'force_divisible_by' is {}; allowed: 1 to 256", divisible));
  int64_t W = r.width ? r.width : in.width, H = r.height ? r.height : in.height;
  const int64_t factor_w = W < -1 ? -W : 1, factor_h = H < -1 ? -H : 1;
  if (W < 0 && H < 0) W = in.width, H = in.height;
  // av_rescale rounds to nearest, halves away from zero.
  auto rescale = [](int64_t a, int64_t b, int64_t c) { return (a * b + c / 2) / c; };
  if (W < 0) W = rescale(H, in.width, int64_t(in.height) * factor_w) * factor_w;
  if (H < 0) H = rescale(W, in.height, int64_t(in.width) * factor_h) * factor_h;
  if (oar) {
    const int64_t tw = rescale(H, in.width, in.height), th = rescale(W, in.height, in.width);
    if (oar == 1) {
      W = std::min(tw, W), H = std::min(th, H);
      if (divisible > 1) W = W / divisible * divisible, H = H / divisible * divisible;
    } else {
      W = std::max(tw, W), H = std::max(th, H);
      if (divisible > 1)
        W = (W + divisible - 1) / divisible * divisible, H = (H + divisible - 1) / divisible * divisible;
    }
  }
  const std::string w_text = quoted(r.width_text, r.width), h_text = quoted(r.height_text, r.height);
  if (W < 1 || H < 1 || W > CLVF_MAX_SIDE || H > CLVF_MAX_SIDE)
    invalid(fmt::format("scale_clvf: output size {}x{} (from w='{}' h='{}', input {}x{}) is not allowed: each side "
                        "must be 1 to {}",
                        W, H, w_text, h_text, in.width, in.height, CLVF_MAX_SIDE));
  if (((W | H) & 1) && out_format != CLVF_PIX_YUV444P && !is_rgb(out_format))
    invalid(fmt::format("scale_clvf: output size {}x{} (from w='{}' h='{}', input {}x{}) is odd: 4:2:0 output needs "
                        "an even width and height; use -2 to keep the aspect ratio with even sizes, or "
                        "force_divisible_by=2",
                        W, H, w_text, h_text, in.width, in.height));
  *out_w = static_cast<int>(W);
  *out_h = static_cast<int>(H);
}

// param0 and param1 by algorithm: lanczos taps, bicubic B and C.
void resampling(const clvf_scale_request& r, clvf_scale_params& p) {
  p.algorithm = r.algorithm;
  const bool p0 = !std::isnan(r.param0), p1 = !std::isnan(r.param1);
  if (p.algorithm == CLVF_SCALE_LANCZOS) {
    if (p0 && (r.param0 != std::floor(r.param0) || r.param0 < 1 || r.param0 > CLVF_MAX_LANCZOS_TAPS))
      invalid(fmt::format("scale_clvf: option 'param0' is {}: for lanczos it is the number of taps, an integer "
                          "from 1 to {}",
                          r.param0, CLVF_MAX_LANCZOS_TAPS));
    if (p0) p.taps = static_cast<int>(r.param0);
  } else if (p0) {
    p.param_b = r.param0;
  }
  if (p1) p.param_c = r.param1;
  if (p.algorithm == CLVF_SCALE_BICUBIC && !(p.param_b >= 0 && p.param_b <= 1 && p.param_c >= 0 && p.param_c <= 1))
    invalid(fmt::format("scale_clvf: options 'param0' (B) and 'param1' (C) are {} and {}: for bicubic each is "
                        "allowed from 0 to 1",
                        p.param_b, p.param_c));
}

}  // namespace

Plan<clvf_scale_params> plan_scale(const clvf_scale_request& r, const clvf_stream& in) {
  if (r.version != CLVF_API_VERSION)
    invalid(fmt::format("scale_clvf: request.version is {}, this library speaks version {}", r.version,
                        CLVF_API_VERSION));
  check_input("scale_clvf", in, {CLVF_PIX_NV12, CLVF_PIX_YUV420P, CLVF_PIX_P010, CLVF_PIX_YUV444P});
  Plan<clvf_scale_params> plan;
  clvf_scale_params& p = plan.params;
  clvf_scale_params_default(&p);
  resampling(r, p);
  const bool converts = raw(r.format) || given(r.matrix) || given(r.in_matrix) || given(r.range) ||
                        given(r.in_range) || given(r.dither);
  const clvf_pixel_format out_format = output_format("scale_clvf", raw(r.format), in);
  p.format = in.format;
  p.src_width = in.width;
  p.src_height = in.height;
  output_size(r, in, out_format, &p.dst_width, &p.dst_height);
  p.chroma_location = chroma_of(in);
  plan.output = in;
  plan.output.width = p.dst_width;
  plan.output.height = p.dst_height;
  if (in.sar_num > 0 && in.sar_den > 0) {
    // sar × (oh·iw) / (ow·ih), reduced
    int64_t n = int64_t(in.sar_num) * p.dst_height * in.width, d = int64_t(in.sar_den) * p.dst_width * in.height;
    const int64_t g = std::gcd(n, d);
    plan.output.sar_num = static_cast<int>(n / g);
    plan.output.sar_den = static_cast<int>(d / g);
  }
  if (converts) {
    p.dst_format = out_format;
    p.src_matrix = given(r.in_matrix) ? static_cast<clvf_matrix>(r.in_matrix) : matrix_of(in);
    p.src_range = given(r.in_range) ? static_cast<clvf_range>(r.in_range) : range_of(in);
    p.dst_matrix = given(r.matrix) ? static_cast<clvf_matrix>(r.matrix) : p.src_matrix;
    p.dst_range = is_rgb(out_format) ? CLVF_RANGE_PC : given(r.range) ? static_cast<clvf_range>(r.range) : p.src_range;
    p.dither = given(r.dither) ? static_cast<clvf_dither>(r.dither) : CLVF_DITHER_AUTO;
    tag(plan.output, out_format, p.dst_matrix, p.dst_range, p.chroma_location);
  } else if (!raw(plan.output.range) && !is_rgb(in.format)) {
    plan.output.range = CLVF_RANGE_TV;  // as FFmpeg's scale tags an untagged frame's output
  }
  validate_scale_params(p);
  return plan;
}

Plan<clvf_colorspace_params> plan_colorspace(const clvf_colorspace_request& r, const clvf_stream& in) {
  if (r.version != CLVF_API_VERSION)
    invalid(fmt::format("colorspace_clvf: request.version is {}, this library speaks version {}", r.version,
                        CLVF_API_VERSION));
  check_input("colorspace_clvf", in,
              {CLVF_PIX_NV12, CLVF_PIX_YUV420P, CLVF_PIX_P010, CLVF_PIX_YUV444P, CLVF_PIX_RGBA, CLVF_PIX_BGRA});
  Plan<clvf_colorspace_params> plan;
  clvf_colorspace_params& p = plan.params;
  clvf_colorspace_params_default(&p);
  p.width = in.width;
  p.height = in.height;
  p.src_format = in.format;
  p.dst_format = output_format("colorspace_clvf", raw(r.format), in);
  p.src_matrix = given(r.in_matrix) ? static_cast<clvf_matrix>(r.in_matrix) : matrix_of(in);
  p.src_range = is_rgb(p.src_format)  ? CLVF_RANGE_PC
                : given(r.in_range)   ? static_cast<clvf_range>(r.in_range)
                                      : range_of(in);
  p.chroma_location =
      given(r.chroma_location) ? static_cast<clvf_chroma_location>(r.chroma_location) : chroma_of(in);
  p.dst_matrix = given(r.matrix) ? static_cast<clvf_matrix>(r.matrix) : p.src_matrix;
  p.dst_range = is_rgb(p.dst_format)   ? CLVF_RANGE_PC
                : given(r.range)       ? static_cast<clvf_range>(r.range)
                : is_rgb(p.src_format) ? CLVF_RANGE_TV
                                       : p.src_range;
  if (given(r.chroma_filter)) p.chroma_filter = static_cast<clvf_scale_algorithm>(r.chroma_filter);
  if (given(r.dither)) p.dither = static_cast<clvf_dither>(r.dither);
  plan.output = in;
  tag(plan.output, p.dst_format, p.dst_matrix, p.dst_range, p.chroma_location);
  validate_colorspace_params(p);
  return plan;
}

}  // namespace clvf::detail
