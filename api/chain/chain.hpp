// clvf_chain: the operations of a filter chain, run one after another on each frame through the
// C API's own operations (so every storage they take, Direct3D included, works at the ends), with
// the frames between them in device buffers made once.
#pragma once
#include <memory>
#include <string_view>
#include <vector>

#include "clvf/clvf.h"
#include "api/chain/stage_plan.hpp"

namespace clvf::chain {

// A chain string's filters: the string itself, or the chain preset it names.
std::vector<FilterText> chain_filters(std::string_view chain);

struct ChainPlan {
  std::vector<FilterText> filters;
  std::vector<StagePlan> stages;  // one per filter
  clvf_stream output{};
};
// Plans every filter of `chain` for `input`, without a device. Throws Error naming the stage.
ChainPlan plan_chain(std::string_view chain, const clvf_stream& input);

class Chain {
 public:
  Chain(clvf_device* device, std::string_view chain, const clvf_stream& input, clvf_storage src_storage,
        clvf_storage dst_storage);
  ~Chain();
  Chain(const Chain&) = delete;
  Chain& operator=(const Chain&) = delete;

  const clvf_stream& output() const { return output_; }
  // One step of the stream (src null: its end); true when dst received an output.
  bool process(const clvf_frame* src, const clvf_frame* dst);

 private:
  struct Stage;
  struct Between;
  std::vector<std::unique_ptr<Stage>> stages_;
  std::vector<std::unique_ptr<Between>> between_;  // stage i's output, for i + 1 < stages
  clvf_stream output_{};
};

}  // namespace clvf::chain
