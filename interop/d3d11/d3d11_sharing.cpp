#include "interop/d3d11/d3d11_sharing.hpp"

#include <algorithm>
#include <memory>

#include "interop/com_status.hpp"
#include "interop/d3d11/dxgi_formats.hpp"
#include "interop/d3d11/staging.hpp"
#include "interop/sharing/amd_planes.hpp"
#include "interop/sharing/create_guard.hpp"
#include "interop/sharing/devices.hpp"
#include "interop/sharing/image.hpp"
#include "interop/sharing/next.hpp"

namespace clvf::detail::interop {

const Family kD3D11Family = {"D3D11",
                             CL_INVALID_D3D11_DEVICE_KHR,
                             CL_INVALID_D3D11_RESOURCE_KHR,
                             CL_D3D11_RESOURCE_ALREADY_ACQUIRED_KHR,
                             CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR,
                             CL_COMMAND_ACQUIRE_D3D11_OBJECTS_KHR,
                             CL_COMMAND_RELEASE_D3D11_OBJECTS_KHR};
const DeviceProperty kD3D11DeviceProperty = {CL_CONTEXT_D3D11_DEVICE_KHR, &kD3D11Family};

cl_int open_d3d11_device(cl_context_properties value, const void** identity, std::function<void()>* release) {
  auto* object = reinterpret_cast<IUnknown*>(value);
  ID3D11Device* device = nullptr;
  if (object == nullptr || FAILED(object->QueryInterface(IID_PPV_ARGS(&device)))) return CL_INVALID_D3D11_DEVICE_KHR;
  *identity = com_identity(device);
  *release = [device] { device->Release(); };
  return CL_SUCCESS;
}

namespace {

// The context's D3D11 device, or null when the context was not created against one (C1).
const void* context_device(Registry& registry, cl_context context) {
  const SharedContext* shared = registry.find_context(context);
  if (shared == nullptr) return nullptr;
  auto it = shared->devices.find(&kD3D11Family);
  return it == shared->devices.end() ? nullptr : it->second;
}

bool on_device(ID3D11DeviceChild* resource, const void* device) {
  ComPtr<ID3D11Device> owner;
  resource->GetDevice(&owner);
  return com_identity(owner.Get()) == device;
}

SharedMem shared_mem(cl_context context, cl_mem_flags flags, IUnknown* resource, ResourceKey key,
                     std::unique_ptr<SharedResource> transfer) {
  SharedMem info;
  info.context = context;
  info.family = &kD3D11Family;
  info.flags = flags;
  info.key = key;
  info.resource = std::move(transfer);
  info.mem_info[CL_MEM_D3D11_RESOURCE_KHR] = info_bytes(static_cast<ID3D11Resource*>(static_cast<void*>(resource)));
  return info;
}

// What a texture subresource becomes: its image and how it is moved.
struct TextureShare {
  cl_image_format format;
  cl_image_desc desc;
  TexturePart part;
};

// The checks every texture share makes, in the extension's order; CL_SUCCESS or the error.
cl_int check_share(Registry& registry, cl_context context, cl_mem_flags flags, ID3D11DeviceChild* resource,
                   D3D11_USAGE usage, const void** device) {
  *device = context_device(registry, context);
  if (*device == nullptr) return CL_INVALID_CONTEXT;
  if (!valid_sharing_flags(flags)) return CL_INVALID_VALUE;
  if (resource == nullptr || usage == D3D11_USAGE_IMMUTABLE || !on_device(resource, *device))
    return CL_INVALID_D3D11_RESOURCE_KHR;
  return CL_SUCCESS;
}

cl_mem share_texture(Registry& registry, cl_context context, cl_mem_flags flags, ID3D11Resource* texture,
                     ComPtr<ID3D11Resource> staging, const TextureShare& share, UINT subresource,
                     cl_int* errcode_ret) {
  cl_int err = CL_SUCCESS;
  auto transfer = std::make_unique<StagedTexture>(texture, std::move(staging), share.part);
  SharedMem info = shared_mem(context, flags, texture, {com_identity(texture), subresource}, std::move(transfer));
  info.image_info[CL_IMAGE_D3D11_SUBRESOURCE_KHR] = info_bytes(subresource);
  cl_mem mem = create_shared_image(context, flags, share.format, share.desc, info, &err);
  if (mem == nullptr) return fail_mem(err, errcode_ret);
  return register_mem(registry, mem, std::move(info), errcode_ret);
}

ComPtr<ID3D11Device> device_of(ID3D11DeviceChild* resource) {
  ComPtr<ID3D11Device> device;
  resource->GetDevice(&device);
  return device;
}

}  // namespace

namespace emulated {

cl_int CL_API_CALL clGetDeviceIDsFromD3D11KHR(cl_platform_id platform, cl_d3d11_device_source_khr source,
                                              void* object, cl_d3d11_device_set_khr set, cl_uint num_entries,
                                              cl_device_id* devices, cl_uint* num_devices) {
  if ((source != CL_D3D11_DEVICE_KHR && source != CL_D3D11_DXGI_ADAPTER_KHR) ||
      (set != CL_PREFERRED_DEVICES_FOR_D3D11_KHR && set != CL_ALL_DEVICES_FOR_D3D11_KHR))
    return CL_INVALID_VALUE;
  auto* unknown = static_cast<IUnknown*>(object);
  ComPtr<IUnknown> typed;
  HRESULT hr = E_NOINTERFACE;
  if (unknown && source == CL_D3D11_DEVICE_KHR) hr = unknown->QueryInterface(__uuidof(ID3D11Device), &typed);
  if (unknown && source == CL_D3D11_DXGI_ADAPTER_KHR) hr = unknown->QueryInterface(__uuidof(IDXGIAdapter), &typed);
  if (FAILED(hr)) return CL_INVALID_VALUE;
  return list_sharing_devices(platform, num_entries, devices, num_devices);
}

cl_mem CL_API_CALL clCreateFromD3D11BufferKHR(cl_context context, cl_mem_flags flags, ID3D11Buffer* resource,
                                              cl_int* errcode_ret) {
  return create_guarded(errcode_ret, [&](Registry& registry) {
    ComPtr<ID3D11Buffer> buffer;
    if (resource && FAILED(resource->QueryInterface(IID_PPV_ARGS(&buffer)))) buffer = nullptr;
    D3D11_BUFFER_DESC desc = {};
    if (buffer) buffer->GetDesc(&desc);
    const void* device = nullptr;
    if (cl_int err = check_share(registry, context, flags, buffer.Get(), desc.Usage, &device); err != CL_SUCCESS)
      return fail_mem(err, errcode_ret);
    ResourceKey key{com_identity(buffer.Get()), 0};
    if (registry.resource_shared(key)) return fail_mem(CL_INVALID_D3D11_RESOURCE_KHR, errcode_ret);
    ComPtr<ID3D11Buffer> staging;
    if (desc.Usage != D3D11_USAGE_STAGING) {
      D3D11_BUFFER_DESC s = {desc.ByteWidth, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE, 0, 0};
      if (cl_int err = cl_code(device_of(buffer.Get())->CreateBuffer(&s, nullptr, &staging)); err != CL_SUCCESS)
        return fail_mem(err, errcode_ret);
    }
    auto transfer = std::make_unique<StagedBuffer>(buffer, std::move(staging), desc.ByteWidth);
    SharedMem info = shared_mem(context, flags, resource, key, std::move(transfer));
    cl_int err = CL_SUCCESS;
    cl_mem mem = next_cl().clCreateBuffer(context, flags, desc.ByteWidth, nullptr, &err);
    if (mem == nullptr) return fail_mem(err, errcode_ret);
    return register_mem(registry, mem, std::move(info), errcode_ret);
  });
}

cl_mem CL_API_CALL clCreateFromD3D11Texture2DKHR(cl_context context, cl_mem_flags flags, ID3D11Texture2D* resource,
                                                 UINT subresource, cl_int* errcode_ret) {
  return create_guarded(errcode_ret, [&](Registry& registry) {
    ComPtr<ID3D11Texture2D> texture;
    if (resource && FAILED(resource->QueryInterface(IID_PPV_ARGS(&texture)))) texture = nullptr;
    D3D11_TEXTURE2D_DESC desc = {};
    if (texture) texture->GetDesc(&desc);
    const void* device = nullptr;
    if (cl_int err = check_share(registry, context, flags, texture.Get(), desc.Usage, &device); err != CL_SUCCESS)
      return fail_mem(err, errcode_ret);
    PlaneFormat planes[2];
    unsigned plane_count = dxgi_planes(desc.Format, planes);
    if (plane_count == 0) return fail_mem(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, errcode_ret);
    // Planar formats: subresource 2*slice + plane (one mip level); others: D3D11's own numbering.
    const bool planar = plane_count == 2;
    const UINT count = planar ? 2 * desc.ArraySize : desc.MipLevels * desc.ArraySize;
    if (subresource >= count || (planar && desc.MipLevels != 1)) return fail_mem(CL_INVALID_VALUE, errcode_ret);
    if (registry.resource_shared({com_identity(texture.Get()), subresource}))
      return fail_mem(CL_INVALID_D3D11_RESOURCE_KHR, errcode_ret);
    const UINT plane = planar ? subresource % 2 : 0;
    const UINT mip = planar ? 0 : subresource % desc.MipLevels;
    const UINT d3d_subresource = planar ? subresource / 2 : subresource;
    const UINT width = std::max(1u, desc.Width >> mip), height = std::max(1u, desc.Height >> mip);

    TextureShare share = {};
    share.format = planes[plane].format;
    share.desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    share.desc.image_width = width / planes[plane].subsampling;
    share.desc.image_height = height / planes[plane].subsampling;
    share.part = {d3d_subresource, share.desc.image_width, share.desc.image_height, 1, plane ? height : 0, planar};

    D3D11_TEXTURE2D_DESC s = desc;
    s.Width = width;
    s.Height = height;
    s.MipLevels = s.ArraySize = 1;
    s.SampleDesc = {1, 0};
    s.Usage = D3D11_USAGE_STAGING;
    s.BindFlags = 0;
    s.CPUAccessFlags = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE;
    s.MiscFlags = 0;
    ComPtr<ID3D11Texture2D> staging;
    if (cl_int err = cl_code(device_of(texture.Get())->CreateTexture2D(&s, nullptr, &staging)); err != CL_SUCCESS)
      return fail_mem(err, errcode_ret);
    return share_texture(registry, context, flags, texture.Get(), std::move(staging), share, subresource, errcode_ret);
  });
}

cl_mem CL_API_CALL clCreateFromD3D11Texture3DKHR(cl_context context, cl_mem_flags flags, ID3D11Texture3D* resource,
                                                 UINT subresource, cl_int* errcode_ret) {
  return create_guarded(errcode_ret, [&](Registry& registry) {
    ComPtr<ID3D11Texture3D> texture;
    if (resource && FAILED(resource->QueryInterface(IID_PPV_ARGS(&texture)))) texture = nullptr;
    D3D11_TEXTURE3D_DESC desc = {};
    if (texture) texture->GetDesc(&desc);
    const void* device = nullptr;
    if (cl_int err = check_share(registry, context, flags, texture.Get(), desc.Usage, &device); err != CL_SUCCESS)
      return fail_mem(err, errcode_ret);
    PlaneFormat planes[2];
    if (dxgi_planes(desc.Format, planes) != 1) return fail_mem(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, errcode_ret);
    if (subresource >= desc.MipLevels) return fail_mem(CL_INVALID_VALUE, errcode_ret);
    if (registry.resource_shared({com_identity(texture.Get()), subresource}))
      return fail_mem(CL_INVALID_D3D11_RESOURCE_KHR, errcode_ret);
    TextureShare share = {};
    share.format = planes[0].format;
    share.desc.image_type = CL_MEM_OBJECT_IMAGE3D;
    share.desc.image_width = std::max(1u, desc.Width >> subresource);
    share.desc.image_height = std::max(1u, desc.Height >> subresource);
    share.desc.image_depth = std::max(1u, desc.Depth >> subresource);
    share.part = {subresource, share.desc.image_width, share.desc.image_height, share.desc.image_depth, 0, false};

    D3D11_TEXTURE3D_DESC s = desc;
    s.Width = UINT(share.desc.image_width);
    s.Height = UINT(share.desc.image_height);
    s.Depth = UINT(share.desc.image_depth);
    s.MipLevels = 1;
    s.Usage = D3D11_USAGE_STAGING;
    s.BindFlags = 0;
    s.CPUAccessFlags = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE;
    s.MiscFlags = 0;
    ComPtr<ID3D11Texture3D> staging;
    if (cl_int err = cl_code(device_of(texture.Get())->CreateTexture3D(&s, nullptr, &staging)); err != CL_SUCCESS)
      return fail_mem(err, errcode_ret);
    return share_texture(registry, context, flags, texture.Get(), std::move(staging), share, subresource, errcode_ret);
  });
}

}  // namespace emulated

namespace amd {

cl_mem CL_API_CALL clCreateFromD3D11Texture2DKHR(cl_context context, cl_mem_flags flags, ID3D11Texture2D* resource,
                                                 UINT subresource, cl_int* errcode_ret) {
  return create_guarded(errcode_ret, [&](Registry& registry) {
    const AmdPlanarFunctions* driver = amd_planar_functions(platform_of(context));
    if (driver == nullptr) return fail_mem(CL_INVALID_CONTEXT, errcode_ret);
    ComPtr<ID3D11Texture2D> texture;
    if (resource && FAILED(resource->QueryInterface(IID_PPV_ARGS(&texture)))) texture = nullptr;
    D3D11_TEXTURE2D_DESC desc = {};
    if (texture) texture->GetDesc(&desc);
    PlaneFormat planes[2];
    if (!texture || dxgi_planes(desc.Format, planes) != 2)
      return driver->create_texture2d(context, flags, resource, subresource, errcode_ret);
    if (!valid_sharing_flags(flags) || subresource >= 2 * desc.ArraySize || desc.MipLevels != 1)
      return fail_mem(CL_INVALID_VALUE, errcode_ret);
    SharedMem info = shared_mem(context, flags, texture.Get(), {com_identity(texture.Get()), subresource}, nullptr);
    info.image_info[CL_IMAGE_D3D11_SUBRESOURCE_KHR] = info_bytes(subresource);
    return create_amd_plane(registry, *driver, std::move(info), resource, subresource / 2, subresource % 2,
                            errcode_ret);
  });
}

}  // namespace amd

}  // namespace clvf::detail::interop
