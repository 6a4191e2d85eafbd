// What the interop tests share (Windows, run under Wine + Xvfb): the OpenCL platform and device
// under test (CLVF_TEST_PLATFORM names it: "Portable" for PoCL, "Oclgrind"), real Direct3D 11
// and Direct3D 9Ex devices, the sharing functions taken from
// clvfGetExtensionFunctionAddressForPlatform, contexts made with clvfCreateContext, and readers and
// writers that go through Direct3D's own staging copies and LockRect.
#pragma once
#include <d3d11.h>
#include <d3d9.h>
#include <dxva2api.h>
#include <gtest/gtest.h>
#include <wrl/client.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "cl_formats.hpp"
#include "clvf/cl_interop.h"

namespace clvf::detail::test {

using Microsoft::WRL::ComPtr;
using Bytes = std::vector<uint8_t>;

cl_platform_id test_platform();
cl_device_id test_device();
// CL_RG images (NV12 chroma): Oclgrind has them, Debian's PoCL not.
bool device_has_rg();

struct Sharing {
  clGetDeviceIDsFromD3D11KHR_fn get_d3d11_devices;
  clCreateFromD3D11BufferKHR_fn create_buffer;
  clCreateFromD3D11Texture2DKHR_fn create_texture2d;
  clCreateFromD3D11Texture3DKHR_fn create_texture3d;
  clEnqueueAcquireD3D11ObjectsKHR_fn acquire_d3d11;
  clEnqueueReleaseD3D11ObjectsKHR_fn release_d3d11;
  clGetDeviceIDsFromDX9MediaAdapterKHR_fn get_dx9_devices;
  clCreateFromDX9MediaSurfaceKHR_fn create_surface;
  clEnqueueAcquireDX9MediaSurfacesKHR_fn acquire_dx9;
  clEnqueueReleaseDX9MediaSurfacesKHR_fn release_dx9;
};
const Sharing& sharing();

ComPtr<ID3D11Device> make_d3d11_device();
ComPtr<IDirect3DDevice9Ex> make_d3d9ex_device();

// The three ways a DX9 media context names its adapter for one device: D3D9 and D3D9Ex (the device
// itself) and DXVA (a device manager reset to it, made here and kept in `manager`).
struct DX9Adapter {
  cl_context_properties key;
  IUnknown* object;
  cl_dx9_media_adapter_type_khr type;
  const char* name;
};
std::vector<DX9Adapter> dx9_adapters(IDirect3DDevice9Ex* device, ComPtr<IDirect3DDeviceManager9>& manager);

// The object's COM reference count, read through AddRef/Release.
ULONG ref_count(IUnknown* object);
// Polls `condition` for up to a second: the registry releases what the application dropped
// within a few milliseconds.
bool eventually(const std::function<bool()>& condition);

// A context (with its queue) created through clvfCreateContext with `interop` properties
// (key, value pairs) after CL_CONTEXT_PLATFORM.
class Context {
 public:
  explicit Context(std::vector<cl_context_properties> interop, cl_int* err = nullptr);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  cl_context get() const { return context_; }
  cl_command_queue queue() const { return queue_; }
  std::vector<cl_context_properties> properties;  // as passed

 private:
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
};

// A context made against `device` (CL_CONTEXT_D3D11_DEVICE_KHR).
std::unique_ptr<Context> d3d11_context(ID3D11Device* device);

Bytes random_bytes(size_t n, uint32_t seed);

// Direct3D 11 side.
ComPtr<ID3D11Buffer> make_buffer(ID3D11Device* device, UINT size, D3D11_USAGE usage = D3D11_USAGE_DEFAULT,
                                 const Bytes* initial = nullptr);
Bytes read_buffer(ID3D11Device* device, ID3D11Buffer* buffer);
void write_buffer(ID3D11Device* device, ID3D11Buffer* buffer, const Bytes& data);
ComPtr<ID3D11Texture2D> make_texture(ID3D11Device* device, UINT width, UINT height, DXGI_FORMAT format,
                                     UINT mips = 1, UINT slices = 1, UINT bind = D3D11_BIND_SHADER_RESOURCE);
// One subresource's rows (width * bytes per pixel each; planar formats: both planes' rows).
Bytes read_subresource(ID3D11Device* device, ID3D11Texture2D* texture, UINT subresource, size_t row_bytes, size_t rows);
void write_subresource(ID3D11Device* device, ID3D11Texture2D* texture, UINT subresource, size_t row_bytes,
                       size_t rows, const Bytes& data);

// Direct3D 9 side: an offscreen plain surface (D3DPOOL_DEFAULT unless told).
ComPtr<IDirect3DSurface9> make_surface(IDirect3DDevice9Ex* device, UINT width, UINT height, D3DFORMAT format,
                                       D3DPOOL pool = D3DPOOL_DEFAULT);

// One plane of a D3D9 surface through LockRect, by the formats' own definitions (YV12: Y, then
// V, then U, chroma rows at half the pitch; plane 1 is U). pixel_bytes: single-plane formats.
Bytes read_plane(IDirect3DSurface9* surface, unsigned plane, size_t pixel_bytes = 1);
void write_plane(IDirect3DSurface9* surface, unsigned plane, const Bytes& data, size_t pixel_bytes = 1);

// OpenCL side.
Bytes read_cl_buffer(cl_command_queue queue, cl_mem buffer, size_t size);
void write_cl_buffer(cl_command_queue queue, cl_mem buffer, const Bytes& data);
Bytes read_cl_image(cl_command_queue queue, cl_mem image, size_t width, size_t height, size_t pixel_bytes);
void write_cl_image(cl_command_queue queue, cl_mem image, size_t width, size_t height, size_t pixel_bytes,
                    const Bytes& data);
// A kernel that replaces every byte b of a buffer with 255 - b (proves kernels see the data).
void invert_with_kernel(cl_context context, cl_command_queue queue, cl_mem buffer, size_t size,
                        cl_uint num_events = 0, const cl_event* wait_list = nullptr);
Bytes inverted(Bytes data);

constexpr D3DFORMAT kNV12 = static_cast<D3DFORMAT>(MAKEFOURCC('N', 'V', '1', '2'));
constexpr D3DFORMAT kYV12 = static_cast<D3DFORMAT>(MAKEFOURCC('Y', 'V', '1', '2'));
constexpr D3DFORMAT kP010 = static_cast<D3DFORMAT>(MAKEFOURCC('P', '0', '1', '0'));

}  // namespace clvf::detail::test
