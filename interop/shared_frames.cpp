#include "interop/shared_frames.hpp"

#include "interop/cuda/cuda_frames.hpp"
#include "interop/d3d_frames.hpp"

namespace clvf::detail {

namespace {

std::unique_ptr<SharedFrames> open_side(const std::shared_ptr<Device>& device, SideSpec side, const char* which,
                                        bool output) {
  std::unique_ptr<SharedFrames> frames;
  if (D3DFrames::is_d3d(side.storage))
    frames = std::make_unique<D3DFrames>(device, side.storage, side.format, which, output);
  else if (side.storage == CLVF_STORAGE_CUDA)
    frames = std::make_unique<CudaFrames>(device, side.format, side.width, side.height, which, output);
  if (frames) side.storage = frames->inner_storage();
  return frames;
}

}  // namespace

void FrameSides::open(const std::shared_ptr<Device>& device, SideSpec source, SideSpec destination) {
  this->device = device;
  src = open_side(device, source, "source", false);
  dst = open_side(device, destination, "destination", true);
}

void FrameSides::release_quietly() {
  try {
    join();
  } catch (...) {
  }
  for (SharedFrames* f : {src.get(), dst.get()}) try {
      if (f) f->release();
    } catch (...) {
    }
}

}  // namespace clvf::detail
