// The C API of planning (clvf_*_request_default, clvf_*_plan), over runtime/ops/filter_plan.
#include <cmath>
#include <cstring>
#include <string>

#include "clvf/clvf.h"
#include "api/api_guard.hpp"
#include "runtime/ops/filter_plan.hpp"

using clvf::detail::require;

namespace {

template <typename Params, typename Request, typename PlanFn>
clvf_status plan(const char* fn, const Request* request, const clvf_stream* input, Params* params,
                 clvf_stream* output, PlanFn plan_fn) {
  return clvf::detail::api_call([&] {
    const std::string name(fn);
    require(request, (name + ": request").c_str());
    require(input, (name + ": input").c_str());
    require(params, (name + ": params").c_str());
    require(output, (name + ": output").c_str());
    const clvf::detail::Plan<Params> p = plan_fn(*request, *input);
    std::memcpy(params, &p.params, sizeof *params);  // padding too: plans compare with memcmp
    *output = p.output;
  });
}

}  // namespace

extern "C" {

CLVF_API void clvf_scale_request_default(clvf_scale_request* r) {
  if (!r) return;
  *r = clvf_scale_request{};
  r->version = CLVF_API_VERSION;
  r->force_original_aspect_ratio = r->force_divisible_by = CLVF_UNSET;
  r->algorithm = CLVF_SCALE_BICUBIC;
  r->param0 = r->param1 = NAN;
  r->matrix = r->in_matrix = r->range = r->in_range = r->dither = CLVF_UNSET;
}

CLVF_API clvf_status clvf_scale_plan(const clvf_scale_request* request, const clvf_stream* input,
                                     clvf_scale_params* params, clvf_stream* output) {
  return plan("clvf_scale_plan", request, input, params, output, clvf::detail::plan_scale);
}

CLVF_API void clvf_colorspace_request_default(clvf_colorspace_request* r) {
  if (!r) return;
  *r = clvf_colorspace_request{};
  r->version = CLVF_API_VERSION;
  r->matrix = r->in_matrix = r->range = r->in_range = r->chroma_location = r->dither = r->chroma_filter =
      CLVF_UNSET;
}

CLVF_API clvf_status clvf_colorspace_plan(const clvf_colorspace_request* request, const clvf_stream* input,
                                          clvf_colorspace_params* params, clvf_stream* output) {
  return plan("clvf_colorspace_plan", request, input, params, output, clvf::detail::plan_colorspace);
}

}  // extern "C"
