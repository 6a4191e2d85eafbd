/* clvf's OpenCL sharing entry points: cl_khr_d3d11_sharing and cl_khr_dx9_media_sharing on every
 * OpenCL platform, whether or not its driver offers them.
 *
 * Code written against <CL/cl_d3d11.h> and <CL/cl_dx9_media_sharing.h> works unchanged once it
 * takes the extension functions from clvfGetExtensionFunctionAddressForPlatform and creates its
 * contexts with clvfCreateContext / clvfCreateContextFromType. Where the platform implements the
 * extension (Intel), these forward to it; where it offers a vendor variant (NVIDIA's
 * cl_nv_d3d11_sharing), they translate; elsewhere (PoCL, Oclgrind, any OpenCL 1.2 device) clvf
 * implements the extension itself by copying through staging resources at acquire and release.
 *
 * On the emulated path the platform's own query and map functions do not know the extension's
 * parameters and rules. Use these in their place; they forward everything else unchanged:
 *   clvfGetContextInfo     CL_CONTEXT_PROPERTIES as given (interop properties included)
 *   clvfGetMemObjectInfo   CL_MEM_D3D11_RESOURCE_KHR, CL_MEM_DX9_MEDIA_ADAPTER_TYPE_KHR,
 *                          CL_MEM_DX9_MEDIA_SURFACE_INFO_KHR
 *   clvfGetImageInfo       CL_IMAGE_D3D11_SUBRESOURCE_KHR, CL_IMAGE_DX9_MEDIA_PLANE_KHR
 *   clvfGetEventInfo       CL_EVENT_COMMAND_TYPE of acquire and release events
 *   clvfEnqueueMapBuffer, clvfEnqueueMapImage, clvfEnqueueUnmapMemObject
 *                          refuse overlapping maps for writing of shared objects
 *                          (CL_INVALID_OPERATION)
 * Reference counts read through them count the application's references only.
 *
 * Thread safety: every function may be called from any thread.
 * On platforms other than Windows there is no Direct3D: the sharing functions are not offered
 * (clvfGetExtensionFunctionAddressForPlatform returns NULL for them) and the rest forward. */
#ifndef CLVF_CL_INTEROP_H
#define CLVF_CL_INTEROP_H

#include "clvf/clvf.h"

#if defined(_WIN32)
#include <CL/cl_d3d11.h>
#include <CL/cl_dx9_media_sharing.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The address of an extension function of `platform`, the same contract as
 * clGetExtensionFunctionAddressForPlatform: every function of cl_khr_d3d11_sharing and
 * cl_khr_dx9_media_sharing (Windows), the platform's own answer for other names, NULL for names
 * nobody knows. */
CLVF_API void *CL_API_CALL clvfGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                                      const char *func_name);

/* clCreateContext / clCreateContextFromType, accepting CL_CONTEXT_D3D11_DEVICE_KHR,
 * CL_CONTEXT_ADAPTER_D3D9_KHR, CL_CONTEXT_ADAPTER_D3D9EX_KHR, CL_CONTEXT_ADAPTER_DXVA_KHR,
 * CL_CONTEXT_D3D11_PREFER_SHARED_RESOURCES_KHR and CL_CONTEXT_INTEROP_USER_SYNC on every
 * platform. The context holds a reference on the Direct3D device until it is destroyed. */
CLVF_API cl_context CL_API_CALL clvfCreateContext(
    const cl_context_properties *properties, cl_uint num_devices, const cl_device_id *devices,
    void(CL_CALLBACK *pfn_notify)(const char *errinfo, const void *private_info, size_t cb,
                                  void *user_data),
    void *user_data, cl_int *errcode_ret);
CLVF_API cl_context CL_API_CALL clvfCreateContextFromType(
    const cl_context_properties *properties, cl_device_type device_type,
    void(CL_CALLBACK *pfn_notify)(const char *errinfo, const void *private_info, size_t cb,
                                  void *user_data),
    void *user_data, cl_int *errcode_ret);

CLVF_API cl_int CL_API_CALL clvfGetContextInfo(cl_context context, cl_context_info param_name,
                                               size_t param_value_size, void *param_value,
                                               size_t *param_value_size_ret);
CLVF_API cl_int CL_API_CALL clvfGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name,
                                                 size_t param_value_size, void *param_value,
                                                 size_t *param_value_size_ret);
CLVF_API cl_int CL_API_CALL clvfGetImageInfo(cl_mem image, cl_image_info param_name,
                                             size_t param_value_size, void *param_value,
                                             size_t *param_value_size_ret);
CLVF_API cl_int CL_API_CALL clvfGetEventInfo(cl_event event, cl_event_info param_name,
                                             size_t param_value_size, void *param_value,
                                             size_t *param_value_size_ret);

CLVF_API void *CL_API_CALL clvfEnqueueMapBuffer(cl_command_queue queue, cl_mem buffer,
                                                cl_bool blocking_map, cl_map_flags map_flags,
                                                size_t offset, size_t size,
                                                cl_uint num_events_in_wait_list,
                                                const cl_event *event_wait_list, cl_event *event,
                                                cl_int *errcode_ret);
CLVF_API void *CL_API_CALL clvfEnqueueMapImage(cl_command_queue queue, cl_mem image,
                                               cl_bool blocking_map, cl_map_flags map_flags,
                                               const size_t *origin, const size_t *region,
                                               size_t *image_row_pitch, size_t *image_slice_pitch,
                                               cl_uint num_events_in_wait_list,
                                               const cl_event *event_wait_list, cl_event *event,
                                               cl_int *errcode_ret);
CLVF_API cl_int CL_API_CALL clvfEnqueueUnmapMemObject(cl_command_queue queue, cl_mem memobj,
                                                      void *mapped_ptr,
                                                      cl_uint num_events_in_wait_list,
                                                      const cl_event *event_wait_list,
                                                      cl_event *event);

#ifdef __cplusplus
}
#endif

#endif
