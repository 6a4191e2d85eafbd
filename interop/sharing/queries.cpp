// clvfGetContextInfo / clvfGetMemObjectInfo / clvfGetImageInfo / clvfGetEventInfo: the
// extension's parameters answered from the registry for the objects it made (C5, B5, T2, M10,
// E2); reference counts without the registry's own reference; everything else forwarded.
#include <cstring>
#include <vector>

#include "clvf/cl_interop.h"
#include "interop/sharing/registry.hpp"
#include "interop/sharing/next.hpp"

using namespace clvf::detail::interop;

namespace {

cl_int answer(const std::vector<unsigned char>& value, size_t size, void* out, size_t* size_ret) {
  if (out && size < value.size()) return CL_INVALID_VALUE;
  if (out) std::memcpy(out, value.data(), value.size());
  if (size_ret) *size_ret = value.size();
  return CL_SUCCESS;
}

// Forwards a reference-count query, less the registry's own reference.
template <typename Query>
cl_int reference_count(const void* object, size_t size, void* out, size_t* size_ret, Query&& query) {
  cl_uint count = 0;
  cl_int err = query(sizeof count, &count);
  if (err != CL_SUCCESS) return err;
  count -= Registry::get().own_references(object);
  return answer(info_bytes(count), size, out, size_ret);
}

}  // namespace

extern "C" {

CLVF_API cl_int CL_API_CALL clvfGetContextInfo(cl_context context, cl_context_info param, size_t size, void* out,
                                               size_t* size_ret) {
  Registry& registry = Registry::get();
  auto held = registry.lock();
  const SharedContext* shared = registry.find_context(context);
  if (shared && param == CL_CONTEXT_PROPERTIES) {
    const auto& p = shared->properties;
    const auto* bytes = reinterpret_cast<const unsigned char*>(p.data());
    return answer(std::vector<unsigned char>(bytes, bytes + p.size() * sizeof p[0]), size, out, size_ret);
  }
  if (shared && param == CL_CONTEXT_REFERENCE_COUNT)
    return reference_count(context, size, out, size_ret, [&](size_t n, void* v) {
      return next_cl().clGetContextInfo(context, param, n, v, nullptr);
    });
  return next_cl().clGetContextInfo(context, param, size, out, size_ret);
}

CLVF_API cl_int CL_API_CALL clvfGetMemObjectInfo(cl_mem mem, cl_mem_info param, size_t size, void* out,
                                                 size_t* size_ret) {
  Registry& registry = Registry::get();
  auto held = registry.lock();
  if (const SharedMem* shared = registry.find_mem(mem)) {
    if (auto it = shared->mem_info.find(param); it != shared->mem_info.end())
      return answer(it->second, size, out, size_ret);
    if (param == CL_MEM_REFERENCE_COUNT)
      return reference_count(mem, size, out, size_ret, [&](size_t n, void* v) {
        return next_cl().clGetMemObjectInfo(mem, param, n, v, nullptr);
      });
  }
  return next_cl().clGetMemObjectInfo(mem, param, size, out, size_ret);
}

CLVF_API cl_int CL_API_CALL clvfGetImageInfo(cl_mem image, cl_image_info param, size_t size, void* out,
                                             size_t* size_ret) {
  Registry& registry = Registry::get();
  auto held = registry.lock();
  if (const SharedMem* shared = registry.find_mem(image))
    if (auto it = shared->image_info.find(param); it != shared->image_info.end())
      return answer(it->second, size, out, size_ret);
  return next_cl().clGetImageInfo(image, param, size, out, size_ret);
}

CLVF_API cl_int CL_API_CALL clvfGetEventInfo(cl_event event, cl_event_info param, size_t size, void* out,
                                             size_t* size_ret) {
  Registry& registry = Registry::get();
  auto held = registry.lock();
  if (const cl_command_type* type = registry.event_type(event)) {
    if (param == CL_EVENT_COMMAND_TYPE) return answer(info_bytes(*type), size, out, size_ret);
    if (param == CL_EVENT_REFERENCE_COUNT)
      return reference_count(event, size, out, size_ret, [&](size_t n, void* v) {
        return next_cl().clGetEventInfo(event, param, n, v, nullptr);
      });
  }
  return next_cl().clGetEventInfo(event, param, size, out, size_ret);
}

}  // extern "C"
