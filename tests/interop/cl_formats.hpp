// Whether a context's devices take 2D images of a format for reading and writing (every platform).
#pragma once
#include <CL/cl.h>

#include <algorithm>
#include <vector>

namespace clvf::detail::test {

inline bool supported(cl_context context, cl_image_format format) {
  cl_uint count = 0;
  clGetSupportedImageFormats(context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &count);
  std::vector<cl_image_format> formats(count);
  clGetSupportedImageFormats(context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, count, formats.data(), nullptr);
  return std::any_of(formats.begin(), formats.end(), [&](const cl_image_format& f) {
    return f.image_channel_order == format.image_channel_order &&
           f.image_channel_data_type == format.image_channel_data_type;
  });
}

}  // namespace clvf::detail::test
