#include "runtime/host_buffer.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <mutex>

#include "runtime/cl_entry.hpp"
#include "runtime/error.hpp"

namespace clvf::detail {

namespace {
// OpenCL 2.0 names the 1.2 headers lack.
constexpr cl_device_info kDeviceSvmCapabilities = 0x1053;        // CL_DEVICE_SVM_CAPABILITIES
constexpr cl_bitfield kSvmFineGrainBuffer = 1 << 1;              // CL_DEVICE_SVM_FINE_GRAIN_BUFFER
constexpr cl_mem_flags kMemSvmFineGrainBuffer = 1 << 10;         // CL_MEM_SVM_FINE_GRAIN_BUFFER
using SvmAlloc = void*(CL_API_CALL*)(cl_context, cl_mem_flags, size_t, cl_uint);
using SvmFree = void(CL_API_CALL*)(cl_context, void*);
using SetKernelArgSvmPointer = cl_int(CL_API_CALL*)(cl_kernel, cl_uint, const void*);

struct Entries {
  SvmAlloc alloc = cl_entry<SvmAlloc>("clSVMAlloc");
  SvmFree free = cl_entry<SvmFree>("clSVMFree");
  SetKernelArgSvmPointer set_arg = cl_entry<SetKernelArgSvmPointer>("clSetKernelArgSVMPointer");
};
const Entries& entries() {
  static const Entries e;
  return e;
}

// Every live HostBuffer, by its first byte: what in_host_buffer looks up for each plane of a frame.
struct Span {
  size_t size;
  cl_context context;
};
// Never destroyed: FFmpeg may free a frame's buffer while the process's statics are torn down.
std::mutex& registry_mutex() {
  static auto* m = new std::mutex;
  return *m;
}
std::map<uintptr_t, Span>& registry() {
  static auto* spans = new std::map<uintptr_t, Span>;
  return *spans;
}
}  // namespace

std::string host_buffers_unsupported(const Device& device) {
  if (!device.zero_copy_host())
    return device.settings().zero_copy ? "the device does not share host memory (it copies host frames)"
                                       : "CLVF_NO_ZERO_COPY=1 asks for host frames to be copied";
  if (!device.settings().host_buffers) return "CLVF_NO_HOST_BUFFERS=1 turns them off";
  const Entries& e = entries();
  if (!e.alloc || !e.free || !e.set_arg) return "the OpenCL loader has no clSVMAlloc (OpenCL 2.0)";
  cl_bitfield caps = 0;
  const cl_int err = clGetDeviceInfo(device.device()(), kDeviceSvmCapabilities, sizeof caps, &caps, nullptr);
  if (err == CL_INVALID_VALUE) return "the device has no shared virtual memory (OpenCL 1.2)";
  if (err != CL_SUCCESS)
    throw Error(cl_error_status(err), cl_error_message("clGetDeviceInfo (CL_DEVICE_SVM_CAPABILITIES)", err));
  if (!(caps & kSvmFineGrainBuffer)) return "the device has no fine-grained shared virtual memory buffers";
  return {};
}

HostBuffer::HostBuffer(const Device& device, size_t bytes) : context_(device.context()) {
  if (const std::string why = host_buffers_unsupported(device); !why.empty())
    throw Error(CLVF_ERROR_UNSUPPORTED, fmt::format("host buffers on {}: {}", device.name(), why));
  if (bytes == 0) throw Error(CLVF_ERROR_INVALID_ARGUMENT, "a host buffer of 0 bytes");
  data_ = entries().alloc(context_(), CL_MEM_READ_WRITE | kMemSvmFineGrainBuffer, bytes, 128);
  if (!data_)
    throw Error(CLVF_ERROR_OUT_OF_MEMORY, fmt::format("clSVMAlloc of {} bytes of fine-grained shared memory failed "
                                                      "on {}", bytes, device.name()));
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry()[reinterpret_cast<uintptr_t>(data_)] = Span{bytes, context_()};
}

HostBuffer::~HostBuffer() {
  {
    std::lock_guard<std::mutex> lock(registry_mutex());
    registry().erase(reinterpret_cast<uintptr_t>(data_));
  }
  entries().free(context_(), data_);
}

bool in_host_buffer(const cl::Context& context, const void* p, size_t bytes) {
  const auto start = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> lock(registry_mutex());
  const auto& spans = registry();
  auto it = spans.upper_bound(start);
  if (it == spans.begin()) return false;
  --it;
  return it->second.context == context() && start - it->first <= it->second.size &&
         bytes <= it->second.size - (start - it->first);
}

void set_host_buffer_arg(cl::Kernel& kernel, cl_uint index, const void* p) {
  if (const cl_int err = entries().set_arg(kernel(), index, p); err != CL_SUCCESS)
    throw Error(cl_error_status(err), cl_error_message("clSetKernelArgSVMPointer", err));
}

}  // namespace clvf::detail
