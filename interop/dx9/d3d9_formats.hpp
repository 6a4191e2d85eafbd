// D3D9 surface formats as OpenCL image formats, plane by plane, and where each plane lies in a
// locked surface (Windows only). The table of cl_khr_dx9_media_sharing: NV12 (Y, then UV), YV12
// (Y, then V, then U in memory; plane 1 is U) and the single-plane formats; beyond it, P010 and
// P016 (NV12's layout with 16-bit samples).
#pragma once
#include <CL/cl.h>
#include <d3d9.h>

namespace clvf::detail::interop {

struct SurfacePlane {
  cl_image_format format;
  size_t width, height;  // of the plane
  size_t offset;         // bytes from the start of the locked surface
  size_t pitch;          // bytes per row
};

// 0 when the format is not in the table (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR); otherwise the
// number of planes, with plane `plane` (when it exists) laid out for a surface locked with
// `pitch` bytes per luma row.
unsigned d3d9_plane(D3DFORMAT format, UINT width, UINT height, size_t pitch, unsigned plane, SurfacePlane* out);

}  // namespace clvf::detail::interop
