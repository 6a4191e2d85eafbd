#include "api/chain/chain.hpp"

#include <fmt/format.h>

#include <exception>

#include "api/api_device.hpp"
#include "runtime/cl.hpp"
#include "runtime/error.hpp"
#include "runtime/ops/colorspace.hpp"
#include "runtime/ops/denoise.hpp"
#include "runtime/ops/scale_convert.hpp"
#include "runtime/ops/frame_format.hpp"
#include "runtime/ops/pixel_format.hpp"
#include "runtime/presets.hpp"
#include "runtime/scratch.hpp"

namespace clvf::detail::chain {

namespace {

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

// One operation of the chain.
struct Chain::Stage {
  std::string name;  // "chain stage 2 (scale_clvf)"
  std::unique_ptr<Operation> operation;

  // The stage's messages name it, OpenCL's included.
  template <typename Body>
  auto named(Body&& body) -> decltype(body()) {
    try {
      return body();
    } catch (const Error& e) {
      throw Error(e.status(), fmt::format("{}: {}", name, e.what()));
    } catch (const cl::Error& e) {
      throw Error(cl_error_status(e.err()), fmt::format("{}: {}", name, cl_error_message(e.what(), e.err())));
    }
  }
};

namespace {
std::unique_ptr<Operation> make_operation(const std::shared_ptr<Device>& device, StagePlan& plan, clvf_storage src,
                                          clvf_storage dst) {
  switch (plan.kind) {
    case StageKind::scale:
      plan.scale.src_storage = src, plan.scale.dst_storage = dst;
      return std::make_unique<ScaleConvert>(device, plan.scale);
    case StageKind::denoise:
      plan.denoise.src_storage = src, plan.denoise.dst_storage = dst;
      return std::make_unique<Denoise>(device, plan.denoise);
    case StageKind::colorspace:
      plan.colorspace.src_storage = src, plan.colorspace.dst_storage = dst;
      return std::make_unique<Colorspace>(device, plan.colorspace);
  }
  throw Error(CLVF_ERROR_INTERNAL, "a chain stage of no known kind");
}
}  // namespace

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
  if (plan.filters.size() > CLVF_MAX_CHAIN_STAGES)
    throw Error(CLVF_ERROR_INVALID_ARGUMENT, fmt::format("the chain has {} filters; allowed: 1 to {}",
                                                         plan.filters.size(), CLVF_MAX_CHAIN_STAGES));
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
  wait_.reserve(16);  // two stages' events for a frame: a frame allocates nothing
  ChainPlan planned = plan_chain(chain, input);
  const std::vector<FilterText>& filters = planned.filters;
  std::vector<StagePlan>& plans = planned.stages;
  output_ = planned.output;
  // Shared storages at the ends become the OpenCL storages the first and last stages take.
  sides_.open(device->impl, {src_storage, input.format, input.width, input.height},
              {dst_storage, output_.format, output_.width, output_.height});

  for (size_t i = 0; i < plans.size(); ++i) {
    const clvf_storage src = i == 0 ? src_storage : CLVF_STORAGE_CL_BUFFER;
    const clvf_storage dst = i + 1 == plans.size() ? dst_storage : CLVF_STORAGE_CL_BUFFER;
    auto stage = std::make_unique<Stage>();
    stage->name = fmt::format("chain stage {} ({})", i + 1, filters[i].name);
    stage->operation = stage->named([&] { return make_operation(device->impl, plans[i], src, dst); });
    stages_.push_back(std::move(stage));
    if (i + 1 < plans.size()) between_.push_back(std::make_unique<Between>(*device->impl, plans[i].output));
  }
}

Chain::~Chain() {
  // Frames in flight finish before the buffers and shared frames they use go.
  try {
    complete_all();
  } catch (...) {
  }
}

bool Chain::process(const clvf_frame* src, const clvf_frame& dst) {
  if (!submit(src, dst)) return false;
  complete();
  return true;
}

bool Chain::submit(const clvf_frame* src, const clvf_frame& dst) {
  if (count_ == CLVF_MAX_IN_FLIGHT)
    throw Error(CLVF_ERROR_INVALID_ARGUMENT, fmt::format("chain: {} frames are in flight, the most there can be; "
                                                         "complete one first",
                                                         CLVF_MAX_IN_FLIGHT));
  bool got = false;
  sides_.run(src, &dst, [&](const clvf_frame* s, const clvf_frame* d) { got = run(s, *d); });
  return got;
}

void Chain::complete() {
  if (!count_) throw Error(CLVF_ERROR_INVALID_ARGUMENT, "chain: no frame is in flight: nothing to complete");
  Frame& f = frames_[oldest_];
  oldest_ = (oldest_ + 1) % CLVF_MAX_IN_FLIGHT;
  --count_;
  const uint32_t stages = f.stages;
  f.stages = 0;
  complete_stages(stages);
}

bool Chain::run(const clvf_frame* in, const clvf_frame& dst) {
  const std::vector<cl::Event>* before = nullptr;  // the previous stage's events for this frame
  uint32_t submitted = 0;
  bool got = false;
  try {
    for (size_t i = 0; i < stages_.size(); ++i) {
      Stage& stage = *stages_[i];
      const bool last = i + 1 == stages_.size();
      const clvf_frame& out = last ? dst : between_[i]->frame;
      // A stage waits for the previous one's output, and overwrites the frame between it and the
      // next only after the next has read the earlier frame there: an operation may read on a
      // queue of its own (denoise's chroma on the side queue), which the writer's does not follow.
      wait_.clear();
      if (before) wait_.insert(wait_.end(), before->begin(), before->end());
      if (!last) {
        const auto& read = stages_[i + 1]->operation->submitted();
        wait_.insert(wait_.end(), read.begin(), read.end());
      }
      if (stage.named([&] { return stage.operation->submit(in, out, wait_); })) {
        submitted |= 1u << i;
        before = &stage.operation->submitted();
        in = &out;
        got = last;
      } else if (in) {
        break;  // held back by a temporal denoise
      }
      // else the end travels on: later stages give what they still hold
    }
  } catch (...) {
    try {
      complete_all();
      complete_stages(submitted);
    } catch (...) {
    }
    throw;
  }
  if (!got) {
    // Nothing for the caller to complete: what earlier stages hold of this frame is completed now,
    // after the frames before it (each stage completes its frames in order).
    complete_all();
    complete_stages(submitted);
    return false;
  }
  frames_[(oldest_ + count_) % CLVF_MAX_IN_FLIGHT].stages = submitted;
  ++count_;
  return true;
}

void Chain::complete_all() {
  std::exception_ptr first;
  for (int n = 0; n < count_; ++n) {
    Frame& f = frames_[(oldest_ + n) % CLVF_MAX_IN_FLIGHT];
    const uint32_t stages = f.stages;
    f.stages = 0;
    try {
      complete_stages(stages);
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

void Chain::complete_stages(uint32_t stages) {
  std::exception_ptr first;
  for (size_t i = stages_.size(); i-- > 0;) {
    if (!(stages & (1u << i))) continue;
    Stage& stage = *stages_[i];
    try {
      stage.named([&] { stage.operation->complete(); });
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

}  // namespace clvf::detail::chain
