// The translation of AMD's D3D11 sharing to KHR's planar convention (interop/sharing/amd_planes),
// against a model of AMD's driver: no AMD driver runs here. The model does what FFmpeg's
// hwcontext_opencl and AMD's own tests rely on: clCreateFromD3D11Texture2DKHR(texture, slice)
// gives one object for the slice, clGetPlaneFromImageAMD gives its planes as CL_UNSIGNED_INT8/16
// images, clConvertImageAMD re-types an image, and only the slice objects can be acquired and
// released, each once. The objects are real OpenCL objects on the test device (PoCL by default).
// AMD's plane and converted images are views of the texture's memory; the model, which cannot
// alias, moves the data instead: where the test gives a slice memory, acquiring the slice writes
// its samples into each plane's image, and releasing it takes back what an image changed (two
// images changing a sample differently is counted as a conflict).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "clvf/cl_interop.h"
#include "cl_formats.hpp"
#include "interop/sharing/amd_planes.hpp"

namespace clvf::detail::interop {
namespace {

using test::supported;

// The D3D11 family's values (CL/cl_d3d11.h needs d3d11.h, which Linux has not).
const Family kFamily = {"D3D11", -1006, -1007, -1008, -1009, 0x4020, 0x4021};
constexpr cl_uint kResourceQuery = 0x401E, kSubresourceQuery = 0x401F;

struct Texture {
  size_t width, height;
};

// One array slice of a texture, as the model keeps it: the luma samples (width x height) then the
// chroma pairs (U V, width/2 x height/2), as stored (P010: the 10 bits << 6).
using Samples = std::vector<uint16_t>;

struct SliceObject {
  const Texture* texture;
  cl_uint slice;
};

// An image the driver gave for a plane of a slice object.
struct View {
  cl_mem slice, image;
  cl_uint plane;
};

struct Driver {
  cl_context context = nullptr;
  std::map<cl_mem, SliceObject> slices;  // the driver's slice objects
  std::map<std::pair<const Texture*, cl_uint>, Samples> memory;  // the slices whose data moves
  std::vector<View> views;
  std::map<cl_mem, Samples> given;  // per slice object: its memory when last acquired
  int conflicts = 0;
  std::map<cl_mem, bool> acquired;
  std::vector<std::pair<const void*, cl_uint>> created;  // texture, slice
  std::vector<cl_mem> made;                              // the slice objects, in order
  std::vector<std::vector<cl_mem>> acquires, releases;
  cl_channel_type plane_type = CL_UNSIGNED_INT8;
  cl_channel_order chroma_order = CL_RG;
  cl_int fail_next = CL_SUCCESS;
};
Driver* driver = nullptr;

cl_mem image(cl_context context, cl_image_format format, size_t width, size_t height, cl_int* err) {
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = width;
  desc.image_height = height;
  return clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, nullptr, err);
}

cl_mem CL_API_CALL create(cl_context context, cl_mem_flags flags, void* texture, cl_uint slice, cl_int* err) {
  const auto* t = static_cast<const Texture*>(texture);
  cl_mem mem = clCreateBuffer(context, flags, t->width * t->height * 3 / 2, nullptr, err);
  if (mem) {
    clRetainMemObject(mem);  // the test's own, to watch the count
    driver->slices[mem] = {t, slice};
    driver->created.emplace_back(texture, slice);
    driver->made.push_back(mem);
  }
  return mem;
}

// Records an image as a view of a slice's plane. Views are not watched for their end: the tests
// that move data keep their planes until they are done.
cl_mem watch(View view) {
  if (view.image) driver->views.push_back(view);
  return view.image;
}

// Where plane sample (x, y, channel) of a slice lives in its Samples.
size_t sample_index(const Texture& t, cl_uint plane, size_t x, size_t y, size_t channel) {
  return plane == 0 ? y * t.width + x : t.width * t.height + (y * (t.width / 2) + x) * 2 + channel;
}

struct ViewLayout {
  size_t width, height, channels, bytes;
};
ViewLayout layout_of(cl_mem image) {
  ViewLayout l{};
  cl_image_format f{};
  clGetImageInfo(image, CL_IMAGE_WIDTH, sizeof l.width, &l.width, nullptr);
  clGetImageInfo(image, CL_IMAGE_HEIGHT, sizeof l.height, &l.height, nullptr);
  clGetImageInfo(image, CL_IMAGE_FORMAT, sizeof f, &f, nullptr);
  l.channels = f.image_channel_order == CL_R ? 1 : f.image_channel_order == CL_RG ? 2 : 4;
  const bool wide = f.image_channel_data_type == CL_UNSIGNED_INT16 || f.image_channel_data_type == CL_UNORM_INT16;
  l.bytes = wide ? 2 : 1;
  return l;
}

// Copies a view's plane between the slice's samples and the image (blocking, on `queue`).
// `back`: image -> samples, where the image differs from `given`; else samples -> image.
void move_view(cl_command_queue queue, const View& view, const Texture& t, Samples& memory, const Samples& given,
               bool back, std::vector<int>& changed_to) {
  const ViewLayout l = layout_of(view.image);
  std::vector<unsigned char> pixels(l.width * l.height * l.channels * l.bytes, 0);
  const size_t origin[3] = {0, 0, 0}, region[3] = {l.width, l.height, 1};
  if (back) clEnqueueReadImage(queue, view.image, CL_TRUE, origin, region, 0, 0, pixels.data(), 0, nullptr, nullptr);
  const size_t used = view.plane == 0 ? 1 : 2;
  for (size_t y = 0; y < l.height; ++y)
    for (size_t x = 0; x < l.width; ++x)
      for (size_t c = 0; c < used; ++c) {
        unsigned char* p = &pixels[((y * l.width + x) * l.channels + c) * l.bytes];
        const size_t at = sample_index(t, view.plane, x, y, c);
        if (!back) {
          p[0] = static_cast<unsigned char>(memory[at]);
          if (l.bytes == 2) p[1] = static_cast<unsigned char>(memory[at] >> 8);
          continue;
        }
        const int now = l.bytes == 2 ? p[0] | (p[1] << 8) : p[0];
        if (now == given[at]) continue;
        if (changed_to[at] >= 0 && changed_to[at] != now) ++driver->conflicts;
        changed_to[at] = now;
        memory[at] = static_cast<uint16_t>(now);
      }
  if (!back) clEnqueueWriteImage(queue, view.image, CL_TRUE, origin, region, 0, 0, pixels.data(), 0, nullptr, nullptr);
}

// The data an acquire (release) of a slice object moves, where the test gave the slice memory.
void move_slice(cl_command_queue queue, cl_mem slice, bool acquire) {
  const SliceObject& object = driver->slices[slice];
  auto memory = driver->memory.find({object.texture, object.slice});
  if (memory == driver->memory.end()) return;
  Samples& given = driver->given[slice];
  if (acquire) given = memory->second;
  std::vector<int> changed_to(memory->second.size(), -1);
  for (const View& v : driver->views)
    if (v.slice == slice) move_view(queue, v, *object.texture, memory->second, given, !acquire, changed_to);
}

cl_mem CL_API_CALL get_plane(cl_context context, cl_mem slice, cl_uint plane, cl_int* err) {
  auto it = driver->slices.find(slice);
  if (it == driver->slices.end() || plane > 1) {
    *err = it == driver->slices.end() ? CL_INVALID_MEM_OBJECT : CL_INVALID_VALUE;
    return nullptr;
  }
  const Texture& t = *it->second.texture;
  cl_image_format format = {plane ? driver->chroma_order : CL_R, driver->plane_type};
  cl_mem view = image(context, format, plane ? t.width / 2 : t.width, plane ? t.height / 2 : t.height, err);
  return watch({slice, view, plane});
}

cl_mem CL_API_CALL convert(cl_context context, cl_mem from, const cl_image_format* format, cl_int* err) {
  size_t width = 0, height = 0;
  clGetImageInfo(from, CL_IMAGE_WIDTH, sizeof width, &width, nullptr);
  clGetImageInfo(from, CL_IMAGE_HEIGHT, sizeof height, &height, nullptr);
  cl_mem converted = image(context, *format, width, height, err);
  // The plane's view becomes the converted image's: clvf releases the image it converted.
  for (View& v : driver->views)
    if (v.image == from && converted) v.image = converted;
  return converted;
}

cl_int transfer(bool acquire, cl_command_queue queue, cl_uint n, const cl_mem* objects, cl_uint num_events,
                const cl_event* wait_list, cl_event* event) {
  if (cl_int err = std::exchange(driver->fail_next, CL_SUCCESS); err != CL_SUCCESS) return err;
  for (cl_uint i = 0; i < n; ++i) {
    if (!driver->slices.count(objects[i])) return CL_INVALID_MEM_OBJECT;
    if (driver->acquired[objects[i]] == acquire) return acquire ? -1008 : -1009;
  }
  for (cl_uint i = 0; i < n; ++i) driver->acquired[objects[i]] = acquire;
  (acquire ? driver->acquires : driver->releases).emplace_back(objects, objects + n);
  if (num_events) clWaitForEvents(num_events, wait_list);
  for (cl_uint i = 0; i < n; ++i) move_slice(queue, objects[i], acquire);
  return clEnqueueMarkerWithWaitList(queue, num_events, wait_list, event);
}
cl_int CL_API_CALL acquire(cl_command_queue q, cl_uint n, const cl_mem* o, cl_uint ne, const cl_event* w, cl_event* e) {
  return transfer(true, q, n, o, ne, w, e);
}
cl_int CL_API_CALL release(cl_command_queue q, cl_uint n, const cl_mem* o, cl_uint ne, const cl_event* w, cl_event* e) {
  return transfer(false, q, n, o, ne, w, e);
}

cl_uint references(cl_mem mem) {
  cl_uint n = 0;
  clGetMemObjectInfo(mem, CL_MEM_REFERENCE_COUNT, sizeof n, &n, nullptr);
  return n;
}

class AmdPlanes : public ::testing::Test {
 protected:
  void SetUp() override {
    const cl_platform_id platform = test::find_test_platform();
    ASSERT_NE(platform, nullptr) << "no OpenCL platform matches CLVF_TEST_PLATFORM";
    cl_device_id device = nullptr;
    ASSERT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr), CL_SUCCESS);
    cl_int err = CL_SUCCESS;
    context_ = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    queue_ = clCreateCommandQueue(context_, device, 0, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    model_.context = context_;
    // PoCL has no CL_RG images; the chroma plane's channel order does not matter to the translation.
    if (!supported(context_, {CL_RG, CL_UNSIGNED_INT8}) || !supported(context_, {CL_RG, CL_UNORM_INT8}))
      model_.chroma_order = CL_RGBA;
    driver = &model_;
    functions_ = {&create, &get_plane, &convert, &acquire, &release};
    set_amd_planar_functions(platform, functions_);
  }

  void TearDown() override {
    for (cl_mem m : planes_) clReleaseMemObject(m);
    Registry::get().collect();
    for (auto& [slice, object] : model_.slices) {
      EXPECT_EQ(references(slice), 1u) << "only the test's own reference is left";
      clReleaseMemObject(slice);
    }
    clReleaseCommandQueue(queue_);
    clReleaseContext(context_);
    driver = nullptr;
  }

  // The KHR object for `subresource` (2 × slice + plane) of `texture`.
  cl_mem plane(const Texture& texture, cl_uint subresource, cl_mem_flags flags = CL_MEM_READ_ONLY,
               cl_int* err_out = nullptr) {
    SharedMem info;
    info.context = context_;
    info.family = &kFamily;
    info.flags = flags;
    info.key = {&texture, subresource};
    info.mem_info[kResourceQuery] = info_bytes(&texture);
    info.image_info[kSubresourceQuery] = info_bytes(subresource);
    cl_int err = -1;
    Registry& registry = Registry::get();
    cl_mem mem = nullptr;
    {
      auto held = registry.lock();
      mem = create_amd_plane(registry, functions_, std::move(info), const_cast<Texture*>(&texture),
                             subresource / 2, subresource % 2, &err);
    }
    if (err_out) *err_out = err;
    if (mem) planes_.push_back(mem);
    return mem;
  }

  void drop(cl_mem mem) {
    planes_.erase(std::find(planes_.begin(), planes_.end(), mem));
    clReleaseMemObject(mem);
    Registry::get().collect();
  }

  cl_int transfer(bool acquire, std::vector<cl_mem> objects, cl_event* event = nullptr) {
    return amd_enqueue_transfer(kFamily, acquire, queue_, static_cast<cl_uint>(objects.size()), objects.data(), 0,
                                nullptr, event);
  }

  cl_mem slice_object(size_t index) const { return index < model_.made.size() ? model_.made[index] : nullptr; }

  Driver model_;
  AmdPlanarFunctions functions_;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  std::vector<cl_mem> planes_;
};

cl_image_format format_of(cl_mem mem) {
  cl_image_format f = {};
  clGetImageInfo(mem, CL_IMAGE_FORMAT, sizeof f, &f, nullptr);
  return f;
}
size_t image_size(cl_mem mem, cl_image_info which) {
  size_t n = 0;
  clGetImageInfo(mem, which, sizeof n, &n, nullptr);
  return n;
}

TEST_F(AmdPlanes, PlanesOfOneSliceShareOneDriverObject) {
  const Texture texture{64, 36};
  cl_mem luma = plane(texture, 0), chroma = plane(texture, 1, CL_MEM_READ_WRITE), next = plane(texture, 2);
  ASSERT_TRUE(luma && chroma && next);
  ASSERT_EQ(model_.created.size(), 2u) << "one driver object per array slice";
  EXPECT_EQ(model_.created[0].second, 0u);
  EXPECT_EQ(model_.created[1].second, 1u);
  EXPECT_EQ(format_of(luma).image_channel_order, static_cast<cl_channel_order>(CL_R));
  EXPECT_EQ(format_of(luma).image_channel_data_type, static_cast<cl_channel_type>(CL_UNORM_INT8));
  EXPECT_EQ(format_of(chroma).image_channel_order, model_.chroma_order);
  EXPECT_EQ(format_of(chroma).image_channel_data_type, static_cast<cl_channel_type>(CL_UNORM_INT8));
  EXPECT_EQ(image_size(luma, CL_IMAGE_WIDTH), 64u);
  EXPECT_EQ(image_size(chroma, CL_IMAGE_HEIGHT), 18u);
  // The extension's queries, and the flags each plane was created with.
  cl_uint subresource = 0;
  EXPECT_EQ(clvfGetImageInfo(chroma, kSubresourceQuery, sizeof subresource, &subresource, nullptr), CL_SUCCESS);
  EXPECT_EQ(subresource, 1u);
  const void* resource = nullptr;
  EXPECT_EQ(clvfGetMemObjectInfo(next, kResourceQuery, sizeof resource, &resource, nullptr), CL_SUCCESS);
  EXPECT_EQ(resource, &texture);
  cl_mem_flags flags = 0;
  EXPECT_EQ(clvfGetMemObjectInfo(luma, CL_MEM_FLAGS, sizeof flags, &flags, nullptr), CL_SUCCESS);
  EXPECT_EQ(flags, static_cast<cl_mem_flags>(CL_MEM_READ_ONLY));
  EXPECT_EQ(clvfGetMemObjectInfo(chroma, CL_MEM_FLAGS, sizeof flags, &flags, nullptr), CL_SUCCESS);
  EXPECT_EQ(flags, static_cast<cl_mem_flags>(CL_MEM_READ_WRITE));
}

TEST_F(AmdPlanes, SameSubresourceTwiceIsRefused) {
  const Texture texture{32, 32};
  ASSERT_NE(plane(texture, 1), nullptr);
  cl_int err = 0;
  EXPECT_EQ(plane(texture, 1, CL_MEM_READ_ONLY, &err), nullptr);
  EXPECT_EQ(err, kFamily.invalid_resource);
  EXPECT_EQ(model_.created.size(), 1u);
}

TEST_F(AmdPlanes, SixteenBitPlanesBecomeUnorm16) {
  model_.plane_type = CL_UNSIGNED_INT16;
  if (!supported(context_, {CL_R, CL_UNSIGNED_INT16}) || !supported(context_, {CL_R, CL_UNORM_INT16}))
    GTEST_SKIP() << "the device has no 16-bit single-channel images";
  const Texture p010{16, 16};
  cl_mem luma = plane(p010, 0);
  ASSERT_NE(luma, nullptr);
  EXPECT_EQ(format_of(luma).image_channel_data_type, static_cast<cl_channel_type>(CL_UNORM_INT16));
}

TEST_F(AmdPlanes, UnknownPlaneTypeIsRefusedAndNothingLeaks) {
  model_.plane_type = CL_FLOAT;
  if (!supported(context_, {CL_R, CL_FLOAT})) GTEST_SKIP() << "the device has no float images";
  const Texture texture{16, 16};
  cl_int err = 0;
  EXPECT_EQ(plane(texture, 0, CL_MEM_READ_ONLY, &err), nullptr);
  EXPECT_EQ(err, CL_IMAGE_FORMAT_NOT_SUPPORTED);
  ASSERT_EQ(model_.slices.size(), 1u);
  EXPECT_EQ(references(slice_object(0)), 1u) << "the slice object of a failed plane is released";
}

TEST_F(AmdPlanes, SliceObjectLivesWhileAnyPlaneDoes) {
  const Texture texture{32, 32};
  cl_mem luma = plane(texture, 0), chroma = plane(texture, 1);
  ASSERT_TRUE(luma && chroma);
  cl_mem slice = slice_object(0);
  EXPECT_EQ(references(slice), 2u);
  drop(luma);
  EXPECT_EQ(references(slice), 2u);
  drop(chroma);
  EXPECT_EQ(references(slice), 1u) << "released when its last plane is";
  // A new plane of the same slice makes a new driver object.
  ASSERT_NE(plane(texture, 1), nullptr);
  EXPECT_EQ(model_.created.size(), 2u);
}

TEST_F(AmdPlanes, SliceIsAcquiredWithItsFirstPlaneAndReleasedWithItsLast) {
  const Texture texture{32, 32};
  cl_mem luma = plane(texture, 0), chroma = plane(texture, 1);
  ASSERT_TRUE(luma && chroma);
  ASSERT_EQ(transfer(true, {luma}), CL_SUCCESS);
  ASSERT_EQ(model_.acquires.size(), 1u);
  EXPECT_EQ(model_.acquires[0], std::vector<cl_mem>{slice_object(0)});
  // The slice is already held: the second plane's acquire only orders, and reports its kind.
  cl_event event = nullptr;
  ASSERT_EQ(transfer(true, {chroma}, &event), CL_SUCCESS);
  EXPECT_EQ(model_.acquires.size(), 1u);
  ASSERT_NE(event, nullptr);
  cl_command_type type = 0;
  EXPECT_EQ(clvfGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
  EXPECT_EQ(type, kFamily.acquire_command);
  EXPECT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  clReleaseEvent(event);
  EXPECT_EQ(transfer(true, {luma}), kFamily.already_acquired);
  ASSERT_EQ(transfer(false, {luma}), CL_SUCCESS);
  EXPECT_TRUE(model_.releases.empty()) << "the chroma plane still holds the slice";
  ASSERT_EQ(transfer(false, {chroma}), CL_SUCCESS);
  ASSERT_EQ(model_.releases.size(), 1u);
  EXPECT_EQ(model_.releases[0], std::vector<cl_mem>{slice_object(0)});
  EXPECT_EQ(transfer(false, {chroma}), kFamily.not_acquired);
  EXPECT_EQ(clFinish(queue_), CL_SUCCESS);
}

TEST_F(AmdPlanes, MixedListIsOneDriverCall) {
  const Texture a{32, 32}, b{16, 16};
  cl_mem a0 = plane(a, 0), a1 = plane(a, 1), b0 = plane(b, 0);
  ASSERT_TRUE(a0 && a1 && b0);
  // A single-plane texture: the driver's own object, passed through untouched.
  cl_int err = 0;
  const Texture rgba{8, 8};
  cl_mem own = create(context_, CL_MEM_READ_WRITE, const_cast<Texture*>(&rgba), 0, &err);
  ASSERT_NE(own, nullptr);
  cl_event event = nullptr;
  ASSERT_EQ(transfer(true, {a0, own, a1, b0}, &event), CL_SUCCESS);
  ASSERT_EQ(model_.acquires.size(), 1u);
  std::vector<cl_mem> expected = {slice_object(0), own, slice_object(1)};
  std::vector<cl_mem> got = model_.acquires[0];
  std::sort(expected.begin(), expected.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expected);
  EXPECT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  clReleaseEvent(event);
  ASSERT_EQ(transfer(false, {a1, b0, own, a0}), CL_SUCCESS);
  ASSERT_EQ(model_.releases.size(), 1u);
  EXPECT_EQ(model_.releases[0].size(), 3u);
  // Lists of only the driver's objects go to the driver as they are.
  EXPECT_EQ(transfer(true, {own}), CL_SUCCESS);
  EXPECT_EQ(model_.acquires.back(), std::vector<cl_mem>{own});
  EXPECT_EQ(transfer(false, {own}), CL_SUCCESS);
  clFinish(queue_);
  clReleaseMemObject(own);  // the test's reference stays until TearDown
}

TEST_F(AmdPlanes, AllOrNothing) {
  const Texture texture{32, 32};
  cl_mem luma = plane(texture, 0), chroma = plane(texture, 1);
  ASSERT_TRUE(luma && chroma);
  EXPECT_EQ(transfer(true, {luma, chroma, luma}), kFamily.already_acquired);
  EXPECT_TRUE(model_.acquires.empty());
  // The driver refuses: no plane changes state.
  model_.fail_next = CL_OUT_OF_RESOURCES;
  EXPECT_EQ(transfer(true, {luma, chroma}), CL_OUT_OF_RESOURCES);
  EXPECT_EQ(transfer(false, {luma}), kFamily.not_acquired);
  ASSERT_EQ(transfer(true, {luma, chroma}), CL_SUCCESS);
  EXPECT_EQ(model_.acquires.size(), 1u);
  model_.fail_next = CL_OUT_OF_RESOURCES;
  EXPECT_EQ(transfer(false, {luma, chroma}), CL_OUT_OF_RESOURCES);
  EXPECT_EQ(transfer(true, {chroma}), kFamily.already_acquired);
  ASSERT_EQ(transfer(false, {luma, chroma}), CL_SUCCESS);
  clFinish(queue_);
}

TEST_F(AmdPlanes, PlaneOfAnotherContextIsRefused) {
  const Texture texture{32, 32};
  cl_mem luma = plane(texture, 0);
  ASSERT_NE(luma, nullptr);
  cl_device_id device = nullptr;
  clGetCommandQueueInfo(queue_, CL_QUEUE_DEVICE, sizeof device, &device, nullptr);
  cl_int err = 0;
  cl_context other = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  cl_command_queue queue = clCreateCommandQueue(other, device, 0, &err);
  EXPECT_EQ(amd_enqueue_transfer(kFamily, true, queue, 1, &luma, 0, nullptr, nullptr), CL_INVALID_CONTEXT);
  EXPECT_TRUE(model_.acquires.empty());
  clReleaseCommandQueue(queue);
  clReleaseContext(other);
}

// Values, not only objects: a kernel reads each KHR plane of a slice as AMD's driver holds it
// (UNSIGNED_INT images re-typed to UNORM), with integer and with float coordinates, and writes
// them back; the slice's memory must then hold what was written, and the other slice nothing new.
// Read as UNSIGNED_INT (the conversion left out), read_imagef's values are undefined: the green
// frames AMD users report.
const char* kPlaneKernels = R"CLC(
__constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__kernel void read_plane(__read_only image2d_t plane, __global float4 *out) {
  const int x = get_global_id(0), y = get_global_id(1), i = y * get_global_size(0) + x;
  out[2 * i] = read_imagef(plane, nearest, (int2)(x, y));
  out[2 * i + 1] = read_imagef(plane, nearest, (float2)(x + 0.5f, y + 0.5f));
}
__kernel void write_plane(__write_only image2d_t plane, __global const float4 *in) {
  const int x = get_global_id(0), y = get_global_id(1);
  write_imagef(plane, (int2)(x, y), in[y * get_global_size(0) + x]);
}
)CLC";

class AmdPlaneValues : public AmdPlanes, public ::testing::WithParamInterface<int> {
 protected:
  void SetUp() override {
    AmdPlanes::SetUp();
    bits_ = GetParam();
    if (bits_ > 8) {
      model_.plane_type = CL_UNSIGNED_INT16;
      for (cl_image_format f : {cl_image_format{CL_R, CL_UNSIGNED_INT16}, {CL_R, CL_UNORM_INT16},
                                {model_.chroma_order, CL_UNSIGNED_INT16}, {model_.chroma_order, CL_UNORM_INT16}})
        if (!supported(context_, f)) GTEST_SKIP() << "the device has no 16-bit images of the planes' formats";
    }
    cl_int err = CL_SUCCESS;
    program_ = clCreateProgramWithSource(context_, 1, &kPlaneKernels, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    ASSERT_EQ(clBuildProgram(program_, 0, nullptr, "", nullptr, nullptr), CL_SUCCESS);
  }
  void TearDown() override {
    if (program_) clReleaseProgram(program_);
    AmdPlanes::TearDown();
  }

  // A stored sample of a random (bits)-bit value; P010 keeps its 10 bits in the high ones.
  uint16_t stored(unsigned value) const { return static_cast<uint16_t>(bits_ > 8 ? value << 6 : value); }
  unsigned value_of(uint16_t sample) const { return bits_ > 8 ? sample >> 6 : sample; }
  float norm() const { return bits_ > 8 ? 65535.0f : 255.0f; }

  Samples random_slice(const Texture& t, unsigned seed) const {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<unsigned> value(0, (1u << bits_) - 1);
    Samples s(t.width * t.height * 3 / 2);
    for (uint16_t& v : s) v = stored(value(rng));
    return s;
  }

  // Each sample of `plane` (1: U V pairs) read by the kernel at integer and float coordinates.
  std::vector<float> read(cl_mem plane, const Texture& t, cl_uint which) {
    const size_t w = which ? t.width / 2 : t.width, h = which ? t.height / 2 : t.height;
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program_, "read_plane", &err);
    cl_mem out = clCreateBuffer(context_, CL_MEM_WRITE_ONLY, w * h * 2 * sizeof(cl_float4), nullptr, &err);
    clSetKernelArg(kernel, 0, sizeof plane, &plane);
    clSetKernelArg(kernel, 1, sizeof out, &out);
    const size_t global[2] = {w, h};
    EXPECT_EQ(clEnqueueNDRangeKernel(queue_, kernel, 2, nullptr, global, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
    std::vector<float> values(w * h * 8, -1.0f);
    clEnqueueReadBuffer(queue_, out, CL_TRUE, 0, values.size() * sizeof(float), values.data(), 0, nullptr, nullptr);
    clReleaseMemObject(out);
    clReleaseKernel(kernel);
    return values;
  }

  void write(cl_mem plane, const Texture& t, cl_uint which, const std::vector<cl_float4>& values) {
    const size_t w = which ? t.width / 2 : t.width, h = which ? t.height / 2 : t.height;
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program_, "write_plane", &err);
    cl_mem in = clCreateBuffer(context_, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, w * h * sizeof(cl_float4),
                               const_cast<cl_float4*>(values.data()), &err);
    clSetKernelArg(kernel, 0, sizeof plane, &plane);
    clSetKernelArg(kernel, 1, sizeof in, &in);
    const size_t global[2] = {w, h};
    EXPECT_EQ(clEnqueueNDRangeKernel(queue_, kernel, 2, nullptr, global, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
    clFinish(queue_);
    clReleaseMemObject(in);
    clReleaseKernel(kernel);
  }

  // Every sample of the slice read through its two planes equals `expected` (both coordinate forms).
  void expect_read(cl_mem luma, cl_mem chroma, const Texture& t, const Samples& expected) {
    int wrong = 0;
    for (cl_uint which : {0u, 1u}) {
      const std::vector<float> got = read(which ? chroma : luma, t, which);
      const size_t w = which ? t.width / 2 : t.width, h = which ? t.height / 2 : t.height;
      for (size_t y = 0; y < h; ++y)
        for (size_t x = 0; x < w; ++x)
          for (size_t c = 0; c < (which ? 2u : 1u); ++c)
            for (size_t form = 0; form < 2; ++form) {
              const float v = got[((y * w + x) * 2 + form) * 4 + c];
              const uint16_t want = expected[sample_index(t, which, x, y, c)];
              if (!(std::fabs(v - want / norm()) <= 1e-6f) && wrong++ < 5)
                ADD_FAILURE() << "plane " << which << " (" << x << ", " << y << ") channel " << c
                              << (form ? " float" : " int") << " coordinates: " << v << ", expected " << want
                              << " / " << norm();
            }
    }
    EXPECT_EQ(wrong, 0);
  }

  int bits_ = 8;
  cl_program program_ = nullptr;
};

TEST_P(AmdPlaneValues, KernelsReadTheTexturesSamplesAndTheirWritesReachIt) {
  const Texture texture{48, 22};
  const Samples slice0 = random_slice(texture, 1), slice1 = random_slice(texture, 2);
  model_.memory[{&texture, 0}] = slice0;
  model_.memory[{&texture, 1}] = slice1;
  cl_mem luma = plane(texture, 2, CL_MEM_READ_WRITE), chroma = plane(texture, 3, CL_MEM_READ_WRITE);
  ASSERT_TRUE(luma && chroma);
  ASSERT_EQ(transfer(true, {luma, chroma}), CL_SUCCESS);
  expect_read(luma, chroma, texture, slice1);

  // Written back: each sample's complement (in the stored form: the 10 bits of P010 stay high).
  Samples complement(slice1.size());
  for (size_t i = 0; i < slice1.size(); ++i) complement[i] = stored((1u << bits_) - 1 - value_of(slice1[i]));
  for (cl_uint which : {0u, 1u}) {
    const size_t w = which ? texture.width / 2 : texture.width, h = which ? texture.height / 2 : texture.height;
    std::vector<cl_float4> values(w * h);
    for (size_t y = 0; y < h; ++y)
      for (size_t x = 0; x < w; ++x) {
        const float a = complement[sample_index(texture, which, x, y, 0)] / norm();
        const float b = which ? complement[sample_index(texture, which, x, y, 1)] / norm() : 0.0f;
        values[y * w + x] = {{a, b, 0.0f, 1.0f}};
      }
    write(which ? chroma : luma, texture, which, values);
  }
  ASSERT_EQ(transfer(false, {luma, chroma}), CL_SUCCESS);
  clFinish(queue_);
  EXPECT_EQ(model_.conflicts, 0);
  EXPECT_TRUE((model_.memory[{&texture, 1}] == complement)) << "the kernel's writes reached the texture";
  EXPECT_TRUE((model_.memory[{&texture, 0}] == slice0)) << "the other slice is untouched";

  // Acquired again through one plane: the slice comes in as written.
  ASSERT_EQ(transfer(true, {luma, chroma}), CL_SUCCESS);
  expect_read(luma, chroma, texture, complement);
  ASSERT_EQ(transfer(false, {chroma, luma}), CL_SUCCESS);
  clFinish(queue_);
  EXPECT_TRUE((model_.memory[{&texture, 1}] == complement)) << "reading changes nothing";
}

INSTANTIATE_TEST_SUITE_P(Nv12AndP010, AmdPlaneValues, ::testing::Values(8, 10),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return info.param == 8 ? std::string("NV12") : std::string("P010");
                         });

}  // namespace
}  // namespace clvf::detail::interop
