// clvf_chain: the operations of a filter chain, each frame submitted through all of them with no
// host wait between stages (each stage's kernels wait for the previous stage's events; the host
// waits once, for the last stage), with the frames between them in device buffers made once. The
// ends take every storage the operations take, Direct3D and CUDA included (FrameSides).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "clvf/clvf.h"
#include "api/chain/stage_plan.hpp"
#include "interop/shared_frames.hpp"
#include "runtime/cl.hpp"

namespace clvf::detail::chain {

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
  // Sends src (null: the end of the stream) through the stages; when an output comes out of the
  // last one it is started into dst and submit returns true: complete() finishes it (oldest
  // first; at most CLVF_MAX_IN_FLIGHT in flight), and src and dst stay in use until then. False:
  // held back by a temporal denoise (the first t frames) or nothing left at the end; src has then
  // been read. After an error nothing of the chain's is in flight.
  bool submit(const clvf_frame* src, const clvf_frame& dst);
  void complete();
  // submit then complete.
  bool process(const clvf_frame* src, const clvf_frame& dst);

 private:
  struct Stage;
  struct Between;
  // A frame submitted: the stages that hold an output of it (bit i: stage i), not yet completed.
  struct Frame {
    uint32_t stages = 0;
  };
  bool run(const clvf_frame* in, const clvf_frame& dst);
  // Completes a frame's stages, the last first (the one the host waits for; the others are done by
  // then). Every stage is completed even when one fails; the first error is thrown after.
  void complete_stages(uint32_t stages);
  // Completes every frame in flight, ahead of the caller's complete() (whose frames then have
  // nothing left to finish): before a frame is given back held back, and after an error.
  void complete_all();

  std::vector<std::unique_ptr<Stage>> stages_;
  std::vector<std::unique_ptr<Between>> between_;  // stage i's output, for i + 1 < stages
  FrameSides sides_;                               // the chain's source and destination
  std::array<Frame, CLVF_MAX_IN_FLIGHT> frames_;   // in flight: count_ from oldest_, circularly
  std::vector<cl::Event> wait_;                    // what a stage's submit waits for (run)
  int oldest_ = 0, count_ = 0;
  clvf_stream output_{};
};

}  // namespace clvf::detail::chain
