// Image frames on CPU devices go through buffers (Device::stages_images, runtime/frame_planes):
// each plane is copied into a buffer before the kernels and out of one after them, and the
// kernels are those of buffer frames, so the output is byte for byte what the same frame gives in
// cl buffers. CLVF_IMAGES=in-place keeps them in the images (the checkers run both ways: see
// tests/CMakeLists.txt). Frames enqueued back to back, which share one set of buffers, each get
// their own output; an image smaller than its plane is refused by name, with nothing written.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <random>
#include <string>
#include <thread>

#include "checker_support.hpp"
#include "component_check.hpp"
#include "runtime/error.hpp"
#include "runtime/frame_planes.hpp"
#include "runtime/ops/colorspace.hpp"
#include "runtime/ops/denoise.hpp"
#include "runtime/ops/scale_convert.hpp"
#include "test_frames.hpp"

namespace clvf::detail::test {
namespace {

constexpr clvf_pixel_format kFormat = CLVF_PIX_YUV420P;  // one-channel planes: images on PoCL too
constexpr int kW = 97, kH = 61, kDstW = 64, kDstH = 40;

std::shared_ptr<Device> open_with_images(const char* images) {
  Settings s = Settings::from_environment();
  s.images = images;
  const char* spec = std::getenv("CLVF_TEST_DEVICE");
  return Device::open(spec && *spec ? spec : "pocl", s);
}

bool cpu_only(const Device& d) {
  const cl_device_type type = d.device().getInfo<CL_DEVICE_TYPE>();
  return (type & CL_DEVICE_TYPE_CPU) && !(type & CL_DEVICE_TYPE_GPU);
}

clvf_scale_params scale_params(clvf_storage storage) {
  clvf_scale_params p;
  clvf_scale_params_default(&p);
  p.format = p.dst_format = kFormat, p.src_width = kW, p.src_height = kH, p.dst_width = kDstW, p.dst_height = kDstH;
  p.algorithm = CLVF_SCALE_SPLINE36, p.src_matrix = CLVF_MATRIX_BT709, p.dst_matrix = CLVF_MATRIX_SMPTE170M;
  p.src_storage = p.dst_storage = storage;
  return p;
}

clvf_colorspace_params colour_params(clvf_storage storage) {
  clvf_colorspace_params p;
  clvf_colorspace_params_default(&p);
  p.width = kW, p.height = kH, p.src_format = p.dst_format = kFormat;
  p.src_matrix = CLVF_MATRIX_BT709, p.dst_matrix = CLVF_MATRIX_BT2020_NCL;
  p.src_storage = p.dst_storage = storage;
  return p;
}

clvf_denoise_params denoise_params(clvf_storage storage) {
  clvf_denoise_params p;
  clvf_denoise_params_default(&p);
  p.format = kFormat, p.width = kW, p.height = kH, p.patch_size = 5, p.research_size = 9;
  p.src_storage = p.dst_storage = storage;
  return p;
}

using Run = std::function<void(const clvf_frame&, const clvf_frame&)>;

template <class Op, class Params>
Run runner(std::shared_ptr<Device> d, const Params& p) {
  auto op = std::make_shared<Op>(std::move(d), p);
  return [op](const clvf_frame& s, const clvf_frame& t) { op->process(s, t); };
}

// Each operation of the test, made for a storage, run on one frame.
struct Case {
  const char* name;
  int dst_w, dst_h;
  Run (*make)(std::shared_ptr<Device>, clvf_storage);
};

std::vector<Case> cases() {
  return {
      {"scale with conversion", kDstW, kDstH,
       [](std::shared_ptr<Device> d, clvf_storage s) { return runner<ScaleConvert>(d, scale_params(s)); }},
      {"colorspace", kW, kH,
       [](std::shared_ptr<Device> d, clvf_storage s) { return runner<Colorspace>(d, colour_params(s)); }},
      {"denoise", kW, kH,
       [](std::shared_ptr<Device> d, clvf_storage s) { return runner<Denoise>(d, denoise_params(s)); }},
  };
}

TEST(StagedImages, ChosenByTheDeviceTypeUnlessSet) {
  const auto by_type = open_with_images("");
  EXPECT_EQ(by_type->stages_images(), cpu_only(*by_type));
  EXPECT_TRUE(open_with_images("staged")->stages_images());
  EXPECT_FALSE(open_with_images("in-place")->stages_images());
  try {
    open_with_images("copy");
    ADD_FAILURE() << "CLVF_IMAGES=copy was taken";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), CLVF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(e.what()).find("CLVF_IMAGES is 'copy'; allowed: staged, in-place"), std::string::npos)
        << e.what();
  }
}

// Staged images give exactly what cl buffers give (the same kernels), and every plane is copied
// in and out; in place, nothing is copied.
TEST(StagedImages, SameBytesAsBuffersAndEveryPlaneCopied) {
  std::mt19937_64 rng(checker_seed());
  const auto staged = open_with_images("staged"), in_place = open_with_images("in-place");
  const auto shapes = colour_plane_shapes(kFormat, kW, kH);
  const auto formats = colour_image_formats(kFormat);
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    const auto planes = pack(kFormat, random_components(kFormat, kW, kH, rng), kW, kH);
    const auto dst_shapes = colour_plane_shapes(kFormat, c.dst_w, c.dst_h);
    const auto poison = pack(kFormat, random_components(kFormat, c.dst_w, c.dst_h, rng), c.dst_w, c.dst_h);
    const auto run = [&](const std::shared_ptr<Device>& d, clvf_storage storage) {
      TestFrame in(d->context(), d->queue(), storage, shapes, formats), out(d->context(), d->queue(), storage, dst_shapes, formats);
      in.fill(planes);
      out.fill(poison);
      c.make(d, storage)(in.frame(), out.frame());
      bool intact = false;
      auto got = out.read(&intact);
      EXPECT_TRUE(intact) << "written outside the planes";
      return got;
    };
    const auto buffers = run(staged, CLVF_STORAGE_CL_BUFFER);
    const uint64_t before = host_transfers().image_copies;
    const auto images = run(staged, CLVF_STORAGE_CL_IMAGE);
    EXPECT_EQ(host_transfers().image_copies - before, 2 * shapes.size()) << "each plane in and out";
    ASSERT_EQ(images.size(), buffers.size());
    for (size_t i = 0; i < images.size(); ++i) EXPECT_TRUE(images[i].data == buffers[i].data) << "plane " << i;

    const uint64_t in_place_before = host_transfers().image_copies;
    run(in_place, CLVF_STORAGE_CL_IMAGE);
    EXPECT_EQ(host_transfers().image_copies, in_place_before) << "images in place were copied";
  }
}

// Enqueued frames share one set of staging buffers: frames enqueued back to back, with no wait
// on the host between them, each give the output of their own source. Into images (their copies
// out, on the kernels' queue, follow every plane's kernels) and into cl buffers (where nothing
// on the kernels' queue waits for the chroma's kernels on the side queue before the next frame's
// copies in).
TEST(StagedImages, EnqueuedBackToBackEachGetTheirOwnOutput) {
  std::mt19937_64 rng(checker_seed() + 1);
  const auto d = open_with_images("staged");
  for (const bool convert : {true, false}) {
    SCOPED_TRACE(convert ? "scale with conversion, images to images" : "scale, images to cl buffers");
    const clvf_storage dst_storage = convert ? CLVF_STORAGE_CL_IMAGE : CLVF_STORAGE_CL_BUFFER;
    constexpr int w = 640, h = 360, dst_w = 320, dst_h = 180;
    clvf_scale_params p = scale_params(CLVF_STORAGE_CL_IMAGE);
    p.src_width = w, p.src_height = h, p.dst_width = dst_w, p.dst_height = dst_h;
    p.dst_storage = dst_storage;
    if (!convert) {  // all 0: no conversion
      p.dst_format = clvf_pixel_format{};
      p.src_matrix = p.dst_matrix = clvf_matrix{};
    }
    const auto formats = colour_image_formats(kFormat);
    ScaleConvert scale(d, p);
    constexpr int kFrames = 8;
    std::vector<std::unique_ptr<TestFrame>> ins, outs;
    std::vector<std::vector<RefPlane>> expected;
    for (int n = 0; n < kFrames; ++n) {
      ins.push_back(std::make_unique<TestFrame>(d->context(), d->queue(), CLVF_STORAGE_CL_IMAGE,
                                                colour_plane_shapes(kFormat, w, h), formats));
      ins.back()->fill(pack(kFormat, random_components(kFormat, w, h, rng), w, h));
      outs.push_back(std::make_unique<TestFrame>(d->context(), d->queue(), dst_storage,
                                                 colour_plane_shapes(kFormat, dst_w, dst_h), formats));
      scale.process(ins.back()->frame(), outs.back()->frame());
      bool intact = false;
      expected.push_back(outs.back()->read(&intact));
      outs.back()->fill(pack(kFormat, random_components(kFormat, dst_w, dst_h, rng), dst_w, dst_h));
    }
    // The device's side queue held shut while the frames are enqueued, so that the kernels'
    // queue runs ahead of it: a frame's copies in must still wait for the frame before's chroma.
    cl::UserEvent gate(d->context());
    const std::vector<cl::Event> shut{gate};
    d->side_queue().enqueueBarrierWithWaitList(&shut);
    std::vector<cl::Event> events;
    for (int n = 0; n < kFrames; ++n) events.push_back(scale.enqueue(ins[n]->frame(), outs[n]->frame(), {}));
    d->queue().flush();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    gate.setStatus(CL_COMPLETE);
    cl::Event::waitForEvents(events);
    for (int n = 0; n < kFrames; ++n) {
      bool intact = false;
      const auto got = outs[n]->read(&intact);
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_TRUE(got[i].data == expected[n][i].data) << "frame " << n << " plane " << i;
    }
  }
}

// An image smaller than its plane: refused, naming the plane and both sizes; the destination
// keeps its poison.
TEST(StagedImages, AnImageSmallerThanItsPlaneIsRefused) {
  std::mt19937_64 rng(checker_seed() + 2);
  for (const char* images : {"staged", "in-place"}) {
    SCOPED_TRACE(images);
    const auto d = open_with_images(images);
    const auto formats = colour_image_formats(kFormat);
    auto small = colour_plane_shapes(kFormat, kW, kH);
    small[2].w -= 1;  // the V plane one column short
    TestFrame in(d->context(), d->queue(), CLVF_STORAGE_CL_IMAGE, small, formats);
    TestFrame out(d->context(), d->queue(), CLVF_STORAGE_CL_IMAGE, colour_plane_shapes(kFormat, kW, kH), formats);
    const auto poison = pack(kFormat, random_components(kFormat, kW, kH, rng), kW, kH);
    out.fill(poison);
    const auto op = cases()[1].make(d, CLVF_STORAGE_CL_IMAGE);
    try {
      op(in.frame(), out.frame());
      ADD_FAILURE() << "a short image was taken";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), CLVF_ERROR_INVALID_ARGUMENT);
      const std::string want = fmt::format("source image plane 2 is {}x{} of 1-byte elements; the plane needs at least {} "
                                           "bytes a row",
                                           small[2].w, small[2].h, small[2].w + 1);
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
    bool intact = false;
    const auto got = out.read(&intact);
    EXPECT_TRUE(intact);
    for (size_t i = 0; i < got.size(); ++i) EXPECT_TRUE(got[i].data == poison[i].data) << "plane " << i << " was written";
  }
}

}  // namespace
}  // namespace clvf::detail::test
