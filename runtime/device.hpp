// An OpenCL device with its context, in-order queue, capabilities and program cache: what every
// operation is built on. Shared (shared_ptr) by the operations created on it.
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "clvf/clvf.h"
#include "runtime/cl.hpp"
#include "runtime/device_spec.hpp"
#include "runtime/program_cache.hpp"
#include "runtime/settings.hpp"

namespace clvf::detail {
namespace cuda {
class Share;
}

class Device {
 public:
  // Each keeps `settings` (by default read from the environment now: the library's edge).
  // Throws Error(NO_DEVICE) listing the devices found when the spec matches none.
  static std::shared_ptr<Device> open(std::string_view spec, const Settings& settings = Settings::from_environment());
  static std::shared_ptr<Device> wrap(cl_context context, cl_device_id device, cl_command_queue queue,
                                      const Settings& settings = Settings::from_environment());
  // Windows: the device of `spec` in a context shared with a Direct3D object (clvf_device_open_d3d).
  static std::shared_ptr<Device> open_d3d(std::string_view spec, clvf_d3d_kind kind, void* d3d,
                                          const Settings& settings = Settings::from_environment());
  // Linux: the device of `spec` for frames of a CUDA context (clvf_device_open_cuda); with no spec
  // (and no CLVF_DEVICE), the OpenCL device that is the CUDA context's GPU.
  static std::shared_ptr<Device> open_cuda(std::string_view spec, void* cuda_context,
                                           const Settings& settings = Settings::from_environment());

  const Settings& settings() const { return settings_; }

  const cl::Context& context() const { return context_; }
  const cl::Device& device() const { return device_; }
  const cl::CommandQueue& queue() const { return queue_; }
  // In-order queues of clvf's own for copies to and from system memory, so that a frame's upload
  // and another's download can overlap the kernels on queue() (discrete GPUs; events order them).
  const cl::CommandQueue& upload_queue() const { return upload_queue_; }
  const cl::CommandQueue& download_queue() const { return download_queue_; }
  // A second in-order queue of clvf's own for kernels: denoise runs its first plane on queue()
  // and the others here (submit_frame), so that the device works on them at once (one plane's
  // work-groups fill the units another's last ones leave idle, within a frame and across frames).
  // queue() does not wait for it by itself: a frame's events cover both.
  const cl::CommandQueue& side_queue() const { return side_queue_; }
  // What submit_frame calls after putting work on side_queue() (after, so that a join on another
  // thread in between cannot take the flag before the work it stands for is there).
  void side_queue_used() const {
    std::lock_guard<std::mutex> lock(side_mutex_);
    side_pending_ = true;
  }
  // Orders what is enqueued on queue() from now on after everything side_queue() holds (for
  // what follows queue() alone: an interop release). Nothing when the side queue has had no work
  // since the last join.
  void join_side_queue() const;
  const std::string& name() const { return name_; }
  bool supports_image_format(cl_channel_order order, cl_channel_type type) const;
  // Kernels can use system memory in place (CPU devices, integrated GPUs), unless the settings
  // ask for copies through device buffers (CLVF_NO_ZERO_COPY=1).
  bool zero_copy_host() const { return zero_copy_host_; }
  // Image planes go through buffers: copied in before the kernels and out after them, which run
  // their buffer forms (CPU devices, unless the settings say otherwise; see stages_images_of).
  bool stages_images() const { return stages_images_; }
  // The queue records kernel times (CLVF_PROFILE=1 when the queue is clvf's own, or a caller's
  // queue made with CL_QUEUE_PROFILING_ENABLE).
  bool profiling() const { return profiling_; }
  // What the context shares with Direct3D (0: nothing).
  int d3d_kind() const { return d3d_kind_; }
  // The CUDA memory shared with the context (null unless opened with open_cuda).
  const std::shared_ptr<cuda::Share>& cuda() const { return cuda_; }

  // The program for source + options, built once per device and kept (memory, then disk cache).
  Program program(const std::string& source, const std::string& options);
  // Kernel `name` of that program, its arguments set by name.
  Kernel kernel(const std::string& source, const std::string& options, std::string name) {
    return program(source, options).kernel(std::move(name));
  }

 private:
  Device(cl::Context context, cl::Device device, cl::CommandQueue queue, Settings settings);

  Settings settings_;
  cl::Context context_;
  cl::Device device_;
  cl::CommandQueue queue_, upload_queue_, download_queue_, side_queue_;
  std::string name_;
  std::vector<cl::ImageFormat> image_formats_;
  bool zero_copy_host_ = false;
  bool stages_images_ = false;
  bool profiling_ = false;
  int d3d_kind_ = 0;
  mutable std::mutex side_mutex_;  // a join's flag and its two commands together
  mutable bool side_pending_ = false;
  std::shared_ptr<cuda::Share> cuda_;
  ProgramCache cache_;
  std::mutex programs_mutex_;
  std::map<std::pair<std::string, std::string>, Program> programs_;
};

// The settings ask for it (CLVF_PROFILE=1), or request_profiling(true) did: queues clvf creates
// from then on record kernel times.
bool profiling_requested(const Settings& settings);
void request_profiling(bool on);

// Every device of every platform, in clinfo -l order.
std::vector<std::pair<DeviceEntry, cl::Device>> list_devices();

}  // namespace clvf::detail
