#include "api/chain/stage_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

#include "api/chain/expression.hpp"
#include "api/chain/filter_options.hpp"
#include "runtime/device.hpp"
#include "runtime/error.hpp"
#include "runtime/ops/colour_matrix.hpp"
#include "runtime/ops/filter_plan.hpp"
#include "runtime/ops/pixel_format.hpp"
#include "runtime/ops/resample_table.hpp"

namespace clvf::detail::chain {

namespace {

[[noreturn]] void invalid(const std::string& message) { throw Error(CLVF_ERROR_INVALID_ARGUMENT, message); }

template <typename T, typename Parse>
int named(const FilterOptions& o, const char* key, Parse parse) {
  const std::string* name = o.text(key);
  if (!name) return CLVF_UNSET;
  try {
    return static_cast<int>(T(parse(*name)));
  } catch (const Error& e) {
    invalid(fmt::format("{}: option '{}': {}", o.filter(), key, e.what()));
  }
}
int matrix_option(const FilterOptions& o, const char* key) { return named<clvf_matrix>(o, key, matrix_from_name); }
int range_option(const FilterOptions& o, const char* key) { return named<clvf_range>(o, key, range_from_name); }
int format_option(const FilterOptions& o) {
  const std::string* name = o.text("format");
  if (!name) return 0;
  return named<clvf_pixel_format>(o, "format", pixel_format_from_name);
}

// w and h as ff_scale_eval_dimensions evaluates them (libavfilter/scale_eval.c): the planner
// takes the numbers from here.
void evaluate_size(const FilterOptions& o, const clvf_stream& in, int out_format, const std::string& w_expr,
                   const std::string& h_expr, int* w, int* h) {
  const PixelFormat* src = find_pixel_format(raw(in.format));
  const PixelFormat* dst = find_pixel_format(out_format ? out_format : raw(in.format));
  auto sub = [](const PixelFormat* f, bool y) {
    return f && f->planes.size() > 1 ? (y ? f->planes[1].sub_y : f->planes[1].sub_x) : 1;
  };
  const double sar = in.sar_num > 0 && in.sar_den > 0 ? double(in.sar_num) / in.sar_den : 1.0;
  std::map<std::string, double> v = {
      {"in_w", in.width}, {"iw", in.width}, {"in_h", in.height}, {"ih", in.height},
      {"out_w", NAN}, {"ow", NAN}, {"out_h", NAN}, {"oh", NAN},
      {"a", double(in.width) / in.height}, {"sar", sar}, {"dar", double(in.width) / in.height * sar},
      {"hsub", sub(src, false)}, {"vsub", sub(src, true)}, {"ohsub", sub(dst, false)}, {"ovsub", sub(dst, true)}};
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
  const double r = eval(w_expr);
  v["out_w"] = v["ow"] = r == 0 ? in.width : std::trunc(r);
  *h = whole(eval(h_expr), h_expr);
  *h = *h == 0 ? in.height : *h;
  v["out_h"] = v["oh"] = *h;
  *w = whole(eval(w_expr), w_expr);
  *w = *w == 0 ? in.width : *w;
}

// The options both scale_clvf and colorspace_clvf have for the source's and output's coding.
template <typename Request>
void coding_options(const FilterOptions& o, Request& r) {
  r.format = static_cast<clvf_pixel_format>(format_option(o));
  r.matrix = matrix_option(o, "matrix");
  r.in_matrix = matrix_option(o, "in_matrix");
  r.range = range_option(o, "range");
  r.in_range = range_option(o, "in_range");
  r.dither = named<clvf_dither>(o, "dither", dither_from_name);
}

template <typename Params>
StagePlan stage(StageKind kind, Params StagePlan::*field, const Plan<Params>& plan) {
  StagePlan s;
  s.kind = kind;
  s.*field = plan.params;
  s.output = plan.output;
  return s;
}

// take_unset: the int options whose ffmpeg filter has the constant 'unset' (filters/*.c).
const OptionSet kScaleOptions = {
    {"preset", "w", "width", "h", "height", "force_original_aspect_ratio", "force_divisible_by", "algorithm", "param0",
     "param1", "format", "matrix", "in_matrix", "range", "in_range", "dither", "device", "profile"},
    {{"width", "w"}, {"height", "h"}},
    {"force_original_aspect_ratio", "force_divisible_by", "dither"}};
const OptionSet kDenoiseOptions = {
    {"preset", "s", "sc", "p", "pc", "r", "rc", "planes", "t", "wmode", "device", "profile"},
    {},
    {"p", "pc", "r", "rc", "planes", "t", "wmode"}};
const OptionSet kColorspaceOptions = {{"preset", "format", "matrix", "in_matrix", "range", "in_range",
                                       "chroma_location", "chroma_filter", "dither", "device", "profile"},
                                      {},
                                      {"dither"}};
const std::map<std::string, double> kBool = {{"true", 1}, {"false", 0}};

void profile_option(const FilterOptions& o) {
  if (o.integer("profile", 0, 1, kBool).value_or(0)) request_profiling(true);
}

StagePlan plan_scale(const FilterOptions& o, const clvf_stream& in) {
  profile_option(o);
  clvf_scale_request r;
  clvf_scale_request_default(&r);
  if (const int a = named<clvf_scale_algorithm>(o, "algorithm", scale_algorithm_from_name); a != CLVF_UNSET)
    r.algorithm = static_cast<clvf_scale_algorithm>(a);
  r.param0 = o.number("param0", 0, CLVF_MAX_LANCZOS_TAPS).value_or(NAN);
  r.param1 = o.number("param1", 0, 1).value_or(NAN);
  coding_options(o, r);
  r.force_original_aspect_ratio =
      o.integer("force_original_aspect_ratio", 0, 2, {{"disable", 0}, {"decrease", 1}, {"increase", 2}})
          .value_or(0);
  r.force_divisible_by = std::max(1, o.integer("force_divisible_by", 0, 256).value_or(1));
  const std::string w_expr = o.text("w") ? *o.text("w") : "iw";
  const std::string h_expr = o.text("h") ? *o.text("h") : "ih";
  r.width_text = w_expr.c_str();
  r.height_text = h_expr.c_str();
  evaluate_size(o, in, raw(r.format), w_expr, h_expr, &r.width, &r.height);
  return stage(StageKind::scale, &StagePlan::scale, clvf::detail::plan_scale(r, in));
}

StagePlan plan_denoise(const FilterOptions& o, const clvf_stream& in) {
  if (raw(in.format) != CLVF_PIX_NV12 && raw(in.format) != CLVF_PIX_YUV420P) {
    const PixelFormat* f = find_pixel_format(raw(in.format));
    invalid(fmt::format("{}: input format {} is not taken; it takes nv12, yuv420p (convert first with "
                        "colorspace_clvf)",
                        o.filter(), f ? f->name : "?"));
  }
  profile_option(o);
  StagePlan plan;
  plan.kind = StageKind::denoise;
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
  clvf_colorspace_request r;
  clvf_colorspace_request_default(&r);
  coding_options(o, r);
  r.chroma_location =
      o.integer("chroma_location", 1, 3, {{"left", 1}, {"center", 2}, {"topleft", 3}}).value_or(CLVF_UNSET);
  r.chroma_filter = named<clvf_scale_algorithm>(o, "chroma_filter", scale_algorithm_from_name);
  return stage(StageKind::colorspace, &StagePlan::colorspace, clvf::detail::plan_colorspace(r, in));
}

}  // namespace

StagePlan plan_stage(const FilterText& filter, const clvf_stream& input) {
  if (filter.name == "scale_clvf") return plan_scale(FilterOptions(filter.name, filter.options, kScaleOptions), input);
  if (filter.name == "denoise_clvf")
    return plan_denoise(FilterOptions(filter.name, filter.options, kDenoiseOptions), input);
  if (filter.name == "colorspace_clvf")
    return plan_colorspace(FilterOptions(filter.name, filter.options, kColorspaceOptions), input);
  invalid(fmt::format("filter '{}' is not a clvf filter; a chain takes scale_clvf, denoise_clvf and colorspace_clvf",
                      filter.name));
}

}  // namespace clvf::detail::chain
