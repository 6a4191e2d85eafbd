#include "interop/sharing/devices.hpp"
#include "interop/sharing/next.hpp"

namespace clvf::detail::interop {

cl_int list_sharing_devices(cl_platform_id platform, cl_uint num_entries, cl_device_id* devices,
                            cl_uint* num_devices) {
  if ((num_entries == 0 && devices != nullptr) || (devices == nullptr && num_devices == nullptr))
    return CL_INVALID_VALUE;
  return next_cl().clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, num_entries, devices, num_devices);
}

}  // namespace clvf::detail::interop
