// clvf's sharing as an OpenCL layer (the loaders' cl_loader_layers: the Khronos loader on
// Windows, ocl-icd 2.3 on Linux; named in OPENCL_LAYERS). Code written against cl_d3d11.h and
// cl_dx9_media_sharing.h then needs no clvf* call: the core entry points the application calls
// come here first and do what cl_interop.h's clvf* functions do (the extension functions of
// platforms without the extensions, the interop context properties, the extension's queries,
// the map rules, reference counts without clvf's own), and a shared object's Direct3D references
// are given back by the release that drops the application's last reference. Everything else,
// and clvf's own calls (interop/sharing/next.hpp), go to the next layer.
#include <CL/cl_layer.h>

#include <algorithm>
#include <cstring>

#include "clvf/cl_interop.h"
#include "interop/sharing/next.hpp"
#include "interop/sharing/registry.hpp"

#if defined(_WIN32)
#define CLVF_LAYER_EXPORT __declspec(dllexport)
#else
#define CLVF_LAYER_EXPORT __attribute__((visibility("default")))
#endif

using namespace clvf::detail::interop;

namespace {

constexpr char kLayerName[] = "clvf: cl_khr_d3d11_sharing and cl_khr_dx9_media_sharing on every platform";

cl_icd_dispatch next_table, layer_table;

// The release that drops the application's last reference leaves clvf's own: collected now.
cl_int CL_API_CALL release_mem(cl_mem mem) {
  const cl_int err = next_cl().clReleaseMemObject(mem);
  if (err == CL_SUCCESS) Registry::get().collect();
  return err;
}

cl_int CL_API_CALL release_context(cl_context context) {
  const cl_int err = next_cl().clReleaseContext(context);
  if (err == CL_SUCCESS) Registry::get().collect();
  return err;
}

template <typename T>
cl_int answer(const T& value, size_t size, void* out, size_t* size_ret) {
  if (out && size < sizeof value) return CL_INVALID_VALUE;
  if (out) std::memcpy(out, &value, sizeof value);
  if (size_ret) *size_ret = sizeof value;
  return CL_SUCCESS;
}

}  // namespace

extern "C" {

CLVF_LAYER_EXPORT cl_int CL_API_CALL clGetLayerInfo(cl_layer_info param_name, size_t param_value_size,
                                                    void* param_value, size_t* param_value_size_ret) {
  switch (param_name) {
    case CL_LAYER_API_VERSION:
      return answer(static_cast<cl_layer_api_version>(CL_LAYER_API_VERSION_100), param_value_size, param_value,
                    param_value_size_ret);
    case CL_LAYER_NAME:
      return answer(kLayerName, param_value_size, param_value, param_value_size_ret);
    default:
      return CL_INVALID_VALUE;
  }
}

CLVF_LAYER_EXPORT cl_int CL_API_CALL clInitLayer(cl_uint num_entries, const cl_icd_dispatch* target_dispatch,
                                                 cl_uint* num_entries_ret, const cl_icd_dispatch** layer_dispatch_ret) {
  constexpr cl_uint kEntries = sizeof(cl_icd_dispatch) / sizeof(void*);
  if (target_dispatch == nullptr || num_entries_ret == nullptr || layer_dispatch_ret == nullptr)
    return CL_INVALID_VALUE;
  // What a shorter table (an older loader) lacks stays null: the loader fills it from its own.
  std::memcpy(&next_table, target_dispatch, std::min(num_entries, kEntries) * sizeof(void*));
  set_next_cl(&next_table);
  layer_table = next_table;
  layer_table.clGetExtensionFunctionAddressForPlatform = &clvfGetExtensionFunctionAddressForPlatform;
  layer_table.clCreateContext = &clvfCreateContext;
  layer_table.clCreateContextFromType = &clvfCreateContextFromType;
  layer_table.clGetContextInfo = &clvfGetContextInfo;
  layer_table.clGetMemObjectInfo = &clvfGetMemObjectInfo;
  layer_table.clGetImageInfo = &clvfGetImageInfo;
  layer_table.clGetEventInfo = &clvfGetEventInfo;
  layer_table.clEnqueueMapBuffer = &clvfEnqueueMapBuffer;
  layer_table.clEnqueueMapImage = &clvfEnqueueMapImage;
  layer_table.clEnqueueUnmapMemObject = &clvfEnqueueUnmapMemObject;
  layer_table.clReleaseMemObject = &release_mem;
  layer_table.clReleaseContext = &release_context;
  *num_entries_ret = kEntries;
  *layer_dispatch_ret = &layer_table;
  return CL_SUCCESS;
}

}  // extern "C"
