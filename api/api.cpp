// The C API: thin handles over the C++ runtime, every call behind api_call().
#include <fmt/format.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "clvf/clvf.h"
#include "interop/cuda/cuda_share.hpp"
#include "interop/shared_frames.hpp"
#include "api/api_device.hpp"
#include "api/api_guard.hpp"
#include "runtime/device.hpp"
#include "runtime/host_buffer.hpp"
#include "runtime/ops/colorspace.hpp"
#include "runtime/ops/denoise.hpp"
#include "runtime/ops/pixel_format.hpp"
#include "runtime/ops/resample_table.hpp"
#include "runtime/ops/scale_convert.hpp"
#include "runtime/presets.hpp"

struct clvf_cuda_buffer {
  std::shared_ptr<clvf::detail::cuda::Allocation> impl;
};
struct clvf_host_buffer {
  clvf::detail::HostBuffer impl;
};
struct clvf_scale {
  std::unique_ptr<clvf::detail::ScaleConvert> impl;
  clvf::detail::FrameSides sides;
};
struct clvf_denoise {
  std::unique_ptr<clvf::detail::Denoise> impl;
  clvf::detail::FrameSides sides;
};
struct clvf_colorspace {
  std::unique_ptr<clvf::detail::Colorspace> impl;
  clvf::detail::FrameSides sides;
};

namespace clvf::detail {
namespace {
thread_local std::string last_error;
}  // namespace

void set_last_error(const std::string& message) { last_error = message; }
}  // namespace clvf::detail

using clvf::detail::api_call;
using clvf::detail::require;

namespace {
// The caller's events, each retained for the call.
std::vector<cl::Event> wait_list(const char* what, cl_uint count, const cl_event* events) {
  if (count && !events)
    throw clvf::detail::Error(CLVF_ERROR_INVALID_ARGUMENT, std::string(what) + ": wait is NULL but num_wait is " +
                                                       std::to_string(count));
  std::vector<cl::Event> list;
  for (cl_uint i = 0; i < count; ++i) {
    if (!events[i]) throw clvf::detail::Error(CLVF_ERROR_INVALID_ARGUMENT, std::string(what) + ": wait[" + std::to_string(i) + "] is NULL");
    list.emplace_back(events[i], true);
  }
  return list;
}
// Gives the caller a reference of its own to `event` (when it asked for one).
void hand_out(const cl::Event& event, cl_event* done) {
  if (!done) return;
  clRetainEvent(event());
  *done = event();
}
}  // namespace

extern "C" {

CLVF_API const char* clvf_last_error(void) { return clvf::detail::last_error.c_str(); }

CLVF_API void clvf_request_profiling(int on) { clvf::detail::request_profiling(on != 0); }

CLVF_API clvf_status clvf_device_open(const char* spec, clvf_device** out) {
  return api_call([&] {
    require(out, "clvf_device_open: out");
    *out = nullptr;
    auto device = clvf::detail::Device::open(spec ? spec : "");
    *out = new clvf_device{std::move(device)};
  });
}

CLVF_API clvf_status clvf_device_wrap(cl_context context, cl_device_id device, cl_command_queue queue,
                                      clvf_device** out) {
  return api_call([&] {
    require(out, "clvf_device_wrap: out");
    *out = nullptr;
    auto d = clvf::detail::Device::wrap(context, device, queue);
    *out = new clvf_device{std::move(d)};
  });
}

CLVF_API clvf_status clvf_device_open_d3d(const char* spec, clvf_d3d_kind kind, void* d3d, clvf_device** out) {
  return api_call([&] {
    require(out, "clvf_device_open_d3d: out");
    *out = nullptr;
    auto device = clvf::detail::Device::open_d3d(spec ? spec : "", kind, d3d);
    *out = new clvf_device{std::move(device)};
  });
}

CLVF_API clvf_status clvf_device_open_cuda(const char* spec, void* cuda_context, clvf_device** out) {
  return api_call([&] {
    require(out, "clvf_device_open_cuda: out");
    *out = nullptr;
    auto device = clvf::detail::Device::open_cuda(spec ? spec : "", cuda_context);
    *out = new clvf_device{std::move(device)};
  });
}

CLVF_API clvf_status clvf_device_set_cuda_sync(clvf_device* device, void* stream, clvf_cuda_sync sync,
                                               clvf_cuda_sync* used) {
  return api_call([&] {
    require(device, "clvf_device_set_cuda_sync: device");
    if (!device->impl->cuda())
      throw clvf::detail::Error(CLVF_ERROR_INVALID_ARGUMENT,
                        "clvf_device_set_cuda_sync: the device was not opened with clvf_device_open_cuda");
    static_assert(sizeof(clvf_cuda_sync) == sizeof(int));
    int raw = 0;  // a C caller may pass any int: read it without loading an out-of-range enum
    std::memcpy(&raw, &sync, sizeof raw);
    if (raw < CLVF_CUDA_SYNC_AUTO || raw > CLVF_CUDA_SYNC_STREAM)
      throw clvf::detail::Error(CLVF_ERROR_INVALID_ARGUMENT,
                        fmt::format("clvf_device_set_cuda_sync: sync {} is none of AUTO (0), SEMAPHORES (1), "
                                    "CONTEXT (2), STREAM (3)",
                                    raw));
    const clvf_cuda_sync chosen = device->impl->cuda()->set_sync(static_cast<clvf::detail::cuda::CUstream>(stream), sync);
    if (used) *used = chosen;
  });
}

CLVF_API clvf_status clvf_cuda_buffer_alloc(clvf_device* device, size_t size, clvf_cuda_buffer** out) {
  return api_call([&] {
    require(out, "clvf_cuda_buffer_alloc: out");
    *out = nullptr;
    require(device, "clvf_cuda_buffer_alloc: device");
    if (!device->impl->cuda())
      throw clvf::detail::Error(CLVF_ERROR_INVALID_ARGUMENT, "clvf_cuda_buffer_alloc: the device was not opened with clvf_device_open_cuda");
    *out = new clvf_cuda_buffer{device->impl->cuda()->allocate(size)};
  });
}

CLVF_API void* clvf_cuda_buffer_pointer(const clvf_cuda_buffer* buffer) {
  return buffer ? reinterpret_cast<void*>(buffer->impl->pointer()) : nullptr;
}

CLVF_API void clvf_cuda_buffer_release(clvf_cuda_buffer* buffer) { delete buffer; }

CLVF_API clvf_status clvf_device_share(clvf_device* device, clvf_device** out) {
  return api_call([&] {
    require(out, "clvf_device_share: out");
    *out = nullptr;
    require(device, "clvf_device_share: device");
    *out = new clvf_device{device->impl};
  });
}

CLVF_API void clvf_device_release(clvf_device* device) { delete device; }

CLVF_API const char* clvf_device_name(const clvf_device* device) {
  return device ? device->impl->name().c_str() : "";
}

CLVF_API int clvf_device_copies_host_frames(const clvf_device* device) {
  return device && !device->impl->zero_copy_host() ? 1 : 0;
}

CLVF_API clvf_status clvf_host_buffer_alloc(clvf_device* device, size_t size, clvf_host_buffer** out) {
  return api_call([&] {
    require(out, "clvf_host_buffer_alloc: out");
    *out = nullptr;
    require(device, "clvf_host_buffer_alloc: device");
    *out = new clvf_host_buffer{{*device->impl, size}};
  });
}

CLVF_API void* clvf_host_buffer_pointer(const clvf_host_buffer* buffer) {
  return buffer ? buffer->impl.data() : nullptr;
}

CLVF_API void clvf_host_buffer_release(clvf_host_buffer* buffer) { delete buffer; }

CLVF_API clvf_status clvf_device_handles(const clvf_device* device, cl_context* context, cl_device_id* device_id,
                                         cl_command_queue* queue) {
  return api_call([&] {
    require(device, "clvf_device_handles: device");
    if (context) *context = device->impl->context()();
    if (device_id) *device_id = device->impl->device()();
    if (queue) *queue = device->impl->queue()();
  });
}

CLVF_API void clvf_scale_params_default(clvf_scale_params* p) {
  if (!p) return;
  std::memset(p, 0, sizeof *p);
  p->version = CLVF_API_VERSION;
  p->format = CLVF_PIX_YUV420P;
  p->algorithm = CLVF_SCALE_BICUBIC;
  p->param_b = 1.0 / 3;
  p->param_c = 1.0 / 3;
  p->taps = 3;
  p->chroma_location = CLVF_CHROMA_LEFT;
  p->src_storage = CLVF_STORAGE_HOST;
  p->dst_storage = CLVF_STORAGE_HOST;
}

CLVF_API clvf_status clvf_scale_algorithm_from_name(const char* name, clvf_scale_algorithm* out) {
  return api_call([&] {
    require(out, "clvf_scale_algorithm_from_name: out");
    *out = clvf::detail::scale_algorithm_from_name(name ? name : "");
  });
}

CLVF_API clvf_status clvf_scale_create(clvf_device* device, const clvf_scale_params* params, clvf_scale** out) {
  return api_call([&] {
    require(out, "clvf_scale_create: out");
    *out = nullptr;
    require(device, "clvf_scale_create: device");
    require(params, "clvf_scale_create: params");
    clvf_scale_params p = *params;
    clvf::detail::FrameSides sides;
    sides.open(device->impl, {p.src_storage, p.format, p.src_width, p.src_height},
               {p.dst_storage, p.dst_format ? p.dst_format : p.format, p.dst_width, p.dst_height});
    auto op = std::make_unique<clvf::detail::ScaleConvert>(device->impl, p);
    *out = new clvf_scale{std::move(op), std::move(sides)};
  });
}

CLVF_API clvf_status clvf_scale_process(clvf_scale* scale, const clvf_frame* src, const clvf_frame* dst) {
  return api_call([&] {
    require(scale, "clvf_scale_process: scale");
    require(src, "clvf_scale_process: src");
    require(dst, "clvf_scale_process: dst");
    scale->sides.run(src, dst, [&](const clvf_frame* s, const clvf_frame* d) { scale->impl->process(*s, *d); });
  });
}

CLVF_API clvf_status clvf_scale_submit(clvf_scale* scale, const clvf_frame* src, const clvf_frame* dst) {
  return api_call([&] {
    require(scale, "clvf_scale_submit: scale");
    require(src, "clvf_scale_submit: src");
    require(dst, "clvf_scale_submit: dst");
    scale->sides.run(src, dst, [&](const clvf_frame* s, const clvf_frame* d) { scale->impl->submit(s, *d, {}); });
  });
}

CLVF_API clvf_status clvf_scale_complete(clvf_scale* scale) {
  return api_call([&] {
    require(scale, "clvf_scale_complete: scale");
    scale->impl->complete();
  });
}

CLVF_API clvf_status clvf_scale_enqueue(clvf_scale* scale, const clvf_frame* src, const clvf_frame* dst,
                                        cl_uint num_wait, const cl_event* wait, cl_event* done) {
  return api_call([&] {
    if (done) *done = nullptr;
    require(scale, "clvf_scale_enqueue: scale");
    require(src, "clvf_scale_enqueue: src");
    require(dst, "clvf_scale_enqueue: dst");
    hand_out(scale->impl->enqueue(*src, *dst, wait_list("clvf_scale_enqueue", num_wait, wait)), done);
  });
}

CLVF_API void clvf_scale_release(clvf_scale* scale) { delete scale; }

namespace {
thread_local std::string preset_text, profile_text;
}

CLVF_API const char* clvf_scale_profile(const clvf_scale* scale) {
  profile_text = scale ? scale->impl->profile_report() + scale->sides.profile_report() : "";
  return profile_text.c_str();
}

CLVF_API void clvf_denoise_params_default(clvf_denoise_params* p) {
  if (!p) return;
  std::memset(p, 0, sizeof *p);
  p->version = CLVF_API_VERSION;
  p->format = CLVF_PIX_YUV420P;
  p->strength = 1.0;
  p->patch_size = 7;
  p->research_size = 15;
  p->planes = 0xf;
  p->src_storage = CLVF_STORAGE_HOST;
  p->dst_storage = CLVF_STORAGE_HOST;
}

CLVF_API clvf_status clvf_denoise_validate(const clvf_denoise_params* params) {
  return api_call([&] {
    require(params, "clvf_denoise_validate: params");
    clvf::detail::validate_denoise_params(*params);
  });
}

CLVF_API clvf_status clvf_denoise_create(clvf_device* device, const clvf_denoise_params* params, clvf_denoise** out) {
  return api_call([&] {
    require(out, "clvf_denoise_create: out");
    *out = nullptr;
    require(device, "clvf_denoise_create: device");
    require(params, "clvf_denoise_create: params");
    clvf_denoise_params p = *params;
    clvf::detail::FrameSides sides;
    sides.open(device->impl, {p.src_storage, p.format, p.width, p.height}, {p.dst_storage, p.format, p.width, p.height});
    auto op = std::make_unique<clvf::detail::Denoise>(device->impl, p);
    *out = new clvf_denoise{std::move(op), std::move(sides)};
  });
}

CLVF_API clvf_status clvf_denoise_process(clvf_denoise* denoise, const clvf_frame* src, const clvf_frame* dst) {
  return api_call([&] {
    require(denoise, "clvf_denoise_process: denoise");
    require(src, "clvf_denoise_process: src");
    require(dst, "clvf_denoise_process: dst");
    denoise->sides.run(src, dst, [&](const clvf_frame* s, const clvf_frame* d) { denoise->impl->process(*s, *d); });
  });
}

CLVF_API clvf_status clvf_denoise_send(clvf_denoise* denoise, const clvf_frame* src) {
  return api_call([&] {
    require(denoise, "clvf_denoise_send: denoise");
    // With t = 0 the source is read at receive: it stays acquired until then.
    denoise->sides.run(src, nullptr, [&](const clvf_frame* s, const clvf_frame*) { denoise->impl->send(s); }, true);
  });
}

CLVF_API clvf_status clvf_denoise_receive(clvf_denoise* denoise, const clvf_frame* dst, int* got) {
  return api_call([&] {
    require(got, "clvf_denoise_receive: got");
    *got = 0;
    require(denoise, "clvf_denoise_receive: denoise");
    require(dst, "clvf_denoise_receive: dst");
    denoise->sides.run(nullptr, dst, [&](const clvf_frame*, const clvf_frame* d) { *got = denoise->impl->receive(*d) ? 1 : 0; });
    denoise->sides.release_src();
  });
}

CLVF_API clvf_status clvf_denoise_submit(clvf_denoise* denoise, const clvf_frame* src, const clvf_frame* dst, int* got) {
  return api_call([&] {
    require(got, "clvf_denoise_submit: got");
    *got = 0;
    require(denoise, "clvf_denoise_submit: denoise");
    require(dst, "clvf_denoise_submit: dst");
    static const std::vector<cl::Event> no_events;
    denoise->sides.run(src, dst, [&](const clvf_frame* s, const clvf_frame* d) {
      *got = denoise->impl->submit(s, *d, no_events) ? 1 : 0;
    });
  });
}

CLVF_API clvf_status clvf_denoise_complete(clvf_denoise* denoise) {
  return api_call([&] {
    require(denoise, "clvf_denoise_complete: denoise");
    denoise->impl->complete();
  });
}

CLVF_API void clvf_denoise_release(clvf_denoise* denoise) { delete denoise; }

CLVF_API const char* clvf_denoise_profile(const clvf_denoise* denoise) {
  profile_text = denoise ? denoise->impl->profile_report() + denoise->sides.profile_report() : "";
  return profile_text.c_str();
}

CLVF_API clvf_status clvf_pixel_format_from_name(const char* name, clvf_pixel_format* out) {
  return api_call([&] {
    require(out, "clvf_pixel_format_from_name: out");
    *out = clvf::detail::pixel_format_from_name(name ? name : "");
  });
}

CLVF_API void clvf_colorspace_params_default(clvf_colorspace_params* p) {
  if (!p) return;
  std::memset(p, 0, sizeof *p);
  p->version = CLVF_API_VERSION;
  p->src_format = p->dst_format = CLVF_PIX_NV12;
  p->src_matrix = p->dst_matrix = CLVF_MATRIX_BT709;
  p->src_range = p->dst_range = CLVF_RANGE_TV;
  p->chroma_location = CLVF_CHROMA_LEFT;
  p->chroma_filter = CLVF_SCALE_BILINEAR;
  p->param_b = 1.0 / 3;
  p->param_c = 1.0 / 3;
  p->taps = 3;
  p->dither = CLVF_DITHER_AUTO;
  p->src_storage = p->dst_storage = CLVF_STORAGE_HOST;
}

CLVF_API clvf_status clvf_matrix_from_name(const char* name, clvf_matrix* out) {
  return api_call([&] {
    require(out, "clvf_matrix_from_name: out");
    *out = clvf::detail::matrix_from_name(name ? name : "");
  });
}

CLVF_API clvf_status clvf_range_from_name(const char* name, clvf_range* out) {
  return api_call([&] {
    require(out, "clvf_range_from_name: out");
    *out = clvf::detail::range_from_name(name ? name : "");
  });
}

CLVF_API clvf_status clvf_dither_from_name(const char* name, clvf_dither* out) {
  return api_call([&] {
    require(out, "clvf_dither_from_name: out");
    *out = clvf::detail::dither_from_name(name ? name : "");
  });
}

CLVF_API clvf_status clvf_colorspace_validate(const clvf_colorspace_params* params) {
  return api_call([&] {
    require(params, "clvf_colorspace_validate: params");
    clvf::detail::validate_colorspace_params(*params);
  });
}

CLVF_API clvf_status clvf_colorspace_create(clvf_device* device, const clvf_colorspace_params* params,
                                            clvf_colorspace** out) {
  return api_call([&] {
    require(out, "clvf_colorspace_create: out");
    *out = nullptr;
    require(device, "clvf_colorspace_create: device");
    require(params, "clvf_colorspace_create: params");
    clvf_colorspace_params p = *params;
    clvf::detail::FrameSides sides;
    sides.open(device->impl, {p.src_storage, p.src_format, p.width, p.height}, {p.dst_storage, p.dst_format, p.width, p.height});
    auto op = std::make_unique<clvf::detail::Colorspace>(device->impl, p);
    *out = new clvf_colorspace{std::move(op), std::move(sides)};
  });
}

CLVF_API clvf_status clvf_colorspace_process(clvf_colorspace* colorspace, const clvf_frame* src,
                                             const clvf_frame* dst) {
  return api_call([&] {
    require(colorspace, "clvf_colorspace_process: colorspace");
    require(src, "clvf_colorspace_process: src");
    require(dst, "clvf_colorspace_process: dst");
    colorspace->sides.run(src, dst, [&](const clvf_frame* s, const clvf_frame* d) { colorspace->impl->process(*s, *d); });
  });
}

CLVF_API clvf_status clvf_colorspace_submit(clvf_colorspace* colorspace, const clvf_frame* src,
                                            const clvf_frame* dst) {
  return api_call([&] {
    require(colorspace, "clvf_colorspace_submit: colorspace");
    require(src, "clvf_colorspace_submit: src");
    require(dst, "clvf_colorspace_submit: dst");
    colorspace->sides.run(src, dst, [&](const clvf_frame* s, const clvf_frame* d) { colorspace->impl->submit(s, *d, {}); });
  });
}

CLVF_API clvf_status clvf_colorspace_complete(clvf_colorspace* colorspace) {
  return api_call([&] {
    require(colorspace, "clvf_colorspace_complete: colorspace");
    colorspace->impl->complete();
  });
}

CLVF_API clvf_status clvf_colorspace_enqueue(clvf_colorspace* colorspace, const clvf_frame* src,
                                             const clvf_frame* dst, cl_uint num_wait, const cl_event* wait,
                                             cl_event* done) {
  return api_call([&] {
    if (done) *done = nullptr;
    require(colorspace, "clvf_colorspace_enqueue: colorspace");
    require(src, "clvf_colorspace_enqueue: src");
    require(dst, "clvf_colorspace_enqueue: dst");
    hand_out(colorspace->impl->enqueue(*src, *dst, wait_list("clvf_colorspace_enqueue", num_wait, wait)), done);
  });
}

CLVF_API void clvf_colorspace_release(clvf_colorspace* colorspace) { delete colorspace; }

CLVF_API const char* clvf_colorspace_profile(const clvf_colorspace* colorspace) {
  profile_text = colorspace ? colorspace->impl->profile_report() + colorspace->sides.profile_report() : "";
  return profile_text.c_str();
}

CLVF_API clvf_status clvf_preset_options(const char* filter, const char* name, const char** options) {
  return api_call([&] {
    require(options, "clvf_preset_options: options");
    *options = nullptr;
    require(filter, "clvf_preset_options: filter");
    require(name, "clvf_preset_options: name");
    preset_text = clvf::detail::presets::options(filter, name);
    *options = preset_text.c_str();
  });
}

CLVF_API const char* clvf_preset_names(const char* filter) {
  try {
    preset_text = filter ? clvf::detail::presets::names(filter) : "";
  } catch (...) {
    preset_text.clear();
  }
  return preset_text.c_str();
}

}  // extern "C"
