// Without Direct3D (Linux): the sharing functions are not offered, and clvf's query, map and
// context entry points behave exactly as the platform's own.
#include <gtest/gtest.h>

#include <cstring>

#include "clvf/cl_interop.h"

namespace {

cl_platform_id first_platform() {
  cl_platform_id p = nullptr;
  clGetPlatformIDs(1, &p, nullptr);
  return p;
}

TEST(InteropForwarding, SharingFunctionsAreNotOfferedWithoutDirect3D) {
  for (const char* name : {"clCreateFromD3D11BufferKHR", "clCreateFromDX9MediaSurfaceKHR",
                           "clEnqueueAcquireD3D11ObjectsKHR", "clGetDeviceIDsFromDX9MediaAdapterKHR"})
    EXPECT_EQ(clvfGetExtensionFunctionAddressForPlatform(first_platform(), name), nullptr) << name;
  EXPECT_EQ(clvfGetExtensionFunctionAddressForPlatform(first_platform(), nullptr), nullptr);
  EXPECT_EQ(clvfGetExtensionFunctionAddressForPlatform(first_platform(), "clNoSuchFunctionKHR"), nullptr);
}

TEST(InteropForwarding, ContextQueriesAndMapsForward) {
  cl_platform_id platform = first_platform();
  ASSERT_NE(platform, nullptr);
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform),
                                   CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, 0};
  cl_int err = -1;
  cl_context context = clvfCreateContextFromType(props, CL_DEVICE_TYPE_ALL, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_uint refs = 0;
  EXPECT_EQ(clvfGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, nullptr), CL_SUCCESS);
  EXPECT_EQ(refs, 1u) << "nothing shared: no reference of clvf's own";
  cl_device_id device = nullptr;
  clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof device, &device, nullptr);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, 256, nullptr, &err);
  // Plain objects: overlapping write maps are the platform's business, not refused by clvf.
  void* a = clvfEnqueueMapBuffer(queue, buffer, CL_TRUE, CL_MAP_WRITE, 0, 128, 0, nullptr, nullptr, &err);
  EXPECT_EQ(err, CL_SUCCESS);
  std::memset(a, 7, 128);
  EXPECT_EQ(clvfEnqueueUnmapMemObject(queue, buffer, a, 0, nullptr, nullptr), CL_SUCCESS);
  unsigned char back[128] = {};
  clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, 128, back, 0, nullptr, nullptr);
  EXPECT_EQ(back[0], 7);
  EXPECT_EQ(back[127], 7);
  size_t size = 0;
  EXPECT_EQ(clvfGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof size, &size, nullptr), CL_SUCCESS);
  EXPECT_EQ(size, 256u);
  clReleaseMemObject(buffer);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  cl_context_properties bad[] = {CL_CONTEXT_INTEROP_USER_SYNC, 5, 0};
  EXPECT_EQ(clvfCreateContextFromType(bad, CL_DEVICE_TYPE_ALL, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PROPERTY);
}

}  // namespace
