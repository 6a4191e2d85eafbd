// Contexts of the emulated sharing extensions (C1–C3, C5): the interop properties are taken out
// of the list before the platform sees it, checked, and remembered with the context.
#pragma once
#include <CL/cl.h>

#include <functional>
#include <span>

#include "interop/sharing/family.hpp"

namespace clvf::detail::interop {

// A context property whose value names a Direct3D device (or D3D9 adapter) of one family.
struct DeviceProperty {
  cl_context_properties key;
  const Family* family;
};

// Checks a device property's value and takes a reference on the device. Gives the device's
// identity (what resources are compared with) and the action that drops the reference; or
// returns the family's invalid_device code.
using DeviceOpener = std::function<cl_int(const DeviceProperty& property, cl_context_properties value,
                                          const void** identity, std::function<void()>* release)>;
// The platform's clCreateContext or clCreateContextFromType, given the remaining properties.
using ContextCreator = std::function<cl_context(const cl_context_properties* properties, cl_int* errcode_ret)>;

// Splits `properties`: device properties and `extra_keys` (flags such as
// CL_CONTEXT_INTEROP_USER_SYNC, whose value must be CL_TRUE or CL_FALSE) stay here, the rest goes
// to `create`. Without interop properties the call is the platform's alone.
cl_context create_context(const cl_context_properties* properties, std::span<const DeviceProperty> devices,
                          std::span<const cl_context_properties> extra_keys, const DeviceOpener& open,
                          const ContextCreator& create, cl_int* errcode_ret);

}  // namespace clvf::detail::interop
