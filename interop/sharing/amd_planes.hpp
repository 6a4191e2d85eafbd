// AMD's cl_khr_d3d11_sharing made to follow KHR's convention for planar textures (NV12, P010,
// P016). AMD names one array slice of such a texture as a single multi-plane image: its planes
// come from clGetPlaneFromImageAMD (cl_amd_planar_yuv) with CL_UNSIGNED_INT8/16 channels, are
// turned into UNORM images with clConvertImageAMD, and only that parent image is acquired and
// released. KHR names plane p of slice i as subresource 2i+p, an image of its own, acquired by
// itself. The translation keeps one parent per slice, shared by its planes, acquired while any of
// its planes is.
//
// Platform-neutral: the driver's functions come in a table, so the translation is unit tested on
// every build against a model of the driver that moves sample values (tests/interop/test_amd_planes.cpp).
// It has not run on an AMD driver.
#pragma once
#include <CL/cl.h>

#include "interop/sharing/family.hpp"
#include "interop/sharing/registry.hpp"

namespace clvf::detail::interop {

struct AmdPlanarFunctions {
  using Create = cl_mem(CL_API_CALL*)(cl_context, cl_mem_flags, void* texture, cl_uint subresource, cl_int*);
  using GetPlane = cl_mem(CL_API_CALL*)(cl_context, cl_mem image, cl_uint plane, cl_int*);
  using Convert = cl_mem(CL_API_CALL*)(cl_context, cl_mem image, const cl_image_format*, cl_int*);
  using Enqueue = cl_int(CL_API_CALL*)(cl_command_queue, cl_uint, const cl_mem*, cl_uint, const cl_event*, cl_event*);
  Create create_texture2d = nullptr;  // clCreateFromD3D11Texture2DKHR
  GetPlane get_plane = nullptr;       // clGetPlaneFromImageAMD
  Convert convert_image = nullptr;    // clConvertImageAMD
  Enqueue acquire = nullptr;          // clEnqueueAcquireD3D11ObjectsKHR
  Enqueue release = nullptr;          // clEnqueueReleaseD3D11ObjectsKHR
};

// The driver's functions on `platform`, looked up once; null when one is missing. Tests install
// a model with set_amd_planar_functions.
const AmdPlanarFunctions* amd_planar_functions(cl_platform_id platform);
void set_amd_planar_functions(cl_platform_id platform, const AmdPlanarFunctions& functions);
// The platform of a context's or a queue's device (null when the query fails).
cl_platform_id platform_of(cl_context context);
cl_platform_id platform_of(cl_command_queue queue);

// Plane `plane` of array slice `slice` of `texture`, as the KHR object described by `info`
// (context, family, flags, key {texture identity, KHR subresource}, query answers), which the
// caller has checked against the texture. The registry's lock is held.
cl_mem create_amd_plane(Registry& registry, const AmdPlanarFunctions& amd, SharedMem info, void* texture,
                        cl_uint slice, cl_uint plane, cl_int* errcode_ret);

// Acquire or release of a list that may mix translated planes with the driver's own objects
// (buffers, single-plane textures): one call to the driver with the parents whose first plane is
// acquired (last released) and the driver's objects; a marker when there is nothing to pass on.
// All or nothing: the planes' states change only when the driver accepted the call.
cl_int amd_enqueue_transfer(const Family& family, bool acquire, cl_command_queue queue, cl_uint num_objects,
                            const cl_mem* mem_objects, cl_uint num_events_in_wait_list,
                            const cl_event* event_wait_list, cl_event* event);

template <const Family& family>
cl_int CL_API_CALL amd_acquire_objects(cl_command_queue queue, cl_uint num_objects, const cl_mem* mem_objects,
                                       cl_uint num_events, const cl_event* wait_list, cl_event* event) {
  return amd_enqueue_transfer(family, true, queue, num_objects, mem_objects, num_events, wait_list, event);
}
template <const Family& family>
cl_int CL_API_CALL amd_release_objects(cl_command_queue queue, cl_uint num_objects, const cl_mem* mem_objects,
                                       cl_uint num_events, const cl_event* wait_list, cl_event* event) {
  return amd_enqueue_transfer(family, false, queue, num_objects, mem_objects, num_events, wait_list, event);
}

}  // namespace clvf::detail::interop
