#include "interop/d3d_frames.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "clvf/cl_interop.h"
#include "runtime/error.hpp"
#include "runtime/ops/pixel_format.hpp"
#include "runtime/scratch.hpp"

#if defined(_WIN32)
#include "interop/d3d11/dxgi_formats.hpp"
#include "interop/dx9/d3d9_formats.hpp"

using clvf::detail::interop::d3d9_plane;
using clvf::detail::interop::SurfacePlane;
#endif

namespace clvf::detail {

namespace {

// Surfaces kept imported, and frames after which an unused one is released: a decoder's pool is
// smaller, and uses each of its surfaces within that many frames.
constexpr long kMaxImported = 64;

const char* storage_name(clvf_storage s) { return s == CLVF_STORAGE_D3D11 ? "D3D11" : "DXVA2"; }

// The shared planes of a frame: for D3D11 the subresources of `slice`, for DXVA2 the surface's
// planes (a YV12 surface's plane 1 is U: YUV420P's order). Empty when the format has no mapping.
[[maybe_unused]] std::vector<cl_uint> plane_parts(clvf_storage storage, clvf_pixel_format format, unsigned slice) {
  const bool planar = format == CLVF_PIX_NV12 || format == CLVF_PIX_P010;
  const bool packed = format == CLVF_PIX_RGBA || format == CLVF_PIX_BGRA;
  if (storage == CLVF_STORAGE_D3D11) {
    if (planar) return {2 * slice, 2 * slice + 1};
    if (packed) return {slice};
    return {};
  }
  if (planar) return {0, 1};
  if (format == CLVF_PIX_YUV420P) return {0, 1, 2};
  if (packed) return {0};
  return {};
}

}  // namespace

#if defined(_WIN32)

namespace {

D3DFORMAT d3d9_format(clvf_pixel_format format) {
  switch (format) {
    case CLVF_PIX_NV12: return static_cast<D3DFORMAT>(MAKEFOURCC('N', 'V', '1', '2'));
    case CLVF_PIX_P010: return static_cast<D3DFORMAT>(MAKEFOURCC('P', '0', '1', '0'));
    case CLVF_PIX_YUV420P: return static_cast<D3DFORMAT>(MAKEFOURCC('Y', 'V', '1', '2'));
    case CLVF_PIX_RGBA: return D3DFMT_A8B8G8R8;
    default: return D3DFMT_A8R8G8B8;
  }
}

}  // namespace

D3DFrames::D3DFrames(std::shared_ptr<Device> device, clvf_storage storage, clvf_pixel_format format,
                     const char* which, bool output)
    : device_(std::move(device)), storage_(storage), format_(format), which_(which), output_(output) {
  const bool d3d11 = storage == CLVF_STORAGE_D3D11;
  const int kind = device_->d3d_kind();
  if (kind == 0 || d3d11 != (kind == CLVF_D3D11))
    throw Error(CLVF_ERROR_INVALID_ARGUMENT,
                fmt::format("{} frames of storage {} need a device opened with clvf_device_open_d3d({})", which,
                            storage_name(storage), d3d11 ? "CLVF_D3D11" : "CLVF_DXVA2 or CLVF_D3D9EX"));
  if (plane_parts(storage, format, 0).empty())
    throw Error(CLVF_ERROR_UNSUPPORTED,
                fmt::format("{} frames: {} storage takes {}", which, storage_name(storage),
                            d3d11 ? "nv12, p010, rgba and bgra" : "nv12, p010, yuv420p (YV12 surfaces), rgba and bgra"));
  const PixelFormat& layout = *find_pixel_format(format);  // plane_parts accepted it
  for (const PlaneLayout& plane : layout.planes)
    if (!device_->supports_image_format(plane.image_order, layout.image_type)) buffers_ = true;
  if (buffers_ && d3d11)
    throw Error(CLVF_ERROR_UNSUPPORTED, fmt::format("{} frames: {} has no image format for every plane of these "
                                                    "D3D11 frames (NV12 needs CL_RG)",
                                                    which, device_->name()));
  if (buffers_) return;  // no sharing functions: LockRect and copies
  const cl_platform_id platform = device_->device().getInfo<CL_DEVICE_PLATFORM>();
  auto function = [&](const char* name) {
    void* f = clvfGetExtensionFunctionAddressForPlatform(platform, name);
    if (!f) throw Error(CLVF_ERROR_UNSUPPORTED, fmt::format("{}: the platform offers no {}", which, name));
    return f;
  };
  create_ = function(d3d11 ? "clCreateFromD3D11Texture2DKHR" : "clCreateFromDX9MediaSurfaceKHR");
  acquire_ = function(d3d11 ? "clEnqueueAcquireD3D11ObjectsKHR" : "clEnqueueAcquireDX9MediaSurfacesKHR");
  release_ = function(d3d11 ? "clEnqueueReleaseD3D11ObjectsKHR" : "clEnqueueReleaseDX9MediaSurfacesKHR");
}

D3DFrames::~D3DFrames() {
  try {
    release();
  } catch (...) {
  }
  for (auto& [key, entry] : imported_)
    for (cl_mem m : entry.planes) clReleaseMemObject(m);
}

D3DFrames::Imported& D3DFrames::import(const clvf_frame& frame) {
  const std::pair<void*, unsigned> key{frame.d3d_resource, storage_ == CLVF_STORAGE_D3D11 ? frame.d3d_subresource : 0};
  const long now = ++acquires_;
  // Surfaces of a pool the decoder has let go (or the least recently used, when full) are
  // released, and with them clvf's references to their Direct3D resources.
  for (auto it = imported_.begin(); it != imported_.end();) {
    if (it->first != key && now - it->second.last_used > kMaxImported) {
      for (cl_mem m : it->second.planes) clReleaseMemObject(m);
      it = imported_.erase(it);
    } else {
      ++it;
    }
  }
  if (auto it = imported_.find(key); it != imported_.end()) {
    it->second.last_used = now;
    return it->second;
  }
  if (imported_.size() >= static_cast<size_t>(kMaxImported)) {
    auto oldest = std::min_element(imported_.begin(), imported_.end(), [](const auto& a, const auto& b) {
      return a.second.last_used < b.second.last_used;
    });
    for (cl_mem m : oldest->second.planes) clReleaseMemObject(m);
    imported_.erase(oldest);
  }
  std::vector<cl_mem> planes;
  Imported entry;
  entry.last_used = now;
  size_t failed = 0;  // the plane a create failed on
  const bool d3d11 = storage_ == CLVF_STORAGE_D3D11;
  const bool copy_first = d3d11 && !output_ && device_->settings().d3d11_copy_inputs;
  cl_int err = copy_first ? CL_INVALID_D3D11_RESOURCE_KHR : create_planes(frame.d3d_resource, key.second, planes, failed);
  bool unshared = false;
  if (d3d11) {
    auto* texture = static_cast<ID3D11Texture2D*>(frame.d3d_resource);
    D3D11_TEXTURE2D_DESC desc;
    texture->GetDesc(&desc);
    unshared = !(desc.MiscFlags & D3D11_RESOURCE_MISC_SHARED);
    // An input the driver refuses for want of the flag (Intel's does, and FFmpeg's decoder pools
    // lack it): its slice is copied on the GPU, each frame, into a shareable texture of clvf's.
    if (!output_ && (copy_first || (err == CL_INVALID_D3D11_RESOURCE_KHR && unshared && key.second < desc.ArraySize))) {
      D3D11_TEXTURE2D_DESC own = desc;
      own.MipLevels = own.ArraySize = 1;
      own.Usage = D3D11_USAGE_DEFAULT;
      own.CPUAccessFlags = 0;
      own.MiscFlags = D3D11_RESOURCE_MISC_SHARED;
      Microsoft::WRL::ComPtr<ID3D11Device> device;
      texture->GetDevice(&device);
      // A decoder's texture binds only to the decoder; the copy binds as the source did where it
      // could, else as a shader resource, else as a render target (what the hardware allows).
      const UINT kept = desc.BindFlags & (D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET);
      for (UINT bind : {kept, UINT(D3D11_BIND_SHADER_RESOURCE), UINT(D3D11_BIND_RENDER_TARGET)}) {
        own.BindFlags = bind;
        if (bind && SUCCEEDED(device->CreateTexture2D(&own, nullptr, &entry.copy))) break;
      }
      if (!entry.copy)
        throw Error(CLVF_ERROR_UNSUPPORTED,
                    fmt::format("{} D3D11 frame: {} a shareable texture of its size and format to copy it into "
                                "could not be made",
                                which_, copy_first ? "CLVF_D3D11_COPY=1 asks for a copy, and"
                                                   : "the driver does not share the texture (it lacks "
                                                     "D3D11_RESOURCE_MISC_SHARED), and"));
      err = create_planes(entry.copy.Get(), 0, planes, failed);
      unshared = false;  // the copy had the flag: the hint below would mislead
    }
  }
  // A format the driver does not share (NVIDIA's sharing has no planar formats): staged.
  if (d3d11 && err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) {
    entry.copy.Reset();
    err = stage_planes(static_cast<ID3D11Texture2D*>(frame.d3d_resource), key.second, planes, entry.staged, failed);
    if (err != CL_SUCCESS)
      throw Error(err == CL_OUT_OF_HOST_MEMORY ? CLVF_ERROR_OUT_OF_MEMORY : CLVF_ERROR_OPENCL,
                  fmt::format("{} D3D11 frame, plane {}: the driver does not share the texture's format, and staging "
                              "it through host memory failed: {}",
                              which_, failed, cl_error_message("clCreateImage or CreateTexture2D", err)));
  }
  if (err != CL_SUCCESS) {
    throw Error(err == CL_OUT_OF_HOST_MEMORY ? CLVF_ERROR_OUT_OF_MEMORY : CLVF_ERROR_INVALID_ARGUMENT,
                fmt::format("{} {} frame, plane {}: {}{}", which_, storage_name(storage_), failed,
                            cl_error_message(d3d11 ? "clCreateFromD3D11Texture2DKHR" : "clCreateFromDX9MediaSurfaceKHR",
                                             err),
                            unshared ? "; the texture was made without D3D11_RESOURCE_MISC_SHARED, which some "
                                       "drivers (Intel's) need to share it: make the decoder's pool with that flag"
                                     : ""));
  }
  entry.planes = std::move(planes);
  return imported_[key] = std::move(entry);
}

// Slice `slice` of `texture` as images of clvf's (one per plane) with what moves each through one
// staging texture; all or none: otherwise the error, and in `failed` the plane.
cl_int D3DFrames::stage_planes(ID3D11Texture2D* texture, unsigned slice, std::vector<cl_mem>& planes,
                               std::vector<std::unique_ptr<interop::StagedTexture>>& staged, size_t& failed) {
  D3D11_TEXTURE2D_DESC desc;
  texture->GetDesc(&desc);
  interop::PlaneFormat formats[2];
  const unsigned count = interop::dxgi_planes(desc.Format, formats);
  failed = 0;
  if (count == 0 || slice >= desc.ArraySize) return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
  D3D11_TEXTURE2D_DESC s = desc;
  s.MipLevels = s.ArraySize = 1;
  s.SampleDesc = {1, 0};
  s.Usage = D3D11_USAGE_STAGING;
  s.BindFlags = s.MiscFlags = 0;
  s.CPUAccessFlags = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE;
  Microsoft::WRL::ComPtr<ID3D11Device> device;
  Microsoft::WRL::ComPtr<ID3D11Texture2D> staging;
  texture->GetDevice(&device);
  if (FAILED(device->CreateTexture2D(&s, nullptr, &staging))) return CL_OUT_OF_RESOURCES;
  for (unsigned p = 0; p < count; ++p) {
    cl_image_desc image = {};
    image.image_type = CL_MEM_OBJECT_IMAGE2D;
    image.image_width = desc.Width / formats[p].subsampling;
    image.image_height = desc.Height / formats[p].subsampling;
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateImage(device_->context()(), CL_MEM_READ_WRITE, &formats[p].format, &image, nullptr, &err);
    if (mem == nullptr) {
      failed = p;
      for (cl_mem m : planes) clReleaseMemObject(m);
      planes.clear();
      staged.clear();
      return err == CL_SUCCESS ? CL_OUT_OF_RESOURCES : err;
    }
    planes.push_back(mem);
    const interop::TexturePart part = {D3D11CalcSubresource(0, slice, desc.MipLevels), image.image_width,
                                       image.image_height, 1, p ? desc.Height : 0, count == 2};
    staged.push_back(std::make_unique<interop::StagedTexture>(texture, staging, part));
  }
  return CL_SUCCESS;
}

// The planes of `resource` (slice `slice` of a D3D11 texture), all or none: otherwise the error,
// and in `failed` the plane it came from.
cl_int D3DFrames::create_planes(void* resource, unsigned slice, std::vector<cl_mem>& planes, size_t& failed) {
  const cl_context context = device_->context()();
  for (cl_uint part : plane_parts(storage_, format_, slice)) {
    cl_int err = CL_SUCCESS;
    cl_mem mem = nullptr;
    if (storage_ == CLVF_STORAGE_D3D11) {
      // One object per subresource may exist: read-write whichever way the frame goes.
      mem = reinterpret_cast<clCreateFromD3D11Texture2DKHR_fn>(create_)(
          context, CL_MEM_READ_WRITE, static_cast<ID3D11Texture2D*>(resource), part, &err);
    } else {
      cl_dx9_surface_info_khr info = {static_cast<IDirect3DSurface9*>(resource), nullptr};
      const cl_dx9_media_adapter_type_khr adapter =
          device_->d3d_kind() == CLVF_DXVA2 ? CL_ADAPTER_DXVA_KHR : CL_ADAPTER_D3D9EX_KHR;
      mem = reinterpret_cast<clCreateFromDX9MediaSurfaceKHR_fn>(create_)(
          context, output_ ? CL_MEM_WRITE_ONLY : CL_MEM_READ_ONLY, adapter, &info, part, &err);
    }
    if (mem == nullptr) {
      failed = planes.size();
      for (cl_mem m : planes) clReleaseMemObject(m);
      planes.clear();
      return err == CL_SUCCESS ? CL_INVALID_VALUE : err;
    }
    planes.push_back(mem);
  }
  return CL_SUCCESS;
}

clvf_frame D3DFrames::acquire(const clvf_frame& frame) {
  if (frame.storage != storage_ || frame.d3d_resource == nullptr)
    throw Error(CLVF_ERROR_INVALID_ARGUMENT,
                fmt::format("{} frame: storage {} with a d3d_resource expected", which_, storage_name(storage_)));
  release();
  if (buffers_) return copy_in(frame);
  if (storage_ == CLVF_STORAGE_D3D11) take_keyed_mutex(frame.d3d_resource);
  const Imported& entry = import(frame);
  const std::vector<cl_mem>& planes = entry.planes;
  const cl_command_queue queue = device_->queue()();
  using Clock = std::chrono::steady_clock;
  const Clock::time_point t0 = Clock::now();
  clvf_frame out{};
  out.storage = CLVF_STORAGE_CL_IMAGE;
  for (size_t i = 0; i < planes.size(); ++i) out.planes[i].mem = planes[i];
  if (!entry.staged.empty()) {  // Map waits for Direct3D's work on the texture
    for (size_t i = 0; i < planes.size(); ++i) {
      if (output_) {
        staged_out_.emplace_back(entry.staged[i].get(), planes[i]);
        continue;
      }
      if (cl_int err = entry.staged[i]->to_cl(queue, planes[i]); err != CL_SUCCESS)
        throw cl::Error(err, "staging a D3D11 frame through host memory (Map, clEnqueueWriteImage)");
    }
    ++frames_, ++staged_frames_;
    wait_ms_ += std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    return out;
  }
  if (entry.copy) {
    auto* texture = static_cast<ID3D11Texture2D*>(frame.d3d_resource);
    D3D11_TEXTURE2D_DESC desc;
    texture->GetDesc(&desc);
    Microsoft::WRL::ComPtr<ID3D11Device> device;
    Microsoft::WRL::ComPtr<ID3D11DeviceContext> context;
    texture->GetDevice(&device);
    device->GetImmediateContext(&context);
    context->CopySubresourceRegion(entry.copy.Get(), 0, 0, 0, 0, texture,
                                   D3D11CalcSubresource(0, frame.d3d_subresource, desc.MipLevels), nullptr);
    ++copied_frames_;
  }
  idle_.wait(frame.d3d_resource, storage_ == CLVF_STORAGE_D3D11);
  const Clock::time_point t1 = Clock::now();
  const cl_int err = reinterpret_cast<clEnqueueAcquireD3D11ObjectsKHR_fn>(acquire_)(
      queue, cl_uint(planes.size()), const_cast<cl_mem*>(planes.data()), 0, nullptr, nullptr);
  const Clock::time_point t2 = Clock::now();
  ++frames_;
  wait_ms_ += std::chrono::duration<double, std::milli>(t1 - t0).count();
  acquire_ms_ += std::chrono::duration<double, std::milli>(t2 - t1).count();
  if (err != CL_SUCCESS)
    throw cl::Error(err, storage_ == CLVF_STORAGE_D3D11 ? "clEnqueueAcquireD3D11ObjectsKHR"
                                                        : "clEnqueueAcquireDX9MediaSurfacesKHR");
  acquired_ = planes;
  return out;
}

// A texture made with D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX may be used only while its keyed mutex
// is held (Direct3D drops work on it otherwise), and its producer hands it over by releasing the
// mutex: clvf takes it with key 0 before the frame's copy, wait and acquire, and releases it with
// key 0 after the frame's release.
void D3DFrames::take_keyed_mutex(void* resource) {
  constexpr DWORD kTimeoutMs = 5000;
  Microsoft::WRL::ComPtr<IDXGIKeyedMutex> mutex;
  if (FAILED(static_cast<IUnknown*>(resource)->QueryInterface(IID_PPV_ARGS(&mutex)))) return;
  const HRESULT hr = mutex->AcquireSync(0, kTimeoutMs);
  if (hr != S_OK)
    throw Error(CLVF_ERROR_INVALID_ARGUMENT,
                fmt::format("{} D3D11 frame: its keyed mutex was not released with key 0 within {} ms "
                            "(IDXGIKeyedMutex::AcquireSync: {:#x}); clvf takes frames with key 0",
                            which_, kTimeoutMs, static_cast<unsigned long>(hr)));
  keyed_ = std::move(mutex);
}

void D3DFrames::release() {
  if (buffers_) return copy_out();
  struct GiveBack {  // the keyed mutex, after everything below (also when it throws)
    Microsoft::WRL::ComPtr<IDXGIKeyedMutex> mutex;
    ~GiveBack() {
      if (mutex) mutex->ReleaseSync(0);
    }
  } give_back{std::move(keyed_)};
  if (!staged_out_.empty()) {  // after the operation's work: the reads are blocking, on its queue
    std::vector<std::pair<interop::StagedTexture*, cl_mem>> staged = std::move(staged_out_);
    staged_out_.clear();
    for (auto& [mover, mem] : staged)
      if (cl_int err = mover->from_cl(device_->queue()(), mem); err != CL_SUCCESS)
        throw cl::Error(err, "staging a D3D11 frame through host memory (clEnqueueReadImage, Unmap)");
  }
  if (acquired_.empty()) return;
  std::vector<cl_mem> planes = std::move(acquired_);
  acquired_.clear();
  const cl_int err = reinterpret_cast<clEnqueueReleaseD3D11ObjectsKHR_fn>(release_)(
      device_->queue()(), cl_uint(planes.size()), planes.data(), 0, nullptr, nullptr);
  if (err != CL_SUCCESS)
    throw cl::Error(err, storage_ == CLVF_STORAGE_D3D11 ? "clEnqueueReleaseD3D11ObjectsKHR"
                                                        : "clEnqueueReleaseDX9MediaSurfacesKHR");
}


std::string D3DFrames::profile_report() const {
  if (!device_->profiling() || frames_ == 0) return {};
  const double n = static_cast<double>(frames_);
  return fmt::format("{} {:<18} {:5} frames  mean {:8.4f} ms waiting for Direct3D (copies into shareable textures "
                     "included: {} frames; staged through host memory, the driver sharing no such textures: {} "
                     "frames), {:8.4f} ms in the acquire call\n",
                     storage_name(storage_), which_, frames_, wait_ms_ / n, copied_frames_, staged_frames_,
                     acquire_ms_ / n);
}

// Buffers mode. Where the device shares host memory, the locked surface's planes are wrapped
// (CL_MEM_USE_HOST_PTR) and used in place, the surface staying locked until release; elsewhere each
// plane is copied between the locked surface and a buffer of packed rows made once.
clvf_frame D3DFrames::copy_in(const clvf_frame& frame) {
  auto* surface = static_cast<IDirect3DSurface9*>(frame.d3d_resource);
  D3DSURFACE_DESC desc;
  if (FAILED(surface->GetDesc(&desc)) || desc.Format != d3d9_format(format_))
    throw Error(CLVF_ERROR_INVALID_ARGUMENT,
                fmt::format("{} DXVA2 frame: the surface's format is not the operation's", which_));
  const bool in_place = device_->zero_copy_host();
  D3DLOCKED_RECT rect;
  if (FAILED(surface->LockRect(&rect, nullptr, output_ && in_place ? 0 : D3DLOCK_READONLY)))
    throw Error(CLVF_ERROR_OPENCL, fmt::format("{} DXVA2 frame: LockRect failed", which_));
  const PixelFormat& layout = *find_pixel_format(format_);
  const size_t count = layout.planes.size();
  clvf_frame out{};
  out.storage = CLVF_STORAGE_CL_BUFFER;
  plane_bytes_.resize(count);
  try {
    for (size_t i = 0; i < count; ++i) {
      SurfacePlane p;
      d3d9_plane(desc.Format, desc.Width, desc.Height, size_t(rect.Pitch), unsigned(i), &p);
      const size_t row = p.width * size_t(layout.planes[i].channels * layout.bytes);
      auto* bits = static_cast<unsigned char*>(rect.pBits) + p.offset;
      if (in_place) {
        const cl_mem_flags access = output_ ? CL_MEM_WRITE_ONLY : CL_MEM_READ_ONLY;
        wrapped_.emplace_back(device_->context(), access | CL_MEM_USE_HOST_PTR, p.pitch * (p.height - 1) + row, bits);
        out.planes[i].mem = wrapped_.back()();
        out.planes[i].pitch = p.pitch;
        continue;
      }
      if (plane_buffers_.size() <= i) plane_buffers_.emplace_back();
      if (plane_bytes_[i] != row || plane_buffers_[i].getInfo<CL_MEM_SIZE>() != row * p.height)
        plane_buffers_[i] = scratch_buffer(*device_, CL_MEM_READ_WRITE, row * p.height);
      plane_bytes_[i] = row;
      if (!output_) {
        const cl::array<size_t, 3> origin = {0, 0, 0}, region = {row, p.height, 1};
        device_->queue().enqueueWriteBufferRect(plane_buffers_[i], CL_TRUE, origin, origin, region, row, 0, p.pitch,
                                                0, bits);
      }
      out.planes[i].mem = plane_buffers_[i]();
      out.planes[i].pitch = row;
    }
  } catch (...) {
    wrapped_.clear();
    surface->UnlockRect();
    throw;
  }
  if (in_place) {
    locked_ = surface;  // until release
  } else {
    surface->UnlockRect();
    if (output_) copied_ = surface;
  }
  return out;
}

void D3DFrames::copy_out() {
  if (locked_) {  // in place: the kernels' work must be done (and visible) before the unlock
    auto* surface = static_cast<IDirect3DSurface9*>(locked_);
    locked_ = nullptr;
    std::vector<cl::Buffer> wrapped = std::move(wrapped_);
    wrapped_.clear();
    struct Unlock {
      IDirect3DSurface9* s;
      ~Unlock() { s->UnlockRect(); }
    } unlock{surface};
    if (output_)
      for (cl::Buffer& b : wrapped) {
        void* p = device_->queue().enqueueMapBuffer(b, CL_TRUE, CL_MAP_READ, 0, b.getInfo<CL_MEM_SIZE>());
        device_->queue().enqueueUnmapMemObject(b, p);
      }
    device_->queue().finish();
    return;
  }
  if (!copied_) return;
  auto* surface = static_cast<IDirect3DSurface9*>(copied_);
  copied_ = nullptr;
  D3DSURFACE_DESC desc;
  surface->GetDesc(&desc);
  D3DLOCKED_RECT rect;
  if (FAILED(surface->LockRect(&rect, nullptr, 0)))
    throw Error(CLVF_ERROR_OPENCL, fmt::format("{} DXVA2 frame: LockRect failed", which_));
  struct Unlock {
    IDirect3DSurface9* s;
    ~Unlock() { s->UnlockRect(); }
  } unlock{surface};
  for (size_t i = 0; i < plane_bytes_.size(); ++i) {
    SurfacePlane p;
    d3d9_plane(desc.Format, desc.Width, desc.Height, size_t(rect.Pitch), unsigned(i), &p);
    const cl::array<size_t, 3> origin = {0, 0, 0}, region = {plane_bytes_[i], p.height, 1};
    device_->queue().enqueueReadBufferRect(plane_buffers_[i], CL_TRUE, origin, origin, region, plane_bytes_[i], 0,
                                           p.pitch, 0, static_cast<unsigned char*>(rect.pBits) + p.offset);
  }
}

#else

D3DFrames::D3DFrames(std::shared_ptr<Device>, clvf_storage storage, clvf_pixel_format, const char* which, bool)
    : storage_(storage), which_(which) {
  throw Error(CLVF_ERROR_UNSUPPORTED,
              fmt::format("{} frames of storage {} need Windows (Direct3D)", which, storage_name(storage)));
}
D3DFrames::~D3DFrames() = default;
std::string D3DFrames::profile_report() const { return {}; }
clvf_frame D3DFrames::acquire(const clvf_frame& frame) { return frame; }
void D3DFrames::release() {}
clvf_frame D3DFrames::copy_in(const clvf_frame& frame) { return frame; }
void D3DFrames::copy_out() {}

#endif

}  // namespace clvf::detail
