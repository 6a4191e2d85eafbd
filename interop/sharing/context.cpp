#include "interop/sharing/context.hpp"

#include <algorithm>
#include <vector>

#include "interop/sharing/registry.hpp"

namespace clvf::detail::interop {

namespace {

cl_context fail(cl_int code, cl_int* errcode_ret) {
  if (errcode_ret) *errcode_ret = code;
  return nullptr;
}

}  // namespace

cl_context create_context(const cl_context_properties* properties, std::span<const DeviceProperty> devices,
                          std::span<const cl_context_properties> extra_keys, const DeviceOpener& open,
                          const ContextCreator& create, cl_int* errcode_ret) {
  std::vector<cl_context_properties> given, platform, seen;
  struct Opened {
    const DeviceProperty* property;
    cl_context_properties value;
  };
  std::vector<Opened> wanted;
  SharedContext shared;
  for (const cl_context_properties* p = properties; p && p[0] != 0; p += 2) {
    cl_context_properties key = p[0], value = p[1];
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) return fail(CL_INVALID_PROPERTY, errcode_ret);
    seen.push_back(key);
    given.insert(given.end(), {key, value});
    auto device = std::find_if(devices.begin(), devices.end(), [&](const DeviceProperty& d) { return d.key == key; });
    if (device != devices.end()) {
      wanted.push_back({&*device, value});
    } else if (std::find(extra_keys.begin(), extra_keys.end(), key) != extra_keys.end()) {
      if (value != CL_TRUE && value != CL_FALSE) return fail(CL_INVALID_PROPERTY, errcode_ret);
      if (key == CL_CONTEXT_INTEROP_USER_SYNC) shared.user_sync = value == CL_TRUE;
    } else {
      platform.insert(platform.end(), {key, value});
    }
  }
  if (wanted.empty()) return create(properties, errcode_ret);
  given.push_back(0);
  platform.push_back(0);

  std::vector<std::function<void()>> releases;
  auto release_all = [&releases] {
    for (auto& r : releases) r();
  };
  for (const Opened& o : wanted) {
    const void* identity = nullptr;
    std::function<void()> release;
    cl_int err = open(*o.property, o.value, &identity, &release);
    if (err != CL_SUCCESS) {
      release_all();
      return fail(err, errcode_ret);
    }
    shared.devices[o.property->family] = identity;
    shared.device_keys[o.property->family] = o.property->key;
    releases.push_back(std::move(release));
  }
  cl_int err = CL_SUCCESS;
  cl_context context = create(platform.size() > 1 ? platform.data() : nullptr, &err);
  if (context == nullptr) {
    release_all();
    return fail(err == CL_SUCCESS ? CL_OUT_OF_HOST_MEMORY : err, errcode_ret);
  }
  shared.properties = std::move(given);
  shared.on_destroy = [releases = std::move(releases)] {
    for (auto& r : releases) r();
  };
  Registry& registry = Registry::get();
  auto held = registry.lock();
  registry.add_context(context, std::move(shared));
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return context;
}

}  // namespace clvf::detail::interop
