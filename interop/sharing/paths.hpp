// Which implementation serves each sharing extension on a platform, from its extension string:
//   native     the platform has the KHR extension (Intel): its own functions are used;
//   native_amd the KHR extension with cl_amd_planar_yuv (AMD): the platform's functions, with
//              planar textures translated to KHR's convention (amd_planes.hpp);
//   vendor_nv  NVIDIA's cl_nv_d3d11_sharing: the same signatures and values under NV names;
//   emulated   neither: clvf implements the extension (copies through staging resources).
// Platform-neutral so that the choice is tested on every build against recorded extension strings.
#pragma once
#include <string_view>

namespace clvf::detail::interop {

enum class SharingPath { native, native_amd, vendor_nv, emulated };

struct SharingPaths {
  SharingPath d3d11 = SharingPath::emulated;
  SharingPath dx9 = SharingPath::emulated;
};

// `extensions`: the platform's extension string and its devices' (cl_amd_planar_yuv may be either).
SharingPaths choose_sharing_paths(std::string_view extensions);

// The name under which the platform offers `khr_name` on `path` (the NV spelling for
// vendor_nv, the KHR one for native and native_amd); empty for emulated paths and for names the path does not cover.
std::string_view platform_function_name(SharingPath path, std::string_view khr_name);

}  // namespace clvf::detail::interop
