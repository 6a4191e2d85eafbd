#include "interop/d3d11/staging.hpp"

#include "interop/com_status.hpp"
#include "interop/sharing/next.hpp"

namespace clvf::detail::interop {

namespace {

ComPtr<ID3D11DeviceContext> immediate_context(ID3D11DeviceChild* resource) {
  ComPtr<ID3D11Device> device;
  ComPtr<ID3D11DeviceContext> context;
  resource->GetDevice(&device);
  device->GetImmediateContext(&context);
  return context;
}

}  // namespace

StagedBuffer::StagedBuffer(ComPtr<ID3D11Buffer> buffer, ComPtr<ID3D11Buffer> staging, size_t size)
    : buffer_(std::move(buffer)), staging_(std::move(staging)), context_(immediate_context(buffer_.Get())), size_(size) {}

// Map waits for Direct3D's earlier work on the resource (A4).
cl_int StagedBuffer::to_cl(cl_command_queue queue, cl_mem mem) {
  ID3D11Buffer* mapped = staging_ ? staging_.Get() : buffer_.Get();
  if (staging_) context_->CopyResource(staging_.Get(), buffer_.Get());
  D3D11_MAPPED_SUBRESOURCE m;
  if (cl_int err = cl_code(context_->Map(mapped, 0, D3D11_MAP_READ, 0, &m)); err != CL_SUCCESS) return err;
  cl_int err = next_cl().clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, size_, m.pData, 0, nullptr, nullptr);
  context_->Unmap(mapped, 0);
  return err;
}

cl_int StagedBuffer::from_cl(cl_command_queue queue, cl_mem mem) {
  ID3D11Buffer* mapped = staging_ ? staging_.Get() : buffer_.Get();
  D3D11_MAPPED_SUBRESOURCE m;
  if (cl_int err = cl_code(context_->Map(mapped, 0, D3D11_MAP_WRITE, 0, &m)); err != CL_SUCCESS) return err;
  cl_int err = next_cl().clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, size_, m.pData, 0, nullptr, nullptr);
  context_->Unmap(mapped, 0);
  if (err == CL_SUCCESS && staging_) context_->CopyResource(buffer_.Get(), staging_.Get());
  return err;
}

StagedTexture::StagedTexture(ComPtr<ID3D11Resource> texture, ComPtr<ID3D11Resource> staging, TexturePart part)
    : texture_(std::move(texture)), staging_(std::move(staging)), context_(immediate_context(texture_.Get())), part_(part) {}

cl_int StagedTexture::to_cl(cl_command_queue queue, cl_mem mem) {
  context_->CopySubresourceRegion(staging_.Get(), 0, 0, 0, 0, texture_.Get(), part_.subresource, nullptr);
  D3D11_MAPPED_SUBRESOURCE m;
  if (cl_int err = cl_code(context_->Map(staging_.Get(), 0, D3D11_MAP_READ, 0, &m)); err != CL_SUCCESS) return err;
  const size_t origin[3] = {0, 0, 0}, region[3] = {part_.width, part_.height, part_.depth};
  const auto* plane = static_cast<const unsigned char*>(m.pData) + part_.first_row * m.RowPitch;
  cl_int err = next_cl().clEnqueueWriteImage(queue, mem, CL_TRUE, origin, region, m.RowPitch,
                                   part_.depth > 1 ? m.DepthPitch : 0, plane, 0, nullptr, nullptr);
  context_->Unmap(staging_.Get(), 0);
  return err;
}

// A planar staging copy is refreshed first: its other plane goes back to the texture too.
cl_int StagedTexture::from_cl(cl_command_queue queue, cl_mem mem) {
  if (part_.planar)
    context_->CopySubresourceRegion(staging_.Get(), 0, 0, 0, 0, texture_.Get(), part_.subresource, nullptr);
  D3D11_MAPPED_SUBRESOURCE m;
  if (cl_int err = cl_code(context_->Map(staging_.Get(), 0, part_.planar ? D3D11_MAP_READ_WRITE : D3D11_MAP_WRITE, 0, &m));
      err != CL_SUCCESS)
    return err;
  const size_t origin[3] = {0, 0, 0}, region[3] = {part_.width, part_.height, part_.depth};
  auto* plane = static_cast<unsigned char*>(m.pData) + part_.first_row * m.RowPitch;
  cl_int err = next_cl().clEnqueueReadImage(queue, mem, CL_TRUE, origin, region, m.RowPitch,
                                  part_.depth > 1 ? m.DepthPitch : 0, plane, 0, nullptr, nullptr);
  context_->Unmap(staging_.Get(), 0);
  if (err == CL_SUCCESS)
    context_->CopySubresourceRegion(texture_.Get(), part_.subresource, 0, 0, 0, staging_.Get(), 0, nullptr);
  return err;
}

}  // namespace clvf::detail::interop
