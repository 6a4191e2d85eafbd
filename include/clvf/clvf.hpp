// A thin C++ layer over clvf.h: owning handles (move-only, released in the destructor) and
// clvf::Error (status + message) thrown where the C call returns a status other than CLVF_OK.
// Header only; the ABI is the C library's. Thread safety is the C API's: one operation per
// thread at a time, devices shared freely.
#pragma once
#include <clvf/clvf.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace clvf {

class Error : public std::runtime_error {
 public:
  Error(clvf_status status, const std::string& message) : std::runtime_error(message), status_(status) {}
  clvf_status status() const noexcept { return status_; }

 private:
  clvf_status status_;
};

// Throws Error with clvf_last_error() when a C call failed.
inline void check(clvf_status status) {
  if (status != CLVF_OK) throw Error(status, clvf_last_error());
}

namespace detail {
// One owned C handle and its release function.
template <typename T, void (*Release)(T*)>
class Handle {
 public:
  Handle() = default;
  explicit Handle(T* h) noexcept : h_(h) {}
  Handle(Handle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) Release(std::exchange(h_, std::exchange(o.h_, nullptr)));
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { Release(h_); }
  T* get() const noexcept { return h_; }
  explicit operator bool() const noexcept { return h_ != nullptr; }

 private:
  T* h_ = nullptr;
};
}  // namespace detail

class Device {
 public:
  // spec: "default", "cpu", "gpu", "P.D" or part of a device name; empty: $CLVF_DEVICE or default.
  explicit Device(const std::string& spec = "") {
    clvf_device* d = nullptr;
    check(clvf_device_open(spec.empty() ? nullptr : spec.c_str(), &d));
    h_ = Handle(d);
  }
  // An existing OpenCL context and device (e.g. FFmpeg's), and an in-order queue or nullptr
  // (one is created); retained, not taken over.
  Device(cl_context context, cl_device_id device, cl_command_queue queue) {
    clvf_device* d = nullptr;
    check(clvf_device_wrap(context, device, queue, &d));
    h_ = Handle(d);
  }
  // Windows: the spec's device in a context shared with a Direct3D object (clvf_device_open_d3d),
  // for frames of storage CLVF_STORAGE_D3D11 / CLVF_STORAGE_DXVA2.
  static Device shared_with(clvf_d3d_kind kind, void* d3d, const std::string& spec = "") {
    clvf_device* d = nullptr;
    check(clvf_device_open_d3d(spec.empty() ? nullptr : spec.c_str(), kind, d3d, &d));
    return Device(d);
  }
  // Linux: the OpenCL device on a CUDA context's GPU (clvf_device_open_cuda), for frames of
  // storage CLVF_STORAGE_CUDA.
  static Device for_cuda(void* cuda_context, const std::string& spec = "") {
    clvf_device* d = nullptr;
    check(clvf_device_open_cuda(spec.empty() ? nullptr : spec.c_str(), cuda_context, &d));
    return Device(d);
  }
  // CUDA frames: the caller's stream and how to order with it (clvf_device_set_cuda_sync); the
  // order chosen.
  clvf_cuda_sync set_cuda_sync(void* stream, clvf_cuda_sync sync = CLVF_CUDA_SYNC_AUTO) {
    clvf_cuda_sync used = CLVF_CUDA_SYNC_AUTO;
    check(clvf_device_set_cuda_sync(h_.get(), stream, sync, &used));
    return used;
  }
  std::string name() const { return clvf_device_name(h_.get()); }
  // Host sources are copied by submit (clvf_device_copies_host_frames).
  bool copies_host_frames() const { return clvf_device_copies_host_frames(h_.get()) != 0; }
  // The OpenCL context behind the device (for the caller's buffers and images); not retained.
  cl_context context() const {
    cl_context c = nullptr;
    check(clvf_device_handles(h_.get(), &c, nullptr, nullptr));
    return c;
  }
  clvf_device* get() const noexcept { return h_.get(); }

 private:
  explicit Device(clvf_device* d) : h_(d) {}
  using Handle = detail::Handle<clvf_device, clvf_device_release>;
  Handle h_;
};

class Scale {
 public:
  Scale(const Device& device, const clvf_scale_params& params) {
    clvf_scale* s = nullptr;
    check(clvf_scale_create(device.get(), &params, &s));
    h_ = Handle(s);
  }
  void process(const clvf_frame& src, const clvf_frame& dst) { check(clvf_scale_process(h_.get(), &src, &dst)); }
  // Up to CLVF_MAX_IN_FLIGHT frames; src and dst stay valid until their frame completes.
  void submit(const clvf_frame& src, const clvf_frame& dst) { check(clvf_scale_submit(h_.get(), &src, &dst)); }
  void complete() { check(clvf_scale_complete(h_.get())); }
  // Event-driven, for OpenCL frames (clvf_scale_enqueue): the frame starts after `wait`; the
  // returned event (the caller releases it) completes when dst is written.
  cl_event enqueue(const clvf_frame& src, const clvf_frame& dst, const std::vector<cl_event>& wait = {}) {
    cl_event done = nullptr;
    check(clvf_scale_enqueue(h_.get(), &src, &dst, static_cast<cl_uint>(wait.size()), wait.empty() ? nullptr : wait.data(),
                            &done));
    return done;
  }
  std::string profile() const { return clvf_scale_profile(h_.get()); }
  clvf_scale* get() const noexcept { return h_.get(); }

 private:
  using Handle = detail::Handle<clvf_scale, clvf_scale_release>;
  Handle h_;
};

class Colorspace {
 public:
  Colorspace(const Device& device, const clvf_colorspace_params& params) {
    clvf_colorspace* c = nullptr;
    check(clvf_colorspace_create(device.get(), &params, &c));
    h_ = Handle(c);
  }
  void process(const clvf_frame& src, const clvf_frame& dst) {
    check(clvf_colorspace_process(h_.get(), &src, &dst));
  }
  void submit(const clvf_frame& src, const clvf_frame& dst) { check(clvf_colorspace_submit(h_.get(), &src, &dst)); }
  void complete() { check(clvf_colorspace_complete(h_.get())); }
  // Event-driven, for OpenCL frames (clvf_colorspace_enqueue): the frame starts after `wait`; the
  // returned event (the caller releases it) completes when dst is written.
  cl_event enqueue(const clvf_frame& src, const clvf_frame& dst, const std::vector<cl_event>& wait = {}) {
    cl_event done = nullptr;
    check(clvf_colorspace_enqueue(h_.get(), &src, &dst, static_cast<cl_uint>(wait.size()), wait.empty() ? nullptr : wait.data(),
                            &done));
    return done;
  }
  std::string profile() const { return clvf_colorspace_profile(h_.get()); }
  clvf_colorspace* get() const noexcept { return h_.get(); }

 private:
  using Handle = detail::Handle<clvf_colorspace, clvf_colorspace_release>;
  Handle h_;
};

class Denoise {
 public:
  Denoise(const Device& device, const clvf_denoise_params& params) {
    clvf_denoise* d = nullptr;
    check(clvf_denoise_create(device.get(), &params, &d));
    h_ = Handle(d);
  }
  // Spatial only (temporal radius 0): one frame in, one out.
  void process(const clvf_frame& src, const clvf_frame& dst) { check(clvf_denoise_process(h_.get(), &src, &dst)); }
  // Streams (any radius): send frames in order, nullptr at the end; receive returns whether an
  // output was written to dst.
  void send(const clvf_frame* src) { check(clvf_denoise_send(h_.get(), src)); }
  bool receive(const clvf_frame& dst) {
    int got = 0;
    check(clvf_denoise_receive(h_.get(), &dst, &got));
    return got != 0;
  }
  // The same stream with frames in flight (clvf_denoise_submit): returns whether an output was
  // started into dst; complete() finishes the oldest.
  bool submit(const clvf_frame* src, const clvf_frame& dst) {
    int got = 0;
    check(clvf_denoise_submit(h_.get(), src, &dst, &got));
    return got != 0;
  }
  void complete() { check(clvf_denoise_complete(h_.get())); }
  std::string profile() const { return clvf_denoise_profile(h_.get()); }
  clvf_denoise* get() const noexcept { return h_.get(); }

 private:
  using Handle = detail::Handle<clvf_denoise, clvf_denoise_release>;
  Handle h_;
};

// A filter chain as ffmpeg -vf writes it, or a chain preset's name (clvf_chain_create).
class Chain {
 public:
  Chain(const Device& device, const std::string& chain, const clvf_stream& input,
        clvf_storage src_storage = CLVF_STORAGE_HOST, clvf_storage dst_storage = CLVF_STORAGE_HOST) {
    clvf_chain* c = nullptr;
    check(clvf_chain_create(device.get(), chain.c_str(), &input, src_storage, dst_storage, &c));
    h_ = Handle(c);
  }
  clvf_stream output() const {
    clvf_stream s{};
    check(clvf_chain_output(h_.get(), &s));
    return s;
  }
  // Sends src (nullptr: the end); returns whether an output was written to dst.
  bool process(const clvf_frame* src, const clvf_frame& dst) {
    int got = 0;
    check(clvf_chain_process(h_.get(), src, &dst, &got));
    return got != 0;
  }
  // With frames in flight (clvf_chain_submit): returns whether an output was started into dst;
  // complete() finishes the oldest.
  bool submit(const clvf_frame* src, const clvf_frame& dst) {
    int got = 0;
    check(clvf_chain_submit(h_.get(), src, &dst, &got));
    return got != 0;
  }
  void complete() { check(clvf_chain_complete(h_.get())); }
  clvf_chain* get() const noexcept { return h_.get(); }

 private:
  using Handle = detail::Handle<clvf_chain, clvf_chain_release>;
  Handle h_;
};

// The options of a preset ("w=1280:h=720:...") for a filter; a path names a preset file.
inline std::string preset_options(const std::string& filter, const std::string& name) {
  const char* options = nullptr;
  check(clvf_preset_options(filter.c_str(), name.c_str(), &options));
  return options;
}

}  // namespace clvf
