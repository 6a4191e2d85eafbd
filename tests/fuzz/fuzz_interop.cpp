// The interop layer's argument checks under fuzzing: acquire/release lists, wait lists and
// queues, overlapping maps of shared objects and their sub-buffers, and context properties. A
// real PoCL context holds buffers registered as shared objects (their "Direct3D" side is host
// memory: only the checks and the state machine are under test here; the Direct3D side runs
// under Wine). Invariants, checked against the fuzzer's own model: results are among the codes
// the extension allows, a refused call changes no state and creates no event, an accepted one
// flips every listed object, a map of an object not acquired is refused (A1), a map that overlaps
// a written one is refused and any other is not (P3), a release while a map for writing is open
// is refused (P4) and no other is for that reason, and every device reference a refused context
// took is dropped.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "clvf/cl_interop.h"
#include "interop/sharing/acquire.hpp"
#include "interop/sharing/context.hpp"
#include "interop/sharing/registry.hpp"

using namespace clvf::detail::interop;

namespace {

const Family kFamily = {"fuzz", -1006, -1007, -1008, -1009, 0x4020, 0x4021};
const Family kOther = {"other", -1010, -1011, -1012, -1013, 0x202B, 0x202C};
constexpr size_t kBytes = 4096;

void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_interop: broken invariant: %s\n", what);
    std::abort();
  }
}

class HostResource : public SharedResource {
 public:
  cl_int to_cl(cl_command_queue q, cl_mem m) override {
    return clEnqueueWriteBuffer(q, m, CL_TRUE, 0, kBytes, bytes_.data(), 0, nullptr, nullptr);
  }
  cl_int from_cl(cl_command_queue q, cl_mem m) override {
    return clEnqueueReadBuffer(q, m, CL_TRUE, 0, kBytes, bytes_.data(), 0, nullptr, nullptr);
  }

 private:
  std::vector<unsigned char> bytes_ = std::vector<unsigned char>(kBytes, 1);
};

struct World {
  cl_context context = nullptr, other_context = nullptr;
  cl_command_queue queue = nullptr, other_queue = nullptr;
  std::vector<cl_mem> shared;  // kFamily ×3, kOther ×1
  cl_mem plain = nullptr, sub = nullptr;
  size_t sub_origin = 0, sub_size = 0;  // in shared[0], at the device's base address alignment
  cl_event complete = nullptr, foreign = nullptr;
  std::vector<cl_mem> picks;  // what object lists draw from (nullptr included)
};

World& world() {
  static World* w = [] {
    auto* w = new World;
    cl_platform_id platform;
    cl_device_id device;
    require(clGetPlatformIDs(1, &platform, nullptr) == CL_SUCCESS, "an OpenCL platform");
    require(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) == CL_SUCCESS, "a device");
    w->context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, nullptr);
    w->other_context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, nullptr);
    w->queue = clCreateCommandQueue(w->context, device, 0, nullptr);
    w->other_queue = clCreateCommandQueue(w->other_context, device, 0, nullptr);
    Registry& registry = Registry::get();
    auto held = registry.lock();
    SharedContext shared;
    shared.devices = {{&kFamily, w}, {&kOther, w}};
    registry.add_context(w->context, std::move(shared));
    for (int i = 0; i < 4; ++i) {
      cl_mem m = clCreateBuffer(w->context, CL_MEM_READ_WRITE, kBytes, nullptr, nullptr);
      SharedMem info;
      info.context = w->context;
      info.family = i < 3 ? &kFamily : &kOther;
      info.flags = i == 1 ? CL_MEM_READ_ONLY : i == 2 ? CL_MEM_WRITE_ONLY : CL_MEM_READ_WRITE;
      info.key = {w, cl_uint(i)};
      info.resource = std::make_unique<HostResource>();
      registry.add_mem(m, std::move(info));
      w->shared.push_back(m);
    }
    w->plain = clCreateBuffer(w->context, CL_MEM_READ_WRITE, kBytes, nullptr, nullptr);
    cl_uint align_bits = 0;
    clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, nullptr);
    w->sub_origin = std::max<size_t>(align_bits / 8, 1);
    w->sub_size = std::min<size_t>(256, kBytes - w->sub_origin);
    cl_buffer_region region = {w->sub_origin, w->sub_size};
    w->sub = clCreateSubBuffer(w->shared[0], CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, nullptr);
    require(w->sub != nullptr, "a sub-buffer");
    w->complete = clCreateUserEvent(w->context, nullptr);
    clSetUserEventStatus(w->complete, CL_COMPLETE);
    w->foreign = clCreateUserEvent(w->other_context, nullptr);
    clSetUserEventStatus(w->foreign, CL_COMPLETE);
    w->picks = {w->shared[0], w->shared[1], w->shared[2], w->shared[3], w->plain, w->sub, nullptr};
    return w;
  }();
  return *w;
}

bool acquired(cl_mem m) {
  auto held = Registry::get().lock();
  const SharedMem* s = Registry::get().find_mem(m);
  return s && s->acquired;
}

// The fuzzer's own model of the maps open on shared[0] (in its bytes; the sub-buffer's are offset).
struct OpenMap {
  cl_mem object;
  void* pointer;
  size_t begin, end;
  bool write;
};

void acquire_or_release(FuzzedDataProvider& in, World& w, const std::vector<OpenMap>& open) {
  const bool acquire = in.ConsumeBool();
  const Family& family = in.ConsumeBool() ? kFamily : kOther;
  const cl_command_queue queues[] = {w.queue, w.other_queue, nullptr};
  cl_command_queue queue = queues[in.ConsumeIntegralInRange(0, 2)];
  std::vector<cl_mem> objects(in.ConsumeIntegralInRange(0, 5));
  for (cl_mem& m : objects) m = w.picks[in.ConsumeIntegralInRange<size_t>(0, w.picks.size() - 1)];
  const cl_uint count = in.ConsumeBool() ? cl_uint(objects.size()) : in.ConsumeIntegralInRange(0, 5);
  const cl_mem* list = in.ConsumeBool() && !objects.empty() ? objects.data() : nullptr;
  if (list == nullptr || count > objects.size()) objects.resize(std::max<size_t>(objects.size(), count), nullptr);
  if (list) list = objects.data();
  std::vector<cl_event> waits(in.ConsumeIntegralInRange(0, 3));
  for (cl_event& e : waits) {
    const int pick = in.ConsumeIntegralInRange(0, 2);
    e = pick == 0 ? w.complete : pick == 1 ? w.foreign : nullptr;
  }
  const cl_uint wait_count = in.ConsumeBool() ? cl_uint(waits.size()) : in.ConsumeIntegralInRange(0, 3);
  const cl_event* wait_list = in.ConsumeBool() && !waits.empty() ? waits.data() : nullptr;
  if (wait_list && wait_count > waits.size()) return;  // would read past the list: not a fair input
  cl_event event = reinterpret_cast<cl_event>(1);
  cl_event* event_out = in.ConsumeBool() ? &event : nullptr;

  std::vector<bool> before;
  for (cl_mem m : w.shared) before.push_back(acquired(m));
  const cl_int err = (acquire ? enqueue_acquire : enqueue_release)(family, queue, count, list, wait_count, wait_list,
                                                                   event_out);
  const cl_int allowed[] = {CL_SUCCESS, CL_INVALID_VALUE, CL_INVALID_COMMAND_QUEUE, CL_INVALID_CONTEXT,
                            CL_INVALID_EVENT_WAIT_LIST, CL_INVALID_MEM_OBJECT, family.already_acquired,
                            family.not_acquired, CL_INVALID_OPERATION};
  require(std::find(std::begin(allowed), std::end(allowed), err) != std::end(allowed), "an allowed result");
  const bool written_map = std::any_of(open.begin(), open.end(), [](const OpenMap& m) { return m.write; });
  const bool lists_mapped = list && std::find(list, list + count, w.shared[0]) != list + count;
  if (err == CL_INVALID_OPERATION)
    require(!acquire && lists_mapped && written_map, "a release is refused for a map only while one writes");
  if (err == CL_SUCCESS && !acquire && lists_mapped) require(!written_map, "no release while a map writes");
  if (err != CL_SUCCESS) {
    for (size_t i = 0; i < w.shared.size(); ++i) require(acquired(w.shared[i]) == before[i], "a refused call changes nothing");
    require(!event_out || event == nullptr, "a refused call creates no event");
    return;
  }
  if (count == 0 && list == nullptr) {
    for (size_t i = 0; i < w.shared.size(); ++i) require(acquired(w.shared[i]) == before[i], "an empty call changes nothing");
    return;
  }
  for (cl_uint i = 0; i < count; ++i) require(acquired(list[i]) == acquire, "an accepted call flips every object");
  if (event_out) {
    require(event != nullptr, "an event");
    cl_command_type type = 0;
    clvfGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
    require(type == (acquire ? family.acquire_command : family.release_command), "the event names the command");
    clReleaseEvent(event);
  }
}

void map_or_unmap(FuzzedDataProvider& in, World& w, std::vector<OpenMap>& open) {
  if (in.ConsumeBool() && !open.empty()) {
    // An unmap ends the oldest open map of that object at that pointer (maps may share pointers).
    size_t i = in.ConsumeIntegralInRange<size_t>(0, open.size() - 1);
    for (size_t j = 0; j < i; ++j)
      if (open[j].object == open[i].object && open[j].pointer == open[i].pointer) i = j;
    require(clvfEnqueueUnmapMemObject(w.queue, open[i].object, open[i].pointer, 0, nullptr, nullptr) == CL_SUCCESS,
            "an unmap of an open map");
    open.erase(open.begin() + i);
    return;
  }
  const bool on_sub = in.ConsumeBool();
  cl_mem object = on_sub ? w.sub : w.shared[0];
  const size_t limit = on_sub ? w.sub_size : kBytes;
  const size_t offset = in.ConsumeIntegralInRange<size_t>(0, limit - 1);
  const size_t size = in.ConsumeIntegralInRange<size_t>(1, limit - offset);
  const cl_map_flags choices[] = {CL_MAP_READ, CL_MAP_WRITE, CL_MAP_WRITE_INVALIDATE_REGION, CL_MAP_READ | CL_MAP_WRITE};
  const cl_map_flags flags = choices[in.ConsumeIntegralInRange(0, 3)];
  const bool write = flags != CL_MAP_READ;
  const size_t begin = offset + (on_sub ? w.sub_origin : 0), end = begin + size;
  bool conflict = false;
  for (const OpenMap& m : open) conflict |= (m.write || write) && begin < m.end && m.begin < end;
  const cl_int expected = !acquired(w.shared[0]) ? kFamily.not_acquired : conflict ? CL_INVALID_OPERATION : CL_SUCCESS;
  cl_int err = -1;
  void* p = clvfEnqueueMapBuffer(w.queue, object, CL_TRUE, flags, offset, size, 0, nullptr, nullptr, &err);
  if (err != expected || (p != nullptr) != (expected == CL_SUCCESS)) {
    std::fprintf(stderr, "map [%zu, %zu) %s on %s: result %d (expected %d), %zu open maps\n", begin, end,
                 write ? "write" : "read", on_sub ? "the sub-buffer" : "the buffer", err, expected, open.size());
    require(false, "a map is refused exactly when its object is not acquired or it overlaps a map for writing");
  }
  if (p) open.push_back({object, p, begin, end, write});
}

void create_context_properties(FuzzedDataProvider& in) {
  static const DeviceProperty devices[] = {{0x401D, &kFamily}, {0x2026, &kOther}};
  static const cl_context_properties flags[] = {CL_CONTEXT_INTEROP_USER_SYNC, 0x402D};
  const cl_context_properties keys[] = {0x401D, 0x2026, CL_CONTEXT_INTEROP_USER_SYNC, 0x402D, 0x1234};
  std::vector<cl_context_properties> props;
  for (int n = in.ConsumeIntegralInRange(0, 6); n > 0; --n) {
    props.push_back(keys[in.ConsumeIntegralInRange(0, 4)]);
    props.push_back(in.ConsumeIntegralInRange<cl_context_properties>(0, 3));
  }
  props.push_back(0);
  int opened = 0, released = 0;
  DeviceOpener open = [&](const DeviceProperty& d, cl_context_properties value, const void** identity,
                          std::function<void()>* release) {
    if (value % 2) return d.family->invalid_device;
    ++opened;
    *identity = &d;
    *release = [&released] { ++released; };
    return CL_SUCCESS;
  };
  ContextCreator refuse = [](const cl_context_properties*, cl_int* err) {
    *err = CL_INVALID_PLATFORM;
    return cl_context(nullptr);
  };
  cl_int err = 0;
  require(create_context(props.data(), devices, flags, open, refuse, &err) == nullptr, "no context");
  require(err == CL_INVALID_PROPERTY || err == CL_INVALID_PLATFORM || err == kFamily.invalid_device ||
              err == kOther.invalid_device,
          "an allowed result");
  require(opened == released, "a refused context keeps no device reference");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  World& w = world();
  FuzzedDataProvider in(data, size);
  std::vector<OpenMap> open;
  for (int step = 0; step < 16 && in.remaining_bytes() > 0; ++step) {
    switch (in.ConsumeIntegralInRange(0, 2)) {
      case 0: acquire_or_release(in, w, open); break;
      case 1: map_or_unmap(in, w, open); break;
      case 2: create_context_properties(in); break;
    }
  }
  for (const OpenMap& m : open) clvfEnqueueUnmapMemObject(w.queue, m.object, m.pointer, 0, nullptr, nullptr);
  for (cl_mem m : w.shared)
    if (acquired(m)) {
      const Family& f = m == w.shared[3] ? kOther : kFamily;
      require(enqueue_release(f, w.queue, 1, &m, 0, nullptr, nullptr) == CL_SUCCESS, "a release of an acquired object");
    }
  clFinish(w.queue);
  return 0;
}
