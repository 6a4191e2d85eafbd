#include "interop/sharing/next.hpp"

#include <atomic>

namespace clvf::detail::interop {

namespace {

cl_icd_dispatch loader_functions() {
  cl_icd_dispatch d{};
  d.clGetPlatformIDs = &clGetPlatformIDs;
  d.clGetPlatformInfo = &clGetPlatformInfo;
  d.clGetDeviceIDs = &clGetDeviceIDs;
  d.clGetDeviceInfo = &clGetDeviceInfo;
  d.clCreateContext = &clCreateContext;
  d.clCreateContextFromType = &clCreateContextFromType;
  d.clRetainContext = &clRetainContext;
  d.clReleaseContext = &clReleaseContext;
  d.clGetContextInfo = &clGetContextInfo;
  d.clGetCommandQueueInfo = &clGetCommandQueueInfo;
  d.clCreateBuffer = &clCreateBuffer;
  d.clCreateImage = &clCreateImage;
  d.clRetainMemObject = &clRetainMemObject;
  d.clReleaseMemObject = &clReleaseMemObject;
  d.clGetSupportedImageFormats = &clGetSupportedImageFormats;
  d.clGetMemObjectInfo = &clGetMemObjectInfo;
  d.clGetImageInfo = &clGetImageInfo;
  d.clGetEventInfo = &clGetEventInfo;
  d.clRetainEvent = &clRetainEvent;
  d.clReleaseEvent = &clReleaseEvent;
  d.clEnqueueReadBuffer = &clEnqueueReadBuffer;
  d.clEnqueueWriteBuffer = &clEnqueueWriteBuffer;
  d.clEnqueueReadImage = &clEnqueueReadImage;
  d.clEnqueueWriteImage = &clEnqueueWriteImage;
  d.clEnqueueMapBuffer = &clEnqueueMapBuffer;
  d.clEnqueueMapImage = &clEnqueueMapImage;
  d.clEnqueueUnmapMemObject = &clEnqueueUnmapMemObject;
  d.clEnqueueMarkerWithWaitList = &clEnqueueMarkerWithWaitList;
  d.clEnqueueBarrierWithWaitList = &clEnqueueBarrierWithWaitList;
  d.clGetExtensionFunctionAddressForPlatform = &clGetExtensionFunctionAddressForPlatform;
  return d;
}

std::atomic<const cl_icd_dispatch*> next_table{nullptr};

}  // namespace

const cl_icd_dispatch& loader_cl() {
  static const cl_icd_dispatch loader = loader_functions();
  return loader;
}

const cl_icd_dispatch& next_cl() {
  const cl_icd_dispatch* table = next_table.load(std::memory_order_acquire);
  return table ? *table : loader_cl();
}

void set_next_cl(const cl_icd_dispatch* table) { next_table.store(table, std::memory_order_release); }

}  // namespace clvf::detail::interop
