#include "interop/sharing/image.hpp"
#include "interop/sharing/next.hpp"

#include <vector>

namespace clvf::detail::interop {

cl_mem create_shared_image(cl_context context, cl_mem_flags flags, const cl_image_format& format,
                           const cl_image_desc& desc, SharedMem& info, cl_int* err) {
  cl_uint count = 0;
  *err = next_cl().clGetSupportedImageFormats(context, flags, desc.image_type, 0, nullptr, &count);
  if (*err != CL_SUCCESS) return nullptr;
  std::vector<cl_image_format> formats(count);
  *err = next_cl().clGetSupportedImageFormats(context, flags, desc.image_type, count, formats.data(), nullptr);
  if (*err != CL_SUCCESS) return nullptr;
  for (const cl_image_format& f : formats)
    if (f.image_channel_order == format.image_channel_order &&
        f.image_channel_data_type == format.image_channel_data_type) {
      cl_mem image = next_cl().clCreateImage(context, flags, &format, &desc, nullptr, err);
      size_t element = 0;
      if (image && next_cl().clGetImageInfo(image, CL_IMAGE_ELEMENT_SIZE, sizeof element, &element, nullptr) == CL_SUCCESS) {
        info.image_info[CL_IMAGE_ROW_PITCH] = info_bytes(desc.image_width * element);
        const bool volume = desc.image_type == CL_MEM_OBJECT_IMAGE3D;
        info.image_info[CL_IMAGE_SLICE_PITCH] = info_bytes(volume ? desc.image_width * desc.image_height * element : 0);
      }
      return image;
    }
  *err = CL_IMAGE_FORMAT_NOT_SUPPORTED;
  return nullptr;
}

}  // namespace clvf::detail::interop
