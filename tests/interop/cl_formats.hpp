// OpenCL helpers the interop tests of every build share: whether a context's devices take 2D images
// of a format for reading and writing, and the platform the tests run on.
#pragma once
#include <CL/cl.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

namespace clvf::detail::test {

inline bool supported(cl_context context, cl_image_format format) {
  cl_uint count = 0;
  clGetSupportedImageFormats(context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &count);
  std::vector<cl_image_format> formats(count);
  clGetSupportedImageFormats(context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, count, formats.data(), nullptr);
  return std::any_of(formats.begin(), formats.end(), [&](const cl_image_format& f) {
    return f.image_channel_order == format.image_channel_order &&
           f.image_channel_data_type == format.image_channel_data_type;
  });
}

// The first platform whose name contains CLVF_TEST_PLATFORM (the first of all without it); null
// when none does. Never "the first platform" alone: the loader's order is the order of its vendor
// directory, which differs between machines.
inline cl_platform_id find_test_platform() {
  cl_platform_id platforms[8];
  cl_uint count = 0;
  if (clGetPlatformIDs(8, platforms, &count) != CL_SUCCESS || count == 0) return nullptr;
  const char* wanted = std::getenv("CLVF_TEST_PLATFORM");
  for (cl_uint i = 0; i < count && i < 8; ++i) {
    char name[256] = {};
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name - 1, name, nullptr);
    if (!wanted || std::string(name).find(wanted) != std::string::npos) return platforms[i];
  }
  return nullptr;
}

}  // namespace clvf::detail::test
