// clvf's sharing as an OpenCL layer (interop/layer.cpp) under Debian's ICD loader (ocl-icd 2.3):
// this program names the layer in OPENCL_LAYERS before its first OpenCL call, so every core call
// below goes through it. Without Direct3D the layer has no extension to add; what is checked is
// that the loader takes it, that its checks apply (an interop property's bad value refused, which
// PoCL alone accepts), and that everything else, clvf's own calls included, reaches the platform
// without coming back through the layer. The program also links libclvf (as ffmpeg with the clvf
// filters does), whose copy of the same code must not capture the layer's calls.
#include <CL/cl_layer.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "clvf/cl_interop.h"

namespace {

const bool layer_named = [] { return setenv("OPENCL_LAYERS", CLVF_LAYER_PATH, 1) == 0; }();

cl_platform_id first_platform() {
  cl_platform_id p = nullptr;
  clGetPlatformIDs(1, &p, nullptr);
  return p;
}

TEST(LayerUnderOclIcd, AnswersWhatItIs) {
  ASSERT_TRUE(layer_named);
  void* dll = dlopen(CLVF_LAYER_PATH, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(dll, nullptr) << dlerror();
  auto info = reinterpret_cast<pfn_clGetLayerInfo>(dlsym(dll, "clGetLayerInfo"));
  ASSERT_NE(info, nullptr);
  cl_layer_api_version version = 0;
  EXPECT_EQ(info(CL_LAYER_API_VERSION, sizeof version, &version, nullptr), CL_SUCCESS);
  EXPECT_EQ(version, static_cast<cl_layer_api_version>(CL_LAYER_API_VERSION_100));
  size_t size = 0;
  EXPECT_EQ(info(CL_LAYER_NAME, 0, nullptr, &size), CL_SUCCESS);
  std::string name(size, '\0');
  EXPECT_EQ(info(CL_LAYER_NAME, size, name.data(), nullptr), CL_SUCCESS);
  EXPECT_NE(name.find("clvf"), std::string::npos) << name;
  EXPECT_EQ(info(0x1234, 0, nullptr, &size), CL_INVALID_VALUE);
  auto init = reinterpret_cast<pfn_clInitLayer>(dlsym(dll, "clInitLayer"));
  ASSERT_NE(init, nullptr);
  cl_uint entries = 0;
  const cl_icd_dispatch* table = nullptr;
  EXPECT_EQ(init(0, nullptr, &entries, &table), CL_INVALID_VALUE);
  dlclose(dll);
}

TEST(LayerUnderOclIcd, InteropPropertiesAreCheckedOnTheCoreEntryPoints) {
  cl_platform_id platform = first_platform();
  ASSERT_NE(platform, nullptr);
  const cl_context_properties bad[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform),
                                       CL_CONTEXT_INTEROP_USER_SYNC, 5, 0};
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateContextFromType(bad, CL_DEVICE_TYPE_ALL, nullptr, nullptr, &err), nullptr)
      << "the layer is not in the loader's chain (PoCL accepts CL_CONTEXT_INTEROP_USER_SYNC = 5)";
  EXPECT_EQ(err, CL_INVALID_PROPERTY);
  const cl_context_properties good[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform),
                                        CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0};
  cl_context context = clCreateContextFromType(good, CL_DEVICE_TYPE_ALL, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_context_properties given[5] = {};
  size_t size = 0;
  EXPECT_EQ(clGetContextInfo(context, CL_CONTEXT_PROPERTIES, sizeof given, given, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof good);
  EXPECT_EQ(given[2], CL_CONTEXT_INTEROP_USER_SYNC);
  EXPECT_EQ(given[3], CL_TRUE);
  EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
}

// Each call the layer takes over forwards the rest to the platform (a call that came back through
// the loader would recurse until the stack ran out).
TEST(LayerUnderOclIcd, EverythingElseReachesThePlatform) {
  cl_platform_id platform = first_platform();
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform), 0};
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContextFromType(props, CL_DEVICE_TYPE_ALL, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_device_id device = nullptr;
  ASSERT_EQ(clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof device, &device, nullptr), CL_SUCCESS);
  cl_uint refs = 0;
  EXPECT_EQ(clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, nullptr), CL_SUCCESS);
  EXPECT_EQ(refs, 1u);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, 256, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  auto* p = static_cast<unsigned char*>(
      clEnqueueMapBuffer(queue, buffer, CL_TRUE, CL_MAP_WRITE, 0, 256, 0, nullptr, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  std::memset(p, 9, 256);
  cl_event unmapped = nullptr;
  ASSERT_EQ(clEnqueueUnmapMemObject(queue, buffer, p, 0, nullptr, &unmapped), CL_SUCCESS);
  cl_command_type type = 0;
  EXPECT_EQ(clGetEventInfo(unmapped, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
  EXPECT_EQ(type, static_cast<cl_command_type>(CL_COMMAND_UNMAP_MEM_OBJECT));
  clReleaseEvent(unmapped);
  unsigned char back[256] = {};
  ASSERT_EQ(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, 256, back, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(back[0], 9);
  EXPECT_EQ(back[255], 9);
  size_t size = 0;
  EXPECT_EQ(clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof size, &size, nullptr), CL_SUCCESS);
  EXPECT_EQ(size, 256u);
  const cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = 8;
  desc.image_height = 4;
  cl_mem image = clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  size_t width = 0;
  EXPECT_EQ(clGetImageInfo(image, CL_IMAGE_WIDTH, sizeof width, &width, nullptr), CL_SUCCESS);
  EXPECT_EQ(width, 8u);
  const size_t origin[3] = {0, 0, 0}, region[3] = {8, 4, 1};
  size_t pitch = 0;
  void* q = clEnqueueMapImage(queue, image, CL_TRUE, CL_MAP_READ, origin, region, &pitch, nullptr, 0, nullptr,
                              nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(clEnqueueUnmapMemObject(queue, image, q, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clFinish(queue), CL_SUCCESS);
  // Without Direct3D no sharing function is offered; other lookups are the platform's.
  EXPECT_EQ(clGetExtensionFunctionAddressForPlatform(platform, "clCreateFromD3D11BufferKHR"), nullptr);
  EXPECT_EQ(clReleaseMemObject(image), CL_SUCCESS);
  EXPECT_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
  EXPECT_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
  EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
}

// libclvf's own entry points beside the layer's: each keeps to its own copy (a layer call bound
// to the library's copy would come back through the loader into the layer, without end).
TEST(LayerUnderOclIcd, TheLibraryInTheSameProcessKeepsToItself) {
  cl_platform_id platform = first_platform();
  const cl_context_properties bad[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform),
                                       CL_CONTEXT_INTEROP_USER_SYNC, 7, 0};
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clvfCreateContextFromType(bad, CL_DEVICE_TYPE_ALL, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PROPERTY);
  const cl_context_properties good[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform), 0};
  cl_context context = clvfCreateContextFromType(good, CL_DEVICE_TYPE_ALL, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  size_t size = 0;
  EXPECT_EQ(clvfGetContextInfo(context, CL_CONTEXT_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(clGetContextInfo(context, CL_CONTEXT_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof good);
  EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
}

}  // namespace
