// clEnqueueAcquire*/clEnqueueRelease* of the emulated sharing extensions (rules A1–A5, R1–R4,
// E1–E3 of shared/spec/sharing-rules.md): argument checks in the extension's order, the acquire
// state per object and context, the data moves, and the returned event.
#pragma once
#include <CL/cl.h>

#include "interop/sharing/family.hpp"

namespace clvf::detail::interop {

cl_int enqueue_acquire(const Family& family, cl_command_queue queue, cl_uint num_objects,
                       const cl_mem* mem_objects, cl_uint num_events_in_wait_list,
                       const cl_event* event_wait_list, cl_event* event);
cl_int enqueue_release(const Family& family, cl_command_queue queue, cl_uint num_objects,
                       const cl_mem* mem_objects, cl_uint num_events_in_wait_list,
                       const cl_event* event_wait_list, cl_event* event);

// The extension's entry points for one family (clEnqueueAcquireD3D11ObjectsKHR is
// acquire_objects<kD3D11Family>, and so on).
template <const Family& family>
cl_int CL_API_CALL acquire_objects(cl_command_queue queue, cl_uint num_objects, const cl_mem* mem_objects,
                                   cl_uint num_events, const cl_event* wait_list, cl_event* event) {
  return enqueue_acquire(family, queue, num_objects, mem_objects, num_events, wait_list, event);
}
template <const Family& family>
cl_int CL_API_CALL release_objects(cl_command_queue queue, cl_uint num_objects, const cl_mem* mem_objects,
                                   cl_uint num_events, const cl_event* wait_list, cl_event* event) {
  return enqueue_release(family, queue, num_objects, mem_objects, num_events, wait_list, event);
}

}  // namespace clvf::detail::interop
