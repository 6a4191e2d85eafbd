#include "interop/sharing/acquire.hpp"

#include <algorithm>
#include <new>
#include <vector>

#include "interop/sharing/registry.hpp"
#include "interop/sharing/next.hpp"

namespace clvf::detail::interop {

namespace {

cl_int check_wait_list(cl_context context, cl_uint count, const cl_event* events) {
  if ((count == 0) != (events == nullptr)) return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < count; ++i) {
    cl_context owner = nullptr;
    if (events[i] == nullptr ||
        next_cl().clGetEventInfo(events[i], CL_EVENT_CONTEXT, sizeof owner, &owner, nullptr) != CL_SUCCESS)
      return CL_INVALID_EVENT_WAIT_LIST;
    if (owner != context) return CL_INVALID_CONTEXT;
  }
  return CL_SUCCESS;
}

// Without CL_CONTEXT_INTEROP_USER_SYNC the copies themselves give A4 and R4: the acquire's copy
// waits for Direct3D's earlier work (Map/LockRect block until it is done) and is complete before
// later commands start; the release's copy back runs after the wait list and everything already
// in the queue, and is in the Direct3D resource before the call returns. With USER_SYNC the
// caller owes that ordering; the emulation keeps it anyway (a stronger guarantee is allowed).
cl_int transfer(const Family& family, bool acquire, cl_command_queue queue, cl_uint num_objects,
                const cl_mem* objects, cl_uint num_events, const cl_event* wait_list, cl_event* event) {
  Registry& registry = Registry::get();
  auto held = registry.lock();
  registry.collect_locked();
  if (event) *event = nullptr;
  if (num_objects == 0 && objects == nullptr) return CL_SUCCESS;  // A3: nothing happens
  cl_context context = nullptr;
  if (queue == nullptr ||
      next_cl().clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, nullptr) != CL_SUCCESS)
    return CL_INVALID_COMMAND_QUEUE;
  if ((num_objects == 0) != (objects == nullptr)) return CL_INVALID_VALUE;
  const SharedContext* shared = registry.find_context(context);
  if (shared == nullptr || !shared->devices.count(&family)) return CL_INVALID_CONTEXT;
  if (cl_int err = check_wait_list(context, num_events, wait_list); err != CL_SUCCESS) return err;

  std::vector<SharedMem*> mems;
  for (cl_uint i = 0; i < num_objects; ++i) {
    SharedMem* mem = registry.find_mem(objects[i]);
    if (mem == nullptr || mem->family != &family) return CL_INVALID_MEM_OBJECT;
    if (mem->context != context) return CL_INVALID_CONTEXT;
    // Listed twice counts as acquiring (releasing) it twice.
    bool repeated = std::find(mems.begin(), mems.end(), mem) != mems.end();
    if (acquire && (mem->acquired || repeated)) return family.already_acquired;
    if (!acquire && (!mem->acquired || repeated)) return family.not_acquired;
    // P4: the release reads the object (its copy back to Direct3D); a region still mapped for
    // writing is undefined until unmapped, so the release is refused and nothing changes.
    if (!acquire && std::any_of(mem->mappings.begin(), mem->mappings.end(), [](const Mapping& m) { return m.write; }))
      return CL_INVALID_OPERATION;
    mems.push_back(mem);
  }

  // The barrier orders the copies after the wait list (and, on an out-of-order queue, after
  // everything enqueued before).
  cl_int err = next_cl().clEnqueueBarrierWithWaitList(queue, num_events, wait_list, nullptr);
  for (cl_uint i = 0; i < num_objects && err == CL_SUCCESS; ++i) {
    SharedMem& mem = *mems[i];
    if (acquire && !(mem.flags & CL_MEM_WRITE_ONLY))
      err = mem.resource->to_cl(queue, objects[i]);
    else if (!acquire && !(mem.flags & CL_MEM_READ_ONLY))
      err = mem.resource->from_cl(queue, objects[i]);
  }
  if (err == CL_SUCCESS && event) {
    err = next_cl().clEnqueueMarkerWithWaitList(queue, 0, nullptr, event);
    if (err == CL_SUCCESS) {
      registry.add_event(*event, acquire ? family.acquire_command : family.release_command);
    } else {
      *event = nullptr;
    }
  }
  if (err != CL_SUCCESS) return err;
  for (SharedMem* mem : mems) mem->acquired = acquire;
  return CL_SUCCESS;
}

cl_int guarded(const Family& family, bool acquire, cl_command_queue queue, cl_uint num_objects,
               const cl_mem* objects, cl_uint num_events, const cl_event* wait_list, cl_event* event) {
  try {
    return transfer(family, acquire, queue, num_objects, objects, num_events, wait_list, event);
  } catch (const std::bad_alloc&) {
    return CL_OUT_OF_HOST_MEMORY;
  }
}

}  // namespace

cl_int enqueue_acquire(const Family& family, cl_command_queue queue, cl_uint num_objects,
                       const cl_mem* mem_objects, cl_uint num_events_in_wait_list,
                       const cl_event* event_wait_list, cl_event* event) {
  return guarded(family, true, queue, num_objects, mem_objects, num_events_in_wait_list, event_wait_list, event);
}

cl_int enqueue_release(const Family& family, cl_command_queue queue, cl_uint num_objects,
                       const cl_mem* mem_objects, cl_uint num_events_in_wait_list,
                       const cl_event* event_wait_list, cl_event* event) {
  return guarded(family, false, queue, num_objects, mem_objects, num_events_in_wait_list, event_wait_list, event);
}

}  // namespace clvf::detail::interop
