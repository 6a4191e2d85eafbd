#include "nv_driver_model.hpp"

#include <CL/cl_d3d11.h>

#include <cstring>
#include <string>

#include "interop/d3d11/d3d11_sharing.hpp"
#include "interop/sharing/acquire.hpp"
#include "interop/sharing/next.hpp"

namespace clvf::detail::test {

namespace {

using namespace clvf::detail::interop;

NvDriverModel* model = nullptr;
cl_icd_dispatch table;

cl_int CL_API_CALL platform_info(cl_platform_id platform, cl_platform_info name, size_t size, void* value,
                                 size_t* size_ret) {
  if (name != CL_PLATFORM_EXTENSIONS) return loader_cl().clGetPlatformInfo(platform, name, size, value, size_ret);
  size_t real = 0;
  if (cl_int err = loader_cl().clGetPlatformInfo(platform, name, 0, nullptr, &real); err != CL_SUCCESS) return err;
  std::string text(real, '\0');
  loader_cl().clGetPlatformInfo(platform, name, real, text.data(), nullptr);
  text.resize(std::strlen(text.c_str()));
  text += " cl_nv_d3d11_sharing";
  if (size_ret) *size_ret = text.size() + 1;
  if (value == nullptr) return CL_SUCCESS;
  if (size < text.size() + 1) return CL_INVALID_VALUE;
  std::memcpy(value, text.c_str(), text.size() + 1);
  return CL_SUCCESS;
}

cl_mem CL_API_CALL create_texture2d(cl_context context, cl_mem_flags flags, ID3D11Texture2D* resource,
                                    UINT subresource, cl_int* errcode_ret) {
  D3D11_TEXTURE2D_DESC desc = {};
  if (resource) resource->GetDesc(&desc);
  if (resource && model->refused.count(desc.Format)) {
    ++model->textures_refused;
    if (errcode_ret) *errcode_ret = CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    return nullptr;
  }
  cl_mem mem = emulated::clCreateFromD3D11Texture2DKHR(context, flags, resource, subresource, errcode_ret);
  if (mem) ++model->textures_shared;
  return mem;
}

void* CL_API_CALL extension_function(cl_platform_id platform, const char* name) {
  const struct {
    const char* name;
    void* function;
  } nv[] = {
      {"clGetDeviceIDsFromD3D11NV", reinterpret_cast<void*>(&emulated::clGetDeviceIDsFromD3D11KHR)},
      {"clCreateFromD3D11BufferNV", reinterpret_cast<void*>(&emulated::clCreateFromD3D11BufferKHR)},
      {"clCreateFromD3D11Texture2DNV", reinterpret_cast<void*>(&create_texture2d)},
      {"clCreateFromD3D11Texture3DNV", reinterpret_cast<void*>(&emulated::clCreateFromD3D11Texture3DKHR)},
      {"clEnqueueAcquireD3D11ObjectsNV", reinterpret_cast<void*>(&acquire_objects<kD3D11Family>)},
      {"clEnqueueReleaseD3D11ObjectsNV", reinterpret_cast<void*>(&release_objects<kD3D11Family>)},
  };
  for (const auto& f : nv)
    if (std::strcmp(f.name, name) == 0) return f.function;
  return loader_cl().clGetExtensionFunctionAddressForPlatform(platform, name);
}

cl_context CL_API_CALL create_context(const cl_context_properties* properties, cl_uint num_devices,
                                      const cl_device_id* devices,
                                      void(CL_CALLBACK* notify)(const char*, const void*, size_t, void*),
                                      void* user_data, cl_int* errcode_ret) {
  const DeviceProperty d3d11[] = {kD3D11DeviceProperty};
  const cl_context_properties flags[] = {CL_CONTEXT_INTEROP_USER_SYNC};
  return interop::create_context(
      properties, d3d11, flags,
      [](const DeviceProperty&, cl_context_properties value, const void** identity, std::function<void()>* release) {
        return open_d3d11_device(value, identity, release);
      },
      [&](const cl_context_properties* p, cl_int* err) {
        return loader_cl().clCreateContext(p, num_devices, devices, notify, user_data, err);
      },
      errcode_ret);
}

}  // namespace

NvDriverModel::NvDriverModel() {
  model = this;
  table = loader_cl();
  table.clGetPlatformInfo = &platform_info;
  table.clGetExtensionFunctionAddressForPlatform = &extension_function;
  table.clCreateContext = &create_context;
  set_next_cl(&table);
}

NvDriverModel::~NvDriverModel() {
  set_next_cl(nullptr);
  model = nullptr;
}

}  // namespace clvf::detail::test
