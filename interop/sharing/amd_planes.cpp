#include "interop/sharing/amd_planes.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <vector>

#include "interop/sharing/create_guard.hpp"
#include "interop/sharing/next.hpp"

namespace clvf::detail::interop {

namespace {

// The driver's image of one array slice. Released when its last plane object is gone.
struct AmdParent {
  cl_mem image = nullptr;
  unsigned acquired_planes = 0;
  ~AmdParent() {
    if (image) next_cl().clReleaseMemObject(image);
  }
};

// A plane object's link to its parent. The driver's images are the texture's own memory, so
// acquire and release move nothing (amd_enqueue_transfer calls neither to_cl nor from_cl).
class AmdPlane final : public SharedResource {
 public:
  explicit AmdPlane(std::shared_ptr<AmdParent> parent) : parent_(std::move(parent)) {}
  cl_int to_cl(cl_command_queue, cl_mem) override { return CL_SUCCESS; }
  cl_int from_cl(cl_command_queue, cl_mem) override { return CL_SUCCESS; }
  AmdParent& parent() const { return *parent_; }

 private:
  std::shared_ptr<AmdParent> parent_;
};

struct ParentKey {
  cl_context context;
  const void* texture;
  cl_uint slice;
  auto operator<=>(const ParentKey&) const = default;
};

// The parents with at least one plane object, under the registry's lock.
std::map<ParentKey, std::weak_ptr<AmdParent>>& parents() {
  static auto* map = new std::map<ParentKey, std::weak_ptr<AmdParent>>;
  return *map;
}

std::shared_ptr<AmdParent> parent_for(const AmdPlanarFunctions& amd, const ParentKey& key, void* texture,
                                      cl_int* err) {
  auto& map = parents();
  std::erase_if(map, [](const auto& entry) { return entry.second.expired(); });
  if (auto it = map.find(key); it != map.end()) return it->second.lock();
  auto parent = std::make_shared<AmdParent>();
  // Read-write: the parent serves both planes, whatever access each was created with.
  parent->image = amd.create_texture2d(key.context, CL_MEM_READ_WRITE, texture, key.slice, err);
  if (parent->image == nullptr) {
    if (*err == CL_SUCCESS) *err = CL_OUT_OF_RESOURCES;
    return nullptr;
  }
  map[key] = parent;
  return parent;
}

// The UNORM image of a plane the driver gives as CL_UNSIGNED_INT8/16 (what KHR's planes are).
cl_mem unorm_plane(const AmdPlanarFunctions& amd, cl_context context, cl_mem plane, cl_int* err) {
  cl_image_format format = {};
  *err = next_cl().clGetImageInfo(plane, CL_IMAGE_FORMAT, sizeof format, &format, nullptr);
  if (*err != CL_SUCCESS) return nullptr;
  switch (format.image_channel_data_type) {
    case CL_UNORM_INT8:
    case CL_UNORM_INT16:
      next_cl().clRetainMemObject(plane);
      return plane;
    case CL_UNSIGNED_INT8:
      format.image_channel_data_type = CL_UNORM_INT8;
      break;
    case CL_UNSIGNED_INT16:
      format.image_channel_data_type = CL_UNORM_INT16;
      break;
    default:
      *err = CL_IMAGE_FORMAT_NOT_SUPPORTED;
      return nullptr;
  }
  cl_mem converted = amd.convert_image(context, plane, &format, err);
  if (converted == nullptr && *err == CL_SUCCESS) *err = CL_OUT_OF_RESOURCES;
  return converted;
}

struct MemReleaser {
  void operator()(cl_mem mem) const { next_cl().clReleaseMemObject(mem); }
};
using MemHandle = std::unique_ptr<std::remove_pointer_t<cl_mem>, MemReleaser>;

std::mutex functions_mutex;
std::map<cl_platform_id, std::optional<AmdPlanarFunctions>>& functions_by_platform() {
  static auto* map = new std::map<cl_platform_id, std::optional<AmdPlanarFunctions>>;
  return *map;
}

template <typename F>
F lookup(cl_platform_id platform, const char* name) {
  return reinterpret_cast<F>(next_cl().clGetExtensionFunctionAddressForPlatform(platform, name));
}

}  // namespace

const AmdPlanarFunctions* amd_planar_functions(cl_platform_id platform) {
  if (platform == nullptr) return nullptr;
  std::lock_guard<std::mutex> held(functions_mutex);
  auto& map = functions_by_platform();
  auto it = map.find(platform);
  if (it == map.end()) {
    AmdPlanarFunctions f;
    f.create_texture2d = lookup<AmdPlanarFunctions::Create>(platform, "clCreateFromD3D11Texture2DKHR");
    f.get_plane = lookup<AmdPlanarFunctions::GetPlane>(platform, "clGetPlaneFromImageAMD");
    f.convert_image = lookup<AmdPlanarFunctions::Convert>(platform, "clConvertImageAMD");
    f.acquire = lookup<AmdPlanarFunctions::Enqueue>(platform, "clEnqueueAcquireD3D11ObjectsKHR");
    f.release = lookup<AmdPlanarFunctions::Enqueue>(platform, "clEnqueueReleaseD3D11ObjectsKHR");
    const bool complete = f.create_texture2d && f.get_plane && f.convert_image && f.acquire && f.release;
    it = map.emplace(platform, complete ? std::optional(f) : std::nullopt).first;
  }
  return it->second ? &*it->second : nullptr;
}

void set_amd_planar_functions(cl_platform_id platform, const AmdPlanarFunctions& functions) {
  std::lock_guard<std::mutex> held(functions_mutex);
  functions_by_platform()[platform] = functions;
}

cl_platform_id platform_of(cl_context context) {
  cl_device_id device = nullptr;
  size_t size = 0;
  if (context == nullptr || next_cl().clGetContextInfo(context, CL_CONTEXT_DEVICES, 0, nullptr, &size) != CL_SUCCESS ||
      size < sizeof device)
    return nullptr;
  std::vector<cl_device_id> devices(size / sizeof device);
  if (next_cl().clGetContextInfo(context, CL_CONTEXT_DEVICES, size, devices.data(), nullptr) != CL_SUCCESS) return nullptr;
  cl_platform_id platform = nullptr;
  return next_cl().clGetDeviceInfo(devices[0], CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr) == CL_SUCCESS
             ? platform
             : nullptr;
}

cl_platform_id platform_of(cl_command_queue queue) {
  cl_device_id device = nullptr;
  cl_platform_id platform = nullptr;
  if (queue == nullptr || next_cl().clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, nullptr) != CL_SUCCESS ||
      next_cl().clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr) != CL_SUCCESS)
    return nullptr;
  return platform;
}

cl_mem create_amd_plane(Registry& registry, const AmdPlanarFunctions& amd, SharedMem info, void* texture,
                        cl_uint slice, cl_uint plane, cl_int* errcode_ret) {
  if (registry.resource_shared(info.key)) return fail_mem(info.family->invalid_resource, errcode_ret);
  cl_int err = CL_SUCCESS;
  std::shared_ptr<AmdParent> parent = parent_for(amd, {info.context, info.key.resource, slice}, texture, &err);
  if (!parent) return fail_mem(err, errcode_ret);
  auto link = std::make_unique<AmdPlane>(parent);
  MemHandle raw(amd.get_plane(info.context, parent->image, plane, &err));
  if (!raw) return fail_mem(err != CL_SUCCESS ? err : CL_INVALID_VALUE, errcode_ret);
  cl_mem mem = unorm_plane(amd, info.context, raw.get(), &err);
  if (mem == nullptr) return fail_mem(err, errcode_ret);
  info.mem_info[CL_MEM_FLAGS] = info_bytes(info.flags);
  info.resource = std::move(link);
  return register_mem(registry, mem, std::move(info), errcode_ret);
}

cl_int amd_enqueue_transfer(const Family& family, bool acquire, cl_command_queue queue, cl_uint num_objects,
                            const cl_mem* objects, cl_uint num_events, const cl_event* wait_list, cl_event* event) {
  try {
    Registry& registry = Registry::get();
    auto held = registry.lock();
    registry.collect_locked();
    const AmdPlanarFunctions* amd = amd_planar_functions(platform_of(queue));
    if (amd == nullptr) return CL_INVALID_COMMAND_QUEUE;
    const AmdPlanarFunctions::Enqueue driver = acquire ? amd->acquire : amd->release;
    cl_context context = nullptr;
    if (next_cl().clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, nullptr) != CL_SUCCESS)
      return CL_INVALID_COMMAND_QUEUE;

    std::vector<cl_mem> passed;  // to the driver
    std::vector<SharedMem*> planes;
    std::map<AmdParent*, int> change;  // in acquired planes, per parent
    for (cl_uint i = 0; i < num_objects && objects; ++i) {
      SharedMem* mem = registry.find_mem(objects[i]);
      auto* link = mem ? dynamic_cast<AmdPlane*>(mem->resource.get()) : nullptr;
      if (link == nullptr) {
        passed.push_back(objects[i]);
        continue;
      }
      if (mem->family != &family) return CL_INVALID_MEM_OBJECT;
      if (mem->context != context) return CL_INVALID_CONTEXT;
      // Listed twice counts as acquiring (releasing) it twice.
      const bool repeated = std::find(planes.begin(), planes.end(), mem) != planes.end();
      if (acquire && (mem->acquired || repeated)) return family.already_acquired;
      if (!acquire && (!mem->acquired || repeated)) return family.not_acquired;
      planes.push_back(mem);
      AmdParent& parent = link->parent();
      int& delta = change[&parent];
      const unsigned before = parent.acquired_planes + delta;
      if (before == (acquire ? 0u : 1u)) passed.push_back(parent.image);
      delta += acquire ? 1 : -1;
    }
    if (planes.empty()) return driver(queue, num_objects, objects, num_events, wait_list, event);

    cl_int err = CL_SUCCESS;
    if (!passed.empty()) {
      err = driver(queue, static_cast<cl_uint>(passed.size()), passed.data(), num_events, wait_list, event);
    } else {
      // Every parent is already acquired (still held) through another plane: only the ordering.
      err = next_cl().clEnqueueMarkerWithWaitList(queue, num_events, wait_list, event);
      if (err == CL_SUCCESS && event)
        registry.add_event(*event, acquire ? family.acquire_command : family.release_command);
    }
    if (err != CL_SUCCESS) return err;
    for (SharedMem* mem : planes) mem->acquired = acquire;
    for (auto& [parent, delta] : change) parent->acquired_planes += delta;
    return CL_SUCCESS;
  } catch (const std::bad_alloc&) {
    return CL_OUT_OF_HOST_MEMORY;
  }
}

}  // namespace clvf::detail::interop
