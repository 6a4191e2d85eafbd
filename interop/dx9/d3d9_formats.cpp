#include "interop/dx9/d3d9_formats.hpp"

namespace clvf::detail::interop {

namespace {

constexpr D3DFORMAT kNV12 = static_cast<D3DFORMAT>(MAKEFOURCC('N', 'V', '1', '2'));
constexpr D3DFORMAT kYV12 = static_cast<D3DFORMAT>(MAKEFOURCC('Y', 'V', '1', '2'));
constexpr D3DFORMAT kP010 = static_cast<D3DFORMAT>(MAKEFOURCC('P', '0', '1', '0'));
constexpr D3DFORMAT kP016 = static_cast<D3DFORMAT>(MAKEFOURCC('P', '0', '1', '6'));

struct Entry {
  D3DFORMAT d3d;
  cl_channel_order order;
  cl_channel_type type;
};

constexpr Entry kSingle[] = {
    {D3DFMT_R32F, CL_R, CL_FLOAT},
    {D3DFMT_R16F, CL_R, CL_HALF_FLOAT},
    {D3DFMT_L16, CL_R, CL_UNORM_INT16},
    {D3DFMT_A8, CL_A, CL_UNORM_INT8},
    {D3DFMT_L8, CL_R, CL_UNORM_INT8},
    {D3DFMT_G32R32F, CL_RG, CL_FLOAT},
    {D3DFMT_G16R16F, CL_RG, CL_HALF_FLOAT},
    {D3DFMT_G16R16, CL_RG, CL_UNORM_INT16},
    {D3DFMT_A8L8, CL_RG, CL_UNORM_INT8},
    {D3DFMT_A32B32G32R32F, CL_RGBA, CL_FLOAT},
    {D3DFMT_A16B16G16R16F, CL_RGBA, CL_HALF_FLOAT},
    {D3DFMT_A16B16G16R16, CL_RGBA, CL_UNORM_INT16},
    {D3DFMT_A8B8G8R8, CL_RGBA, CL_UNORM_INT8},
    {D3DFMT_X8B8G8R8, CL_RGBA, CL_UNORM_INT8},
    {D3DFMT_A8R8G8B8, CL_BGRA, CL_UNORM_INT8},
    {D3DFMT_X8R8G8B8, CL_BGRA, CL_UNORM_INT8},
};

}  // namespace

unsigned d3d9_plane(D3DFORMAT format, UINT width, UINT height, size_t pitch, unsigned plane, SurfacePlane* out) {
  const cl_image_format r8 = {CL_R, CL_UNORM_INT8}, rg8 = {CL_RG, CL_UNORM_INT8};
  if (format == kNV12) {
    if (plane == 0) *out = {r8, width, height, 0, pitch};
    if (plane == 1) *out = {rg8, width / 2, height / 2, pitch * height, pitch};
    return 2;
  }
  if (format == kP010 || format == kP016) {  // NV12's layout with 16-bit samples (P010: the top 10 bits)
    const cl_image_format r16 = {CL_R, CL_UNORM_INT16}, rg16 = {CL_RG, CL_UNORM_INT16};
    if (plane == 0) *out = {r16, width, height, 0, pitch};
    if (plane == 1) *out = {rg16, width / 2, height / 2, pitch * height, pitch};
    return 2;
  }
  if (format == kYV12) {
    const size_t chroma = (pitch / 2) * (height / 2);
    if (plane == 0) *out = {r8, width, height, 0, pitch};
    if (plane == 1) *out = {r8, width / 2, height / 2, pitch * height + chroma, pitch / 2};  // U, after V
    if (plane == 2) *out = {r8, width / 2, height / 2, pitch * height, pitch / 2};          // V
    return 3;
  }
  for (const Entry& e : kSingle)
    if (e.d3d == format) {
      if (plane == 0) *out = {{e.order, e.type}, width, height, 0, pitch};
      return 1;
    }
  return 0;
}

}  // namespace clvf::detail::interop
