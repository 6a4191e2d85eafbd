// Which implementation serves each sharing extension on a platform, from its extension string:
//   native     the platform has the KHR extension (Intel; AMD): its own functions are used;
//   vendor_nv  NVIDIA's cl_nv_d3d11_sharing: the same signatures and values under NV names;
//   emulated   neither: clvf implements the extension (copies through staging resources).
// Platform-neutral so that the choice is tested on every build against recorded extension strings.
#pragma once
#include <string_view>

namespace clvf::interop {

enum class SharingPath { native, vendor_nv, emulated };

struct SharingPaths {
  SharingPath d3d11 = SharingPath::emulated;
  SharingPath dx9 = SharingPath::emulated;
};

SharingPaths choose_sharing_paths(std::string_view platform_extensions);

// The name under which the platform offers `khr_name` on `path` (the NV spelling for
// vendor_nv); empty for emulated paths and for names the path does not cover.
std::string_view platform_function_name(SharingPath path, std::string_view khr_name);

}  // namespace clvf::interop
