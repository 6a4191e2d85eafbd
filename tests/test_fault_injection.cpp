// Fault injection through the C API: for every N, the N-th OpenCL call of a whole job (open the
// device, create the operation, run frames, release everything) fails as a driver would
// (tests/fault/cl_fault.c). The job must then either report an error whose message names the
// failed call, or - where the library recovers (a cached program binary the driver refuses is
// rebuilt from source) or cannot report (a release) - finish with exactly the output of a clean
// run. Nothing may crash, and the next clean job in the same process must give the clean output
// again. Leaks show under the sanitizer build (scripts/sanitize.sh runs this too). The same for
// the N-th allocation libclvf makes (tests/fault/alloc_fault.cpp, in this executable: under ASan
// too; not under valgrind, whose operator new comes first).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <climits>
#include <cmath>
#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "clvf/clvf.h"
#include "fault/cl_fault.h"

namespace {

constexpr int W = 64, H = 48;

struct Result {
  clvf_status status = CLVF_OK;
  std::string message;
  std::vector<unsigned char> output;
};

// Planes of one host frame laid out back to back (NV12, YUV420P or RGBA at w x h).
struct HostFrame {
  std::vector<unsigned char> bytes;
  clvf_frame frame{};
  HostFrame(clvf_pixel_format format, int w, int h, unsigned seed) {
    std::vector<std::pair<size_t, int>> planes;  // (bytes, pitch)
    if (format == CLVF_PIX_RGBA) planes = {{size_t(w) * h * 4, w * 4}};
    if (format == CLVF_PIX_NV12) planes = {{size_t(w) * h, w}, {size_t(w) * h / 2, w}};
    if (format == CLVF_PIX_YUV420P) planes = {{size_t(w) * h, w}, {size_t(w) * h / 4, w / 2}, {size_t(w) * h / 4, w / 2}};
    size_t total = 0;
    for (auto [b, p] : planes) total += b;
    bytes.resize(total);
    for (size_t i = 0; i < total; ++i) bytes[i] = static_cast<unsigned char>((i * 37 + seed * 101 + (i / 7) % 13) & 0xff);
    frame.storage = CLVF_STORAGE_HOST;
    size_t at = 0;
    for (size_t i = 0; i < planes.size(); ++i) {
      frame.planes[i] = {bytes.data() + at, nullptr, 0, static_cast<size_t>(planes[i].second)};
      at += planes[i].first;
    }
  }
};

// A job: its own device, one operation, a few frames; the outputs concatenated.
using Job = std::function<clvf_status(clvf_device*, std::vector<unsigned char>&)>;

Result run_job(const Job& job, const char* device = nullptr) {
  Result r;
  clvf_device* dev = nullptr;
  const char* spec = device ? device : std::getenv("CLVF_TEST_DEVICE");
  r.status = clvf_device_open(spec && *spec ? spec : nullptr, &dev);
  if (r.status == CLVF_OK) r.status = job(dev, r.output);
  if (r.status != CLVF_OK) r.message = clvf_last_error();
  clvf_device_release(dev);
  return r;
}

// A host frame's bytes moved into a host buffer (clvf_host_buffer_alloc), planes at the same offsets.
struct BufferedFrame {
  clvf_host_buffer* buffer = nullptr;
  clvf_frame frame{};
  clvf_status make(clvf_device* dev, const HostFrame& h) {
    const clvf_status st = clvf_host_buffer_alloc(dev, h.bytes.size(), &buffer);
    if (st != CLVF_OK) return st;
    auto* base = static_cast<unsigned char*>(clvf_host_buffer_pointer(buffer));
    std::memcpy(base, h.bytes.data(), h.bytes.size());
    frame = h.frame;
    for (clvf_plane& p : frame.planes)
      if (p.data) p.data = base + (static_cast<const unsigned char*>(p.data) - h.bytes.data());
    return CLVF_OK;
  }
  ~BufferedFrame() { clvf_host_buffer_release(buffer); }
};

// Scale with conversion, three frames in flight then completed in order; with `host_buffers`
// every frame in a host buffer (kernels reach them as SVM pointers, with no map).
clvf_status scale_frames(clvf_device* dev, std::vector<unsigned char>& out, bool host_buffers) {
  clvf_scale_params p;
  clvf_scale_params_default(&p);
  p.format = CLVF_PIX_NV12, p.src_width = W, p.src_height = H, p.dst_width = 40, p.dst_height = 30;
  p.dst_format = CLVF_PIX_YUV420P, p.src_matrix = CLVF_MATRIX_BT709, p.dst_matrix = CLVF_MATRIX_SMPTE170M;
  clvf_scale* op = nullptr;
  clvf_status st = clvf_scale_create(dev, &p, &op);
  std::vector<HostFrame> src, dst;
  for (unsigned i = 0; i < 3; ++i) src.emplace_back(CLVF_PIX_NV12, W, H, i), dst.emplace_back(CLVF_PIX_YUV420P, 40, 30, 99);
  BufferedFrame moved_src[3], moved_dst[3];
  for (size_t i = 0; host_buffers && i < src.size() && st == CLVF_OK; ++i) {
    st = moved_src[i].make(dev, src[i]);
    if (st == CLVF_OK) st = moved_dst[i].make(dev, dst[i]);
  }
  const auto frame = [&](std::vector<HostFrame>& f, BufferedFrame* moved, size_t i) {
    return host_buffers ? &moved[i].frame : &f[i].frame;
  };
  for (size_t i = 0; i < src.size() && st == CLVF_OK; ++i) st = clvf_scale_submit(op, frame(src, moved_src, i), frame(dst, moved_dst, i));
  for (size_t i = 0; i < src.size() && st == CLVF_OK; ++i) st = clvf_scale_complete(op);
  clvf_scale_release(op);
  for (size_t i = 0; i < dst.size(); ++i) {
    const auto* bytes = !host_buffers ? dst[i].bytes.data()
                        : moved_dst[i].buffer ? static_cast<const unsigned char*>(clvf_host_buffer_pointer(moved_dst[i].buffer))
                                              : nullptr;
    if (bytes) out.insert(out.end(), bytes, bytes + dst[i].bytes.size());
  }
  return st;
}

clvf_status scale_job(clvf_device* dev, std::vector<unsigned char>& out) { return scale_frames(dev, out, false); }

clvf_status colour_job(clvf_device* dev, std::vector<unsigned char>& out) {
  clvf_colorspace_params p;
  clvf_colorspace_params_default(&p);
  p.width = W, p.height = H, p.src_format = CLVF_PIX_NV12, p.dst_format = CLVF_PIX_RGBA;
  p.src_matrix = CLVF_MATRIX_BT709, p.dst_range = CLVF_RANGE_PC;
  clvf_colorspace* op = nullptr;
  clvf_status st = clvf_colorspace_create(dev, &p, &op);
  for (unsigned i = 0; i < 2 && st == CLVF_OK; ++i) {
    HostFrame src(CLVF_PIX_NV12, W, H, i), dst(CLVF_PIX_RGBA, W, H, 99);
    st = clvf_colorspace_process(op, &src.frame, &dst.frame);
    out.insert(out.end(), dst.bytes.begin(), dst.bytes.end());
  }
  clvf_colorspace_release(op);
  return st;
}

clvf_status denoise_job(clvf_device* dev, std::vector<unsigned char>& out, int temporal) {
  clvf_denoise_params p;
  clvf_denoise_params_default(&p);
  p.format = CLVF_PIX_NV12, p.width = W, p.height = H, p.strength = 6, p.patch_size = 3, p.research_size = 5;
  p.temporal_radius = temporal;
  clvf_denoise* op = nullptr;
  clvf_status st = clvf_denoise_create(dev, &p, &op);
  std::vector<HostFrame> src, dst;
  for (unsigned i = 0; i < 3; ++i) src.emplace_back(CLVF_PIX_NV12, W, H, i), dst.emplace_back(CLVF_PIX_NV12, W, H, 99);
  size_t received = 0;
  for (size_t i = 0; i <= src.size() && st == CLVF_OK; ++i) {
    st = clvf_denoise_send(op, i < src.size() ? &src[i].frame : nullptr);
    for (int got = 1; got && st == CLVF_OK && received < dst.size();) {
      st = clvf_denoise_receive(op, &dst[received].frame, &got);
      received += got;
    }
  }
  clvf_denoise_release(op);
  for (auto& f : dst) out.insert(out.end(), f.bytes.begin(), f.bytes.end());
  return st;
}

// Temporal denoise, scale with conversion, and colorspace as one chain, host frames at both ends.
constexpr const char* kChain = "denoise_clvf=s=6:p=3:r=5:t=1,scale_clvf=w=40:h=30:format=yuv420p,colorspace_clvf=format=rgba";

clvf_status chain_job(clvf_device* dev, std::vector<unsigned char>& out, int frames) {
  clvf_stream in{};
  in.version = CLVF_API_VERSION, in.width = W, in.height = H, in.format = CLVF_PIX_NV12;
  clvf_chain* chain = nullptr;
  clvf_status st = clvf_chain_create(dev, kChain, &in, CLVF_STORAGE_HOST, CLVF_STORAGE_HOST, &chain);
  std::vector<HostFrame> src;
  for (int i = 0; i < frames; ++i) src.emplace_back(CLVF_PIX_NV12, W, H, unsigned(i));
  HostFrame dst(CLVF_PIX_RGBA, 40, 30, 99);
  for (int i = 0; i <= frames && st == CLVF_OK; ++i) {
    // One call per source frame; after the end, until nothing is left.
    for (int got = 1; got && st == CLVF_OK;) {
      st = clvf_chain_process(chain, i < frames ? &src[i].frame : nullptr, &dst.frame, &got);
      if (got) out.insert(out.end(), dst.bytes.begin(), dst.bytes.end());
      if (i < frames) break;
    }
  }
  clvf_chain_release(chain);
  return st;
}

// Whether the sweep runs a clean job after every faulted one (the default) or once, after the
// last (CLVF_FAULT_CLEAN_JOB=end: scripts/sanitize.sh, where a job costs ten times as much). Job
// N + 1 repeats all that job N did before its fault, so the jobs after a faulted one still use,
// under the sanitizer, whatever state it left behind; the unsanitized sweep keeps the check after each.
bool clean_job_after(long n, long last) {
  const char* when = std::getenv("CLVF_FAULT_CLEAN_JOB");
  return n == last || !when || std::strcmp(when, "end") != 0;
}

void expect_clean_again(const Job& job, const Result& clean) {
  const Result next = run_job(job);
  ASSERT_EQ(next.status, CLVF_OK) << "the next clean job failed: " << next.message;
  ASSERT_TRUE(next.output == clean.output) << "the next clean job gave other output";
}

bool is_refcount_call(const char* name) {
  return std::strncmp(name, "clRelease", 9) == 0 || std::strncmp(name, "clRetain", 8) == 0;
}

// `failed` (when given) receives the name of every call made to fail.
void sweep(const char* what, const Job& job, std::set<std::string>* failed = nullptr) {
  clvf_fault_arm(0);
  const Result clean = run_job(job);
  ASSERT_EQ(clean.status, CLVF_OK) << clean.message;
  const long calls = clvf_fault_calls();
  ASSERT_GT(calls, 10) << "the OpenCL calls are not being intercepted";
  int reported = 0, absorbed = 0;
  std::set<std::string> absorbed_calls;
  for (long n = 1; n <= calls; ++n) {
    clvf_fault_arm(n);
    const Result r = run_job(job);
    const char* fired = clvf_fault_fired();
    clvf_fault_arm(0);
    if (!fired) {  // this run made fewer calls (event waits vary a little with timing)
      EXPECT_EQ(r.status, CLVF_OK) << r.message;
      EXPECT_TRUE(r.output == clean.output);
      continue;
    }
    SCOPED_TRACE(std::string(what) + ": call " + std::to_string(n) + " (" + fired + ") failing");
    if (failed) failed->insert(fired);
    if (r.status != CLVF_OK) {
      ++reported;
      // (A retain or release is named by its family: the C++ bindings do not say which.)
      const std::string name = !is_refcount_call(fired)      ? fired
                               : std::strncmp(fired, "clRetain", 8) == 0 ? "clRetain"
                                                                         : "clRelease";
      EXPECT_NE(r.message.find(name), std::string::npos) << "the message does not name the failed call: " << r.message;
      // Kernels run only inside a chain's stages, and a stage's messages name it.
      if (std::strcmp(what, "chain") == 0 && std::strcmp(fired, "clEnqueueNDRangeKernel") == 0)
        EXPECT_NE(r.message.find("chain stage "), std::string::npos) << "the message does not name the stage: " << r.message;
    } else {
      // Recovered (a cached program the driver refuses is built again from source) or not
      // reportable (retain, release): then the output must be exactly the clean one.
      ++absorbed;
      absorbed_calls.insert(fired);
      EXPECT_TRUE(r.output == clean.output) << "a job that reported success after a failed " << fired
                                            << " gave other output";
    }
    if (clean_job_after(n, calls)) ASSERT_NO_FATAL_FAILURE(expect_clean_again(job, clean));
  }
  std::string names;
  for (const auto& n : absorbed_calls) names += (names.empty() ? "" : ", ") + n;
  std::printf("%s: %ld OpenCL calls; each failing in turn: %d reported, %d recovered or not reportable (%s)\n",
              what, calls, reported, absorbed, names.c_str());
  ::testing::Test::RecordProperty(std::string(what) + "_calls", static_cast<int>(calls));
}

// The same for libclvf's own allocations: each failing in turn must give CLVF_ERROR_OUT_OF_MEMORY
// ("out of host memory") or a recovery with the clean output, and the next job must be clean.
void sweep_allocations(const char* what, const Job& job) {
  clvf_alloc_fault_arm(LONG_MAX);  // count only
  const Result clean = run_job(job);
  const long calls = clvf_alloc_fault_calls();
  clvf_alloc_fault_arm(0);
  ASSERT_EQ(clean.status, CLVF_OK) << clean.message;
  if (calls == 0) GTEST_SKIP() << "operator new is not the interposer's here (valgrind's comes first)";
  int reported = 0;
  for (long n = 1; n <= calls; ++n) {
    clvf_alloc_fault_arm(n);
    const Result r = run_job(job);
    const bool fired = clvf_alloc_fault_fired();
    clvf_alloc_fault_arm(0);
    SCOPED_TRACE(std::string(what) + ": allocation " + std::to_string(n) + " failing");
    if (r.status != CLVF_OK) {
      ++reported;
      EXPECT_EQ(r.status, CLVF_ERROR_OUT_OF_MEMORY) << r.message;
      EXPECT_NE(r.message.find("out of host memory"), std::string::npos) << r.message;
    } else {
      EXPECT_TRUE(!fired || r.output == clean.output) << "a job that reported success gave other output";
    }
    if (clean_job_after(n, calls)) ASSERT_NO_FATAL_FAILURE(expect_clean_again(job, clean));
  }
  std::printf("%s: %ld allocations by libclvf; each failing in turn: %d reported\n", what, calls, reported);
}

TEST(FaultInjection, ScaleWithConversionFramesInFlight) { sweep("scale", scale_job); }
TEST(FaultInjection, ScaleWithStagedCopies) {
  // The discrete-GPU path: pinned staging buffers, mapped once, and three queues.
  ASSERT_EQ(setenv("CLVF_NO_ZERO_COPY", "1", 1), 0);
  sweep("scale, staged copies", scale_job);
  unsetenv("CLVF_NO_ZERO_COPY");
}
TEST(FaultInjection, Colorspace) { sweep("colorspace", colour_job); }
TEST(FaultInjection, ScaleInHostBuffers) {
  std::set<std::string> failed;
  sweep("scale, host buffers", [](clvf_device* d, std::vector<unsigned char>& o) { return scale_frames(d, o, true); },
        &failed);
  for (const char* call : {"clSVMAlloc", "clSetKernelArgSVMPointer", "clSVMFree"})
    EXPECT_EQ(failed.count(call), 1u) << call << " never ran: the device took none of the host buffers' path";
}

// A device lost mid-stream (PoCL's first wait for a frame fails): the job reports it, and a new
// job recovers on another device (Oclgrind, from the build's ICD folder; read when this process
// first calls OpenCL, so the test skips when run after others in one process).
TEST(FaultInjection, DeviceLostMidStreamThenAnotherDevice) {
  ASSERT_EQ(setenv("OCL_ICD_VENDORS", CLVF_TEST_ICD_DIR, 1), 0);
  const Job job = scale_job;
  clvf_fault_arm(0);
  const Result clean = run_job(job, "pocl");
  ASSERT_EQ(clean.status, CLVF_OK) << clean.message;
  clvf_fault_arm(0);  // counted again with the programs cached, as the jobs below find them
  ASSERT_EQ(run_job(job, "pocl").status, CLVF_OK);
  const long calls = clvf_fault_calls();
  // The first wait for a frame's commands: where the clean job's first was (or a little later,
  // should this run's event waits fall otherwise).
  long n = std::max(1L, clvf_fault_first_wait());
  for (; n <= calls; ++n) {
    clvf_fault_arm(n);
    const Result r = run_job(job, "pocl");
    const char* fired = clvf_fault_fired();
    clvf_fault_arm(0);
    if (fired && std::strcmp(fired, "clWaitForEvents") == 0) {
      EXPECT_NE(r.status, CLVF_OK);
      EXPECT_NE(r.message.find("clWaitForEvents"), std::string::npos) << r.message;
      break;
    }
  }
  ASSERT_LE(n, calls) << "the job never waits for a frame";
  clvf_device* other = nullptr;
  if (clvf_device_open("oclgrind", &other) != CLVF_OK) GTEST_SKIP() << "no second device (Oclgrind) listed";
  clvf_device_release(other);
  const Result moved = run_job(job, "oclgrind");
  ASSERT_EQ(moved.status, CLVF_OK) << moved.message;
  ASSERT_EQ(moved.output.size(), clean.output.size());
  for (size_t i = 0; i < clean.output.size(); ++i)  // another device: a rounding tie may fall the other way
    ASSERT_LE(std::abs(int(moved.output[i]) - int(clean.output[i])), 1) << "byte " << i;
}
TEST(FaultInjection, DenoiseSpatial) {
  sweep("denoise", [](clvf_device* d, std::vector<unsigned char>& o) { return denoise_job(d, o, 0); });
}
TEST(FaultInjection, AllocationsScale) { sweep_allocations("scale", scale_job); }
TEST(FaultInjection, AllocationsColorspace) { sweep_allocations("colorspace", colour_job); }
TEST(FaultInjection, AllocationsDenoiseTemporal) {
  sweep_allocations("denoise t=1", [](clvf_device* d, std::vector<unsigned char>& o) { return denoise_job(d, o, 1); });
}
TEST(FaultInjection, DenoiseTemporal) {
  sweep("denoise t=1", [](clvf_device* d, std::vector<unsigned char>& o) { return denoise_job(d, o, 1); });
}
TEST(FaultInjection, ChainInFlight) {
  sweep("chain", [](clvf_device* d, std::vector<unsigned char>& o) { return chain_job(d, o, 2); });
}
TEST(FaultInjection, AllocationsChain) {
  sweep_allocations("chain", [](clvf_device* d, std::vector<unsigned char>& o) { return chain_job(d, o, 2); });
}

// A chain's frame crosses its stages with no host wait between them: the host waits once a frame,
// for the last stage (the interposer counts clFinish, blocking copies, and waits for events not yet
// complete). In place and staged, with a temporal denoise first.
void expect_one_wait_a_frame() {
  clvf_device* dev = nullptr;
  const char* spec = std::getenv("CLVF_TEST_DEVICE");
  ASSERT_EQ(clvf_device_open(spec && *spec ? spec : nullptr, &dev), CLVF_OK) << clvf_last_error();
  clvf_stream in{};
  in.version = CLVF_API_VERSION, in.width = W, in.height = H, in.format = CLVF_PIX_NV12;
  clvf_chain* chain = nullptr;
  ASSERT_EQ(clvf_chain_create(dev, kChain, &in, CLVF_STORAGE_HOST, CLVF_STORAGE_HOST, &chain), CLVF_OK)
      << clvf_last_error();
  constexpr int kWarm = 3, kFrames = 20;
  HostFrame src(CLVF_PIX_NV12, W, H, 1), dst(CLVF_PIX_RGBA, 40, 30, 99);
  int got = 0, outputs = 0;
  for (int i = 0; i < kWarm; ++i) ASSERT_EQ(clvf_chain_process(chain, &src.frame, &dst.frame, &got), CLVF_OK);
  clvf_fault_arm(0);
  for (int i = 0; i < kFrames; ++i) {
    ASSERT_EQ(clvf_chain_process(chain, &src.frame, &dst.frame, &got), CLVF_OK) << clvf_last_error();
    outputs += got;
  }
  const long waits = clvf_fault_host_waits();
  EXPECT_EQ(outputs, kFrames);
  // At most one a frame (a wait that finds the frame already done is not counted); each stage
  // waited for, as before, gives three or more.
  EXPECT_LE(waits, kFrames) << "host waits over " << kFrames << " frames of a three-stage chain";
  EXPECT_GE(waits, 1);
  clvf_chain_release(chain);
  clvf_device_release(dev);
}
TEST(HostWaits, ChainWaitsOnceAFrame) { expect_one_wait_a_frame(); }
TEST(HostWaits, ChainWaitsOnceAFrameStaged) {
  ASSERT_EQ(setenv("CLVF_NO_ZERO_COPY", "1", 1), 0);
  expect_one_wait_a_frame();
  unsetenv("CLVF_NO_ZERO_COPY");
}

}  // namespace
