// Direct3D results as OpenCL codes, and COM identity (Windows only).
#pragma once
#include <CL/cl.h>
#include <unknwn.h>
#include <wrl/client.h>

namespace clvf::detail::interop {

// What a failed Direct3D call means to an OpenCL caller.
inline cl_int cl_code(HRESULT hr) {
  if (SUCCEEDED(hr)) return CL_SUCCESS;
  return hr == E_OUTOFMEMORY ? CL_OUT_OF_HOST_MEMORY : CL_OUT_OF_RESOURCES;
}

// The object's IUnknown: two interface pointers are the same object exactly when these match.
inline const void* com_identity(IUnknown* object) {
  if (object == nullptr) return nullptr;
  Microsoft::WRL::ComPtr<IUnknown> unknown;
  if (FAILED(object->QueryInterface(IID_PPV_ARGS(&unknown)))) return nullptr;
  return unknown.Get();
}

}  // namespace clvf::detail::interop
