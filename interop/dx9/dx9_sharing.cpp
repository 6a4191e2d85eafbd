#include "interop/dx9/dx9_sharing.hpp"

#include <dxva2api.h>
#include <wrl/client.h>

#include <memory>

#include "interop/com_status.hpp"
#include "interop/dx9/d3d9_formats.hpp"
#include "interop/sharing/create_guard.hpp"
#include "interop/sharing/devices.hpp"
#include "interop/sharing/image.hpp"
#include "interop/sharing/next.hpp"

namespace clvf::detail::interop {

using Microsoft::WRL::ComPtr;

const Family kDX9Family = {"DX9 media",
                           CL_INVALID_DX9_MEDIA_ADAPTER_KHR,
                           CL_INVALID_DX9_MEDIA_SURFACE_KHR,
                           CL_DX9_MEDIA_SURFACE_ALREADY_ACQUIRED_KHR,
                           CL_DX9_MEDIA_SURFACE_NOT_ACQUIRED_KHR,
                           CL_COMMAND_ACQUIRE_DX9_MEDIA_SURFACES_KHR,
                           CL_COMMAND_RELEASE_DX9_MEDIA_SURFACES_KHR};
const DeviceProperty kDX9AdapterProperties[3] = {{CL_CONTEXT_ADAPTER_D3D9_KHR, &kDX9Family},
                                                 {CL_CONTEXT_ADAPTER_D3D9EX_KHR, &kDX9Family},
                                                 {CL_CONTEXT_ADAPTER_DXVA_KHR, &kDX9Family}};

namespace {

// The D3D9 device a DXVA2 device manager currently holds.
ComPtr<IDirect3DDevice9> managed_device(IDirect3DDeviceManager9* manager) {
  ComPtr<IDirect3DDevice9> device;
  HANDLE handle = nullptr;
  if (FAILED(manager->OpenDeviceHandle(&handle))) return nullptr;
  if (SUCCEEDED(manager->LockDevice(handle, &device, TRUE))) manager->UnlockDevice(handle, FALSE);
  manager->CloseDeviceHandle(handle);
  return device;
}

cl_context_properties context_key(cl_dx9_media_adapter_type_khr type) {
  switch (type) {
    case CL_ADAPTER_D3D9_KHR: return CL_CONTEXT_ADAPTER_D3D9_KHR;
    case CL_ADAPTER_D3D9EX_KHR: return CL_CONTEXT_ADAPTER_D3D9EX_KHR;
    case CL_ADAPTER_DXVA_KHR: return CL_CONTEXT_ADAPTER_DXVA_KHR;
    default: return 0;
  }
}

// One plane of a D3D9 surface as an image, moved with LockRect (which waits for the device's
// earlier work on the surface: A4).
class LockedSurface : public SharedResource {
 public:
  LockedSurface(ComPtr<IDirect3DSurface9> surface, D3DSURFACE_DESC desc, unsigned plane)
      : surface_(std::move(surface)), desc_(desc), plane_(plane) {}

  cl_int to_cl(cl_command_queue queue, cl_mem mem) override { return move(queue, mem, true); }
  cl_int from_cl(cl_command_queue queue, cl_mem mem) override { return move(queue, mem, false); }

 private:
  cl_int move(cl_command_queue queue, cl_mem mem, bool to_cl) {
    D3DLOCKED_RECT locked;
    if (FAILED(surface_->LockRect(&locked, nullptr, to_cl ? D3DLOCK_READONLY : 0))) return CL_OUT_OF_RESOURCES;
    SurfacePlane p;
    d3d9_plane(desc_.Format, desc_.Width, desc_.Height, size_t(locked.Pitch), plane_, &p);
    const size_t origin[3] = {0, 0, 0}, region[3] = {p.width, p.height, 1};
    auto* bits = static_cast<unsigned char*>(locked.pBits) + p.offset;
    cl_int err = to_cl ? next_cl().clEnqueueWriteImage(queue, mem, CL_TRUE, origin, region, p.pitch, 0, bits, 0, nullptr, nullptr)
                       : next_cl().clEnqueueReadImage(queue, mem, CL_TRUE, origin, region, p.pitch, 0, bits, 0, nullptr, nullptr);
    surface_->UnlockRect();
    return err;
  }

  ComPtr<IDirect3DSurface9> surface_;
  D3DSURFACE_DESC desc_;
  unsigned plane_;
};

}  // namespace

cl_int open_dx9_adapter(cl_context_properties key, cl_context_properties value, const void** identity,
                        std::function<void()>* release) {
  auto* object = reinterpret_cast<IUnknown*>(value);
  if (object == nullptr) return CL_INVALID_DX9_MEDIA_ADAPTER_KHR;
  ComPtr<IUnknown> held;
  ComPtr<IDirect3DDevice9> device;
  if (key == CL_CONTEXT_ADAPTER_DXVA_KHR) {
    ComPtr<IDirect3DDeviceManager9> manager;
    if (FAILED(object->QueryInterface(IID_PPV_ARGS(&manager)))) return CL_INVALID_DX9_MEDIA_ADAPTER_KHR;
    device = managed_device(manager.Get());
    held = manager;
  } else if (key == CL_CONTEXT_ADAPTER_D3D9EX_KHR) {
    ComPtr<IDirect3DDevice9Ex> ex;
    if (FAILED(object->QueryInterface(IID_PPV_ARGS(&ex)))) return CL_INVALID_DX9_MEDIA_ADAPTER_KHR;
    device = ex;
    held = ex;
  } else {
    if (FAILED(object->QueryInterface(IID_PPV_ARGS(&device)))) return CL_INVALID_DX9_MEDIA_ADAPTER_KHR;
    held = device;
  }
  if (device == nullptr) return CL_INVALID_DX9_MEDIA_ADAPTER_KHR;
  *identity = com_identity(device.Get());
  IUnknown* reference = held.Detach();
  *release = [reference] { reference->Release(); };
  return CL_SUCCESS;
}

namespace emulated {

cl_int CL_API_CALL clGetDeviceIDsFromDX9MediaAdapterKHR(cl_platform_id platform, cl_uint num_adapters,
                                                        cl_dx9_media_adapter_type_khr* types, void* adapters,
                                                        cl_dx9_media_adapter_set_khr set, cl_uint num_entries,
                                                        cl_device_id* devices, cl_uint* num_devices) {
  if (num_adapters == 0 || types == nullptr || adapters == nullptr ||
      (set != CL_PREFERRED_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR && set != CL_ALL_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR))
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_adapters; ++i)
    if (context_key(types[i]) == 0) return CL_INVALID_VALUE;
  return list_sharing_devices(platform, num_entries, devices, num_devices);
}

cl_mem CL_API_CALL clCreateFromDX9MediaSurfaceKHR(cl_context context, cl_mem_flags flags,
                                                  cl_dx9_media_adapter_type_khr adapter_type, void* surface_info,
                                                  cl_uint plane, cl_int* errcode_ret) {
  return create_guarded(errcode_ret, [&](Registry& registry) {
    const SharedContext* shared = registry.find_context(context);
    if (shared == nullptr || !shared->devices.count(&kDX9Family)) return fail_mem(CL_INVALID_CONTEXT, errcode_ret);
    if (!valid_sharing_flags(flags) || context_key(adapter_type) == 0 || surface_info == nullptr)
      return fail_mem(CL_INVALID_VALUE, errcode_ret);
    if (shared->device_keys.at(&kDX9Family) != context_key(adapter_type))
      return fail_mem(CL_INVALID_OPERATION, errcode_ret);  // M7
    const auto& info = *static_cast<const cl_dx9_surface_info_khr*>(surface_info);
    ComPtr<IDirect3DSurface9> surface;
    if (info.resource == nullptr || FAILED(info.resource->QueryInterface(IID_PPV_ARGS(&surface))))
      return fail_mem(CL_INVALID_DX9_MEDIA_SURFACE_KHR, errcode_ret);
    D3DSURFACE_DESC desc;
    ComPtr<IDirect3DDevice9> owner;
    if (FAILED(surface->GetDesc(&desc)) || desc.Pool != D3DPOOL_DEFAULT || FAILED(surface->GetDevice(&owner)) ||
        com_identity(owner.Get()) != shared->devices.at(&kDX9Family))
      return fail_mem(CL_INVALID_DX9_MEDIA_SURFACE_KHR, errcode_ret);
    SurfacePlane p;
    unsigned planes = d3d9_plane(desc.Format, desc.Width, desc.Height, desc.Width, plane, &p);
    if (planes == 0) return fail_mem(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, errcode_ret);
    if (plane >= planes) return fail_mem(CL_INVALID_VALUE, errcode_ret);

    SharedMem mem_info;
    mem_info.context = context;
    mem_info.family = &kDX9Family;
    mem_info.flags = flags;
    mem_info.key = {com_identity(surface.Get()), plane};
    mem_info.resource = std::make_unique<LockedSurface>(surface, desc, plane);
    mem_info.mem_info[CL_MEM_DX9_MEDIA_ADAPTER_TYPE_KHR] = info_bytes(adapter_type);
    mem_info.mem_info[CL_MEM_DX9_MEDIA_SURFACE_INFO_KHR] = info_bytes(info);
    mem_info.image_info[CL_IMAGE_DX9_MEDIA_PLANE_KHR] = info_bytes(plane);
    cl_image_desc image = {};
    image.image_type = CL_MEM_OBJECT_IMAGE2D;
    image.image_width = p.width;
    image.image_height = p.height;
    cl_int err = CL_SUCCESS;
    cl_mem mem = create_shared_image(context, flags, p.format, image, mem_info, &err);
    if (mem == nullptr) return fail_mem(err, errcode_ret);
    return register_mem(registry, mem, std::move(mem_info), errcode_ret);
  });
}

}  // namespace emulated

}  // namespace clvf::detail::interop
