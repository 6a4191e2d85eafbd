// Which path serves each sharing extension, against extension strings recorded from platforms
// (the native and vendor paths cannot run here: this checks their dispatch).
#include <gtest/gtest.h>

#include "interop/sharing/paths.hpp"

namespace clvf::detail::interop {
namespace {

struct Recorded {
  const char* platform;
  const char* extensions;
  SharingPath d3d11, dx9;
};

// Windows drivers' CL_PLATFORM_EXTENSIONS (sharing-relevant parts as the drivers list them) and
// the two platforms this project runs on.
const Recorded kPlatforms[] = {
    {"Intel(R) OpenCL HD Graphics",
     "cl_khr_byte_addressable_store cl_khr_fp16 cl_khr_global_int32_base_atomics cl_khr_d3d10_sharing "
     "cl_khr_d3d11_sharing cl_khr_dx9_media_sharing cl_intel_dx9_media_sharing cl_intel_d3d11_nv12_media_sharing "
     "cl_khr_gl_sharing cl_khr_icd",
     SharingPath::native, SharingPath::native},
    {"NVIDIA CUDA",
     "cl_khr_global_int32_base_atomics cl_khr_fp64 cl_khr_icd cl_khr_gl_sharing cl_nv_compiler_options "
     "cl_nv_device_attribute_query cl_nv_pragma_unroll cl_nv_d3d10_sharing cl_khr_d3d10_sharing "
     "cl_nv_d3d11_sharing cl_nv_copy_opts cl_nv_create_buffer cl_khr_int64_base_atomics",
     SharingPath::vendor_nv, SharingPath::emulated},
    {"AMD Accelerated Parallel Processing",
     "cl_khr_icd cl_khr_d3d10_sharing cl_khr_d3d11_sharing cl_khr_dx9_media_sharing cl_amd_event_callback "
     "cl_amd_offline_devices cl_amd_planar_yuv",
     SharingPath::native_amd, SharingPath::native},
    {"AMD without planar YUV", "cl_khr_icd cl_khr_d3d11_sharing cl_khr_dx9_media_sharing", SharingPath::native,
     SharingPath::native},
    {"Portable Computing Language", "cl_khr_icd cl_pocl_content_size", SharingPath::emulated, SharingPath::emulated},
    {"Oclgrind", "cl_khr_icd", SharingPath::emulated, SharingPath::emulated},
    // Names that merely contain the extension's name are not the extension.
    {"lookalike", "cl_khr_d3d11_sharing_ext xcl_khr_dx9_media_sharing", SharingPath::emulated, SharingPath::emulated},
    {"at the ends", "cl_khr_dx9_media_sharing cl_nv_d3d11_sharing", SharingPath::vendor_nv, SharingPath::native},
};

TEST(SharingPaths, ChosenFromRecordedPlatforms) {
  for (const Recorded& r : kPlatforms) {
    SharingPaths paths = choose_sharing_paths(r.extensions);
    EXPECT_EQ(paths.d3d11, r.d3d11) << r.platform;
    EXPECT_EQ(paths.dx9, r.dx9) << r.platform;
  }
}

TEST(SharingPaths, PlatformFunctionNames) {
  EXPECT_EQ(platform_function_name(SharingPath::native, "clCreateFromD3D11BufferKHR"), "clCreateFromD3D11BufferKHR");
  EXPECT_EQ(platform_function_name(SharingPath::native_amd, "clGetDeviceIDsFromD3D11KHR"),
            "clGetDeviceIDsFromD3D11KHR");
  EXPECT_EQ(platform_function_name(SharingPath::vendor_nv, "clCreateFromD3D11Texture2DKHR"),
            "clCreateFromD3D11Texture2DNV");
  EXPECT_EQ(platform_function_name(SharingPath::vendor_nv, "clEnqueueReleaseD3D11ObjectsKHR"),
            "clEnqueueReleaseD3D11ObjectsNV");
  EXPECT_EQ(platform_function_name(SharingPath::vendor_nv, "clCreateFromDX9MediaSurfaceKHR"), "");
  EXPECT_EQ(platform_function_name(SharingPath::emulated, "clCreateFromD3D11BufferKHR"), "");
}

}  // namespace
}  // namespace clvf::detail::interop
