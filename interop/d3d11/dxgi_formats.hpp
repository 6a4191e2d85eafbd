// DXGI texture formats as OpenCL image formats, plane by plane (Windows only).
#pragma once
#include <CL/cl.h>
#include <dxgiformat.h>

namespace clvf::detail::interop {

struct PlaneFormat {
  cl_image_format format;
  unsigned subsampling;  // 2 for the chroma plane of NV12, P010 and P016: half width and height
};

// The planes of `format`: 1 for ordinary formats, 2 for NV12/P010/P016 (luma, then interleaved
// chroma). 0 for formats clvf cannot share; `planes` gets the formats.
unsigned dxgi_planes(DXGI_FORMAT format, PlaneFormat planes[2]);

}  // namespace clvf::detail::interop
