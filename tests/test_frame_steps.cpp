// How a frame's steps reach the device's queues (runtime/ops/frame_run.cpp): with a side queue
// (denoise), step 0 goes to the device's queue and the others to its side queue, which must start
// after what the device's queue held before the frame; the device's queue does not wait for the
// side queue (the next frame starts at once) unless joined to it (Device::join_side_queue, before
// an interop release: FrameSides), and the frame's event covers both. Each ordering is checked
// with a kernel slow enough, or a side step held by a user event, so that a missing wait would
// let the next command read data not yet written.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "interop/shared_frames.hpp"
#include "runtime/ops/frame_run.hpp"
#include "test_device.hpp"

namespace clvf::detail::test {
namespace {

constexpr int kItems = 256;
// slow_fill: one work-item spins (its result kept, so that the loop stays) before the buffer
// gets `value`; add_one: dst = src + 1.
constexpr const char* kSource = R"(
__kernel void slow_fill(__global int *dst, __global uint *sink, int value, int spins) {
  uint x = 1;
  for (int i = 0; i < spins; ++i) x = x * 1664525u + 1013904223u;
  sink[0] = x;
  for (int i = 0; i < ITEMS; ++i) dst[i] = value;
}
__kernel void add_one(__global const int *src, __global int *dst) {
  const int i = get_global_id(0);
  dst[i] = src[i] + 1;
}
)";
// Long enough that the tests below that rely on it (rather than on a user event) failed with the
// wait they check removed (tried on PoCL).
constexpr int kSpins = 20000000;

class FrameSteps : public ::testing::Test {
 protected:
  void SetUp() override {
    device_ = open_test_device();
    const std::string options = "-DITEMS=" + std::to_string(kItems);
    slow_fill_ = device_->kernel(kSource, options, "slow_fill");
    add_one_ = device_->kernel(kSource, options, "add_one");
    sink_ = cl::Buffer(device_->context(), CL_MEM_READ_WRITE, sizeof(cl_uint));
  }
  cl::Buffer zeroed() {
    std::vector<int> zeros(kItems, 0);
    return cl::Buffer(device_->context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(int) * kItems, zeros.data());
  }
  void enqueue_slow_fill(const cl::CommandQueue& q, const cl::Buffer& dst, int value) {
    slow_fill_.set("dst", dst);
    slow_fill_.set("sink", sink_);
    slow_fill_.set("value", value);
    slow_fill_.set("spins", kSpins);
    q.enqueueNDRangeKernel(slow_fill_.get(), cl::NullRange, cl::NDRange(1), cl::NullRange);
  }
  void enqueue_add_one(const cl::CommandQueue& q, const cl::Buffer& src, const cl::Buffer& dst) {
    add_one_.set("src", src);
    add_one_.set("dst", dst);
    q.enqueueNDRangeKernel(add_one_.get(), cl::NullRange, cl::NDRange(kItems), cl::NullRange);
  }
  // A frame of two steps whose side step waits for `gate` (which the test sets) before `side_step`.
  cl::Event gated_frame(FramePipeline& pipeline, const cl::UserEvent& gate,
                        const std::function<void(const cl::CommandQueue&)>& side_step) {
    const std::vector<cl::Event> gates{gate};
    const clvf_frame none{};
    return pipeline.enqueue(*device_, profile_, nullptr, nullptr, none, none, 2,
                            [&](size_t i, const cl::CommandQueue& q) {
                              if (i == 1) q.enqueueBarrierWithWaitList(&gates), side_step(q);
                            }, {});
  }
  // add_one on the device's queue alone, submitted: the marker after it.
  cl::Event add_one_on_queue(const cl::Buffer& src, const cl::Buffer& dst) {
    cl::Event after;
    enqueue_add_one(device_->queue(), src, dst);
    device_->queue().enqueueMarkerWithWaitList(nullptr, &after);
    device_->queue().flush();
    return after;
  }
  // Whether `e` completes within `seconds` (polled; an error status counts as not completing).
  static bool completes(const cl::Event& e, double seconds) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    for (;;) {
      if (e.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() == CL_COMPLETE) return true;
      if (std::chrono::steady_clock::now() >= end) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  std::vector<int> read(const cl::Buffer& b) {
    std::vector<int> v(kItems);
    device_->queue().enqueueReadBuffer(b, CL_TRUE, 0, sizeof(int) * kItems, v.data());
    return v;
  }

  std::shared_ptr<Device> device_;
  Kernel slow_fill_, add_one_;
  cl::Buffer sink_;
  KernelProfile profile_;
};

TEST_F(FrameSteps, StepZeroOnTheQueueOthersOnTheSideQueueOnlyWhenAsked) {
  for (bool side : {false, true}) {
    FramePipeline pipeline(side);
    std::vector<cl_command_queue> used;
    const clvf_frame none{};
    cl::Event done = pipeline.enqueue(*device_, profile_, nullptr, nullptr, none, none, 3,
                                      [&](size_t, const cl::CommandQueue& q) { used.push_back(q()); }, {});
    done.wait();
    const cl_command_queue main = device_->queue()(), other = side ? device_->side_queue()() : main;
    EXPECT_EQ(used, (std::vector<cl_command_queue>{main, other, other})) << "side queue " << side;
  }
}

TEST_F(FrameSteps, SideQueueStartsAfterTheQueuesEarlierWork) {
  const cl::Buffer a = zeroed(), b = zeroed();
  enqueue_slow_fill(device_->queue(), a, 7);  // before the frame, on the device's queue
  FramePipeline pipeline(true);
  const clvf_frame none{};
  cl::Event done = pipeline.enqueue(*device_, profile_, nullptr, nullptr, none, none, 2,
                                    [&](size_t i, const cl::CommandQueue& q) {
                                      if (i == 1) enqueue_add_one(q, a, b);
                                    }, {});
  done.wait();
  EXPECT_EQ(read(b), std::vector<int>(kItems, 8));
}

// The side step waits for a user event the test sets, so that "still waiting" is certain, not a
// matter of a kernel's speed.
TEST_F(FrameSteps, QueueDoesNotWaitForTheSideQueue) {
  const cl::Buffer a = zeroed(), b = zeroed(), c = zeroed();
  cl::UserEvent gate(device_->context());
  FramePipeline pipeline(true);
  cl::Event done = gated_frame(pipeline, gate, [&](const cl::CommandQueue& q) { enqueue_add_one(q, a, b); });
  // The next frame's first step (here a command on the device's queue) runs at once.
  const cl::Event next = add_one_on_queue(a, c);
  EXPECT_TRUE(completes(next, 30.0)) << "the device's queue waited for the side queue";
  EXPECT_FALSE(completes(done, 0.0)) << "the frame's event did not wait for its side step";
  gate.setStatus(CL_COMPLETE);
  done.wait();
  EXPECT_EQ(read(b), std::vector<int>(kItems, 1));
  EXPECT_EQ(read(c), std::vector<int>(kItems, 1));
}

TEST_F(FrameSteps, JoinOrdersTheQueueAfterTheSideQueue) {
  const cl::Buffer a = zeroed(), b = zeroed();
  cl::UserEvent gate(device_->context());
  FramePipeline pipeline(true);
  cl::Event done = gated_frame(pipeline, gate, [&](const cl::CommandQueue& q) { enqueue_slow_fill(q, a, 5); });
  // What follows the device's queue alone after the join (as an interop release does) sees the
  // side step's writes.
  device_->join_side_queue();
  const cl::Event later = add_one_on_queue(a, b);
  EXPECT_FALSE(completes(later, 1.0)) << "the join did not wait for the side queue";
  gate.setStatus(CL_COMPLETE);
  EXPECT_EQ(read(b), std::vector<int>(kItems, 6));
  done.wait();
}

TEST_F(FrameSteps, FramesEventCoversTheSideQueue) {
  const cl::Buffer a = zeroed();
  FramePipeline pipeline(true);
  const clvf_frame none{};
  cl::Event done = pipeline.enqueue(*device_, profile_, nullptr, nullptr, none, none, 2,
                                    [&](size_t i, const cl::CommandQueue& q) {
                                      if (i == 1) enqueue_slow_fill(q, a, 5);
                                    }, {});
  done.wait();
  std::vector<int> v(kItems);  // read on a queue not ordered with the others
  device_->download_queue().enqueueReadBuffer(a, CL_TRUE, 0, sizeof(int) * kItems, v.data());
  EXPECT_EQ(v, std::vector<int>(kItems, 5));
}

// A shared side whose release, as the interop ones, enqueues a command on the device's queue alone.
class QueueReleasing : public SharedFrames {
 public:
  explicit QueueReleasing(std::function<void()> on_release) : on_release_(std::move(on_release)) {}
  clvf_storage inner_storage() const override { return CLVF_STORAGE_CL_BUFFER; }
  clvf_frame acquire(const clvf_frame& frame) override { return frame; }
  void release() override { on_release_(); }

 private:
  std::function<void()> on_release_;
};

TEST_F(FrameSteps, SharedFramesReleaseAfterTheSideQueue) {
  const cl::Buffer a = zeroed(), b = zeroed();
  cl::UserEvent gate(device_->context());
  cl::Event released;
  FrameSides sides;
  sides.device = device_;
  sides.dst = std::make_unique<QueueReleasing>([&] { released = add_one_on_queue(a, b); });
  FramePipeline pipeline(true);
  const clvf_frame none{};
  cl::Event done;
  sides.run(&none, &none, [&](const clvf_frame*, const clvf_frame*) {
    done = gated_frame(pipeline, gate, [&](const cl::CommandQueue& q) { enqueue_slow_fill(q, a, 5); });
  });
  EXPECT_FALSE(completes(released, 1.0)) << "the release did not wait for the side queue";
  gate.setStatus(CL_COMPLETE);
  released.wait();
  EXPECT_EQ(read(b), std::vector<int>(kItems, 6));
  done.wait();
}

}  // namespace
}  // namespace clvf::detail::test
