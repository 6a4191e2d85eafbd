#include "interop/sharing/paths.hpp"

namespace clvf::detail::interop {

namespace {

bool has_extension(std::string_view list, std::string_view name) {
  size_t at = 0;
  while ((at = list.find(name, at)) != std::string_view::npos) {
    const size_t end = at + name.size();
    if ((at == 0 || list[at - 1] == ' ') && (end == list.size() || list[end] == ' ')) return true;
    at = end;
  }
  return false;
}

struct Spelling {
  std::string_view khr, nv;
};

constexpr Spelling kD3D11Names[] = {
    {"clGetDeviceIDsFromD3D11KHR", "clGetDeviceIDsFromD3D11NV"},
    {"clCreateFromD3D11BufferKHR", "clCreateFromD3D11BufferNV"},
    {"clCreateFromD3D11Texture2DKHR", "clCreateFromD3D11Texture2DNV"},
    {"clCreateFromD3D11Texture3DKHR", "clCreateFromD3D11Texture3DNV"},
    {"clEnqueueAcquireD3D11ObjectsKHR", "clEnqueueAcquireD3D11ObjectsNV"},
    {"clEnqueueReleaseD3D11ObjectsKHR", "clEnqueueReleaseD3D11ObjectsNV"},
};

}  // namespace

SharingPaths choose_sharing_paths(std::string_view extensions) {
  SharingPaths paths;
  if (has_extension(extensions, "cl_khr_d3d11_sharing"))
    paths.d3d11 = has_extension(extensions, "cl_amd_planar_yuv") ? SharingPath::native_amd : SharingPath::native;
  else if (has_extension(extensions, "cl_nv_d3d11_sharing"))
    paths.d3d11 = SharingPath::vendor_nv;
  if (has_extension(extensions, "cl_khr_dx9_media_sharing")) paths.dx9 = SharingPath::native;
  return paths;
}

std::string_view platform_function_name(SharingPath path, std::string_view khr_name) {
  if (path == SharingPath::native || path == SharingPath::native_amd) return khr_name;
  if (path == SharingPath::vendor_nv)
    for (const Spelling& s : kD3D11Names)
      if (s.khr == khr_name) return s.nv;
  return {};
}

}  // namespace clvf::detail::interop
