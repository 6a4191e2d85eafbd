// Frames of an operation whose storage is CLVF_STORAGE_D3D11 or CLVF_STORAGE_DXVA2. Their planes
// become images through the sharing functions (include/clvf/cl_interop.h: the platform's own, or
// clvf's emulation): imported the first time a surface is seen and kept (a decoder's pool reuses
// its surfaces) until a pool's worth of frames (kMaxImported) has gone by without them (the
// decoder made a new pool: the old one's memory is given back), acquired for each frame, released
// after it. The operation sees CL_IMAGE storage.
// Before each acquire, the frame's Direct3D device is waited for (interop/d3d_idle.hpp), and a
// texture with a keyed mutex is taken with key 0 (given back with key 0 at release).
// A D3D11 texture whose format the driver does not share (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR:
// NVIDIA's cl_nv_d3d11_sharing has no planar formats, so no NV12 or P010) is staged instead: its
// planes are images of clvf's, filled from the texture through a staging copy in host memory at
// each acquire (outputs: written back at release).
// A device without the planes' image formats (Debian's PoCL has no CL_RG for NV12's chroma) gets
// DXVA2 frames through buffers instead, and the operation sees CL_BUFFER storage: where the device
// shares host memory, the locked surface itself (no copy); elsewhere one copy each way per plane
// into buffers made once.
#pragma once
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "clvf/clvf.h"
#include "interop/shared_frames.hpp"
#if defined(_WIN32)
#include "interop/d3d11/staging.hpp"
#include "interop/d3d_idle.hpp"
#endif
#include "runtime/device.hpp"

namespace clvf::detail {

class D3DFrames : public SharedFrames {
 public:
  static bool is_d3d(clvf_storage storage) {
    return storage == CLVF_STORAGE_D3D11 || storage == CLVF_STORAGE_DXVA2;
  }
  // `which` names the frames in messages; outputs are written by the operation (copied back to
  // Direct3D at release), inputs only read.
  D3DFrames(std::shared_ptr<Device> device, clvf_storage storage, clvf_pixel_format format, const char* which,
            bool output);
  ~D3DFrames() override;
  D3DFrames(const D3DFrames&) = delete;
  D3DFrames& operator=(const D3DFrames&) = delete;

  // CL_IMAGE, or CL_BUFFER where the device lacks the image formats (see above).
  clvf_storage inner_storage() const override { return buffers_ ? CLVF_STORAGE_CL_BUFFER : CLVF_STORAGE_CL_IMAGE; }
  // The frame of inner_storage() for `frame`: its planes acquired (or copied in) on the device's
  // queue.
  clvf_frame acquire(const clvf_frame& frame) override;
  // Releases what acquire took (buffers: copies outputs back), after the work already on the
  // device's queue.
  void release() override;
  // With the device's profiling: the mean wait for Direct3D and the acquire call per frame.
  std::string profile_report() const override;

 private:
  clvf_frame copy_in(const clvf_frame& frame);
  void copy_out();

  std::shared_ptr<Device> device_;
  clvf_storage storage_;
  clvf_pixel_format format_;
  const char* which_;
  bool output_;
  struct Imported {
    std::vector<cl_mem> planes;
    long last_used;  // the frame (count of acquires) that used it last
#if defined(_WIN32)
    // A D3D11 input the driver would not share (made without D3D11_RESOURCE_MISC_SHARED): the
    // planes are those of this shareable texture, into which the frame is copied on the GPU.
    Microsoft::WRL::ComPtr<ID3D11Texture2D> copy;
    // A texture the driver does not share: per plane, what moves it between the texture and the
    // image in `planes` (through host memory).
    std::vector<std::unique_ptr<interop::StagedTexture>> staged;
#endif
  };
  Imported& import(const clvf_frame& frame);
  cl_int create_planes(void* resource, unsigned slice, std::vector<cl_mem>& planes, size_t& failed);
#if defined(_WIN32)
  cl_int stage_planes(ID3D11Texture2D* texture, unsigned slice, std::vector<cl_mem>& planes,
                      std::vector<std::unique_ptr<interop::StagedTexture>>& staged, size_t& failed);
  std::vector<std::pair<interop::StagedTexture*, cl_mem>> staged_out_;  // staged output planes to write back
  void take_keyed_mutex(void* resource);
  Microsoft::WRL::ComPtr<IDXGIKeyedMutex> keyed_;  // the frame's, held from acquire to release
#endif
  std::map<std::pair<void*, unsigned>, Imported> imported_;  // by (resource, slice)
  long acquires_ = 0;
  std::vector<cl_mem> acquired_;
  bool buffers_ = false;                 // DXVA2 through buffers
  std::vector<cl::Buffer> plane_buffers_;  // buffers mode: one per plane, made at the first frame
  std::vector<size_t> plane_bytes_;        // their bytes per row
  void* copied_ = nullptr;                 // buffers mode: the output surface of the frame in flight
  void* locked_ = nullptr;                 // in place: the surface locked until release
  std::vector<cl::Buffer> wrapped_;        // in place: its planes
#if defined(_WIN32)
  D3DIdle idle_;  // before each acquire through the sharing functions
#endif
  long frames_ = 0, copied_frames_ = 0, staged_frames_ = 0;
  double wait_ms_ = 0, acquire_ms_ = 0;
  void* create_ = nullptr;
  void* acquire_ = nullptr;
  void* release_ = nullptr;
};

}  // namespace clvf::detail
