// cl_khr_dx9_media_sharing, emulated: the functions with the extension's signatures, and what
// context creation needs to accept the CL_CONTEXT_ADAPTER_*_KHR properties (Windows only).
#pragma once
#include <CL/cl_dx9_media_sharing.h>

#include "interop/sharing/context.hpp"

namespace clvf::detail::interop {

extern const Family kDX9Family;
// CL_CONTEXT_ADAPTER_D3D9_KHR, CL_CONTEXT_ADAPTER_D3D9EX_KHR, CL_CONTEXT_ADAPTER_DXVA_KHR.
extern const DeviceProperty kDX9AdapterProperties[3];

// Checks that `value` is what `key` names (IDirect3DDevice9, IDirect3DDevice9Ex,
// IDirect3DDeviceManager9) and takes a reference on it (C2).
cl_int open_dx9_adapter(cl_context_properties key, cl_context_properties value, const void** identity,
                        std::function<void()>* release);

namespace emulated {
cl_int CL_API_CALL clGetDeviceIDsFromDX9MediaAdapterKHR(cl_platform_id, cl_uint, cl_dx9_media_adapter_type_khr*,
                                                        void*, cl_dx9_media_adapter_set_khr, cl_uint,
                                                        cl_device_id*, cl_uint*);
cl_mem CL_API_CALL clCreateFromDX9MediaSurfaceKHR(cl_context, cl_mem_flags, cl_dx9_media_adapter_type_khr, void*,
                                                  cl_uint, cl_int*);
}  // namespace emulated

}  // namespace clvf::detail::interop
