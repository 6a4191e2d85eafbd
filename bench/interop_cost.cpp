// Per-frame cost of bringing a 1080p NV12 decode surface into OpenCL and back (Windows; run under
// Wine by bench/interop_cost.sh), beside the copies a pipeline without interop makes
// (hwdownload to system memory, hwupload to OpenCL, and the way back). Median of N frames, ms.
//   import          clCreateFromDX9MediaSurfaceKHR for each plane + clReleaseMemObject, per frame
//                   (no cache; the Direct3D reference is dropped later, by the collector)
//   acquire+release the planes of a surface imported once (what a pool cache gives); again after
//                   the wait for the Direct3D device that clvf's frames make before each acquire
//                   (interop/d3d_idle.hpp; here the device is idle: the wait's own cost)
//   d3d11 textures  the same for an R8 luma and an R8G8 chroma texture (Wine's NV12 textures do
//                   not copy faithfully, so two textures stand in for the two planes)
//   hwdownload+hwupload  LockRect + copy to a system frame, clEnqueueWriteBuffer of its planes,
//                   and back: clEnqueueReadBuffer, LockRect + copy into the surface
//   clvf_scale      (with the argument "scale") 1080p -> 720p through the C API on the surfaces
//                   (CLVF_STORAGE_DXVA2) and on host frames: the difference is the interop
// Without CL_RG images (PoCL), only the luma plane is shared by the rows above, and they say so.
#include <d3d11.h>
#include <d3d9.h>
#include <wrl/client.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "clvf/cl_interop.h"
#include "interop/d3d_idle.hpp"

using Microsoft::WRL::ComPtr;

namespace {

constexpr UINT kWidth = 1920, kHeight = 1080;
const D3DFORMAT kNV12 = static_cast<D3DFORMAT>(MAKEFOURCC('N', 'V', '1', '2'));

struct Cost {
  double median, mean;
};

Cost cost_ms(int frames, const std::function<void()>& body) {
  std::vector<double> ms;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < frames; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    body();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  const double total = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], total / frames};
}

void check(cl_int err, const char* what) {
  if (err != CL_SUCCESS) {
    std::fprintf(stderr, "interop_cost: %s failed: %d\n", what, err);
    std::exit(1);
  }
}

template <typename F>
F function(cl_platform_id platform, const char* name) {
  return reinterpret_cast<F>(clvfGetExtensionFunctionAddressForPlatform(platform, name));
}

}  // namespace

int main(int argc, char** argv) {
  const int frames = argc > 1 ? std::atoi(argv[1]) : 30;
  const char* wanted = std::getenv("CLVF_TEST_PLATFORM");
  cl_platform_id platforms[8];
  cl_uint count = 0;
  clGetPlatformIDs(8, platforms, &count);
  cl_platform_id platform = nullptr;
  std::string name;
  for (cl_uint i = 0; i < count && !platform; ++i) {
    char n[256] = {};
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof n - 1, n, nullptr);
    if (!wanted || std::strstr(n, wanted)) platform = platforms[i], name = n;
  }
  if (!platform) return std::fprintf(stderr, "interop_cost: no OpenCL platform matches CLVF_TEST_PLATFORM\n"), 1;
  cl_device_id device;
  check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr), "clGetDeviceIDs");

  ComPtr<IDirect3D9Ex> d3d;
  Direct3DCreate9Ex(D3D_SDK_VERSION, &d3d);
  D3DPRESENT_PARAMETERS pp = {};
  pp.Windowed = TRUE;
  pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
  pp.hDeviceWindow = GetDesktopWindow();
  ComPtr<IDirect3DDevice9Ex> d9;
  if (!d3d || FAILED(d3d->CreateDeviceEx(D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, GetDesktopWindow(),
                                         D3DCREATE_SOFTWARE_VERTEXPROCESSING | D3DCREATE_MULTITHREADED, &pp, nullptr, &d9)))
    return std::fprintf(stderr, "interop_cost: no Direct3D 9Ex device (is a display set?)\n"), 1;
  ComPtr<IDirect3DSurface9> surface;
  d9->CreateOffscreenPlainSurface(kWidth, kHeight, kNV12, D3DPOOL_DEFAULT, &surface, nullptr);

  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform),
                                   CL_CONTEXT_ADAPTER_D3D9EX_KHR, reinterpret_cast<cl_context_properties>(d9.Get()), 0};
  cl_int err = CL_SUCCESS;
  cl_context context = clvfCreateContext(props, 1, &device, nullptr, nullptr, &err);
  check(err, "clvfCreateContext");
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
  auto create = function<clCreateFromDX9MediaSurfaceKHR_fn>(platform, "clCreateFromDX9MediaSurfaceKHR");
  auto acquire = function<clEnqueueAcquireDX9MediaSurfacesKHR_fn>(platform, "clEnqueueAcquireDX9MediaSurfacesKHR");
  auto release = function<clEnqueueReleaseDX9MediaSurfacesKHR_fn>(platform, "clEnqueueReleaseDX9MediaSurfacesKHR");
  cl_dx9_surface_info_khr info = {surface.Get(), nullptr};

  // How many planes this device can share (NV12 chroma needs CL_RG).
  cl_mem probe = create(context, CL_MEM_READ_WRITE, CL_ADAPTER_D3D9EX_KHR, &info, 1, &err);
  const cl_uint planes = probe ? 2 : 1;
  if (probe) clReleaseMemObject(probe);
  const char* which = planes == 2 ? "Y+UV" : "Y only (no CL_RG)";

  auto import_planes = [&](cl_mem* mems) {
    for (cl_uint p = 0; p < planes; ++p) {
      mems[p] = create(context, CL_MEM_READ_WRITE, CL_ADAPTER_D3D9EX_KHR, &info, p, &err);
      check(err, "clCreateFromDX9MediaSurfaceKHR");
    }
  };
  auto round_trip = [&](cl_mem* mems) {
    check(acquire(queue, planes, mems, 0, nullptr, nullptr), "acquire");
    check(release(queue, planes, mems, 0, nullptr, nullptr), "release");
  };

  const Cost import_ms = cost_ms(frames, [&] {
    cl_mem mems[2];
    import_planes(mems);
    for (cl_uint p = 0; p < planes; ++p) clReleaseMemObject(mems[p]);
  });
  cl_mem cached[2];
  import_planes(cached);
  const Cost dx9_ms = cost_ms(frames, [&] { round_trip(cached); });
  clvf::detail::D3DIdle idle9;
  const Cost dx9_wait_ms = cost_ms(frames, [&] {
    idle9.wait(surface.Get(), false);
    round_trip(cached);
  });
  for (cl_uint p = 0; p < planes; ++p) clReleaseMemObject(cached[p]);

  // The same planes as D3D11 textures.
  ComPtr<ID3D11Device> d11;
  D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, nullptr, 0, D3D11_SDK_VERSION, &d11, nullptr, nullptr);
  Cost d3d11_ms = {-1, -1}, d3d11_wait_ms = {-1, -1};
  if (d11) {
    cl_context_properties p11[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform),
                                   CL_CONTEXT_D3D11_DEVICE_KHR, reinterpret_cast<cl_context_properties>(d11.Get()), 0};
    cl_context c11 = clvfCreateContext(p11, 1, &device, nullptr, nullptr, &err);
    check(err, "clvfCreateContext (D3D11)");
    cl_command_queue q11 = clCreateCommandQueue(c11, device, 0, &err);
    auto create2d = function<clCreateFromD3D11Texture2DKHR_fn>(platform, "clCreateFromD3D11Texture2DKHR");
    auto acq11 = function<clEnqueueAcquireD3D11ObjectsKHR_fn>(platform, "clEnqueueAcquireD3D11ObjectsKHR");
    auto rel11 = function<clEnqueueReleaseD3D11ObjectsKHR_fn>(platform, "clEnqueueReleaseD3D11ObjectsKHR");
    ComPtr<ID3D11Texture2D> textures[2];
    cl_mem mems[2];
    for (cl_uint p = 0; p < planes; ++p) {
      D3D11_TEXTURE2D_DESC desc = {};
      desc.Width = p ? kWidth / 2 : kWidth;
      desc.Height = p ? kHeight / 2 : kHeight;
      desc.MipLevels = desc.ArraySize = 1;
      desc.Format = p ? DXGI_FORMAT_R8G8_UNORM : DXGI_FORMAT_R8_UNORM;
      desc.SampleDesc = {1, 0};
      desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
      d11->CreateTexture2D(&desc, nullptr, &textures[p]);
      mems[p] = create2d(c11, CL_MEM_READ_WRITE, textures[p].Get(), 0, &err);
      check(err, "clCreateFromD3D11Texture2DKHR");
    }
    d3d11_ms = cost_ms(frames, [&] {
      check(acq11(q11, planes, mems, 0, nullptr, nullptr), "acquire (D3D11)");
      check(rel11(q11, planes, mems, 0, nullptr, nullptr), "release (D3D11)");
    });
    clvf::detail::D3DIdle idle;
    d3d11_wait_ms = cost_ms(frames, [&] {
      idle.wait(textures[0].Get(), true);
      check(acq11(q11, planes, mems, 0, nullptr, nullptr), "acquire (D3D11)");
      check(rel11(q11, planes, mems, 0, nullptr, nullptr), "release (D3D11)");
    });
    for (cl_uint p = 0; p < planes; ++p) clReleaseMemObject(mems[p]);
    clReleaseCommandQueue(q11);
    clReleaseContext(c11);
  }

  // Without interop: hwdownload (surface → system frame) + hwupload (→ cl buffers), and back.
  const size_t luma = size_t(kWidth) * kHeight, chroma = luma / 2;
  std::vector<unsigned char> frame(luma + chroma);
  cl_mem buffers[2] = {clCreateBuffer(context, CL_MEM_READ_WRITE, luma, nullptr, &err),
                       clCreateBuffer(context, CL_MEM_READ_WRITE, chroma, nullptr, &err)};
  auto surface_copy = [&](bool to_frame) {
    D3DLOCKED_RECT r;
    surface->LockRect(&r, nullptr, to_frame ? D3DLOCK_READONLY : 0);
    auto* bits = static_cast<unsigned char*>(r.pBits);
    for (UINT y = 0; y < kHeight * (planes == 2 ? 3 : 2) / 2; ++y) {
      if (to_frame) std::memcpy(&frame[y * kWidth], bits + y * r.Pitch, kWidth);
      else std::memcpy(bits + y * r.Pitch, &frame[y * kWidth], kWidth);
    }
    surface->UnlockRect();
  };
  const Cost copies_ms = cost_ms(frames, [&] {
    surface_copy(true);
    for (cl_uint p = 0; p < planes; ++p)
      check(clEnqueueWriteBuffer(queue, buffers[p], CL_TRUE, 0, p ? chroma : luma, &frame[p ? luma : 0], 0, nullptr,
                                 nullptr),
            "clEnqueueWriteBuffer");
    for (cl_uint p = 0; p < planes; ++p)
      check(clEnqueueReadBuffer(queue, buffers[p], CL_TRUE, 0, p ? chroma : luma, &frame[p ? luma : 0], 0, nullptr,
                                nullptr),
            "clEnqueueReadBuffer");
    surface_copy(false);
  });
  clReleaseMemObject(buffers[0]);
  clReleaseMemObject(buffers[1]);

  // clvf's own operation on the surfaces (C API, CLVF_STORAGE_DXVA2: in place on devices that share
  // host memory and lack CL_RG, else through the sharing functions), beside host frames.
  Cost scale_dxva2 = {-1, -1}, scale_host = {-1, -1};
  if (argc > 2 && std::strcmp(argv[2], "scale") == 0) {
    clvf_device *shared = nullptr, *plain = nullptr;
    clvf_device_open_d3d(wanted ? wanted : "", CLVF_D3D9EX, d9.Get(), &shared);
    clvf_device_open(wanted ? wanted : "", &plain);
    clvf_scale_params p;
    clvf_scale_params_default(&p);
    p.format = CLVF_PIX_NV12;
    p.src_width = kWidth, p.src_height = kHeight, p.dst_width = 1280, p.dst_height = 720;
    clvf_scale *on_host = nullptr, *on_surfaces = nullptr;
    if (plain && clvf_scale_create(plain, &p, &on_host) == CLVF_OK) {
      std::vector<unsigned char> in(size_t(kWidth) * kHeight * 3 / 2, 100), out(1280 * 720 * 3 / 2);
      clvf_frame s{}, d{};
      s.storage = d.storage = CLVF_STORAGE_HOST;
      s.planes[0] = {in.data(), nullptr, 0, kWidth};
      s.planes[1] = {in.data() + size_t(kWidth) * kHeight, nullptr, 0, kWidth};
      d.planes[0] = {out.data(), nullptr, 0, 1280};
      d.planes[1] = {out.data() + 1280 * 720, nullptr, 0, 1280};
      scale_host = cost_ms(frames, [&] { check(clvf_scale_process(on_host, &s, &d) == CLVF_OK ? 0 : -1, "scale (host)"); });
      clvf_scale_release(on_host);
    }
    p.src_storage = p.dst_storage = CLVF_STORAGE_DXVA2;
    ComPtr<IDirect3DSurface9> out_surface;
    d9->CreateOffscreenPlainSurface(1280, 720, kNV12, D3DPOOL_DEFAULT, &out_surface, nullptr);
    if (shared && clvf_scale_create(shared, &p, &on_surfaces) == CLVF_OK) {
      clvf_frame s{}, d{};
      s.storage = d.storage = CLVF_STORAGE_DXVA2;
      s.d3d_resource = surface.Get();
      d.d3d_resource = out_surface.Get();
      scale_dxva2 = cost_ms(frames, [&] { check(clvf_scale_process(on_surfaces, &s, &d) == CLVF_OK ? 0 : -1, "scale (DXVA2)"); });
      clvf_scale_release(on_surfaces);
    } else {
      std::fprintf(stderr, "interop_cost: scale on DXVA2 surfaces: %s\n", clvf_last_error());
    }
    clvf_device_release(shared);
    clvf_device_release(plain);
  }

  std::printf("interop_cost: %s, 1080p NV12 surface, %s, %d frames (ms per frame)\n", name.c_str(), which, frames);
  std::printf("| path | median | mean |\n| --- | --- | --- |\n");
  auto row = [](const char* what, Cost c) { std::printf("| %s | %.3f | %.3f |\n", what, c.median, c.mean); };
  row("DX9 surface: import per frame (create + release call)", import_ms);
  row("DX9 surface imported once: acquire + release", dx9_ms);
  row("the same after waiting for the D3D9 device (event query, as clvf's frames do)", dx9_wait_ms);
  if (d3d11_ms.median >= 0) row("D3D11 textures imported once: acquire + release", d3d11_ms);
  if (d3d11_wait_ms.median >= 0)
    row("the same after waiting for the D3D11 device (event query, as clvf's frames do)", d3d11_wait_ms);
  row("no interop: hwdownload + hwupload, and back", copies_ms);
  if (scale_dxva2.median >= 0) row("clvf_scale 1080p -> 720p, DXVA2 surfaces in and out (both planes)", scale_dxva2);
  if (scale_host.median >= 0) row("clvf_scale 1080p -> 720p, host frames (both planes)", scale_host);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return 0;
}
