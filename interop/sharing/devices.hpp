// clGetDeviceIDsFromD3D11KHR / clGetDeviceIDsFromDX9MediaAdapterKHR on the emulated path (C4):
// every device of the platform can share through copies, so the preferred set and the full set
// are both all of its devices.
#pragma once
#include <CL/cl.h>

namespace clvf::detail::interop {

// The common argument checks (CL_INVALID_VALUE) and the answer.
cl_int list_sharing_devices(cl_platform_id platform, cl_uint num_entries, cl_device_id* devices,
                            cl_uint* num_devices);

}  // namespace clvf::detail::interop
