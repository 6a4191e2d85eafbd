// Device::open_cuda: the OpenCL device on the GPU of a CUDA context, matched by UUID.
#include <fmt/format.h>

#include <cstdlib>
#include <string>

#include "interop/cuda/cuda_share.hpp"
#include "runtime/device.hpp"
#include "runtime/error.hpp"

namespace clvf::detail {

namespace {

constexpr cl_device_info kDeviceUuid = 0x106A;  // CL_DEVICE_UUID_KHR (cl_khr_device_uuid)

bool has_extension(const cl::Device& device, const char* name) {
  const std::string device_ext = device.getInfo<CL_DEVICE_EXTENSIONS>().c_str();
  const cl::Platform platform(device.getInfo<CL_DEVICE_PLATFORM>());
  const std::string platform_ext = platform.getInfo<CL_PLATFORM_EXTENSIONS>().c_str();
  auto listed = [&](const std::string& list) { return (" " + list + " ").find(std::string(" ") + name + " ") != std::string::npos; };
  return listed(device_ext) || listed(platform_ext);
}

// The device's UUID ("" when it cannot tell).
std::string uuid_of(const cl::Device& device) {
  if (!has_extension(device, "cl_khr_device_uuid")) return {};
  unsigned char uuid[16] = {};
  if (clGetDeviceInfo(device(), kDeviceUuid, sizeof uuid, uuid, nullptr) != CL_SUCCESS) return {};
  return std::string(reinterpret_cast<const char*>(uuid), sizeof uuid);
}

}  // namespace

std::shared_ptr<Device> Device::open_cuda(std::string_view spec, void* cuda_context, const Settings& settings) {
  if (!cuda_context) throw Error(CLVF_ERROR_INVALID_ARGUMENT, "clvf_device_open_cuda: the CUDA context must not be NULL");
  auto context = static_cast<cuda::CUcontext>(cuda_context);
  const std::string uuid = cuda::device_uuid(context);
  const bool by_uuid = spec.empty() && device_spec_setting().empty();
  std::shared_ptr<Device> out;
  if (by_uuid) {
    std::string seen;
    for (const auto& [entry, device] : list_devices()) {
      if (uuid_of(device) == uuid) {
        cl::Context ctx(device);
        out = std::shared_ptr<Device>(new Device(
            ctx, device, cl::CommandQueue(ctx, device, profiling_requested(settings) ? CL_QUEUE_PROFILING_ENABLE : 0),
            settings));
        break;
      }
      seen += fmt::format("\n  {}.{}  {} / {}", entry.platform, entry.device, entry.platform_name, entry.device_name);
    }
    if (!out)
      throw Error(CLVF_ERROR_NO_DEVICE,
                  "CUDA frames: no OpenCL device is the CUDA context's GPU (none reports its UUID through "
                  "cl_khr_device_uuid; is NVIDIA's OpenCL driver installed?). OpenCL devices:" +
                      (seen.empty() ? std::string(" none") : seen));
  } else {
    out = open(spec, settings);
    const std::string theirs = uuid_of(out->device());
    if (!theirs.empty() && theirs != uuid)
      throw Error(CLVF_ERROR_INVALID_ARGUMENT,
                  fmt::format("CUDA frames: {} is not the CUDA context's GPU; leave the device unset to use that GPU",
                              out->name()));
  }
  if (!cuda::importer_is_fake() && !has_extension(out->device(), "cl_khr_external_memory_opaque_fd"))
    throw Error(CLVF_ERROR_UNSUPPORTED,
                fmt::format("CUDA frames: {} cannot import CUDA memory (no cl_khr_external_memory_opaque_fd)",
                            out->name()));
  out->cuda_ = std::make_shared<cuda::Share>(context, out->context(), out->device(), cuda::semaphores_of(out->device()));
  return out;
}

}  // namespace clvf::detail
