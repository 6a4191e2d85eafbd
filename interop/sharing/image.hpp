// The image behind an emulated shared texture or surface plane. Formats the device lacks (CL_RG
// on Debian's PoCL, for NV12 chroma) are refused with CL_IMAGE_FORMAT_NOT_SUPPORTED on every
// platform, whatever code the platform's clCreateImage would give. Its row (and slice) pitch
// read back are those of its tightly packed rows, on every platform (some report 0 for images
// made without a host pointer).
#pragma once
#include <CL/cl.h>

#include "interop/sharing/registry.hpp"

namespace clvf::detail::interop {

cl_mem create_shared_image(cl_context context, cl_mem_flags flags, const cl_image_format& format,
                           const cl_image_desc& desc, SharedMem& info, cl_int* err);

}  // namespace clvf::detail::interop
