// Asynchronous submit / complete: several frames in flight give exactly what one frame at a
// time gives, frames complete in order, the in-flight limit and an empty pipeline are clear
// errors, and releasing an operation with frames in flight is safe. Every storage kind; the
// staged-copy run (CLVF_NO_ZERO_COPY=1) covers the pinned staging of discrete GPUs.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>

#include "checker_support.hpp"
#include "component_check.hpp"
#include "reference_colour.hpp"
#include "test_frames.hpp"

namespace clvf::detail::test {
namespace {

class AsyncFrames : public StorageChecker {
 protected:
  // Scale 97x61 NV12 -> 64x40 with a conversion to YUV420P BT.601, or (convert) the colour
  // conversion alone.
  struct Op {
    clvf_scale* scale = nullptr;
    clvf_colorspace* colour = nullptr;
    clvf_status submit(const clvf_frame& s, const clvf_frame& d) {
      return scale ? clvf_scale_submit(scale, &s, &d) : clvf_colorspace_submit(colour, &s, &d);
    }
    clvf_status complete() { return scale ? clvf_scale_complete(scale) : clvf_colorspace_complete(colour); }
    clvf_status process(const clvf_frame& s, const clvf_frame& d) {
      return scale ? clvf_scale_process(scale, &s, &d) : clvf_colorspace_process(colour, &s, &d);
    }
    void release() {
      clvf_scale_release(scale);
      clvf_colorspace_release(colour);
      scale = nullptr, colour = nullptr;
    }
  };
  static constexpr int kSrcW = 97, kSrcH = 61;
  Op make(bool scale, clvf_storage storage, int& dst_w, int& dst_h) {
    Op op;
    if (scale) {
      clvf_scale_params p;
      clvf_scale_params_default(&p);
      p.format = CLVF_PIX_YUV420P, p.src_width = kSrcW, p.src_height = kSrcH, p.dst_width = 64, p.dst_height = 40;
      p.dst_format = CLVF_PIX_YUV420P, p.src_matrix = CLVF_MATRIX_BT709, p.dst_matrix = CLVF_MATRIX_SMPTE170M;
      p.src_storage = p.dst_storage = storage;
      EXPECT_EQ(clvf_scale_create(handle_, &p, &op.scale), CLVF_OK) << clvf_last_error();
      dst_w = 64, dst_h = 40;
    } else {
      clvf_colorspace_params p;
      clvf_colorspace_params_default(&p);
      p.width = kSrcW, p.height = kSrcH, p.src_format = p.dst_format = CLVF_PIX_YUV420P;
      p.src_matrix = CLVF_MATRIX_BT709, p.dst_matrix = CLVF_MATRIX_BT2020_NCL;
      p.src_storage = p.dst_storage = storage;
      EXPECT_EQ(clvf_colorspace_create(handle_, &p, &op.colour), CLVF_OK) << clvf_last_error();
      dst_w = kSrcW, dst_h = kSrcH;
    }
    return op;
  }
};

TEST_P(AsyncFrames, InFlightFramesEqualOneAtATime) {
  const clvf_storage storage = GetParam();
  std::mt19937_64 rng(checker_seed());
  for (bool scale : {true, false}) {
    SCOPED_TRACE(scale ? "scale with conversion" : "colorspace");
    int w = 0, h = 0;
    Op op = make(scale, storage, w, h);
    ASSERT_TRUE(op.scale || op.colour);
    const auto shapes = colour_plane_shapes(CLVF_PIX_YUV420P, kSrcW, kSrcH);
    const auto formats = colour_image_formats(CLVF_PIX_YUV420P);
    constexpr int kFrames = 7;
    std::vector<std::unique_ptr<TestFrame>> in, out;
    std::vector<std::vector<RefPlane>> expected;
    for (int n = 0; n < kFrames; ++n) {
      const auto planes = pack(CLVF_PIX_YUV420P, random_components(CLVF_PIX_YUV420P, kSrcW, kSrcH, rng), kSrcW, kSrcH);
      in.push_back(std::make_unique<TestFrame>(device_->context(), device_->queue(), storage, shapes, formats));
      in.back()->fill(planes);
      out.push_back(std::make_unique<TestFrame>(device_->context(), device_->queue(), storage,
                                                colour_plane_shapes(CLVF_PIX_YUV420P, w, h), formats));
      ASSERT_EQ(op.process(in.back()->frame(), out.back()->frame()), CLVF_OK) << clvf_last_error();
      bool intact = false;
      expected.push_back(out.back()->read(&intact));
      out.back()->fill(pack(CLVF_PIX_YUV420P, random_components(CLVF_PIX_YUV420P, w, h, rng), w, h));  // poison
    }
    // Keep CLVF_MAX_IN_FLIGHT frames in flight, completing the oldest before each new one.
    int completed = 0;
    for (int n = 0; n < kFrames; ++n) {
      if (n >= CLVF_MAX_IN_FLIGHT) {
        ASSERT_EQ(op.complete(), CLVF_OK) << clvf_last_error();
        ++completed;
      }
      ASSERT_EQ(op.submit(in[n]->frame(), out[n]->frame()), CLVF_OK) << clvf_last_error();
    }
    EXPECT_EQ(op.submit(in[0]->frame(), out[0]->frame()), CLVF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(clvf_last_error()).find("3 frames are in flight"), std::string::npos) << clvf_last_error();
    for (; completed < kFrames; ++completed) ASSERT_EQ(op.complete(), CLVF_OK) << clvf_last_error();
    EXPECT_EQ(op.complete(), CLVF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(clvf_last_error()).find("no frame is in flight"), std::string::npos);
    for (int n = 0; n < kFrames; ++n) {
      bool intact = false;
      const auto got = out[n]->read(&intact);
      EXPECT_TRUE(intact);
      for (size_t i = 0; i < got.size(); ++i) EXPECT_TRUE(got[i].data == expected[n][i].data) << "frame " << n << " plane " << i;
    }
    // Released with frames in flight: waits for them, nothing is left behind.
    ASSERT_EQ(op.submit(in[0]->frame(), out[0]->frame()), CLVF_OK) << clvf_last_error();
    ASSERT_EQ(op.submit(in[1]->frame(), out[1]->frame()), CLVF_OK) << clvf_last_error();
    op.release();
  }
}

// Where the device copies host frames (discrete GPUs; here the staged run, CLVF_NO_ZERO_COPY=1),
// a source may be reused once submit returns: one source frame, refilled with the next frame's
// samples right after each submit (and with noise after the last), still gives every output as
// one frame at a time does.
TEST_P(AsyncFrames, CopiedHostSourcesMayBeReusedAfterSubmit) {
  if (GetParam() != CLVF_STORAGE_HOST) GTEST_SKIP() << "host frames only";
  const char* no_zero_copy = std::getenv("CLVF_NO_ZERO_COPY");
  const bool staged = (no_zero_copy && std::string(no_zero_copy) == "1") ||
                      !device_->device().getInfo<CL_DEVICE_HOST_UNIFIED_MEMORY>();
  ASSERT_EQ(clvf_device_copies_host_frames(handle_), staged ? 1 : 0);
  EXPECT_EQ(clvf_device_copies_host_frames(nullptr), 0);
  if (!staged) GTEST_SKIP() << "host frames are used in place on this device (the staged run covers the rest)";
  std::mt19937_64 rng(checker_seed());
  int w = 0, h = 0;
  Op op = make(true, CLVF_STORAGE_HOST, w, h);
  ASSERT_TRUE(op.scale);
  const auto shapes = colour_plane_shapes(CLVF_PIX_YUV420P, kSrcW, kSrcH);
  const auto formats = colour_image_formats(CLVF_PIX_YUV420P);
  constexpr int kFrames = 6;
  std::vector<std::vector<RefPlane>> sources;
  std::vector<std::unique_ptr<TestFrame>> out;
  std::vector<std::vector<RefPlane>> expected;
  TestFrame src(device_->context(), device_->queue(), CLVF_STORAGE_HOST, shapes, formats);
  for (int n = 0; n < kFrames; ++n) {
    sources.push_back(pack(CLVF_PIX_YUV420P, random_components(CLVF_PIX_YUV420P, kSrcW, kSrcH, rng), kSrcW, kSrcH));
    src.fill(sources.back());
    out.push_back(std::make_unique<TestFrame>(device_->context(), device_->queue(), CLVF_STORAGE_HOST,
                                              colour_plane_shapes(CLVF_PIX_YUV420P, w, h), formats));
    ASSERT_EQ(op.process(src.frame(), out.back()->frame()), CLVF_OK) << clvf_last_error();
    bool intact = false;
    expected.push_back(out.back()->read(&intact));
    out.back()->fill(pack(CLVF_PIX_YUV420P, random_components(CLVF_PIX_YUV420P, w, h, rng), w, h));  // poison
  }
  src.fill(sources[0]);
  int completed = 0;
  for (int n = 0; n < kFrames; ++n) {
    if (n >= CLVF_MAX_IN_FLIGHT) {
      ASSERT_EQ(op.complete(), CLVF_OK) << clvf_last_error();
      ++completed;
    }
    ASSERT_EQ(op.submit(src.frame(), out[n]->frame()), CLVF_OK) << clvf_last_error();
    src.fill(n + 1 < kFrames ? sources[n + 1]
                             : pack(CLVF_PIX_YUV420P, random_components(CLVF_PIX_YUV420P, kSrcW, kSrcH, rng), kSrcW, kSrcH));
  }
  for (; completed < kFrames; ++completed) ASSERT_EQ(op.complete(), CLVF_OK) << clvf_last_error();
  for (int n = 0; n < kFrames; ++n) {
    bool intact = false;
    const auto got = out[n]->read(&intact);
    EXPECT_TRUE(intact);
    for (size_t i = 0; i < got.size(); ++i) EXPECT_TRUE(got[i].data == expected[n][i].data) << "frame " << n << " plane " << i;
  }
  op.release();
}

// clvf_*_enqueue: a frame's kernels wait for the caller's events and report their own, with
// nothing waiting on the host; the output is what process gives. Host frames are refused.
TEST_P(AsyncFrames, EnqueuedFramesFollowTheCallersEvents) {
  const clvf_storage storage = GetParam();
  std::mt19937_64 rng(checker_seed());
  for (bool scale : {true, false}) {
    SCOPED_TRACE(scale ? "scale with conversion" : "colorspace");
    int w = 0, h = 0;
    Op op = make(scale, storage, w, h);
    ASSERT_TRUE(op.scale || op.colour);
    auto enqueue = [&](const clvf_frame& s, const clvf_frame& d, cl_uint n, const cl_event* wait, cl_event* done) {
      return scale ? clvf_scale_enqueue(op.scale, &s, &d, n, wait, done)
                   : clvf_colorspace_enqueue(op.colour, &s, &d, n, wait, done);
    };
    const auto formats = colour_image_formats(CLVF_PIX_YUV420P);
    const auto planes = pack(CLVF_PIX_YUV420P, random_components(CLVF_PIX_YUV420P, kSrcW, kSrcH, rng), kSrcW, kSrcH);
    TestFrame in(device_->context(), device_->queue(), storage, colour_plane_shapes(CLVF_PIX_YUV420P, kSrcW, kSrcH),
                 formats);
    in.fill(planes);
    TestFrame out(device_->context(), device_->queue(), storage, colour_plane_shapes(CLVF_PIX_YUV420P, w, h), formats);
    const auto poison = pack(CLVF_PIX_YUV420P, random_components(CLVF_PIX_YUV420P, w, h, rng), w, h);
    if (storage == CLVF_STORAGE_HOST) {
      cl_event done = reinterpret_cast<cl_event>(1);
      EXPECT_EQ(enqueue(in.frame(), out.frame(), 0, nullptr, &done), CLVF_ERROR_INVALID_ARGUMENT);
      EXPECT_NE(std::string(clvf_last_error()).find("takes frames in OpenCL memory"), std::string::npos)
          << clvf_last_error();
      EXPECT_EQ(done, nullptr);
      op.release();
      continue;
    }
    ASSERT_EQ(op.process(in.frame(), out.frame()), CLVF_OK) << clvf_last_error();
    bool intact = false;
    const auto expected = out.read(&intact);
    out.fill(poison);

    cl_int err = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(device_->context()(), &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_event done = nullptr;
    ASSERT_EQ(enqueue(in.frame(), out.frame(), 1, &gate, &done), CLVF_OK) << clvf_last_error();
    ASSERT_NE(done, nullptr);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cl_int status = CL_COMPLETE;
    ASSERT_EQ(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr), CL_SUCCESS);
    EXPECT_NE(status, CL_COMPLETE) << "the frame ran before the caller's event";
    ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    ASSERT_EQ(clWaitForEvents(1, &done), CL_SUCCESS);
    const auto got = out.read(&intact);
    EXPECT_TRUE(intact);
    for (size_t i = 0; i < got.size(); ++i) EXPECT_TRUE(got[i].data == expected[i].data) << "plane " << i;
    clReleaseEvent(done);
    clReleaseEvent(gate);

    // A second frame after the first one's event, and none asked for; bad wait lists.
    out.fill(poison);
    ASSERT_EQ(enqueue(in.frame(), out.frame(), 0, nullptr, &done), CLVF_OK) << clvf_last_error();
    ASSERT_EQ(enqueue(in.frame(), out.frame(), 1, &done, nullptr), CLVF_OK) << clvf_last_error();
    clReleaseEvent(done);
    EXPECT_EQ(enqueue(in.frame(), out.frame(), 2, nullptr, nullptr), CLVF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(clvf_last_error()).find("wait is NULL but num_wait is 2"), std::string::npos);
    const auto again = out.read(&intact);  // the read follows the frames on the device's queue
    for (size_t i = 0; i < again.size(); ++i) EXPECT_TRUE(again[i].data == expected[i].data) << "plane " << i;
    op.release();
  }
}

// Streams with frames in flight (clvf_denoise_submit, clvf_chain_submit): the same outputs in the
// same order as one at a time (send/receive, process), delayed by a temporal denoise, flushed at
// the end, with CLVF_MAX_IN_FLIGHT in flight; releasing with frames in flight is safe.
TEST_P(AsyncFrames, StreamsInFlightEqualOneAtATime) {
  const clvf_storage storage = GetParam();
  std::mt19937_64 rng(checker_seed());
  const auto formats = colour_image_formats(CLVF_PIX_YUV420P);
  struct Case {
    const char* name;
    int t;              // denoise alone, temporal radius t; or the frames a chain holds back
    const char* chain;  // or a chain
  };
  const Case cases[] = {{"denoise t=0", 0, nullptr},
                        {"denoise t=1", 1, nullptr},
                        {"denoise t=3", 3, nullptr},
                        {"chain", 1,
                         "denoise_clvf=s=4:p=3:r=5:t=1,scale_clvf=w=64:h=40,colorspace_clvf=matrix=bt601:range=pc"},
                        // A denoise reads the frame between the stages on two queues while the
                        // scale may already write the next frame's there.
                        {"chain scale,denoise", 0, "scale_clvf=w=64:h=40,denoise_clvf=s=4:p=3:r=5"}};
  int checked = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    clvf_denoise* denoise = nullptr;
    clvf_chain* chain = nullptr;
    int w = kSrcW, h = kSrcH;
    auto make = [&] {
      if (c.chain) {
        clvf_stream in{};
        in.version = CLVF_API_VERSION, in.width = kSrcW, in.height = kSrcH, in.format = CLVF_PIX_YUV420P;
        ASSERT_EQ(clvf_chain_create(handle_, c.chain, &in, storage, storage, &chain), CLVF_OK) << clvf_last_error();
        clvf_stream out{};
        ASSERT_EQ(clvf_chain_output(chain, &out), CLVF_OK);
        w = out.width, h = out.height;
        return;
      }
      clvf_denoise_params p;
      clvf_denoise_params_default(&p);
      p.format = CLVF_PIX_YUV420P, p.width = kSrcW, p.height = kSrcH, p.strength = 4, p.patch_size = 3;
      p.research_size = 5, p.temporal_radius = c.t, p.src_storage = p.dst_storage = storage;
      ASSERT_EQ(clvf_denoise_create(handle_, &p, &denoise), CLVF_OK) << clvf_last_error();
    };
    auto release = [&] {
      clvf_denoise_release(denoise);
      clvf_chain_release(chain);
      denoise = nullptr, chain = nullptr;
    };
    // One at a time: *got tells whether dst received an output.
    auto step = [&](const clvf_frame* s, const clvf_frame& d, int* got) {
      if (chain) return clvf_chain_process(chain, s, &d, got);
      clvf_status st = clvf_denoise_send(denoise, s);
      return st != CLVF_OK ? st : clvf_denoise_receive(denoise, &d, got);
    };
    auto submit = [&](const clvf_frame* s, const clvf_frame& d, int* got) {
      return chain ? clvf_chain_submit(chain, s, &d, got) : clvf_denoise_submit(denoise, s, &d, got);
    };
    auto complete = [&] { return chain ? clvf_chain_complete(chain) : clvf_denoise_complete(denoise); };

    make();
    ASSERT_TRUE(denoise || chain);
    constexpr int kFrames = 7;
    std::vector<std::unique_ptr<TestFrame>> in, out;  // out[kFrames]: for the calls that give nothing
    for (int n = 0; n <= kFrames; ++n) {
      if (n < kFrames) {
        in.push_back(std::make_unique<TestFrame>(device_->context(), device_->queue(), storage,
                                                 colour_plane_shapes(CLVF_PIX_YUV420P, kSrcW, kSrcH), formats));
        in.back()->fill(pack(CLVF_PIX_YUV420P, random_components(CLVF_PIX_YUV420P, kSrcW, kSrcH, rng), kSrcW, kSrcH));
      }
      out.push_back(std::make_unique<TestFrame>(device_->context(), device_->queue(), storage,
                                                colour_plane_shapes(CLVF_PIX_YUV420P, w, h), formats));
    }
    const auto poison = [&] { return pack(CLVF_PIX_YUV420P, random_components(CLVF_PIX_YUV420P, w, h, rng), w, h); };
    std::vector<std::vector<RefPlane>> expected;
    int got = 0, outputs = 0;
    for (int n = 0; n <= kFrames; ++n) {
      do {
        out[outputs]->fill(poison());
        ASSERT_EQ(step(n < kFrames ? &in[n]->frame() : nullptr, out[outputs]->frame(), &got), CLVF_OK)
            << clvf_last_error();
        if (got) {
          bool intact = false;
          expected.push_back(out[outputs++]->read(&intact));
        }
      } while (got && n == kFrames && outputs < kFrames);
    }
    ASSERT_EQ(outputs, kFrames);
    release();

    // Again with frames in flight, on a new operation.
    make();
    for (auto& o : out) o->fill(poison());
    int started = 0, in_flight = 0;
    for (int n = 0; n <= kFrames && started < kFrames; ++n) {  // the end is sent while outputs are to come
      do {
        if (in_flight == CLVF_MAX_IN_FLIGHT) {  // no submit while the most are in flight
          ASSERT_EQ(complete(), CLVF_OK) << clvf_last_error();
          --in_flight;
        }
        const clvf_frame& dst = out[started]->frame();
        ASSERT_EQ(submit(n < kFrames ? &in[n]->frame() : nullptr, dst, &got), CLVF_OK) << clvf_last_error();
        started += got, in_flight += got;
        if (n < kFrames) {
          EXPECT_EQ(got, n >= c.t ? 1 : 0) << "frame " << n;
        }
      } while (got && n == kFrames && started < kFrames);
    }
    EXPECT_EQ(started, kFrames);
    EXPECT_EQ(in_flight, CLVF_MAX_IN_FLIGHT);
    EXPECT_EQ(submit(&in[0]->frame(), out[0]->frame(), &got), CLVF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(clvf_last_error()).find("3 frames are in flight"), std::string::npos) << clvf_last_error();
    for (; in_flight; --in_flight) ASSERT_EQ(complete(), CLVF_OK) << clvf_last_error();
    EXPECT_EQ(complete(), CLVF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(clvf_last_error()).find("no frame is in flight"), std::string::npos) << clvf_last_error();
    for (int n = 0; n < kFrames; ++n) {
      bool intact = false;
      const auto planes = out[n]->read(&intact);
      EXPECT_TRUE(intact);
      for (size_t i = 0; i < planes.size(); ++i)
        EXPECT_TRUE(planes[i].data == expected[n][i].data) << "frame " << n << " plane " << i;
      ++checked;
    }
    // Released with frames in flight: waits for them, nothing is left behind.
    for (int n = 0; n < 3; ++n) ASSERT_EQ(submit(&in[n]->frame(), out[n]->frame(), &got), CLVF_OK) << clvf_last_error();
    release();
  }
  EXPECT_EQ(checked, static_cast<int>(std::size(cases)) * 7);
}

CLVF_INSTANTIATE_STORAGES(AsyncFrames);

}  // namespace
}  // namespace clvf::detail::test
