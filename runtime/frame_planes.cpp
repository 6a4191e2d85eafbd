#include "runtime/frame_planes.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <cstring>

#include "runtime/copy_pool.hpp"
#include "runtime/error.hpp"
#include "runtime/host_buffer.hpp"
#include "runtime/log.hpp"
#include "runtime/scratch.hpp"

namespace clvf::detail {

namespace {
// Bytes a plane spans in memory: every row's pitch but the last's.
size_t span(const PlaneShape& s, size_t pitch) { return pitch * (s.rows - 1) + s.row_bytes; }

void copy_rows(uint8_t* to, size_t to_pitch, const uint8_t* from, size_t from_pitch, size_t row_bytes, size_t rows) {
  const size_t parts = row_bytes * rows < (size_t(1) << 20) ? 1 : copy_threads();
  run_parts(parts, [&](size_t t) {
    for (size_t y = rows * t / parts; y < rows * (t + 1) / parts; ++y)
      std::memcpy(to + y * to_pitch, from + y * from_pitch, row_bytes);
  });
}
}  // namespace

clvf_storage kernel_storage(const Device& device, clvf_storage storage) {
  return storage == CLVF_STORAGE_CL_IMAGE && device.stages_images() ? CLVF_STORAGE_CL_BUFFER : storage;
}

HostTransfers& host_transfers() {
  static HostTransfers counts;
  return counts;
}

FramePlanes::FramePlanes(const Device& device, clvf_storage storage, std::vector<PlaneShape> shapes, const char* which,
                         bool is_output, int slots)
    : context_(device.context()), queue_(device.queue()), storage_(storage), shapes_(std::move(shapes)), which_(which),
      zero_copy_(device.zero_copy_host() && storage == CLVF_STORAGE_HOST),
      images_staged_(kernel_storage(device, storage) != storage), is_output_(is_output) {
  if (images_staged_) {
    regions_.resize(shapes_.size());
    staging_.resize(slots);
    for (auto& slot : staging_)
      for (const PlaneShape& s : shapes_)
        slot.push_back(Staging{scratch_buffer(device, CL_MEM_READ_WRITE, s.row_bytes * s.rows), {}});
    return;
  }
  if (!staged()) return;
  staging_.resize(slots);
  for (auto& slot : staging_)
    for (const PlaneShape& s : shapes_) {
      const size_t bytes = s.row_bytes * s.rows;
      Staging st{scratch_buffer(device, CL_MEM_READ_WRITE, bytes),
                 scratch_buffer(device, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes)};
      st.host = queue_.enqueueMapBuffer(st.pinned, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes);
      slot.push_back(std::move(st));
    }
}

FramePlanes::~FramePlanes() {
  try {
    for (auto& slot : staging_)
      for (Staging& st : slot)
        if (st.host) queue_.enqueueUnmapMemObject(st.pinned, st.host);
    if (staged()) queue_.finish();
  } catch (...) {
  }
}

void FramePlanes::bind(const clvf_frame& frame, int slot) {
  validate(frame);
  slot_ = slot;
  unbind();
  for (size_t i = 0; i < regions_.size(); ++i) regions_[i] = image_region(i, frame.planes[i]);
  if (!zero_copy_) return;
  const cl_mem_flags access = is_output_ ? CL_MEM_WRITE_ONLY : CL_MEM_READ_ONLY;
  for (size_t i = 0; i < shapes_.size(); ++i) {
    const size_t bytes = span(shapes_[i], frame.planes[i].pitch);
    if (in_host_buffer(context_, frame.planes[i].data, bytes)) {
      in_place_.push_back(frame.planes[i].data);
      wrapped_.emplace_back();
      ++host_transfers().host_buffer_planes;
    } else {
      in_place_.push_back(nullptr);
      wrapped_.emplace_back(context_, access | CL_MEM_USE_HOST_PTR, bytes, frame.planes[i].data);
    }
  }
}

void FramePlanes::validate(const clvf_frame& frame) const {
  if (frame.storage != storage_)
    throw Error(CLVF_ERROR_INVALID_ARGUMENT,
                fmt::format("{} frame storage is {}; the operation was created for {}", which_,
                            static_cast<int>(frame.storage), static_cast<int>(storage_)));
  for (size_t i = 0; i < shapes_.size(); ++i) {
    const clvf_plane& p = frame.planes[i];
    const size_t row = shapes_[i].row_bytes;
    switch (storage_) {
      case CLVF_STORAGE_HOST:
        if (!p.data || p.pitch < row || p.pitch > INT32_MAX)
          throw Error(CLVF_ERROR_INVALID_ARGUMENT,
                      fmt::format("{} host plane {} needs data and a pitch of at least {} bytes", which_, i, row));
        break;
      case CLVF_STORAGE_CL_BUFFER:
        if (!p.mem || p.pitch < row || p.pitch > INT32_MAX || p.offset > INT32_MAX)
          throw Error(CLVF_ERROR_INVALID_ARGUMENT,
                      fmt::format("{} buffer plane {} needs a cl_mem and a pitch of at least {} bytes", which_, i, row));
        break;
      case CLVF_STORAGE_CL_IMAGE:
        if (!p.mem) throw Error(CLVF_ERROR_INVALID_ARGUMENT, fmt::format("{} image plane {} is NULL", which_, i));
        image_region(i, p);
        break;
      case CLVF_STORAGE_D3D11:
      case CLVF_STORAGE_DXVA2:
      case CLVF_STORAGE_CUDA:
        break;  // never here: the C API hands operations these frames as OpenCL ones (interop/shared_frames)
    }
    const size_t a = shapes_[i].alignment;
    const size_t start = storage_ == CLVF_STORAGE_HOST ? reinterpret_cast<uintptr_t>(p.data) : p.offset;
    if (storage_ != CLVF_STORAGE_CL_IMAGE && (start % a || p.pitch % a))
      throw Error(CLVF_ERROR_INVALID_ARGUMENT,
                  fmt::format("{} plane {} holds {}-byte samples: its {} and pitch must be multiples of {}", which_, i,
                              a, storage_ == CLVF_STORAGE_HOST ? "address" : "offset", a));
  }
}

cl::array<size_t, 3> FramePlanes::image_region(size_t plane, const clvf_plane& p) const {
  const cl::Image2D image(p.mem, true);
  const size_t element = image.getImageInfo<CL_IMAGE_ELEMENT_SIZE>();
  const size_t width = image.getImageInfo<CL_IMAGE_WIDTH>(), height = image.getImageInfo<CL_IMAGE_HEIGHT>();
  const PlaneShape& s = shapes_[plane];
  if (s.row_bytes % element || width < s.row_bytes / element || height < s.rows)
    throw Error(CLVF_ERROR_INVALID_ARGUMENT,
                fmt::format("{} image plane {} is {}x{} of {}-byte elements; the plane needs at least {} bytes a row "
                            "(a whole number of elements) and {} rows",
                            which_, plane, width, height, element, s.row_bytes, s.rows));
  return {s.row_bytes / element, s.rows, 1};
}

void FramePlanes::set_args(Kernel& kernel, std::string_view arg, const clvf_frame& frame, size_t plane) const {
  const clvf_plane& p = frame.planes[plane];
  switch (storage_) {
    case CLVF_STORAGE_HOST:
      if (zero_copy_ && in_place_[plane])
        kernel.set_host_pointer(arg, in_place_[plane]);
      else
        kernel.set(arg, zero_copy_ ? wrapped_[plane] : staging_[slot_][plane].device);
      kernel.set(arg, "_offset", 0);
      kernel.set(arg, "_pitch", static_cast<int>(zero_copy_ ? p.pitch : shapes_[plane].row_bytes));
      return;
    case CLVF_STORAGE_CL_BUFFER:
      kernel.set_mem(arg, p.mem);
      kernel.set(arg, "_offset", static_cast<int>(p.offset));
      kernel.set(arg, "_pitch", static_cast<int>(p.pitch));
      return;
    case CLVF_STORAGE_CL_IMAGE:
      if (!images_staged_) return kernel.set_mem(arg, p.mem);
      kernel.set(arg, staging_[slot_][plane].device);
      kernel.set(arg, "_offset", 0);
      kernel.set(arg, "_pitch", static_cast<int>(shapes_[plane].row_bytes));
      return;
    case CLVF_STORAGE_D3D11:
    case CLVF_STORAGE_DXVA2:
    case CLVF_STORAGE_CUDA:
      return;  // never here (see validate)
  }
}

void FramePlanes::upload(const cl::CommandQueue& queue, const clvf_frame& frame, size_t plane,
                         const std::vector<cl::Event>* after, std::vector<cl::Event>& done) {
  if (images_staged_) {
    const clvf_plane& p = frame.planes[plane];
    done.emplace_back();
    queue.enqueueCopyImageToBuffer(cl::Image2D(p.mem, true), staging_[slot_][plane].device, {0, 0, 0},
                                   regions_[plane], 0, after && !after->empty() ? after : nullptr,
                                   &done.back());
    ++host_transfers().image_copies;
    return;
  }
  if (!staged()) return;  // a fresh USE_HOST_PTR buffer holds the data
  const PlaneShape& s = shapes_[plane];
  const Staging& st = staging_[slot_][plane];
  copy_rows(static_cast<uint8_t*>(st.host), s.row_bytes, static_cast<const uint8_t*>(frame.planes[plane].data),
            frame.planes[plane].pitch, s.row_bytes, s.rows);
  done.emplace_back();
  queue.enqueueWriteBuffer(st.device, CL_FALSE, 0, s.row_bytes * s.rows, st.host, nullptr, &done.back());
  ++host_transfers().staged_uploads;
}

void FramePlanes::download(const cl::CommandQueue& queue, const clvf_frame& frame, size_t plane,
                           const std::vector<cl::Event>& after, std::vector<cl::Event>& done) {
  if (images_staged_) {
    const clvf_plane& p = frame.planes[plane];
    done.emplace_back();
    queue.enqueueCopyBufferToImage(staging_[slot_][plane].device, cl::Image2D(p.mem, true), 0, {0, 0, 0},
                                   regions_[plane], after.empty() ? nullptr : &after, &done.back());
    ++host_transfers().image_copies;
    return;
  }
  if (storage_ != CLVF_STORAGE_HOST || (zero_copy_ && in_place_[plane])) return;
  const PlaneShape& s = shapes_[plane];
  done.emplace_back();
  if (zero_copy_) {
    const size_t bytes = span(s, frame.planes[plane].pitch);
    void* mapped = queue.enqueueMapBuffer(wrapped_[plane], CL_FALSE, CL_MAP_READ, 0, bytes, &after);
    queue.enqueueUnmapMemObject(wrapped_[plane], mapped, nullptr, &done.back());
    HostTransfers& counts = host_transfers();
    ++counts.direct_maps;
    if (mapped != frame.planes[plane].data && counts.direct_maps_elsewhere++ == 0)
      log(CLVF_LOG_WARNING, "the OpenCL driver maps host frames elsewhere than their memory: it copies them, "
                            "although it reports memory shared with the host");
    return;
  }
  const Staging& st = staging_[slot_][plane];
  queue.enqueueReadBuffer(st.device, CL_FALSE, 0, s.row_bytes * s.rows, st.host, &after, &done.back());
}

void FramePlanes::finish_download(const clvf_frame& frame, int slot) const {
  if (!staged()) return;
  for (size_t plane = 0; plane < shapes_.size(); ++plane) {
    const PlaneShape& s = shapes_[plane];
    copy_rows(static_cast<uint8_t*>(frame.planes[plane].data), frame.planes[plane].pitch,
              static_cast<const uint8_t*>(staging_[slot][plane].host), s.row_bytes, s.row_bytes, s.rows);
    ++host_transfers().staged_downloads;
  }
}

}  // namespace clvf::detail
