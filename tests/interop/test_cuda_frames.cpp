// Operations on CUDA frames through the C API (CLVF_STORAGE_CUDA on a device from
// clvf_device_open_cuda): every result must equal, byte for byte, the same operation on host
// frames holding the same planes (the same kernels run on both; the kernels themselves are checked
// against float64 references elsewhere). What is asserted of the sharing: planes inside
// clvf_cuda_buffer memory are used in place (no cuMemCopy2D), others are copied once each way,
// the context is synchronised before a source is read, bytes outside the planes stay untouched,
// and errors name what is wrong. CI runs these on a fake CUDA driver (cuda_env.hpp); the NVIDIA
// machine runs them on the real one (CLVF_TEST_CUDA=real).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "clvf/clvf.h"
#include "cuda_env.hpp"

namespace clvf::detail::test {
namespace {

using Bytes = std::vector<uint8_t>;

struct PlaneDims {
  size_t row_bytes, rows;
};

std::vector<PlaneDims> dims(clvf_pixel_format f, int w, int h) {
  const size_t cw = (w + 1) / 2, ch = (h + 1) / 2;
  switch (f) {
    case CLVF_PIX_NV12: return {{size_t(w), size_t(h)}, {cw * 2, ch}};
    case CLVF_PIX_P010: return {{size_t(w) * 2, size_t(h)}, {cw * 4, ch}};
    case CLVF_PIX_YUV420P: return {{size_t(w), size_t(h)}, {cw, ch}, {cw, ch}};
    case CLVF_PIX_YUV444P: return {{size_t(w), size_t(h)}, {size_t(w), size_t(h)}, {size_t(w), size_t(h)}};
    default: return {{size_t(w) * 4, size_t(h)}};
  }
}

std::vector<Bytes> random_planes(clvf_pixel_format f, int w, int h, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Bytes> planes;
  for (const PlaneDims& d : dims(f, w, h)) {
    Bytes b(d.row_bytes * d.rows);
    for (auto& x : b) x = static_cast<uint8_t>(rng());
    if (f == CLVF_PIX_P010)
      for (size_t i = 0; i < b.size(); i += 2) b[i] &= 0xC0;  // 10 bits at the top
    planes.push_back(std::move(b));
  }
  return planes;
}

constexpr uint8_t kSentinel = 0xA5;

// A frame of host planes (the reference's).
struct HostFrame {
  HostFrame(clvf_pixel_format f, int w, int h) : d(dims(f, w, h)) {
    for (const PlaneDims& p : d) planes.emplace_back(p.row_bytes * p.rows, kSentinel);
    frame.storage = CLVF_STORAGE_HOST;
    for (size_t i = 0; i < d.size(); ++i) frame.planes[i].data = planes[i].data(), frame.planes[i].pitch = d[i].row_bytes;
  }
  void fill(const std::vector<Bytes>& samples) {
    planes = samples;
    for (size_t i = 0; i < planes.size(); ++i) frame.planes[i].data = planes[i].data();
  }
  std::vector<PlaneDims> d;
  std::vector<Bytes> planes;
  clvf_frame frame{};
};

// A frame in CUDA memory: in a clvf_cuda_buffer (a pool clvf made), or in plain cuMemAlloc memory
// (a decoder's). Rows are pitched with padding that must stay untouched.
class CudaFrame {
 public:
  CudaFrame(CudaEnv& env, clvf_device* device, bool in_buffer, clvf_pixel_format f, int w, int h)
      : env_(env), d_(dims(f, w, h)) {
    for (const PlaneDims& p : d_) {
      pitch_.push_back((p.row_bytes + 64 + 255) / 256 * 256);
      offset_.push_back(bytes_);
      bytes_ += pitch_.back() * p.rows;
    }
    if (in_buffer) {
      EXPECT_EQ(clvf_cuda_buffer_alloc(device, bytes_, &buffer_), CLVF_OK) << clvf_last_error();
      base_ = reinterpret_cast<cuda::CUdeviceptr>(clvf_cuda_buffer_pointer(buffer_));
    } else {
      base_ = env.alloc_plain(bytes_);
    }
    frame.storage = CLVF_STORAGE_CUDA;
    for (size_t i = 0; i < d_.size(); ++i) {
      frame.planes[i].data = reinterpret_cast<void*>(base_ + offset_[i]);
      frame.planes[i].pitch = pitch_[i];
    }
    env_.upload(base_, Bytes(bytes_, kSentinel).data(), bytes_);
  }
  ~CudaFrame() {
    if (buffer_) clvf_cuda_buffer_release(buffer_);
    else env_.free_plain(base_);
  }
  void fill(const std::vector<Bytes>& planes) {
    Bytes all(bytes_, kSentinel);
    for (size_t i = 0; i < d_.size(); ++i)
      for (size_t y = 0; y < d_[i].rows; ++y)
        std::memcpy(&all[offset_[i] + y * pitch_[i]], &planes[i][y * d_[i].row_bytes], d_[i].row_bytes);
    env_.upload(base_, all.data(), bytes_);
  }
  // The planes, and whether every byte outside them still holds the sentinel.
  std::vector<Bytes> read(bool* padding_intact) const {
    Bytes all(bytes_);
    env_.download(all.data(), base_, bytes_);
    std::vector<Bytes> out;
    *padding_intact = true;
    for (size_t i = 0; i < d_.size(); ++i) {
      Bytes p(d_[i].row_bytes * d_[i].rows);
      for (size_t y = 0; y < d_[i].rows; ++y) {
        const uint8_t* row = &all[offset_[i] + y * pitch_[i]];
        std::memcpy(&p[y * d_[i].row_bytes], row, d_[i].row_bytes);
        for (size_t x = d_[i].row_bytes; x < pitch_[i]; ++x) *padding_intact &= row[x] == kSentinel;
      }
      out.push_back(std::move(p));
    }
    return out;
  }
  size_t plane_count() const { return d_.size(); }
  clvf_frame frame{};

 private:
  CudaEnv& env_;
  std::vector<PlaneDims> d_;
  std::vector<size_t> pitch_, offset_;
  size_t bytes_ = 0;
  clvf_cuda_buffer* buffer_ = nullptr;
  cuda::CUdeviceptr base_ = 0;
};

// The destination equals the reference, and no byte outside its planes changed.
void expect_frame(const CudaFrame& frame, const std::vector<Bytes>& expected) {
  bool intact = false;
  EXPECT_EQ(frame.read(&intact), expected);
  EXPECT_TRUE(intact) << "bytes outside the destination planes changed";
}

// Where the source and destination live: in clvf's buffers (used in place) or plain memory; and
// how the work is ordered with CUDA's.
struct Placement {
  bool src_in_buffer, dst_in_buffer;
  clvf_cuda_sync sync;
  const char* name;
};
const Placement kPlacements[] = {{false, true, CLVF_CUDA_SYNC_CONTEXT, "decoder_to_pool"},
                                 {true, false, CLVF_CUDA_SYNC_CONTEXT, "pool_to_plain"},
                                 {true, true, CLVF_CUDA_SYNC_CONTEXT, "pool_to_pool"},
                                 {false, false, CLVF_CUDA_SYNC_CONTEXT, "plain_to_plain"},
                                 {false, true, CLVF_CUDA_SYNC_SEMAPHORES, "decoder_to_pool_semaphores"},
                                 {true, false, CLVF_CUDA_SYNC_SEMAPHORES, "pool_to_plain_semaphores"},
                                 {true, true, CLVF_CUDA_SYNC_SEMAPHORES, "pool_to_pool_semaphores"},
                                 {false, false, CLVF_CUDA_SYNC_SEMAPHORES, "plain_to_plain_semaphores"},
                                 {false, true, CLVF_CUDA_SYNC_STREAM, "decoder_to_pool_stream"},
                                 {true, false, CLVF_CUDA_SYNC_STREAM, "pool_to_plain_stream"},
                                 {true, true, CLVF_CUDA_SYNC_STREAM, "pool_to_pool_stream"},
                                 {false, false, CLVF_CUDA_SYNC_STREAM, "plain_to_plain_stream"}};

class CudaFrames : public ::testing::TestWithParam<Placement> {
 protected:
  void SetUp() override {
    const char* spec = env_.real() ? "" : "pocl";  // the fake's GPU is no OpenCL device: name one
    ASSERT_EQ(clvf_device_open_cuda(spec, env_.context(), &device_), CLVF_OK) << clvf_last_error();
    clvf_cuda_sync used = CLVF_CUDA_SYNC_AUTO;
    const clvf_status st = clvf_device_set_cuda_sync(device_, nullptr, GetParam().sync, &used);
    if (st == CLVF_ERROR_UNSUPPORTED && env_.real()) GTEST_SKIP() << clvf_last_error();
    ASSERT_EQ(st, CLVF_OK) << clvf_last_error();
    ASSERT_EQ(used, GetParam().sync);
  }
  void TearDown() override {
    clvf_device_release(device_);
    EXPECT_EQ(CudaEnv::semaphore_misuse, 0) << "a semaphore waited on unsignalled or signalled twice";
    EXPECT_EQ(CudaEnv::live_cl_semaphores, 0);
    EXPECT_EQ(CudaEnv::live_cuda_semaphores, 0);
  }
  bool semaphores() const { return GetParam().sync == CLVF_CUDA_SYNC_SEMAPHORES; }
  // The plane copies one frame should cost: one per plane outside clvf's buffers.
  int expected_copies(size_t src_planes, size_t dst_planes) const {
    return int(GetParam().src_in_buffer ? 0 : src_planes) + int(GetParam().dst_in_buffer ? 0 : dst_planes);
  }
  // How one frame is ordered with CUDA. Semaphores: CUDA signals once before the kernels read, waits
  // once before copying a destination, and the host waits for that stream only. Stream: the host
  // waits for the stream before the kernels read and after a destination's copies. Context: the
  // host waits for the context before a source is read, and after each side's copies.
  void expect_ordering() const {
    const bool src_copied = !GetParam().src_in_buffer, dst_copied = !GetParam().dst_in_buffer;
    if (semaphores()) {
      EXPECT_EQ(CudaEnv::syncs, 0);
      EXPECT_EQ(CudaEnv::cuda_signals, 1);
      EXPECT_EQ(CudaEnv::cuda_waits, int(dst_copied));
      EXPECT_EQ(CudaEnv::stream_syncs, int(dst_copied));
    } else if (GetParam().sync == CLVF_CUDA_SYNC_STREAM) {
      EXPECT_EQ(CudaEnv::syncs + CudaEnv::cuda_signals + CudaEnv::cuda_waits, 0);
      EXPECT_EQ(CudaEnv::stream_syncs, 1 + dst_copied);
    } else {
      EXPECT_EQ(CudaEnv::syncs, 1 + src_copied + dst_copied);
      EXPECT_EQ(CudaEnv::cuda_signals + CudaEnv::cuda_waits + CudaEnv::stream_syncs, 0);
    }
  }
  CudaEnv env_;
  clvf_device* device_ = nullptr;
};

TEST_P(CudaFrames, ScaleEqualsHost) {
  struct Case {
    clvf_pixel_format src, dst;
    int sw, sh, dw, dh;
    clvf_scale_algorithm algorithm;
  };
  const Case cases[] = {{CLVF_PIX_NV12, CLVF_PIX_NV12, 97, 61, 50, 33, CLVF_SCALE_BICUBIC},
                        {CLVF_PIX_YUV420P, CLVF_PIX_BGRA, 33, 17, 70, 41, CLVF_SCALE_LANCZOS},
                        {CLVF_PIX_P010, CLVF_PIX_NV12, 64, 36, 31, 19, CLVF_SCALE_SPLINE36},
                        {CLVF_PIX_NV12, CLVF_PIX_NV12, 1, 1, 3, 2, CLVF_SCALE_BILINEAR}};
  int checked = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.sw) + "x" + std::to_string(c.sh));
    clvf_scale_params p;
    clvf_scale_params_default(&p);
    p.format = c.src, p.dst_format = c.dst, p.algorithm = c.algorithm;
    p.src_width = c.sw, p.src_height = c.sh, p.dst_width = c.dw, p.dst_height = c.dh;
    clvf_scale *host_op = nullptr, *cuda_op = nullptr;
    ASSERT_EQ(clvf_scale_create(device_, &p, &host_op), CLVF_OK) << clvf_last_error();
    p.src_storage = p.dst_storage = CLVF_STORAGE_CUDA;
    ASSERT_EQ(clvf_scale_create(device_, &p, &cuda_op), CLVF_OK) << clvf_last_error();
    const auto planes = random_planes(c.src, c.sw, c.sh, 7 + checked);
    HostFrame hs(c.src, c.sw, c.sh), hd(c.dst, c.dw, c.dh);
    hs.fill(planes);
    ASSERT_EQ(clvf_scale_process(host_op, &hs.frame, &hd.frame), CLVF_OK) << clvf_last_error();
    CudaFrame cs(env_, device_, GetParam().src_in_buffer, c.src, c.sw, c.sh);
    CudaFrame cd(env_, device_, GetParam().dst_in_buffer, c.dst, c.dw, c.dh);
    cs.fill(planes);
    for (int frame = 0; frame < 2; ++frame) {  // the second reuses what the first imported
      CudaEnv::reset_counts();
      ASSERT_EQ(clvf_scale_process(cuda_op, &cs.frame, &cd.frame), CLVF_OK) << clvf_last_error();
      EXPECT_EQ(CudaEnv::copies, expected_copies(cs.plane_count(), cd.plane_count()));
      expect_ordering();
    }
    expect_frame(cd, hd.planes);
    clvf_scale_release(host_op);
    clvf_scale_release(cuda_op);
    ++checked;
  }
  EXPECT_EQ(checked, 4);
}

// Frames in flight: each source copied into a slot of its own, none overwritten before its kernels ran.
TEST_P(CudaFrames, ScaleFramesInFlightEqualHost) {
  clvf_scale_params p;
  clvf_scale_params_default(&p);
  p.format = CLVF_PIX_NV12, p.src_width = 300, p.src_height = 170, p.dst_width = 211, p.dst_height = 120;
  clvf_scale *host_op = nullptr, *cuda_op = nullptr;
  ASSERT_EQ(clvf_scale_create(device_, &p, &host_op), CLVF_OK) << clvf_last_error();
  p.src_storage = p.dst_storage = CLVF_STORAGE_CUDA;
  ASSERT_EQ(clvf_scale_create(device_, &p, &cuda_op), CLVF_OK) << clvf_last_error();
  constexpr int kFrames = 7;
  std::vector<std::unique_ptr<CudaFrame>> src, dst;
  std::vector<std::vector<Bytes>> expected;
  for (int i = 0; i < kFrames; ++i) {
    const auto planes = random_planes(p.format, p.src_width, p.src_height, 40 + i);
    HostFrame hs(p.format, p.src_width, p.src_height), hd(p.format, p.dst_width, p.dst_height);
    hs.fill(planes);
    ASSERT_EQ(clvf_scale_process(host_op, &hs.frame, &hd.frame), CLVF_OK) << clvf_last_error();
    expected.push_back(hd.planes);
    src.push_back(std::make_unique<CudaFrame>(env_, device_, GetParam().src_in_buffer, p.format, p.src_width, p.src_height));
    dst.push_back(std::make_unique<CudaFrame>(env_, device_, GetParam().dst_in_buffer, p.format, p.dst_width, p.dst_height));
    src.back()->fill(planes);
  }
  int in_flight = 0;
  for (int i = 0; i < kFrames; ++i) {
    if (in_flight == CLVF_MAX_IN_FLIGHT) {
      ASSERT_EQ(clvf_scale_complete(cuda_op), CLVF_OK) << clvf_last_error();
      --in_flight;
    }
    ASSERT_EQ(clvf_scale_submit(cuda_op, &src[i]->frame, &dst[i]->frame), CLVF_OK) << clvf_last_error();
    ++in_flight;
  }
  while (in_flight-- > 0) ASSERT_EQ(clvf_scale_complete(cuda_op), CLVF_OK) << clvf_last_error();
  for (int i = 0; i < kFrames; ++i) {
    SCOPED_TRACE("frame " + std::to_string(i));
    expect_frame(*dst[i], expected[i]);
  }
  clvf_scale_release(host_op);
  clvf_scale_release(cuda_op);
}

TEST_P(CudaFrames, ColorspaceEqualsHost) {
  clvf_colorspace_params p;
  clvf_colorspace_params_default(&p);
  p.width = 45, p.height = 27;
  p.src_format = CLVF_PIX_P010, p.dst_format = CLVF_PIX_YUV444P;
  p.src_matrix = CLVF_MATRIX_BT2020_NCL, p.dst_matrix = CLVF_MATRIX_BT709;
  clvf_colorspace *host_op = nullptr, *cuda_op = nullptr;
  ASSERT_EQ(clvf_colorspace_create(device_, &p, &host_op), CLVF_OK) << clvf_last_error();
  p.src_storage = p.dst_storage = CLVF_STORAGE_CUDA;
  ASSERT_EQ(clvf_colorspace_create(device_, &p, &cuda_op), CLVF_OK) << clvf_last_error();
  const auto planes = random_planes(p.src_format, p.width, p.height, 3);
  HostFrame hs(p.src_format, p.width, p.height), hd(p.dst_format, p.width, p.height);
  hs.fill(planes);
  ASSERT_EQ(clvf_colorspace_process(host_op, &hs.frame, &hd.frame), CLVF_OK) << clvf_last_error();
  CudaFrame cs(env_, device_, GetParam().src_in_buffer, p.src_format, p.width, p.height);
  CudaFrame cd(env_, device_, GetParam().dst_in_buffer, p.dst_format, p.width, p.height);
  cs.fill(planes);
  CudaEnv::reset_counts();
  ASSERT_EQ(clvf_colorspace_process(cuda_op, &cs.frame, &cd.frame), CLVF_OK) << clvf_last_error();
  EXPECT_EQ(CudaEnv::copies, expected_copies(2, 3));
  expect_frame(cd, hd.planes);
  clvf_colorspace_release(host_op);
  clvf_colorspace_release(cuda_op);
}

// A temporal stream: each source is read after later ones were sent, so a source copied into
// clvf's memory must be kept (the operation's own ring) and not read back from the reused copy.
TEST_P(CudaFrames, TemporalDenoiseStreamEqualsHost) {
  clvf_denoise_params p;
  clvf_denoise_params_default(&p);
  p.format = CLVF_PIX_NV12, p.width = 40, p.height = 22, p.strength = 4, p.patch_size = 3, p.research_size = 5;
  p.temporal_radius = 1;
  clvf_denoise *host_op = nullptr, *cuda_op = nullptr;
  ASSERT_EQ(clvf_denoise_create(device_, &p, &host_op), CLVF_OK) << clvf_last_error();
  p.src_storage = p.dst_storage = CLVF_STORAGE_CUDA;
  ASSERT_EQ(clvf_denoise_create(device_, &p, &cuda_op), CLVF_OK) << clvf_last_error();
  constexpr int kFrames = 5;
  std::vector<std::vector<Bytes>> expected, got;
  CudaFrame cs(env_, device_, GetParam().src_in_buffer, p.format, p.width, p.height);
  CudaFrame cd(env_, device_, GetParam().dst_in_buffer, p.format, p.width, p.height);
  HostFrame hs(p.format, p.width, p.height), hd(p.format, p.width, p.height);
  auto drain = [&](clvf_denoise* op, const clvf_frame& dst, auto&& take) {
    for (int ready = 1; ready;) {
      ASSERT_EQ(clvf_denoise_receive(op, &dst, &ready), CLVF_OK) << clvf_last_error();
      if (ready) take();
    }
  };
  for (int i = 0; i <= kFrames; ++i) {
    const clvf_frame* hsrc = nullptr;
    const clvf_frame* csrc = nullptr;
    if (i < kFrames) {
      const auto planes = random_planes(p.format, p.width, p.height, 100 + i);
      hs.fill(planes);
      cs.fill(planes);
      hsrc = &hs.frame, csrc = &cs.frame;
    }
    ASSERT_EQ(clvf_denoise_send(host_op, hsrc), CLVF_OK) << clvf_last_error();
    ASSERT_EQ(clvf_denoise_send(cuda_op, csrc), CLVF_OK) << clvf_last_error();
    drain(host_op, hd.frame, [&] { expected.push_back(hd.planes); });
    drain(cuda_op, cd.frame, [&] {
      bool intact = false;
      got.push_back(cd.read(&intact));
      EXPECT_TRUE(intact);
    });
  }
  EXPECT_EQ(expected.size(), size_t(kFrames));
  EXPECT_EQ(got, expected);
  clvf_denoise_release(host_op);
  clvf_denoise_release(cuda_op);
}

TEST_P(CudaFrames, ChainEqualsHost) {
  clvf_stream in{};
  in.version = CLVF_API_VERSION, in.width = 52, in.height = 30, in.format = CLVF_PIX_NV12;
  const char* chain = "denoise_clvf=s=3:p=3:r=5,scale_clvf=w=26:h=16:format=yuv420p";
  clvf_chain *host_chain = nullptr, *cuda_chain = nullptr;
  ASSERT_EQ(clvf_chain_create(device_, chain, &in, CLVF_STORAGE_HOST, CLVF_STORAGE_HOST, &host_chain), CLVF_OK)
      << clvf_last_error();
  ASSERT_EQ(clvf_chain_create(device_, chain, &in, CLVF_STORAGE_CUDA, CLVF_STORAGE_CUDA, &cuda_chain), CLVF_OK)
      << clvf_last_error();
  const auto planes = random_planes(CLVF_PIX_NV12, 52, 30, 11);
  HostFrame hs(CLVF_PIX_NV12, 52, 30), hd(CLVF_PIX_YUV420P, 26, 16);
  hs.fill(planes);
  CudaFrame cs(env_, device_, GetParam().src_in_buffer, CLVF_PIX_NV12, 52, 30);
  CudaFrame cd(env_, device_, GetParam().dst_in_buffer, CLVF_PIX_YUV420P, 26, 16);
  cs.fill(planes);
  int got_host = 0, got_cuda = 0;
  ASSERT_EQ(clvf_chain_process(host_chain, &hs.frame, &hd.frame, &got_host), CLVF_OK) << clvf_last_error();
  CudaEnv::reset_counts();
  ASSERT_EQ(clvf_chain_process(cuda_chain, &cs.frame, &cd.frame, &got_cuda), CLVF_OK) << clvf_last_error();
  ASSERT_EQ(got_host, 1);
  ASSERT_EQ(got_cuda, 1);
  EXPECT_EQ(CudaEnv::copies, expected_copies(2, 3));
  expect_frame(cd, hd.planes);
  clvf_chain_release(host_chain);
  clvf_chain_release(cuda_chain);
}

// OpenCL frames to CUDA frames and back: one operation's sides in different storages.
TEST_P(CudaFrames, BetweenOpenCLAndCudaFrames) {
  clvf_scale_params p;
  clvf_scale_params_default(&p);
  p.format = CLVF_PIX_NV12, p.src_width = 66, p.src_height = 38, p.dst_width = 66, p.dst_height = 38;
  p.algorithm = CLVF_SCALE_POINT;  // same size: a copy, so there and back gives the source
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  ASSERT_EQ(clvf_device_handles(device_, &context, nullptr, &queue), CLVF_OK);
  const auto planes = random_planes(p.format, p.src_width, p.src_height, 21);
  const size_t y_bytes = planes[0].size(), uv_bytes = planes[1].size();
  cl_int err = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, y_bytes + uv_bytes, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  clvf_frame cl_frame{};
  cl_frame.storage = CLVF_STORAGE_CL_BUFFER;
  cl_frame.planes[0] = {nullptr, buffer, 0, size_t(p.src_width)};
  cl_frame.planes[1] = {nullptr, buffer, y_bytes, size_t(p.src_width)};
  clvf_scale *to_cl = nullptr, *to_cuda = nullptr;
  p.src_storage = CLVF_STORAGE_CUDA, p.dst_storage = CLVF_STORAGE_CL_BUFFER;
  ASSERT_EQ(clvf_scale_create(device_, &p, &to_cl), CLVF_OK) << clvf_last_error();
  p.src_storage = CLVF_STORAGE_CL_BUFFER, p.dst_storage = CLVF_STORAGE_CUDA;
  ASSERT_EQ(clvf_scale_create(device_, &p, &to_cuda), CLVF_OK) << clvf_last_error();
  CudaFrame src(env_, device_, GetParam().src_in_buffer, p.format, p.src_width, p.src_height);
  CudaFrame back(env_, device_, GetParam().dst_in_buffer, p.format, p.dst_width, p.dst_height);
  src.fill(planes);
  ASSERT_EQ(clvf_scale_process(to_cl, &src.frame, &cl_frame), CLVF_OK) << clvf_last_error();
  Bytes y(y_bytes), uv(uv_bytes);
  clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, y_bytes, y.data(), 0, nullptr, nullptr);
  clEnqueueReadBuffer(queue, buffer, CL_TRUE, y_bytes, uv_bytes, uv.data(), 0, nullptr, nullptr);
  EXPECT_EQ(y, planes[0]);
  EXPECT_EQ(uv, planes[1]);
  ASSERT_EQ(clvf_scale_process(to_cuda, &cl_frame, &back.frame), CLVF_OK) << clvf_last_error();
  expect_frame(back, planes);
  clvf_scale_release(to_cl);
  clvf_scale_release(to_cuda);
  clReleaseMemObject(buffer);
}

INSTANTIATE_TEST_SUITE_P(Placements, CudaFrames, ::testing::ValuesIn(kPlacements),
                         [](const auto& info) { return std::string(info.param.name); });

// Two filters in a row, each with its own device on one CUDA context: the second reads the
// first's pool in place (a second import, once per allocation) and never an allocation that has
// gone, even when a new one takes its address.
TEST(CudaTwoDevices, SecondDeviceUsesFirstDevicesBuffersInPlace) {
  CudaEnv env;
  const char* spec = env.real() ? "" : "pocl";
  clvf_device *first = nullptr, *second = nullptr;
  ASSERT_EQ(clvf_device_open_cuda(spec, env.context(), &first), CLVF_OK) << clvf_last_error();
  ASSERT_EQ(clvf_device_open_cuda(spec, env.context(), &second), CLVF_OK) << clvf_last_error();
  clvf_scale_params p;
  clvf_scale_params_default(&p);
  p.format = CLVF_PIX_NV12, p.src_width = 64, p.src_height = 36, p.dst_width = 40, p.dst_height = 24;
  clvf_scale *host_op = nullptr, *cuda_op = nullptr;
  ASSERT_EQ(clvf_scale_create(second, &p, &host_op), CLVF_OK) << clvf_last_error();
  p.src_storage = p.dst_storage = CLVF_STORAGE_CUDA;
  ASSERT_EQ(clvf_scale_create(second, &p, &cuda_op), CLVF_OK) << clvf_last_error();
  int rounds = 0;
  for (uint32_t seed = 1; seed <= 4; ++seed, ++rounds) {  // each round's buffers are new ones
    const auto planes = random_planes(p.format, p.src_width, p.src_height, seed);
    HostFrame hs(p.format, p.src_width, p.src_height), hd(p.format, p.dst_width, p.dst_height);
    hs.fill(planes);
    ASSERT_EQ(clvf_scale_process(host_op, &hs.frame, &hd.frame), CLVF_OK) << clvf_last_error();
    CudaFrame src(env, first, true, p.format, p.src_width, p.src_height);
    CudaFrame dst(env, first, true, p.format, p.dst_width, p.dst_height);
    src.fill(planes);
    CudaEnv::reset_counts();
    ASSERT_EQ(clvf_scale_process(cuda_op, &src.frame, &dst.frame), CLVF_OK) << clvf_last_error();
    EXPECT_EQ(CudaEnv::copies, 0) << "the first device's buffers were copied, not used in place";
    SCOPED_TRACE("round " + std::to_string(seed));
    expect_frame(dst, hd.planes);
  }
  EXPECT_EQ(rounds, 4);
  clvf_scale_release(host_op);
  clvf_scale_release(cuda_op);
  clvf_device_release(second);
  clvf_device_release(first);
}

// Semaphores are used only where one can be made, exported and imported: otherwise AUTO waits on
// the host, and asking for them says why not.
TEST(CudaSemaphores, UnusableOnesAreNotUsed) {
  CudaEnv env;
  if (env.real()) GTEST_SKIP() << "fake OpenCL semaphore tables only";
  cuda::ClSemaphoreApi broken = CudaEnv::fake_semaphores();
  broken.export_handle = [](cl_semaphore_khr, cl_device_id, cl_external_semaphore_handle_type_khr, size_t, void*,
                            size_t*) -> cl_int { return CL_INVALID_OPERATION; };
  struct Case {
    const cuda::ClSemaphoreApi* table;
    const char* why;
  };
  int checked = 0;
  for (const Case& c : {Case{&broken, "clGetSemaphoreHandleForTypeKHR"},
                        Case{nullptr, "no cl_khr_external_semaphore_opaque_fd export"}}) {
    cuda::set_semaphores_for_testing(c.table);
    clvf_device* device = nullptr;
    ASSERT_EQ(clvf_device_open_cuda("pocl", env.context(), &device), CLVF_OK) << clvf_last_error();
    clvf_cuda_sync used = CLVF_CUDA_SYNC_SEMAPHORES;
    EXPECT_EQ(clvf_device_set_cuda_sync(device, nullptr, CLVF_CUDA_SYNC_AUTO, &used), CLVF_OK) << clvf_last_error();
    EXPECT_EQ(used, CLVF_CUDA_SYNC_STREAM);
    EXPECT_EQ(clvf_device_set_cuda_sync(device, nullptr, CLVF_CUDA_SYNC_SEMAPHORES, &used), CLVF_ERROR_UNSUPPORTED);
    EXPECT_NE(std::string(clvf_last_error()).find(c.why), std::string::npos) << clvf_last_error();
    clvf_device_release(device);
    ++checked;
  }
  cuda::set_semaphores_for_testing(&CudaEnv::fake_semaphores());
  EXPECT_EQ(checked, 2);
  EXPECT_EQ(CudaEnv::live_cl_semaphores, 0);
}

class CudaErrors : public ::testing::Test {
 protected:
  CudaEnv env_;
};

TEST_F(CudaErrors, NameWhatIsWrong) {
  clvf_device* plain = nullptr;
  ASSERT_EQ(clvf_device_open(env_.real() ? "" : "pocl", &plain), CLVF_OK) << clvf_last_error();
  clvf_scale_params p;
  clvf_scale_params_default(&p);
  p.format = CLVF_PIX_NV12, p.src_width = p.dst_width = 16, p.src_height = p.dst_height = 8;
  p.src_storage = CLVF_STORAGE_CUDA;
  clvf_scale* op = nullptr;
  EXPECT_EQ(clvf_scale_create(plain, &p, &op), CLVF_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(clvf_last_error()).find("clvf_device_open_cuda"), std::string::npos) << clvf_last_error();
  clvf_cuda_buffer* buffer = nullptr;
  EXPECT_EQ(clvf_cuda_buffer_alloc(plain, 4096, &buffer), CLVF_ERROR_INVALID_ARGUMENT);
  clvf_device_release(plain);

  clvf_device* device = nullptr;
  EXPECT_EQ(clvf_device_open_cuda(env_.real() ? "" : "pocl", nullptr, &device), CLVF_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(clvf_device_open_cuda(env_.real() ? "" : "pocl", env_.context(), &device), CLVF_OK) << clvf_last_error();
  ASSERT_EQ(clvf_scale_create(device, &p, &op), CLVF_OK) << clvf_last_error();
  CudaFrame src(env_, device, true, CLVF_PIX_NV12, 16, 8);
  HostFrame dst(CLVF_PIX_NV12, 16, 8);
  clvf_frame bad = src.frame;
  bad.planes[1].data = nullptr;
  EXPECT_EQ(clvf_scale_process(op, &bad, &dst.frame), CLVF_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(clvf_last_error()).find("plane 1 has no CUDA pointer"), std::string::npos) << clvf_last_error();
  bad = src.frame;
  bad.planes[0].pitch = 15;
  EXPECT_EQ(clvf_scale_process(op, &bad, &dst.frame), CLVF_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(clvf_last_error()).find("pitch 15 is less than its 16 bytes per row"), std::string::npos)
      << clvf_last_error();
  EXPECT_EQ(clvf_scale_process(op, &src.frame, &dst.frame), CLVF_OK) << clvf_last_error();  // still usable
  clvf_scale_release(op);
  clvf_device_release(device);
}

// The fake's GPU is no OpenCL device: with no spec, the device is chosen by UUID and none matches.
TEST_F(CudaErrors, NoOpenCLDeviceOnTheGpu) {
  if (env_.real()) GTEST_SKIP() << "the real GPU has its OpenCL device";
  unsetenv("CLVF_DEVICE");
  clvf_device* device = nullptr;
  EXPECT_EQ(clvf_device_open_cuda(nullptr, env_.context(), &device), CLVF_ERROR_NO_DEVICE);
  EXPECT_NE(std::string(clvf_last_error()).find("no OpenCL device is the CUDA context's GPU"), std::string::npos)
      << clvf_last_error();
}

// Without libcuda.so.1 (this machine, unless it has NVIDIA's driver) the error says so.
TEST_F(CudaErrors, NoDriver) {
  if (env_.real()) GTEST_SKIP() << "the driver is here";
  cuda::set_driver_for_testing(nullptr);
  clvf_device* device = nullptr;
  const clvf_status st = clvf_device_open_cuda("pocl", env_.context(), &device);
  if (st == CLVF_OK) {
    clvf_device_release(device);
    GTEST_SKIP() << "libcuda.so.1 is installed here";
  }
  EXPECT_EQ(st, CLVF_ERROR_UNSUPPORTED);
  EXPECT_NE(std::string(clvf_last_error()).find("no CUDA driver"), std::string::npos) << clvf_last_error();
}

// Frames a pool handed downstream outlive the filter and its device: a buffer keeps what it needs.
TEST_F(CudaErrors, BufferOutlivesDevice) {
  clvf_device* device = nullptr;
  ASSERT_EQ(clvf_device_open_cuda(env_.real() ? "" : "pocl", env_.context(), &device), CLVF_OK) << clvf_last_error();
  clvf_cuda_buffer* buffer = nullptr;
  ASSERT_EQ(clvf_cuda_buffer_alloc(device, 1000, &buffer), CLVF_OK) << clvf_last_error();
  ASSERT_NE(clvf_cuda_buffer_pointer(buffer), nullptr);
  clvf_device_release(device);
  const Bytes data(1000, 7);
  Bytes back(1000);
  env_.upload(reinterpret_cast<cuda::CUdeviceptr>(clvf_cuda_buffer_pointer(buffer)), data.data(), data.size());
  env_.download(back.data(), reinterpret_cast<cuda::CUdeviceptr>(clvf_cuda_buffer_pointer(buffer)), back.size());
  EXPECT_EQ(back, data);
  clvf_cuda_buffer_release(buffer);
}

// Each buffer's exported descriptor goes to OpenCL at import: none may stay open once buffers go.
TEST_F(CudaErrors, NoDescriptorLeaks) {
  auto open_fds = [] {
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) n += !e.path().empty();
    return n;
  };
  clvf_device* device = nullptr;
  ASSERT_EQ(clvf_device_open_cuda(env_.real() ? "" : "pocl", env_.context(), &device), CLVF_OK) << clvf_last_error();
  clvf_cuda_buffer* warm = nullptr;  // the driver's own descriptors, opened once
  ASSERT_EQ(clvf_cuda_buffer_alloc(device, 1 << 20, &warm), CLVF_OK) << clvf_last_error();
  clvf_cuda_buffer_release(warm);
  const int before = open_fds();
  std::vector<clvf_cuda_buffer*> buffers(20);
  for (auto& b : buffers) ASSERT_EQ(clvf_cuda_buffer_alloc(device, 1 << 20, &b), CLVF_OK) << clvf_last_error();
  const int during = open_fds();
  for (auto* b : buffers) clvf_cuda_buffer_release(b);
  EXPECT_EQ(open_fds(), before);
  RecordProperty("descriptors_while_20_buffers_live", during - before);
  std::printf("open descriptors: %d before, %d with 20 buffers, %d after\n", before, during, open_fds());
  clvf_device_release(device);
}

}  // namespace
}  // namespace clvf::detail::test
