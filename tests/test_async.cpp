// Asynchronous submit / complete: several frames in flight give exactly what one frame at a
// time gives, frames complete in order, the in-flight limit and an empty pipeline are clear
// errors, and releasing an operation with frames in flight is safe. Every storage kind; the
// staged-copy run (CLVF_NO_ZERO_COPY=1) covers the pinned staging of discrete GPUs.
#include <gtest/gtest.h>

#include <random>

#include "checker_support.hpp"
#include "component_check.hpp"
#include "reference_colour.hpp"
#include "test_frames.hpp"

namespace clvf::test {
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

CLVF_INSTANTIATE_STORAGES(AsyncFrames);

}  // namespace
}  // namespace clvf::test
