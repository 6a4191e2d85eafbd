// Everything the emulated sharing extensions know about the OpenCL objects they made: contexts
// created with interop properties, memory objects made from Direct3D resources (with their
// acquire state and mappings), and the events of acquire and release commands.
//
// Lifetimes. The registry keeps one OpenCL reference of its own on each object. A collector
// looks at the reference counts (every interop call, and a background pass every few
// milliseconds while anything is tracked); when only its own reference is left, the application
// has released the object: the collector drops its reference and runs the object's clean-up (the
// Direct3D Release of B4/M9 and C2). Destructor callbacks would be prompter, but OpenCL 1.2 has
// none for contexts and Wine's opencl.dll refuses them for memory objects (CL_INVALID_OPERATION);
// one mechanism serves every platform. Reference counts read back through clvfGet*Info do not
// include the registry's reference.
#pragma once
#include <CL/cl.h>

#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "interop/sharing/family.hpp"

namespace clvf::detail::interop {

// The Direct3D side of one shared memory object. Its destructor releases the Direct3D
// references taken when the object was created.
class SharedResource {
 public:
  virtual ~SharedResource() = default;
  // Moves the data at acquire (Direct3D → OpenCL) and release (OpenCL → Direct3D). Blocking: when
  // they return, the copy is complete. Errors are OpenCL codes.
  virtual cl_int to_cl(cl_command_queue queue, cl_mem mem) = 0;
  virtual cl_int from_cl(cl_command_queue queue, cl_mem mem) = 0;
};

// Identity of what one memory object shares: a resource and a part of it (subresource, plane).
struct ResourceKey {
  const void* resource = nullptr;
  cl_uint part = 0;
  auto operator<=>(const ResourceKey&) const = default;
};

struct SharedContext {
  std::vector<cl_context_properties> properties;  // as given, 0-terminated (C5)
  bool user_sync = false;                         // CL_CONTEXT_INTEROP_USER_SYNC (C3)
  // The Direct3D device (or D3D9 device) each family's objects must come from (C1, B3), as its
  // IUnknown (COM identity), and the property that named it.
  std::map<const Family*, const void*> devices;
  std::map<const Family*, cl_context_properties> device_keys;
  std::function<void()> on_destroy;  // releases the device references (C2)
};

struct Mapping {
  cl_mem object = nullptr;  // what was mapped: the shared object or one of its sub-buffers
  void* pointer = nullptr;
  size_t origin[3] = {0, 0, 0}, region[3] = {0, 0, 0};  // bytes for buffers, pixels for images
  bool write = false;
};

struct SharedMem {
  cl_context context = nullptr;
  const Family* family = nullptr;
  cl_mem_flags flags = 0;
  ResourceKey key;
  std::unique_ptr<SharedResource> resource;
  bool acquired = false;
  // Answers to the extension's queries (clGetMemObjectInfo / clGetImageInfo), by parameter.
  std::map<cl_uint, std::vector<unsigned char>> mem_info, image_info;
  std::vector<Mapping> mappings;  // of the object and of its sub-buffers, in the object's bytes
};

template <typename T>
std::vector<unsigned char> info_bytes(const T& value) {
  const auto* p = reinterpret_cast<const unsigned char*>(&value);
  return std::vector<unsigned char>(p, p + sizeof value);
}

class Registry {
 public:
  static Registry& get();

  // Every member below runs under this lock; callers take it with lock().
  std::unique_lock<std::mutex> lock() { return std::unique_lock<std::mutex>(mutex_); }

  // Takes the registry's reference (clRetain*) and starts tracking.
  void add_context(cl_context context, SharedContext info);
  void add_mem(cl_mem mem, SharedMem info);
  void add_event(cl_event event, cl_command_type type);

  SharedContext* find_context(cl_context context);
  SharedMem* find_mem(cl_mem mem);
  // The shared object behind `mem` or, for a sub-buffer, behind its parent; `offset` receives
  // the sub-buffer's origin in the parent (0 for the object itself).
  SharedMem* find_mem_or_parent(cl_mem mem, size_t* offset);
  bool resource_shared(const ResourceKey& key) const;
  const cl_command_type* event_type(cl_event event);
  // 1 for an object the registry tracks (its own reference), 0 otherwise.
  cl_uint own_references(const void* object) const;

  // Releases whatever only the registry still references (see the header comment).
  void collect_locked();
  void collect() {
    auto held = lock();
    collect_locked();
  }
  size_t tracked() const { return contexts_.size() + mems_.size() + events_.size(); }

 private:
  Registry() = default;
  void start_collector_locked();
  // At exit, before the OpenCL implementation tears itself down: the collector stops calling it.
  void stop_collector();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread collector_;
  bool stopping_ = false;
  std::map<cl_context, SharedContext> contexts_;
  std::map<cl_mem, SharedMem> mems_;
  std::map<cl_event, cl_command_type> events_;
  bool collector_running_ = false;
};

}  // namespace clvf::detail::interop
