// The public entry points of clvf/cl_interop.h that pick a path: extension function lookup and
// context creation. Queries and maps are in sharing/queries.cpp and sharing/mapping.cpp.
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "clvf/cl_interop.h"
#include "interop/sharing/context.hpp"
#include "interop/sharing/next.hpp"
#include "interop/sharing/paths.hpp"

#if defined(_WIN32)
#include "interop/d3d11/d3d11_sharing.hpp"
#include "interop/sharing/acquire.hpp"
#include "interop/sharing/amd_planes.hpp"
#include "interop/dx9/dx9_sharing.hpp"
#endif

using namespace clvf::detail::interop;

namespace {

// The platform a context will be made on: CL_CONTEXT_PLATFORM, else the first device's, else the
// first platform (what ICD loaders do).
cl_platform_id context_platform(const cl_context_properties* properties, cl_uint num_devices,
                                const cl_device_id* devices) {
  for (const cl_context_properties* p = properties; p && p[0] != 0; p += 2)
    if (p[0] == CL_CONTEXT_PLATFORM) return reinterpret_cast<cl_platform_id>(p[1]);
  cl_platform_id platform = nullptr;
  if (num_devices > 0 && devices && devices[0] &&
      next_cl().clGetDeviceInfo(devices[0], CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr) == CL_SUCCESS)
    return platform;
  cl_uint count = 0;
  if (next_cl().clGetPlatformIDs(1, &platform, &count) != CL_SUCCESS || count == 0) return nullptr;
  return platform;
}

#if defined(_WIN32)

// The platform's extension string. Its reported size is not trusted (Wine's opencl.dll reports
// more than the string holds).
template <typename Query>
std::string extension_string(Query&& query) {
  size_t size = 0;
  if (query(0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::vector<char> text(size + 1, '\0');
  if (query(size, text.data(), nullptr) != CL_SUCCESS) return {};
  return std::string(text.data(), strnlen(text.data(), size));
}

// The platform's extensions and its devices' (a vendor extension may be listed in either).
std::string platform_extensions(cl_platform_id platform) {
  std::string all = extension_string([&](size_t n, void* v, size_t* r) {
    return next_cl().clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS, n, v, r);
  });
  cl_uint count = 0;
  if (next_cl().clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS || count == 0) return all;
  std::vector<cl_device_id> devices(count);
  if (next_cl().clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr) != CL_SUCCESS) return all;
  for (cl_device_id device : devices)
    all += " " + extension_string([&](size_t n, void* v, size_t* r) {
      return next_cl().clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, n, v, r);
    });
  return all;
}

struct SharingFunction {
  const char* name;
  bool d3d11;  // else DX9 media
  void* emulated;
  void* amd = nullptr;  // on the native_amd path: the translation (else the platform's own)
};

const SharingFunction kFunctions[] = {
    {"clGetDeviceIDsFromD3D11KHR", true, reinterpret_cast<void*>(&emulated::clGetDeviceIDsFromD3D11KHR)},
    {"clCreateFromD3D11BufferKHR", true, reinterpret_cast<void*>(&emulated::clCreateFromD3D11BufferKHR)},
    {"clCreateFromD3D11Texture2DKHR", true, reinterpret_cast<void*>(&emulated::clCreateFromD3D11Texture2DKHR),
     reinterpret_cast<void*>(&amd::clCreateFromD3D11Texture2DKHR)},
    {"clCreateFromD3D11Texture3DKHR", true, reinterpret_cast<void*>(&emulated::clCreateFromD3D11Texture3DKHR)},
    {"clEnqueueAcquireD3D11ObjectsKHR", true, reinterpret_cast<void*>(&acquire_objects<kD3D11Family>),
     reinterpret_cast<void*>(&amd_acquire_objects<kD3D11Family>)},
    {"clEnqueueReleaseD3D11ObjectsKHR", true, reinterpret_cast<void*>(&release_objects<kD3D11Family>),
     reinterpret_cast<void*>(&amd_release_objects<kD3D11Family>)},
    {"clGetDeviceIDsFromDX9MediaAdapterKHR", false,
     reinterpret_cast<void*>(&emulated::clGetDeviceIDsFromDX9MediaAdapterKHR)},
    {"clCreateFromDX9MediaSurfaceKHR", false, reinterpret_cast<void*>(&emulated::clCreateFromDX9MediaSurfaceKHR)},
    {"clEnqueueAcquireDX9MediaSurfacesKHR", false,
     reinterpret_cast<void*>(&acquire_objects<kDX9Family>)},
    {"clEnqueueReleaseDX9MediaSurfacesKHR", false,
     reinterpret_cast<void*>(&release_objects<kDX9Family>)},
};

// The emulated families' device properties on `platform` (the native ones go to the platform).
std::vector<DeviceProperty> emulated_properties(cl_platform_id platform) {
  SharingPaths paths = choose_sharing_paths(platform_extensions(platform));
  std::vector<DeviceProperty> out;
  if (paths.d3d11 == SharingPath::emulated) out.push_back(kD3D11DeviceProperty);
  if (paths.dx9 == SharingPath::emulated) out.insert(out.end(), std::begin(kDX9AdapterProperties), std::end(kDX9AdapterProperties));
  return out;
}

cl_int open_device(const DeviceProperty& property, cl_context_properties value, const void** identity,
                   std::function<void()>* release) {
  if (property.family == &kD3D11Family) return open_d3d11_device(value, identity, release);
  return open_dx9_adapter(property.key, value, identity, release);
}

const cl_context_properties kFlagProperties[] = {CL_CONTEXT_INTEROP_USER_SYNC,
                                                 CL_CONTEXT_D3D11_PREFER_SHARED_RESOURCES_KHR};

#else

std::vector<DeviceProperty> emulated_properties(cl_platform_id) { return {}; }
cl_int open_device(const DeviceProperty&, cl_context_properties, const void**, std::function<void()>*) {
  return CL_INVALID_PROPERTY;
}
const cl_context_properties kFlagProperties[] = {CL_CONTEXT_INTEROP_USER_SYNC};

#endif

}  // namespace

extern "C" {

CLVF_API void* CL_API_CALL clvfGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char* name) {
  if (name == nullptr) return nullptr;
#if defined(_WIN32)
  for (const SharingFunction& f : kFunctions) {
    if (std::strcmp(f.name, name) != 0) continue;
    try {
      SharingPaths paths = choose_sharing_paths(platform_extensions(platform));
      SharingPath path = f.d3d11 ? paths.d3d11 : paths.dx9;
      if (path == SharingPath::emulated) return f.emulated;
      if (path == SharingPath::native_amd && f.amd) return amd_planar_functions(platform) ? f.amd : nullptr;
      std::string platform_name(platform_function_name(path, name));
      return next_cl().clGetExtensionFunctionAddressForPlatform(platform, platform_name.c_str());
    } catch (const std::bad_alloc&) {
      return nullptr;  // no error channel: the caller sees the function as unavailable
    }
  }
#endif
  return next_cl().clGetExtensionFunctionAddressForPlatform(platform, name);
}

CLVF_API cl_context CL_API_CALL clvfCreateContext(const cl_context_properties* properties, cl_uint num_devices,
                                                  const cl_device_id* devices,
                                                  void(CL_CALLBACK* pfn_notify)(const char*, const void*, size_t, void*),
                                                  void* user_data, cl_int* errcode_ret) {
  try {
    auto devices_of = emulated_properties(context_platform(properties, num_devices, devices));
    return create_context(properties, devices_of, kFlagProperties, open_device,
                          [&](const cl_context_properties* p, cl_int* err) {
                            return next_cl().clCreateContext(p, num_devices, devices, pfn_notify, user_data, err);
                          },
                          errcode_ret);
  } catch (const std::bad_alloc&) {
    if (errcode_ret) *errcode_ret = CL_OUT_OF_HOST_MEMORY;
    return nullptr;
  }
}

CLVF_API cl_context CL_API_CALL clvfCreateContextFromType(const cl_context_properties* properties,
                                                          cl_device_type device_type,
                                                          void(CL_CALLBACK* pfn_notify)(const char*, const void*, size_t, void*),
                                                          void* user_data, cl_int* errcode_ret) {
  try {
    auto devices_of = emulated_properties(context_platform(properties, 0, nullptr));
    return create_context(properties, devices_of, kFlagProperties, open_device,
                          [&](const cl_context_properties* p, cl_int* err) {
                            return next_cl().clCreateContextFromType(p, device_type, pfn_notify, user_data, err);
                          },
                          errcode_ret);
  } catch (const std::bad_alloc&) {
    if (errcode_ret) *errcode_ret = CL_OUT_OF_HOST_MEMORY;
    return nullptr;
  }
}

}  // extern "C"
