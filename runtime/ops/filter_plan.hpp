// The filters' rules, written once: from what the user asked of scale_clvf or colorspace_clvf (a
// request) and the input stream to the operation's params and the stream it outputs. The FFmpeg
// filters (through clvf_*_plan), the chain and C callers all plan here.
#pragma once
#include "clvf/clvf.h"

namespace clvf::detail {

template <typename Params>
struct Plan {
  Params params{};
  clvf_stream output{};
};

// Throw Error(INVALID_ARGUMENT) naming the filter and its option ("scale_clvf: option 'param0' ...").
Plan<clvf_scale_params> plan_scale(const clvf_scale_request& request, const clvf_stream& input);
Plan<clvf_colorspace_params> plan_colorspace(const clvf_colorspace_request& request, const clvf_stream& input);

}  // namespace clvf::detail
