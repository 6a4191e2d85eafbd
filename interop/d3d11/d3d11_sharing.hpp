// cl_khr_d3d11_sharing, emulated: the functions with the extension's signatures, and what
// context creation needs to accept CL_CONTEXT_D3D11_DEVICE_KHR (Windows only). Also the texture
// creation of AMD's driver with planar textures translated.
#pragma once
#include <CL/cl_d3d11.h>

#include "interop/sharing/context.hpp"

namespace clvf::detail::interop {

extern const Family kD3D11Family;
extern const DeviceProperty kD3D11DeviceProperty;

// Checks that `value` is an ID3D11Device and takes a reference on it (C2).
cl_int open_d3d11_device(cl_context_properties value, const void** identity, std::function<void()>* release);

namespace emulated {
cl_int CL_API_CALL clGetDeviceIDsFromD3D11KHR(cl_platform_id, cl_d3d11_device_source_khr, void*,
                                              cl_d3d11_device_set_khr, cl_uint, cl_device_id*, cl_uint*);
cl_mem CL_API_CALL clCreateFromD3D11BufferKHR(cl_context, cl_mem_flags, ID3D11Buffer*, cl_int*);
cl_mem CL_API_CALL clCreateFromD3D11Texture2DKHR(cl_context, cl_mem_flags, ID3D11Texture2D*, UINT, cl_int*);
cl_mem CL_API_CALL clCreateFromD3D11Texture3DKHR(cl_context, cl_mem_flags, ID3D11Texture3D*, UINT, cl_int*);
}  // namespace emulated

namespace amd {
// clCreateFromD3D11Texture2DKHR on AMD's driver: planar textures (NV12, P010, P016) follow KHR's
// subresource 2i+p through sharing/amd_planes.hpp; other textures go to the driver unchanged.
cl_mem CL_API_CALL clCreateFromD3D11Texture2DKHR(cl_context, cl_mem_flags, ID3D11Texture2D*, UINT, cl_int*);
}  // namespace amd

}  // namespace clvf::detail::interop
