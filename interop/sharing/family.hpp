// What distinguishes the two sharing extensions (cl_khr_d3d11_sharing, cl_khr_dx9_media_sharing)
// to the code they share: their error codes and command types. The shared state machine reports
// through these, so it needs no Direct3D header and builds (and is fuzzed) on every platform.
#pragma once
#include <CL/cl.h>

namespace clvf::detail::interop {

struct Family {
  const char* name;                 // "D3D11", "DX9 media"
  cl_int invalid_device;            // CL_INVALID_D3D11_DEVICE_KHR / CL_INVALID_DX9_MEDIA_ADAPTER_KHR
  cl_int invalid_resource;          // CL_INVALID_D3D11_RESOURCE_KHR / CL_INVALID_DX9_MEDIA_SURFACE_KHR
  cl_int already_acquired;          // CL_D3D11_RESOURCE_ALREADY_ACQUIRED_KHR / ..._SURFACE_...
  cl_int not_acquired;              // CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR / ..._SURFACE_...
  cl_command_type acquire_command;  // CL_COMMAND_ACQUIRE_D3D11_OBJECTS_KHR / ..._DX9_MEDIA_SURFACES_KHR
  cl_command_type release_command;
};

}  // namespace clvf::detail::interop
