#include "api/chain/chain.hpp"

#include <fmt/format.h>

#include "api/api_device.hpp"
#include "runtime/error.hpp"
#include "runtime/ops/frame_format.hpp"
#include "runtime/ops/pixel_format.hpp"
#include "runtime/presets.hpp"
#include "runtime/scratch.hpp"

namespace clvf::chain {

namespace {

void check(clvf_status status, const std::string& where) {
  if (status != CLVF_OK) throw Error(status, fmt::format("{}: {}", where, clvf_last_error()));
}

// A chain preset's name (or a preset file, PATH or PATH#NAME), rather than a filter without options.
bool names_a_preset(std::string_view chain) {
  for (std::string_view filter : {"scale_clvf", "denoise_clvf", "colorspace_clvf"})
    if (chain == filter) return false;
  return !chain.empty() && chain.find_first_of("=,:") == std::string_view::npos;
}

}  // namespace

std::vector<FilterText> chain_filters(std::string_view chain) {
  if (names_a_preset(chain))
    return split_chain(presets::options("chains", chain));
  return split_chain(chain);
}

// One operation and what a step does with it. Scale and colorspace turn each frame into one;
// denoise may hold frames back (t > 0) and gives them at the end.
struct Chain::Stage {
  std::string name;  // "stage 2 (scale_clvf)"
  Operation operation;
  clvf_scale* scale = nullptr;
  clvf_denoise* denoise = nullptr;
  clvf_colorspace* colorspace = nullptr;
  bool ended = false;  // denoise: the end was sent

  ~Stage() {
    clvf_scale_release(scale);
    clvf_denoise_release(denoise);
    clvf_colorspace_release(colorspace);
  }

  // in null: the end. Returns whether `out` received a frame; *end is set when nothing more comes.
  bool step(const clvf_frame* in, const clvf_frame* out, bool* end) {
    *end = false;
    if (operation != Operation::denoise) {
      if (!in) return *end = true, false;
      check(operation == Operation::scale ? clvf_scale_process(scale, in, out)
                                          : clvf_colorspace_process(colorspace, in, out),
            name);
      return true;
    }
    if (in) {
      ended = false;
      check(clvf_denoise_send(denoise, in), name);
    } else if (!ended) {
      check(clvf_denoise_send(denoise, nullptr), name);
      ended = true;
    }
    int got = 0;
    check(clvf_denoise_receive(denoise, out, &got), name);
    *end = !got && !in;
    return got != 0;
  }
};

// A frame between two operations: one device buffer per plane, packed rows.
struct Chain::Between {
  std::vector<cl::Buffer> buffers;
  clvf_frame frame{};

  Between(const Device& device, const clvf_stream& s) {
    frame.storage = CLVF_STORAGE_CL_BUFFER;
    const auto shapes = plane_shapes(planes_of(s.format, s.width, s.height));
    for (size_t i = 0; i < shapes.size(); ++i) {
      buffers.push_back(scratch_buffer(device, CL_MEM_READ_WRITE, shapes[i].row_bytes * shapes[i].rows));
      frame.planes[i].mem = buffers.back()();
      frame.planes[i].pitch = shapes[i].row_bytes;
    }
  }
};

ChainPlan plan_chain(std::string_view chain, const clvf_stream& input) {
  if (!find_pixel_format(input.format))
    throw Error(CLVF_ERROR_INVALID_ARGUMENT, fmt::format("input format {} is not known", raw(input.format)));
  if (input.width < 1 || input.height < 1 || input.width > CLVF_MAX_SIDE || input.height > CLVF_MAX_SIDE)
    throw Error(CLVF_ERROR_INVALID_ARGUMENT, fmt::format("input size {}x{} is not allowed: each side must be 1 to {}",
                                                         input.width, input.height, CLVF_MAX_SIDE));
  ChainPlan plan;
  plan.filters = chain_filters(chain);
  plan.output = input;
  for (const FilterText& f : plan.filters) {
    try {
      plan.stages.push_back(plan_stage(f, plan.output));
    } catch (const Error& e) {
      throw Error(e.status(), fmt::format("chain stage {}: {}", plan.stages.size() + 1, e.what()));
    }
    plan.output = plan.stages.back().output;
  }
  return plan;
}

Chain::Chain(clvf_device* device, std::string_view chain, const clvf_stream& input, clvf_storage src_storage,
             clvf_storage dst_storage) {
  ChainPlan planned = plan_chain(chain, input);
  const std::vector<FilterText>& filters = planned.filters;
  std::vector<StagePlan>& plans = planned.stages;
  output_ = planned.output;

  for (size_t i = 0; i < plans.size(); ++i) {
    StagePlan& plan = plans[i];
    const clvf_storage src = i == 0 ? src_storage : CLVF_STORAGE_CL_BUFFER;
    const clvf_storage dst = i + 1 == plans.size() ? dst_storage : CLVF_STORAGE_CL_BUFFER;
    auto stage = std::make_unique<Stage>();
    stage->name = fmt::format("chain stage {} ({})", i + 1, filters[i].name);
    stage->operation = plan.operation;
    switch (plan.operation) {
      case Operation::scale:
        plan.scale.src_storage = src, plan.scale.dst_storage = dst;
        check(clvf_scale_create(device, &plan.scale, &stage->scale), stage->name);
        break;
      case Operation::denoise:
        plan.denoise.src_storage = src, plan.denoise.dst_storage = dst;
        check(clvf_denoise_create(device, &plan.denoise, &stage->denoise), stage->name);
        break;
      case Operation::colorspace:
        plan.colorspace.src_storage = src, plan.colorspace.dst_storage = dst;
        check(clvf_colorspace_create(device, &plan.colorspace, &stage->colorspace), stage->name);
        break;
    }
    stages_.push_back(std::move(stage));
    if (i + 1 < plans.size()) between_.push_back(std::make_unique<Between>(*device->impl, plan.output));
  }
}

Chain::~Chain() = default;

bool Chain::process(const clvf_frame* src, const clvf_frame* dst) {
  const clvf_frame* in = src;
  for (size_t i = 0; i < stages_.size(); ++i) {
    const clvf_frame* out = i + 1 == stages_.size() ? dst : &between_[i]->frame;
    bool end = false;
    if (stages_[i]->step(in, out, &end)) {
      in = out;
    } else if (end) {
      in = nullptr;  // the end travels on: later stages give what they still hold
    } else {
      return false;  // held back by a temporal denoise
    }
  }
  return in != nullptr;
}

}  // namespace clvf::chain
