#include "d3d_env.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>

namespace clvf::detail::test {

namespace {

template <typename F>
F function(const char* name) {
  return reinterpret_cast<F>(clvfGetExtensionFunctionAddressForPlatform(test_platform(), name));
}

}  // namespace

cl_platform_id test_platform() {
  static cl_platform_id platform = find_test_platform();
  return platform;
}

cl_device_id test_device() {
  static cl_device_id device = [] {
    cl_device_id d = nullptr;
    clGetDeviceIDs(test_platform(), CL_DEVICE_TYPE_ALL, 1, &d, nullptr);
    return d;
  }();
  return device;
}

bool device_has_rg() {
  cl_context context = clCreateContext(nullptr, 1, &(const cl_device_id&)test_device(), nullptr, nullptr, nullptr);
  cl_image_format formats[256];
  cl_uint count = 0;
  clGetSupportedImageFormats(context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 256, formats, &count);
  clReleaseContext(context);
  for (cl_uint i = 0; i < count && i < 256; ++i)
    if (formats[i].image_channel_order == CL_RG && formats[i].image_channel_data_type == CL_UNORM_INT8) return true;
  return false;
}

const Sharing& sharing() {
  static Sharing s = {
      function<clGetDeviceIDsFromD3D11KHR_fn>("clGetDeviceIDsFromD3D11KHR"),
      function<clCreateFromD3D11BufferKHR_fn>("clCreateFromD3D11BufferKHR"),
      function<clCreateFromD3D11Texture2DKHR_fn>("clCreateFromD3D11Texture2DKHR"),
      function<clCreateFromD3D11Texture3DKHR_fn>("clCreateFromD3D11Texture3DKHR"),
      function<clEnqueueAcquireD3D11ObjectsKHR_fn>("clEnqueueAcquireD3D11ObjectsKHR"),
      function<clEnqueueReleaseD3D11ObjectsKHR_fn>("clEnqueueReleaseD3D11ObjectsKHR"),
      function<clGetDeviceIDsFromDX9MediaAdapterKHR_fn>("clGetDeviceIDsFromDX9MediaAdapterKHR"),
      function<clCreateFromDX9MediaSurfaceKHR_fn>("clCreateFromDX9MediaSurfaceKHR"),
      function<clEnqueueAcquireDX9MediaSurfacesKHR_fn>("clEnqueueAcquireDX9MediaSurfacesKHR"),
      function<clEnqueueReleaseDX9MediaSurfacesKHR_fn>("clEnqueueReleaseDX9MediaSurfacesKHR"),
  };
  return s;
}

ComPtr<ID3D11Device> make_d3d11_device() {
  ComPtr<ID3D11Device> device;
  for (D3D_DRIVER_TYPE type : {D3D_DRIVER_TYPE_HARDWARE, D3D_DRIVER_TYPE_WARP})
    if (SUCCEEDED(D3D11CreateDevice(nullptr, type, nullptr, 0, nullptr, 0, D3D11_SDK_VERSION, &device, nullptr, nullptr)))
      return device;
  return nullptr;
}

ComPtr<IDirect3DDevice9Ex> make_d3d9ex_device() {
  ComPtr<IDirect3D9Ex> d3d;
  if (FAILED(Direct3DCreate9Ex(D3D_SDK_VERSION, &d3d))) return nullptr;
  D3DPRESENT_PARAMETERS pp = {};
  pp.Windowed = TRUE;
  pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
  pp.BackBufferFormat = D3DFMT_UNKNOWN;
  pp.hDeviceWindow = GetDesktopWindow();
  ComPtr<IDirect3DDevice9Ex> device;
  if (FAILED(d3d->CreateDeviceEx(D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, GetDesktopWindow(),
                                 D3DCREATE_SOFTWARE_VERTEXPROCESSING | D3DCREATE_MULTITHREADED, &pp, nullptr, &device)))
    return nullptr;
  return device;
}

std::vector<DX9Adapter> dx9_adapters(IDirect3DDevice9Ex* device, ComPtr<IDirect3DDeviceManager9>& manager) {
  UINT token = 0;
  manager.Reset();
  if (FAILED(DXVA2CreateDirect3DDeviceManager9(&token, &manager)) || FAILED(manager->ResetDevice(device, token)))
    return {};
  return {{CL_CONTEXT_ADAPTER_D3D9_KHR, device, CL_ADAPTER_D3D9_KHR, "D3D9"},
          {CL_CONTEXT_ADAPTER_D3D9EX_KHR, device, CL_ADAPTER_D3D9EX_KHR, "D3D9Ex"},
          {CL_CONTEXT_ADAPTER_DXVA_KHR, manager.Get(), CL_ADAPTER_DXVA_KHR, "DXVA"}};
}

ULONG ref_count(IUnknown* object) {
  object->AddRef();
  return object->Release();
}

bool eventually(const std::function<bool()>& condition) {
  for (int i = 0; i < 500; ++i) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return condition();
}

Context::Context(std::vector<cl_context_properties> interop, cl_int* err) {
  properties = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(test_platform())};
  properties.insert(properties.end(), interop.begin(), interop.end());
  properties.push_back(0);
  cl_int e = CL_SUCCESS;
  cl_device_id device = test_device();
  context_ = clvfCreateContext(properties.data(), 1, &device, nullptr, nullptr, &e);
  if (err) *err = e;
  if (context_) queue_ = clCreateCommandQueue(context_, device, 0, &e);
}

Context::~Context() {
  if (queue_) clReleaseCommandQueue(queue_);
  if (context_) clReleaseContext(context_);
}

std::unique_ptr<Context> d3d11_context(ID3D11Device* device) {
  return std::make_unique<Context>(
      std::vector<cl_context_properties>{CL_CONTEXT_D3D11_DEVICE_KHR, reinterpret_cast<cl_context_properties>(device)});
}

Bytes random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  Bytes out(n);
  for (auto& b : out) b = uint8_t(rng());
  return out;
}

ComPtr<ID3D11Buffer> make_buffer(ID3D11Device* device, UINT size, D3D11_USAGE usage, const Bytes* initial) {
  D3D11_BUFFER_DESC desc = {size, usage, 0, 0, 0, 0};
  if (usage == D3D11_USAGE_DEFAULT || usage == D3D11_USAGE_IMMUTABLE) desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
  if (usage == D3D11_USAGE_DYNAMIC) {
    desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    desc.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE;
  }
  if (usage == D3D11_USAGE_STAGING) desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE;
  D3D11_SUBRESOURCE_DATA data = {initial ? initial->data() : nullptr, 0, 0};
  ComPtr<ID3D11Buffer> buffer;
  device->CreateBuffer(&desc, initial ? &data : nullptr, &buffer);
  return buffer;
}

Bytes read_buffer(ID3D11Device* device, ID3D11Buffer* buffer) {
  D3D11_BUFFER_DESC desc;
  buffer->GetDesc(&desc);
  ComPtr<ID3D11Buffer> staging = make_buffer(device, desc.ByteWidth, D3D11_USAGE_STAGING);
  ComPtr<ID3D11DeviceContext> ctx;
  device->GetImmediateContext(&ctx);
  ctx->CopyResource(staging.Get(), buffer);
  D3D11_MAPPED_SUBRESOURCE m;
  Bytes out(desc.ByteWidth);
  if (SUCCEEDED(ctx->Map(staging.Get(), 0, D3D11_MAP_READ, 0, &m))) {
    std::memcpy(out.data(), m.pData, out.size());
    ctx->Unmap(staging.Get(), 0);
  }
  return out;
}

void write_buffer(ID3D11Device* device, ID3D11Buffer* buffer, const Bytes& data) {
  ComPtr<ID3D11DeviceContext> ctx;
  device->GetImmediateContext(&ctx);
  D3D11_BUFFER_DESC desc;
  buffer->GetDesc(&desc);
  D3D11_MAPPED_SUBRESOURCE m;
  if (desc.Usage != D3D11_USAGE_STAGING) {
    ctx->UpdateSubresource(buffer, 0, nullptr, data.data(), 0, 0);
  } else if (SUCCEEDED(ctx->Map(buffer, 0, D3D11_MAP_WRITE, 0, &m))) {  // staging: no UpdateSubresource
    std::memcpy(m.pData, data.data(), data.size());
    ctx->Unmap(buffer, 0);
  }
}

ComPtr<ID3D11Texture2D> make_texture(ID3D11Device* device, UINT width, UINT height, DXGI_FORMAT format, UINT mips,
                                     UINT slices, UINT bind) {
  D3D11_TEXTURE2D_DESC desc = {};
  desc.Width = width;
  desc.Height = height;
  desc.MipLevels = mips;
  desc.ArraySize = slices;
  desc.Format = format;
  desc.SampleDesc = {1, 0};
  desc.Usage = D3D11_USAGE_DEFAULT;
  desc.BindFlags = bind;
  ComPtr<ID3D11Texture2D> texture;
  device->CreateTexture2D(&desc, nullptr, &texture);
  return texture;
}

namespace {

ComPtr<ID3D11Texture2D> staging_for(ID3D11Device* device, ID3D11Texture2D* texture, UINT subresource) {
  D3D11_TEXTURE2D_DESC desc;
  texture->GetDesc(&desc);
  UINT mip = subresource % desc.MipLevels;
  desc.Width = std::max(1u, desc.Width >> mip);
  desc.Height = std::max(1u, desc.Height >> mip);
  desc.MipLevels = desc.ArraySize = 1;
  desc.Usage = D3D11_USAGE_STAGING;
  desc.BindFlags = 0;
  desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE;
  desc.MiscFlags = 0;
  ComPtr<ID3D11Texture2D> staging;
  device->CreateTexture2D(&desc, nullptr, &staging);
  return staging;
}

}  // namespace

Bytes read_subresource(ID3D11Device* device, ID3D11Texture2D* texture, UINT subresource, size_t row_bytes, size_t rows) {
  ComPtr<ID3D11Texture2D> staging = staging_for(device, texture, subresource);
  ComPtr<ID3D11DeviceContext> ctx;
  device->GetImmediateContext(&ctx);
  ctx->CopySubresourceRegion(staging.Get(), 0, 0, 0, 0, texture, subresource, nullptr);
  D3D11_MAPPED_SUBRESOURCE m;
  Bytes out(row_bytes * rows);
  if (SUCCEEDED(ctx->Map(staging.Get(), 0, D3D11_MAP_READ, 0, &m))) {
    for (size_t y = 0; y < rows; ++y)
      std::memcpy(&out[y * row_bytes], static_cast<uint8_t*>(m.pData) + y * m.RowPitch, row_bytes);
    ctx->Unmap(staging.Get(), 0);
  }
  return out;
}

void write_subresource(ID3D11Device* device, ID3D11Texture2D* texture, UINT subresource, size_t row_bytes,
                       size_t rows, const Bytes& data) {
  ComPtr<ID3D11Texture2D> staging = staging_for(device, texture, subresource);
  ComPtr<ID3D11DeviceContext> ctx;
  device->GetImmediateContext(&ctx);
  D3D11_MAPPED_SUBRESOURCE m;
  if (SUCCEEDED(ctx->Map(staging.Get(), 0, D3D11_MAP_WRITE, 0, &m))) {
    for (size_t y = 0; y < rows; ++y)
      std::memcpy(static_cast<uint8_t*>(m.pData) + y * m.RowPitch, &data[y * row_bytes], row_bytes);
    ctx->Unmap(staging.Get(), 0);
  }
  ctx->CopySubresourceRegion(texture, subresource, 0, 0, 0, staging.Get(), 0, nullptr);
}

ComPtr<IDirect3DSurface9> make_surface(IDirect3DDevice9Ex* device, UINT width, UINT height, D3DFORMAT format,
                                       D3DPOOL pool) {
  ComPtr<IDirect3DSurface9> surface;
  device->CreateOffscreenPlainSurface(width, height, format, pool, &surface, nullptr);
  return surface;
}

namespace {

// Where plane `plane` of a locked NV12/P010/YV12/single-plane surface lies, by the formats' own
// definitions (YV12: Y, then V, then U, chroma rows at half the pitch). The test's own reading.
struct PlaneView {
  size_t offset, pitch, row_bytes, rows;
};

PlaneView plane_view(D3DFORMAT format, size_t pitch, UINT width, UINT height, unsigned plane, size_t pixel_bytes) {
  if (format == kNV12 || format == kP010) {
    const size_t row = format == kP010 ? 2 * width : width;
    return plane == 0 ? PlaneView{0, pitch, row, height} : PlaneView{pitch * height, pitch, row, height / 2};
  }
  if (format == kYV12) {
    const size_t v = pitch * height, u = v + (pitch / 2) * (height / 2);
    if (plane == 0) return {0, pitch, width, height};
    return {plane == 1 ? u : v, pitch / 2, width / 2, height / 2};
  }
  return {0, pitch, width * pixel_bytes, height};
}

}  // namespace

Bytes read_plane(IDirect3DSurface9* surface, unsigned plane, size_t pixel_bytes) {
  D3DSURFACE_DESC desc;
  surface->GetDesc(&desc);
  D3DLOCKED_RECT r;
  if (FAILED(surface->LockRect(&r, nullptr, D3DLOCK_READONLY))) return {};
  PlaneView v = plane_view(desc.Format, r.Pitch, desc.Width, desc.Height, plane, pixel_bytes);
  Bytes out(v.row_bytes * v.rows);
  for (size_t y = 0; y < v.rows; ++y)
    std::memcpy(&out[y * v.row_bytes], static_cast<uint8_t*>(r.pBits) + v.offset + y * v.pitch, v.row_bytes);
  surface->UnlockRect();
  return out;
}

void write_plane(IDirect3DSurface9* surface, unsigned plane, const Bytes& data, size_t pixel_bytes) {
  D3DSURFACE_DESC desc;
  surface->GetDesc(&desc);
  D3DLOCKED_RECT r;
  ASSERT_TRUE(SUCCEEDED(surface->LockRect(&r, nullptr, 0)));
  PlaneView v = plane_view(desc.Format, r.Pitch, desc.Width, desc.Height, plane, pixel_bytes);
  ASSERT_EQ(data.size(), v.row_bytes * v.rows);
  for (size_t y = 0; y < v.rows; ++y)
    std::memcpy(static_cast<uint8_t*>(r.pBits) + v.offset + y * v.pitch, &data[y * v.row_bytes], v.row_bytes);
  surface->UnlockRect();
}

Bytes read_cl_buffer(cl_command_queue queue, cl_mem buffer, size_t size) {
  Bytes out(size, 0xEE);
  EXPECT_EQ(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, size, out.data(), 0, nullptr, nullptr), CL_SUCCESS);
  return out;
}

void write_cl_buffer(cl_command_queue queue, cl_mem buffer, const Bytes& data) {
  EXPECT_EQ(clEnqueueWriteBuffer(queue, buffer, CL_TRUE, 0, data.size(), data.data(), 0, nullptr, nullptr), CL_SUCCESS);
}

Bytes read_cl_image(cl_command_queue queue, cl_mem image, size_t width, size_t height, size_t pixel_bytes) {
  Bytes out(width * height * pixel_bytes, 0xEE);
  const size_t origin[3] = {0, 0, 0}, region[3] = {width, height, 1};
  EXPECT_EQ(clEnqueueReadImage(queue, image, CL_TRUE, origin, region, 0, 0, out.data(), 0, nullptr, nullptr), CL_SUCCESS);
  return out;
}

void write_cl_image(cl_command_queue queue, cl_mem image, size_t width, size_t height, size_t pixel_bytes,
                    const Bytes& data) {
  const size_t origin[3] = {0, 0, 0}, region[3] = {width, height, 1};
  EXPECT_EQ(data.size(), width * height * pixel_bytes);
  EXPECT_EQ(clEnqueueWriteImage(queue, image, CL_TRUE, origin, region, 0, 0, data.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
}

void invert_with_kernel(cl_context context, cl_command_queue queue, cl_mem buffer, size_t size, cl_uint num_events,
                        const cl_event* wait_list) {
  static const char* source = "kernel void invert(global uchar* b) { size_t i = get_global_id(0); b[i] = 255 - b[i]; }";
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(program, 0, nullptr, "", nullptr, nullptr), CL_SUCCESS);
  cl_kernel kernel = clCreateKernel(program, "invert", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  clSetKernelArg(kernel, 0, sizeof buffer, &buffer);
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &size, nullptr, num_events, wait_list, nullptr),
            CL_SUCCESS);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

Bytes inverted(Bytes data) {
  for (auto& b : data) b = uint8_t(255 - b);
  return data;
}

}  // namespace clvf::detail::test
