#include "interop/sharing/registry.hpp"
#include "interop/sharing/next.hpp"

#include <chrono>
#include <cstdlib>

namespace clvf::detail::interop {

namespace {

constexpr auto kCollectInterval = std::chrono::milliseconds(2);

cl_uint reference_count(cl_context c) {
  cl_uint n = 0;
  return next_cl().clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, nullptr) == CL_SUCCESS ? n : 0;
}
cl_uint reference_count(cl_mem m) {
  cl_uint n = 0;
  return next_cl().clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof n, &n, nullptr) == CL_SUCCESS ? n : 0;
}
cl_uint reference_count(cl_event e) {
  cl_uint n = 0;
  return next_cl().clGetEventInfo(e, CL_EVENT_REFERENCE_COUNT, sizeof n, &n, nullptr) == CL_SUCCESS ? n : 0;
}

}  // namespace

// Never destroyed: objects may still be released during static destruction. The collector
// thread is stopped at exit (stop_collector, registered with atexit).
Registry& Registry::get() {
  static Registry* registry = new Registry;
  return *registry;
}

void Registry::add_context(cl_context context, SharedContext info) {
  next_cl().clRetainContext(context);
  contexts_[context] = std::move(info);
  start_collector_locked();
}

void Registry::add_mem(cl_mem mem, SharedMem info) {
  next_cl().clRetainMemObject(mem);
  mems_[mem] = std::move(info);
  start_collector_locked();
}

void Registry::add_event(cl_event event, cl_command_type type) {
  next_cl().clRetainEvent(event);
  events_[event] = type;
  start_collector_locked();
}

SharedContext* Registry::find_context(cl_context context) {
  auto it = contexts_.find(context);
  return it == contexts_.end() ? nullptr : &it->second;
}

SharedMem* Registry::find_mem(cl_mem mem) {
  auto it = mems_.find(mem);
  return it == mems_.end() ? nullptr : &it->second;
}

SharedMem* Registry::find_mem_or_parent(cl_mem mem, size_t* offset) {
  *offset = 0;
  if (SharedMem* found = find_mem(mem)) return found;
  cl_mem parent = nullptr;
  if (mem == nullptr ||
      next_cl().clGetMemObjectInfo(mem, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, nullptr) != CL_SUCCESS ||
      parent == nullptr)
    return nullptr;
  SharedMem* found = find_mem(parent);
  if (found && next_cl().clGetMemObjectInfo(mem, CL_MEM_OFFSET, sizeof *offset, offset, nullptr) != CL_SUCCESS) *offset = 0;
  return found;
}

bool Registry::resource_shared(const ResourceKey& key) const {
  for (const auto& [mem, info] : mems_)
    if (info.key == key) return true;
  return false;
}

const cl_command_type* Registry::event_type(cl_event event) {
  auto it = events_.find(event);
  return it == events_.end() ? nullptr : &it->second;
}

cl_uint Registry::own_references(const void* object) const {
  return contexts_.count(static_cast<cl_context>(const_cast<void*>(object))) ||
                 mems_.count(static_cast<cl_mem>(const_cast<void*>(object))) ||
                 events_.count(static_cast<cl_event>(const_cast<void*>(object)))
             ? 1
             : 0;
}

// A count of 0 means the query failed: the application released the object more often than it
// owned it. It is gone; only the clean-up is left to run.
void Registry::collect_locked() {
  for (auto it = events_.begin(); it != events_.end();) {
    if (cl_uint n = reference_count(it->first); n <= 1) {
      if (n == 1) next_cl().clReleaseEvent(it->first);
      it = events_.erase(it);
    } else {
      ++it;
    }
  }
  // Memory objects before contexts: each holds a reference on its context.
  for (auto it = mems_.begin(); it != mems_.end();) {
    if (cl_uint n = reference_count(it->first); n <= 1) {
      cl_mem mem = it->first;
      std::unique_ptr<SharedResource> resource = std::move(it->second.resource);
      it = mems_.erase(it);
      if (n == 1) next_cl().clReleaseMemObject(mem);
      resource.reset();
    } else {
      ++it;
    }
  }
  for (auto it = contexts_.begin(); it != contexts_.end();) {
    if (cl_uint n = reference_count(it->first); n <= 1) {
      cl_context context = it->first;
      std::function<void()> on_destroy = std::move(it->second.on_destroy);
      it = contexts_.erase(it);
      if (n == 1) next_cl().clReleaseContext(context);
      if (on_destroy) on_destroy();
    } else {
      ++it;
    }
  }
}

void Registry::start_collector_locked() {
  if (collector_running_ || stopping_) return;
  if (collector_.joinable()) collector_.join();  // it has left: it cleared collector_running_ under the lock
  static const bool at_exit = [] { return std::atexit([] { Registry::get().stop_collector(); }) == 0; }();
  (void)at_exit;
  collector_running_ = true;
  collector_ = std::thread([this] {
    auto held = lock();
    for (;;) {
      wake_.wait_for(held, kCollectInterval, [this] { return stopping_; });
      if (stopping_) break;
      collect_locked();
      if (tracked() == 0) break;
    }
    collector_running_ = false;
  });
}

void Registry::stop_collector() {
  {
    auto held = lock();
    stopping_ = true;
  }
  wake_.notify_all();
  if (collector_.joinable()) collector_.join();
}

}  // namespace clvf::detail::interop
