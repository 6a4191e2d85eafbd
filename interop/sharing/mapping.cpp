// clvfEnqueueMapBuffer / clvfEnqueueMapImage / clvfEnqueueUnmapMemObject: the mapping rules for
// objects made from Direct3D resources and their sub-buffers (P1–P5), and A1 for the commands clvf
// sees: a map of an object (or of a sub-buffer of one) that is not acquired fails with the
// family's NOT_ACQUIRED code, since the emulation's copy of the resource is stale or about to be
// overwritten then. P3 needs the emulation's help too: overlapping maps where one of them writes
// are refused, and (in acquire.cpp) a release while a region is mapped for writing (P4). The rest
// (data visible after unmap, mapped pointers usable by read/write commands) is the platform's own
// behaviour.
#include "clvf/cl_interop.h"
#include "interop/sharing/registry.hpp"
#include "interop/sharing/next.hpp"

using namespace clvf::detail::interop;

namespace {

bool overlaps(const Mapping& a, const Mapping& b) {
  for (int d = 0; d < 3; ++d)
    if (a.origin[d] >= b.origin[d] + b.region[d] || b.origin[d] >= a.origin[d] + a.region[d]) return false;
  return true;
}

bool conflicts(const SharedMem& mem, const Mapping& wanted) {
  for (const Mapping& m : mem.mappings)
    if ((m.write || wanted.write) && overlaps(m, wanted)) return true;
  return false;
}

bool writes(cl_map_flags flags) { return flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION); }

// Maps through `map` unless the region conflicts; records the mapping on success.
template <typename Map>
void* map_checked(cl_mem object, Mapping wanted, size_t base, cl_int* errcode_ret, Map&& map) {
  Registry& registry = Registry::get();
  auto held = registry.lock();
  registry.collect_locked();
  size_t offset = 0;
  SharedMem* mem = registry.find_mem_or_parent(object, &offset);
  if (mem) {
    if (!mem->acquired) {
      if (errcode_ret) *errcode_ret = mem->family->not_acquired;
      return nullptr;
    }
    wanted.origin[0] += offset * base;
    if (conflicts(*mem, wanted)) {
      if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION;
      return nullptr;
    }
  }
  cl_int err = CL_SUCCESS;
  void* pointer = map(&err);
  if (errcode_ret) *errcode_ret = err;
  if (mem && err == CL_SUCCESS) {
    wanted.object = object;
    wanted.pointer = pointer;
    mem->mappings.push_back(wanted);
  }
  return pointer;
}

}  // namespace

extern "C" {

CLVF_API void* CL_API_CALL clvfEnqueueMapBuffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking_map,
                                                cl_map_flags map_flags, size_t offset, size_t size,
                                                cl_uint num_events, const cl_event* wait_list, cl_event* event,
                                                cl_int* errcode_ret) {
  Mapping wanted;
  wanted.origin[0] = offset;
  wanted.region[0] = size;
  wanted.region[1] = wanted.region[2] = 1;
  wanted.write = writes(map_flags);
  return map_checked(buffer, wanted, 1, errcode_ret, [&](cl_int* err) {
    return next_cl().clEnqueueMapBuffer(queue, buffer, blocking_map, map_flags, offset, size, num_events, wait_list, event, err);
  });
}

CLVF_API void* CL_API_CALL clvfEnqueueMapImage(cl_command_queue queue, cl_mem image, cl_bool blocking_map,
                                               cl_map_flags map_flags, const size_t* origin, const size_t* region,
                                               size_t* row_pitch, size_t* slice_pitch, cl_uint num_events,
                                               const cl_event* wait_list, cl_event* event, cl_int* errcode_ret) {
  Mapping wanted;
  if (origin && region)
    for (int d = 0; d < 3; ++d) {
      wanted.origin[d] = origin[d];
      wanted.region[d] = region[d];
    }
  wanted.write = writes(map_flags);
  return map_checked(image, wanted, 0, errcode_ret, [&](cl_int* err) {
    return next_cl().clEnqueueMapImage(queue, image, blocking_map, map_flags, origin, region, row_pitch, slice_pitch,
                             num_events, wait_list, event, err);
  });
}

CLVF_API cl_int CL_API_CALL clvfEnqueueUnmapMemObject(cl_command_queue queue, cl_mem memobj, void* mapped_ptr,
                                                      cl_uint num_events, const cl_event* wait_list, cl_event* event) {
  Registry& registry = Registry::get();
  auto held = registry.lock();
  cl_int err = next_cl().clEnqueueUnmapMemObject(queue, memobj, mapped_ptr, num_events, wait_list, event);
  size_t offset = 0;
  if (SharedMem* mem = registry.find_mem_or_parent(memobj, &offset); mem && err == CL_SUCCESS) {
    // Two maps of the same object may return the same pointer; an unmap ends the oldest of them.
    auto& maps = mem->mappings;
    for (auto it = maps.begin(); it != maps.end(); ++it)
      if (it->object == memobj && it->pointer == mapped_ptr) {
        maps.erase(it);
        break;
      }
  }
  return err;
}

}  // extern "C"
