#include "runtime/device.hpp"

#include <atomic>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "clvf/cl_interop.h"
#include "runtime/error.hpp"
#include "runtime/log.hpp"

namespace clvf::detail {

std::vector<std::pair<DeviceEntry, cl::Device>> list_devices() {
  std::vector<std::pair<DeviceEntry, cl::Device>> out;
  std::vector<cl::Platform> platforms;
  cl_uint count = 0;
  // Asked through the C call: with no ICD installed the loader answers CL_PLATFORM_NOT_FOUND_KHR.
  // Any other failure is the driver's, and reported as such.
  const cl_int err = clGetPlatformIDs(0, nullptr, &count);
  if (err == CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && count == 0)) return out;
  if (err != CL_SUCCESS) throw Error(cl_error_status(err), cl_error_message("clGetPlatformIDs", err));
  cl::Platform::get(&platforms);
  for (size_t p = 0; p < platforms.size(); ++p) {
    std::vector<cl::Device> devices;
    try {
      platforms[p].getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error& e) {
      if (e.err() == CL_DEVICE_NOT_FOUND) continue;  // a platform without devices
      throw;
    }
    for (size_t d = 0; d < devices.size(); ++d) {
      DeviceEntry e;
      e.platform = static_cast<int>(p);
      e.device = static_cast<int>(d);
      // c_str(): some loaders (Wine's) report sizes larger than the string.
      e.platform_name = platforms[p].getInfo<CL_PLATFORM_NAME>().c_str();
      e.vendor = platforms[p].getInfo<CL_PLATFORM_VENDOR>().c_str();
      e.device_name = devices[d].getInfo<CL_DEVICE_NAME>().c_str();
      const auto type = devices[d].getInfo<CL_DEVICE_TYPE>();
      e.is_cpu = type & CL_DEVICE_TYPE_CPU;
      e.is_gpu = type & CL_DEVICE_TYPE_GPU;
      e.is_accelerator = type & CL_DEVICE_TYPE_ACCELERATOR;
      out.emplace_back(std::move(e), devices[d]);
    }
  }
  return out;
}

namespace {
// CPU runtimes read and write images a sample at a time through calls (PoCL: the sampler, the
// clamp and the format per access); a copy to and from a buffer is a memcpy. Through hwupload on
// PoCL, scale_clvf and colorspace_clvf ran 35-67 times faster staged (bench/opencl_frames_fps.sh,
// docs/troubleshooting.md). Oclgrind calls itself a CPU and a GPU: it keeps images in place, and
// checks those kernels.
bool stages_images_of(const cl::Device& device, const std::string& setting) {
  if (setting == "staged") return true;
  if (setting == "in-place") return false;
  if (!setting.empty())
    throw Error(CLVF_ERROR_INVALID_ARGUMENT,
                fmt::format("CLVF_IMAGES is '{}'; allowed: staged, in-place (unset: staged on CPU devices)", setting));
  const cl_device_type type = device.getInfo<CL_DEVICE_TYPE>();
  return (type & CL_DEVICE_TYPE_CPU) && !(type & CL_DEVICE_TYPE_GPU);
}
}  // namespace

Device::Device(cl::Context context, cl::Device device, cl::CommandQueue queue, Settings settings)
    : settings_(std::move(settings)),
      context_(std::move(context)),
      device_(std::move(device)),
      queue_(std::move(queue)),
      cache_(settings_.cache_dir) {
  const cl::Platform platform(device_.getInfo<CL_DEVICE_PLATFORM>());
  name_ = fmt::format("{} / {}", platform.getInfo<CL_PLATFORM_NAME>().c_str(),
                      device_.getInfo<CL_DEVICE_NAME>().c_str());
  if (device_.getInfo<CL_DEVICE_IMAGE_SUPPORT>()) context_.getSupportedImageFormats(CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, &image_formats_);
  zero_copy_host_ = device_.getInfo<CL_DEVICE_HOST_UNIFIED_MEMORY>() && settings_.zero_copy;
  stages_images_ = stages_images_of(device_, settings_.images);
  profiling_ = queue_.getInfo<CL_QUEUE_PROPERTIES>() & CL_QUEUE_PROFILING_ENABLE;
  const cl_command_queue_properties props = profiling_ ? CL_QUEUE_PROFILING_ENABLE : 0;
  upload_queue_ = cl::CommandQueue(context_, device_, props);
  download_queue_ = cl::CommandQueue(context_, device_, props);
  side_queue_ = cl::CommandQueue(context_, device_, props);
  if (profiling_requested(settings_) && !profiling_)
    log(CLVF_LOG_WARNING, "CLVF_PROFILE is set, but the caller's queue has no CL_QUEUE_PROFILING_ENABLE: no kernel times");
  log(CLVF_LOG_INFO, "using OpenCL device {}", name_);
}

void Device::join_side_queue() const {
  std::lock_guard<std::mutex> lock(side_mutex_);
  if (!side_pending_) return;
  side_pending_ = false;
  std::vector<cl::Event> side(1);
  side_queue_.enqueueMarkerWithWaitList(nullptr, &side[0]);
  side_queue_.flush();
  queue_.enqueueBarrierWithWaitList(&side);
}

namespace {
std::atomic<bool> profiling_flag{false};
}

void request_profiling(bool on) { profiling_flag = on; }

bool profiling_requested(const Settings& settings) { return settings.profiling || profiling_flag; }

namespace {

// The device a spec names (Error(NO_DEVICE) listing the devices when none).
cl::Device find_device(std::string_view spec_text) {
  const std::string text = effective_device_spec(spec_text.empty() ? nullptr : std::string(spec_text).c_str());
  const DeviceSpec spec = parse_device_spec(text);
  const auto devices = list_devices();
  std::vector<DeviceEntry> entries;
  for (const auto& [entry, dev] : devices) entries.push_back(entry);
  const auto match = match_device(spec, entries);
  if (!match)
    throw Error(CLVF_ERROR_NO_DEVICE,
                fmt::format("no OpenCL device matches '{}'; devices found:\n{}\n"
                            "specs: default, cpu, gpu, accelerator, P.D, or part of a name",
                            text, describe_devices(entries)));
  const auto it = std::find_if(devices.begin(), devices.end(), [&](const auto& d) {
    return d.first.platform == match->platform && d.first.device == match->device;
  });
  return it->second;
}

}  // namespace

std::shared_ptr<Device> Device::open(std::string_view spec_text, const Settings& settings) {
  cl::Device device = find_device(spec_text);
  cl::Context context(device);
  cl::CommandQueue queue(context, device, profiling_requested(settings) ? CL_QUEUE_PROFILING_ENABLE : 0);
  return std::shared_ptr<Device>(new Device(context, device, queue, settings));
}

std::shared_ptr<Device> Device::open_d3d(std::string_view spec_text, clvf_d3d_kind kind, void* d3d,
                                         const Settings& settings) {
#if defined(_WIN32)
  cl_context_properties key = kind == CLVF_D3D11    ? CL_CONTEXT_D3D11_DEVICE_KHR
                              : kind == CLVF_DXVA2  ? CL_CONTEXT_ADAPTER_DXVA_KHR
                              : kind == CLVF_D3D9EX ? CL_CONTEXT_ADAPTER_D3D9EX_KHR
                                                    : 0;
  if (key == 0) throw Error(CLVF_ERROR_INVALID_ARGUMENT, "clvf_device_open_d3d: kind must be CLVF_D3D11, CLVF_DXVA2 or CLVF_D3D9EX");
  if (d3d == nullptr) throw Error(CLVF_ERROR_INVALID_ARGUMENT, "clvf_device_open_d3d: the Direct3D object must not be NULL");
  cl::Device device = find_device(spec_text);
  const cl_platform_id platform = device.getInfo<CL_DEVICE_PLATFORM>();
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform), key,
                                         reinterpret_cast<cl_context_properties>(d3d), 0};
  cl_device_id id = device();
  cl_int err = CL_SUCCESS;
  cl_context raw = clvfCreateContext(props, 1, &id, nullptr, nullptr, &err);
  if (raw == nullptr) throw cl::Error(err, "clvfCreateContext (with the Direct3D device)");
  cl::Context context(raw, false);
  cl::CommandQueue queue(context, device, profiling_requested(settings) ? CL_QUEUE_PROFILING_ENABLE : 0);
  auto out = std::shared_ptr<Device>(new Device(context, device, queue, settings));
  out->d3d_kind_ = kind;
  return out;
#else
  (void)spec_text, (void)kind, (void)d3d, (void)settings;
  throw Error(CLVF_ERROR_UNSUPPORTED, "clvf_device_open_d3d: Direct3D frames need Windows");
#endif
}

std::shared_ptr<Device> Device::wrap(cl_context context, cl_device_id device, cl_command_queue queue,
                                     const Settings& settings) {
  if (!context || !device)
    throw Error(CLVF_ERROR_INVALID_ARGUMENT, "clvf_device_wrap: context and device must not be NULL");
  cl::Context ctx(context, true);
  cl::Device dev(device, true);
  cl::CommandQueue q = queue ? cl::CommandQueue(queue, true)
                             : cl::CommandQueue(ctx, dev, profiling_requested(settings) ? CL_QUEUE_PROFILING_ENABLE : 0);
  return std::shared_ptr<Device>(new Device(ctx, dev, q, settings));
}

bool Device::supports_image_format(cl_channel_order order, cl_channel_type type) const {
  return std::any_of(image_formats_.begin(), image_formats_.end(), [&](const cl::ImageFormat& f) {
    return f.image_channel_order == order && f.image_channel_data_type == type;
  });
}

Program Device::program(const std::string& source, const std::string& options) {
  std::lock_guard lock(programs_mutex_);
  const auto key = std::make_pair(source, options);
  if (auto it = programs_.find(key); it != programs_.end()) return it->second;
  Program program = cache_.build(context_, device_, source, options);
  programs_.emplace(key, program);
  return program;
}

}  // namespace clvf::detail
