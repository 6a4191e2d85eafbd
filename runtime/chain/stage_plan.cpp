#include "runtime/chain/stage_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

#include "runtime/chain/expression.hpp"
#include "runtime/chain/filter_options.hpp"
#include "runtime/device.hpp"
#include "runtime/error.hpp"
#include "runtime/ops/colour_matrix.hpp"
#include "runtime/ops/pixel_format.hpp"
#include "runtime/ops/resample_table.hpp"

namespace clvf::chain {

namespace {

[[noreturn]] void invalid(const std::string& message) { throw Error(CLVF_ERROR_INVALID_ARGUMENT, message); }

bool is_rgb(clvf_pixel_format f) { return f == CLVF_PIX_RGBA || f == CLVF_PIX_BGRA; }
const char* name_of(clvf_pixel_format f) {
  const PixelFormat* p = find_pixel_format(f);
  return p ? p->name : "?";
}

// A stream's coding as the filters read a frame's tags (filters/clvf_filter.c).
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
clvf_range range_of(const clvf_stream& s, clvf_pixel_format format) {
  return is_rgb(format) || s.range == CLVF_RANGE_PC ? CLVF_RANGE_PC : CLVF_RANGE_TV;
}
clvf_chroma_location chroma_of(const clvf_stream& s) {
  return s.chroma_location == CLVF_CHROMA_CENTER || s.chroma_location == CLVF_CHROMA_TOPLEFT ? s.chroma_location
                                                                                             : CLVF_CHROMA_LEFT;
}
// The tags the filters put on a converted frame (ff_clvf_tag_frame).
void tag(clvf_stream& s, clvf_pixel_format format, clvf_matrix matrix, clvf_range range, clvf_chroma_location loc) {
  s.format = format;
  s.matrix = is_rgb(format) ? clvf_matrix{} : matrix;
  s.range = range;
  s.chroma_location = format == CLVF_PIX_YUV444P || is_rgb(format) ? clvf_chroma_location{} : loc;
}

void require_format(const FilterOptions& o, const clvf_stream& in, std::initializer_list<clvf_pixel_format> allowed) {
  std::string list;
  for (clvf_pixel_format f : allowed) {
    if (f == in.format) return;
    list += (list.empty() ? "" : ", ") + std::string(name_of(f));
  }
  invalid(fmt::format("{}: input format {} is not taken; it takes {} (convert first with colorspace_clvf)",
                      o.filter(), name_of(in.format), list));
}

std::optional<clvf_pixel_format> format_option(const FilterOptions& o) {
  const std::string* name = o.text("format");
  if (!name) return std::nullopt;
  clvf_pixel_format f = pixel_format_from_name(*name);
  if (f == CLVF_PIX_YV12)
    invalid(fmt::format("{}: option 'format': yv12 is not an output format; allowed: nv12, yuv420p, p010le, "
                        "yuv444p, rgba, bgra",
                        o.filter()));
  return f;
}

template <typename T, typename Parse>
std::optional<T> named(const FilterOptions& o, const char* key, Parse parse) {
  const std::string* name = o.text(key);
  if (!name) return std::nullopt;
  try {
    return parse(*name);
  } catch (const Error& e) {
    invalid(fmt::format("{}: option '{}': {}", o.filter(), key, e.what()));
  }
}
std::optional<clvf_matrix> matrix_option(const FilterOptions& o, const char* key) {
  return named<clvf_matrix>(o, key, matrix_from_name);
}
std::optional<clvf_range> range_option(const FilterOptions& o, const char* key) {
  return named<clvf_range>(o, key, range_from_name);
}

// ff_scale_eval_dimensions and ff_scale_adjust_dimensions (libavfilter/scale_eval.c).
void output_size(const FilterOptions& o, const clvf_stream& in, clvf_pixel_format out_format, int oar,
                 int divisible, int* out_w, int* out_h) {
  const std::string w_expr = o.text("w") ? *o.text("w") : "iw";
  const std::string h_expr = o.text("h") ? *o.text("h") : "ih";
  const PixelFormat& src = *find_pixel_format(in.format);
  const PixelFormat& dst = *find_pixel_format(out_format);
  const double sar = in.sar_num > 0 && in.sar_den > 0 ? double(in.sar_num) / in.sar_den : 1.0;
  std::map<std::string, double> v = {
      {"in_w", in.width}, {"iw", in.width}, {"in_h", in.height}, {"ih", in.height},
      {"out_w", NAN}, {"ow", NAN}, {"out_h", NAN}, {"oh", NAN},
      {"a", double(in.width) / in.height}, {"sar", sar}, {"dar", double(in.width) / in.height * sar},
      {"hsub", src.planes.size() > 1 ? src.planes[1].sub_x : 1}, {"vsub", src.planes.size() > 1 ? src.planes[1].sub_y : 1},
      {"ohsub", dst.planes.size() > 1 ? dst.planes[1].sub_x : 1}, {"ovsub", dst.planes.size() > 1 ? dst.planes[1].sub_y : 1}};
  auto eval = [&](const std::string& e) {
    try {
      return evaluate(e, v);
    } catch (const Error& err) {
      invalid(fmt::format("{}: option '{}': {}", o.filter(), &e == &w_expr ? "w" : "h", err.what()));
    }
  };
  auto whole = [&](double r, const std::string& e) {
    if (!(r >= INT32_MIN && r <= INT32_MAX))
      invalid(fmt::format("{}: expression '{}' gives {} (for w='{}' h='{}'; do they refer to each other?)",
                          o.filter(), e, r, w_expr, h_expr));
    return static_cast<int>(r);
  };
  double r = eval(w_expr);
  v["out_w"] = v["ow"] = r == 0 ? in.width : std::trunc(r);
  int h = whole(eval(h_expr), h_expr);
  h = h == 0 ? in.height : h;
  v["out_h"] = v["oh"] = h;
  int w = whole(eval(w_expr), w_expr);
  w = w == 0 ? in.width : w;

  int64_t W = w, H = h;
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
  if (W < 1 || H < 1 || W > CLVF_MAX_SIDE || H > CLVF_MAX_SIDE)
    invalid(fmt::format("{}: output size {}x{} (from w='{}' h='{}', input {}x{}) is not allowed: each side must "
                        "be 1 to {}",
                        o.filter(), W, H, w_expr, h_expr, in.width, in.height, CLVF_MAX_SIDE));
  if (((W | H) & 1) && out_format != CLVF_PIX_YUV444P && !is_rgb(out_format))
    invalid(fmt::format("{}: output size {}x{} (from w='{}' h='{}', input {}x{}) is odd: 4:2:0 output needs an "
                        "even width and height; use -2 to keep the aspect ratio with even sizes, or "
                        "force_divisible_by=2",
                        o.filter(), W, H, w_expr, h_expr, in.width, in.height));
  *out_w = static_cast<int>(W);
  *out_h = static_cast<int>(H);
}

const std::vector<std::string> kScaleOptions = {
    "preset", "w", "width", "h", "height", "force_original_aspect_ratio", "force_divisible_by", "algorithm",
    "param0", "param1", "format", "matrix", "in_matrix", "range", "in_range", "dither", "device", "profile"};
const std::vector<std::string> kDenoiseOptions = {"preset", "s", "sc", "p", "pc", "r", "rc", "planes",
                                                  "t", "wmode", "device", "profile"};
const std::vector<std::string> kColorspaceOptions = {"preset", "format", "matrix", "in_matrix", "range", "in_range",
                                                     "chroma_location", "chroma_filter", "dither", "device",
                                                     "profile"};
const std::map<std::string, double> kBool = {{"true", 1}, {"false", 0}};

void profile_option(const FilterOptions& o) {
  if (o.integer("profile", 0, 1, kBool).value_or(0)) request_profiling(true);
}

StagePlan plan_scale(const FilterOptions& o, const clvf_stream& in) {
  require_format(o, in, {CLVF_PIX_NV12, CLVF_PIX_YUV420P, CLVF_PIX_P010, CLVF_PIX_YUV444P});
  profile_option(o);
  StagePlan plan;
  plan.operation = Operation::scale;
  clvf_scale_params& p = plan.scale;
  clvf_scale_params_default(&p);
  p.algorithm = named<clvf_scale_algorithm>(o, "algorithm", scale_algorithm_from_name).value_or(CLVF_SCALE_BICUBIC);
  const auto param0 = o.number("param0", 0, CLVF_MAX_LANCZOS_TAPS), param1 = o.number("param1", 0, 1);
  if (p.algorithm == CLVF_SCALE_LANCZOS) {
    if (param0 && (*param0 != std::floor(*param0) || *param0 < 1))
      invalid(fmt::format("{}: option 'param0' is {}: for lanczos it is the number of taps, an integer from 1 to {}",
                          o.filter(), *param0, CLVF_MAX_LANCZOS_TAPS));
    if (param0) p.taps = static_cast<int>(*param0);
  } else if (param0) {
    p.param_b = *param0;
  }
  if (param1) p.param_c = *param1;
  if (p.algorithm == CLVF_SCALE_BICUBIC && (p.param_b > 1 || p.param_c > 1))
    invalid(fmt::format("{}: options 'param0' (B) and 'param1' (C) are {} and {}: for bicubic each is allowed from 0 "
                        "to 1",
                        o.filter(), p.param_b, p.param_c));
  const auto format = format_option(o);
  const auto matrix = matrix_option(o, "matrix"), in_matrix = matrix_option(o, "in_matrix");
  const auto range = range_option(o, "range"), in_range = range_option(o, "in_range");
  const auto dither = named<clvf_dither>(o, "dither", dither_from_name);
  const bool converts = format || matrix || in_matrix || range || in_range || dither;
  const clvf_pixel_format out_format = format.value_or(in.format);
  const int oar = o.integer("force_original_aspect_ratio", 0, 2, {{"disable", 0}, {"decrease", 1}, {"increase", 2}})
                      .value_or(0);
  const int divisible = std::max(1, o.integer("force_divisible_by", 0, 256).value_or(1));
  p.format = in.format;
  p.src_width = in.width;
  p.src_height = in.height;
  output_size(o, in, out_format, oar, divisible, &p.dst_width, &p.dst_height);
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
    p.src_matrix = in_matrix.value_or(matrix_of(in));
    p.src_range = in_range.value_or(range_of(in, p.format));
    p.dst_matrix = matrix.value_or(p.src_matrix);
    p.dst_range = is_rgb(out_format) ? CLVF_RANGE_PC : range.value_or(p.src_range);
    p.dither = dither.value_or(CLVF_DITHER_AUTO);
    tag(plan.output, out_format, p.dst_matrix, p.dst_range, p.chroma_location);
  } else if (!plan.output.range && !is_rgb(in.format)) {
    plan.output.range = CLVF_RANGE_TV;  // as vf_scale_clvf (and FFmpeg's scale) tag an untagged frame
  }
  return plan;
}

StagePlan plan_denoise(const FilterOptions& o, const clvf_stream& in) {
  require_format(o, in, {CLVF_PIX_NV12, CLVF_PIX_YUV420P});
  profile_option(o);
  StagePlan plan;
  plan.operation = Operation::denoise;
  clvf_denoise_params& p = plan.denoise;
  clvf_denoise_params_default(&p);
  p.format = in.format;
  p.width = in.width;
  p.height = in.height;
  if (auto v = o.number("s", 1, CLVF_MAX_STRENGTH)) p.strength = *v;
  if (auto v = o.number("sc", 0, CLVF_MAX_STRENGTH)) p.strength_chroma = *v;
  if (auto v = o.integer("p", 0, CLVF_MAX_WINDOW)) p.patch_size = *v;
  if (auto v = o.integer("r", 0, CLVF_MAX_WINDOW)) p.research_size = *v;
  if (auto v = o.integer("pc", 0, CLVF_MAX_WINDOW)) p.patch_size_chroma = *v;
  if (auto v = o.integer("rc", 0, CLVF_MAX_WINDOW)) p.research_size_chroma = *v;
  if (auto v = o.integer("planes", 0, 15)) p.planes = static_cast<unsigned>(*v);
  if (auto v = o.integer("t", 0, CLVF_MAX_TEMPORAL_RADIUS)) p.temporal_radius = *v;
  if (auto v = o.integer("wmode", 0, 3,
                         {{"welsch", 0}, {"bisquare-a", 1}, {"bisquare-b", 2}, {"bisquare-c", 3}}))
    p.weighting = static_cast<clvf_denoise_weighting>(*v);
  plan.output = in;
  return plan;
}

StagePlan plan_colorspace(const FilterOptions& o, const clvf_stream& in) {
  profile_option(o);
  StagePlan plan;
  plan.operation = Operation::colorspace;
  clvf_colorspace_params& p = plan.colorspace;
  clvf_colorspace_params_default(&p);
  p.width = in.width;
  p.height = in.height;
  p.src_format = in.format;
  p.dst_format = format_option(o).value_or(in.format);
  const auto matrix = matrix_option(o, "matrix");
  const auto range = range_option(o, "range");
  p.src_matrix = matrix_option(o, "in_matrix").value_or(matrix_of(in));
  p.src_range = is_rgb(p.src_format) ? CLVF_RANGE_PC : range_option(o, "in_range").value_or(range_of(in, p.src_format));
  p.chroma_location = static_cast<clvf_chroma_location>(
      o.integer("chroma_location", 1, 3, {{"left", 1}, {"center", 2}, {"topleft", 3}}).value_or(chroma_of(in)));
  p.dst_matrix = matrix.value_or(p.src_matrix);
  p.dst_range = is_rgb(p.dst_format)   ? CLVF_RANGE_PC
                : range                ? *range
                : is_rgb(p.src_format) ? CLVF_RANGE_TV
                                       : p.src_range;
  if (auto f = named<clvf_scale_algorithm>(o, "chroma_filter", scale_algorithm_from_name)) p.chroma_filter = *f;
  if (auto d = named<clvf_dither>(o, "dither", dither_from_name)) p.dither = *d;
  plan.output = in;
  tag(plan.output, p.dst_format, p.dst_matrix, p.dst_range, p.chroma_location);
  return plan;
}

}  // namespace

StagePlan plan_stage(const FilterText& filter, const clvf_stream& input) {
  if (filter.name == "scale_clvf") return plan_scale(FilterOptions(filter.name, filter.options, kScaleOptions,
                                                                   {{"width", "w"}, {"height", "h"}}),
                                                     input);
  if (filter.name == "denoise_clvf")
    return plan_denoise(FilterOptions(filter.name, filter.options, kDenoiseOptions), input);
  if (filter.name == "colorspace_clvf")
    return plan_colorspace(FilterOptions(filter.name, filter.options, kColorspaceOptions), input);
  invalid(fmt::format("filter '{}' is not a clvf filter; a chain takes scale_clvf, denoise_clvf and colorspace_clvf",
                      filter.name));
}

}  // namespace clvf::chain
