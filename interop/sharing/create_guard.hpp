// Runs the body of an extension function that creates a memory object under the registry's lock
// (after collecting what the application released), turning an allocation failure into
// CL_OUT_OF_HOST_MEMORY (B7): nothing escapes into C callers.
#pragma once
#include <new>

#include "interop/sharing/registry.hpp"
#include "interop/sharing/status.hpp"

namespace clvf::detail::interop {

template <typename Body>
cl_mem create_guarded(cl_int* errcode_ret, Body&& body) {
  try {
    Registry& registry = Registry::get();
    auto held = registry.lock();
    registry.collect_locked();
    return body(registry);
  } catch (const std::bad_alloc&) {
    return fail_mem(CL_OUT_OF_HOST_MEMORY, errcode_ret);
  }
}

// Starts tracking a memory object just created; on failure releases it again.
inline cl_mem register_mem(Registry& registry, cl_mem mem, SharedMem info, cl_int* errcode_ret) {
  try {
    registry.add_mem(mem, std::move(info));
  } catch (...) {
    clReleaseMemObject(mem);
    throw;
  }
  return succeed_mem(mem, errcode_ret);
}

// CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY or CL_MEM_READ_WRITE alone (B2, M2).
inline bool valid_sharing_flags(cl_mem_flags flags) {
  return flags == CL_MEM_READ_ONLY || flags == CL_MEM_WRITE_ONLY || flags == CL_MEM_READ_WRITE;
}

}  // namespace clvf::detail::interop
