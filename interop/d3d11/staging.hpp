// The emulated D3D11 objects' data moves: through a staging copy of the resource, made once
// when the OpenCL object is created (Windows only).
#pragma once
#include <d3d11.h>
#include <wrl/client.h>

#include "interop/sharing/registry.hpp"

namespace clvf::detail::interop {

using Microsoft::WRL::ComPtr;

// A D3D11 buffer as an OpenCL buffer of the same size. A staging buffer is mapped directly.
class StagedBuffer : public SharedResource {
 public:
  // `staging` is null when `buffer` is itself a staging buffer.
  StagedBuffer(ComPtr<ID3D11Buffer> buffer, ComPtr<ID3D11Buffer> staging, size_t size);
  cl_int to_cl(cl_command_queue queue, cl_mem mem) override;
  cl_int from_cl(cl_command_queue queue, cl_mem mem) override;

 private:
  ComPtr<ID3D11Buffer> buffer_, staging_;
  ComPtr<ID3D11DeviceContext> context_;
  size_t size_;
};

// One subresource of a 2D or 3D texture (for planar formats, one plane of it) as an image.
struct TexturePart {
  UINT subresource;           // D3D11's index: mip + slice * mip levels
  size_t width, height, depth;
  size_t first_row;           // rows before the plane in a mapped planar subresource (luma height)
  bool planar;                // the staging copy holds other planes too: refresh it before writing
};

class StagedTexture : public SharedResource {
 public:
  StagedTexture(ComPtr<ID3D11Resource> texture, ComPtr<ID3D11Resource> staging, TexturePart part);
  cl_int to_cl(cl_command_queue queue, cl_mem mem) override;
  cl_int from_cl(cl_command_queue queue, cl_mem mem) override;

 private:
  ComPtr<ID3D11Resource> texture_, staging_;
  ComPtr<ID3D11DeviceContext> context_;
  TexturePart part_;
};

}  // namespace clvf::detail::interop
