// One filter of a chain planned for its input stream: its operation's parameters and the stream it
// outputs. The option text becomes the request the filters make, and the rules are theirs:
// runtime/ops/filter_plan (sizes, coding, tags); only w/h are evaluated here, as FFmpeg's
// scale_eval.c does. tests/test_chain.cpp checks that a chain gives the frames ffmpeg gives for
// the same string.
#pragma once
#include "clvf/clvf.h"
#include "api/chain/option_string.hpp"

namespace clvf::detail::chain {

enum class StageKind { scale, denoise, colorspace };

struct StagePlan {
  StageKind kind = StageKind::scale;
  clvf_scale_params scale{};            // kind == scale
  clvf_denoise_params denoise{};        // kind == denoise
  clvf_colorspace_params colorspace{};  // kind == colorspace
  clvf_stream output{};
};

// Storages are left as host: the chain sets them. Throws Error naming the filter and option.
StagePlan plan_stage(const FilterText& filter, const clvf_stream& input);

}  // namespace clvf::detail::chain
