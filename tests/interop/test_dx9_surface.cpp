// Rules M1–M10: clCreateFromDX9MediaSurfaceKHR on real D3D9Ex surfaces, with E3 for every plane
// and the DX9 pair of acquire/release.
#include "d3d_env.hpp"

namespace clvf::detail::test {
namespace {

class DX9Surface : public ::testing::Test {
 protected:
  void SetUp() override {
    device = make_d3d9ex_device();
    ASSERT_TRUE(device) << "Direct3DCreate9Ex/CreateDeviceEx failed (is a display (Xvfb) set?)";
    context = std::make_unique<Context>(std::vector<cl_context_properties>{
        CL_CONTEXT_ADAPTER_D3D9EX_KHR, reinterpret_cast<cl_context_properties>(device.Get())});
    ASSERT_NE(context->get(), nullptr);
  }
  cl_mem share(IDirect3DSurface9* surface, cl_uint plane, cl_int* err = nullptr,
               cl_dx9_media_adapter_type_khr type = CL_ADAPTER_D3D9EX_KHR, cl_mem_flags flags = CL_MEM_READ_WRITE) {
    info = {surface, nullptr};
    return sharing().create_surface(context->get(), flags, type, &info, plane, err);
  }
  // Direct3D → OpenCL and back for one plane; returns false when the plane cannot be an image here.
  void round_trip(IDirect3DSurface9* surface, cl_uint plane, size_t width, size_t height, size_t pixel_bytes,
                  uint32_t seed) {
    Bytes in = random_bytes(width * height * pixel_bytes, seed), out = random_bytes(in.size(), seed + 1);
    write_plane(surface, plane, in, plane == 0 ? pixel_bytes : 1);
    cl_int err = -1;
    cl_mem image = share(surface, plane, &err);
    ASSERT_EQ(err, CL_SUCCESS) << "plane " << plane;
    const Sharing& s = sharing();
    ASSERT_EQ(s.acquire_dx9(context->queue(), 1, &image, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(read_cl_image(context->queue(), image, width, height, pixel_bytes), in) << "plane " << plane;
    write_cl_image(context->queue(), image, width, height, pixel_bytes, out);
    ASSERT_EQ(s.release_dx9(context->queue(), 1, &image, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(read_plane(surface, plane, plane == 0 ? pixel_bytes : 1), out) << "plane " << plane;
    clReleaseMemObject(image);
  }
  ComPtr<IDirect3DDevice9Ex> device;
  std::unique_ptr<Context> context;
  cl_dx9_surface_info_khr info = {};
};

TEST_F(DX9Surface, M1_EveryAdapterTypeMakesAContextAndSharesSurfaces) {
  ComPtr<IDirect3DDeviceManager9> manager;
  const std::vector<DX9Adapter> cases = dx9_adapters(device.Get(), manager);
  ASSERT_EQ(cases.size(), 3u) << "a DXVA2 device manager for the device";
  auto surface = make_surface(device.Get(), 32, 16, kNV12);
  for (const DX9Adapter& c : cases) {
    Context ctx({c.key, reinterpret_cast<cl_context_properties>(c.object)});
    ASSERT_NE(ctx.get(), nullptr) << c.name;
    cl_dx9_surface_info_khr i = {surface.Get(), nullptr};
    cl_int err = -1;
    cl_mem image = sharing().create_surface(ctx.get(), CL_MEM_READ_WRITE, c.type, &i, 0, &err);
    EXPECT_EQ(err, CL_SUCCESS) << c.name;
    if (image) clReleaseMemObject(image);
  }
  cl_int err = 0;
  EXPECT_EQ(share(surface.Get(), 0, &err, 0x1234), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE) << "an adapter type outside the three";
  err = 0;
  EXPECT_EQ(sharing().create_surface(context->get(), CL_MEM_READ_WRITE, CL_ADAPTER_D3D9EX_KHR, nullptr, 0, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE) << "no surface_info";
}

TEST_F(DX9Surface, M2_FlagsOtherThanTheThreeAreRefused) {
  auto surface = make_surface(device.Get(), 32, 16, kNV12);
  for (cl_mem_flags bad : {cl_mem_flags(0), cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY),
                           cl_mem_flags(CL_MEM_COPY_HOST_PTR)}) {
    cl_int err = 0;
    EXPECT_EQ(share(surface.Get(), 0, &err, CL_ADAPTER_D3D9EX_KHR, bad), nullptr);
    EXPECT_EQ(err, CL_INVALID_VALUE) << bad;
  }
  for (cl_mem_flags good : {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE}) {
    cl_int err = -1;
    cl_mem image = share(surface.Get(), 0, &err, CL_ADAPTER_D3D9EX_KHR, good);
    EXPECT_EQ(err, CL_SUCCESS) << good;
    clReleaseMemObject(image);
  }
}

TEST_F(DX9Surface, M3_NV12PlanesShapesFormatsAndData) {
  const UINT width = 48, height = 26;
  auto surface = make_surface(device.Get(), width, height, kNV12);
  ASSERT_TRUE(surface);
  round_trip(surface.Get(), 0, width, height, 1, 31);
  if (!device_has_rg()) {
    cl_int err = 0;
    EXPECT_EQ(share(surface.Get(), 1, &err), nullptr);
    EXPECT_EQ(err, CL_IMAGE_FORMAT_NOT_SUPPORTED) << "no CL_RG images on this device";
    return;
  }
  cl_mem uv = share(surface.Get(), 1);
  cl_image_format format;
  clvfGetImageInfo(uv, CL_IMAGE_FORMAT, sizeof format, &format, nullptr);
  EXPECT_EQ(format.image_channel_order, cl_channel_order(CL_RG));
  EXPECT_EQ(format.image_channel_data_type, cl_channel_type(CL_UNORM_INT8));
  clReleaseMemObject(uv);
  round_trip(surface.Get(), 1, width / 2, height / 2, 2, 33);
}

TEST_F(DX9Surface, M3_YV12PlaneOneIsU) {
  const UINT width = 40, height = 22;
  auto surface = make_surface(device.Get(), width, height, kYV12);
  ASSERT_TRUE(surface);
  // Distinct constant planes first: plane 1 must read U's value although V comes first in memory.
  write_plane(surface.Get(), 0, Bytes(width * height, 16));
  write_plane(surface.Get(), 1, Bytes(width * height / 4, 100));  // U
  write_plane(surface.Get(), 2, Bytes(width * height / 4, 200));  // V
  cl_mem u = share(surface.Get(), 1);
  ASSERT_NE(u, nullptr);
  ASSERT_EQ(sharing().acquire_dx9(context->queue(), 1, &u, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_cl_image(context->queue(), u, width / 2, height / 2, 1), Bytes(width * height / 4, 100));
  ASSERT_EQ(sharing().release_dx9(context->queue(), 1, &u, 0, nullptr, nullptr), CL_SUCCESS);
  clReleaseMemObject(u);
  for (cl_uint plane = 0; plane < 3; ++plane)
    round_trip(surface.Get(), plane, plane ? width / 2 : width, plane ? height / 2 : height, 1, 40 + plane);
}

TEST_F(DX9Surface, M3_SinglePlaneFormatsRoundTrip) {
  struct Case {
    D3DFORMAT format;
    size_t pixel_bytes;
  } cases[] = {{D3DFMT_X8R8G8B8, 4}, {D3DFMT_A8R8G8B8, 4}, {D3DFMT_L8, 1}};
  for (const Case& c : cases) {
    auto surface = make_surface(device.Get(), 19, 11, c.format);
    if (!surface) {
      ADD_FAILURE() << "CreateOffscreenPlainSurface refused format " << c.format;
      continue;
    }
    round_trip(surface.Get(), 0, 19, 11, c.pixel_bytes, 50 + c.format);
  }
}

TEST_F(DX9Surface, M4_PlaneThatDoesNotExist) {
  auto nv12 = make_surface(device.Get(), 16, 16, kNV12);
  auto yv12 = make_surface(device.Get(), 16, 16, kYV12);
  auto rgb = make_surface(device.Get(), 16, 16, D3DFMT_X8R8G8B8);
  for (auto [surface, plane] : {std::pair{nv12.Get(), 2u}, std::pair{yv12.Get(), 3u}, std::pair{rgb.Get(), 1u}}) {
    cl_int err = 0;
    EXPECT_EQ(share(surface, plane, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_VALUE) << "plane " << plane;
  }
}

TEST_F(DX9Surface, M5_InvalidSurfaces) {
  cl_int err = 0;
  EXPECT_EQ(share(nullptr, 0, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_DX9_MEDIA_SURFACE_KHR) << "NULL";
  auto system_memory = make_surface(device.Get(), 16, 16, D3DFMT_X8R8G8B8, D3DPOOL_SYSTEMMEM);
  ASSERT_TRUE(system_memory);
  err = 0;
  EXPECT_EQ(share(system_memory.Get(), 0, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_DX9_MEDIA_SURFACE_KHR) << "D3DPOOL_SYSTEMMEM";
  auto other_device = make_d3d9ex_device();
  auto foreign = make_surface(other_device.Get(), 16, 16, kNV12);
  err = 0;
  EXPECT_EQ(share(foreign.Get(), 0, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_DX9_MEDIA_SURFACE_KHR) << "another device's surface";
}

TEST_F(DX9Surface, M6_FormatOutsideTheTable) {
  auto surface = make_surface(device.Get(), 16, 16, D3DFMT_R5G6B5);
  ASSERT_TRUE(surface);
  cl_int err = 0;
  EXPECT_EQ(share(surface.Get(), 0, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
}

TEST_F(DX9Surface, M7_AdapterTypeTheContextLacks) {
  auto surface = make_surface(device.Get(), 16, 16, kNV12);
  cl_int err = 0;
  EXPECT_EQ(share(surface.Get(), 0, &err, CL_ADAPTER_DXVA_KHR), nullptr);
  EXPECT_EQ(err, CL_INVALID_OPERATION);
}

TEST_F(DX9Surface, M8_NullSharedHandleWorks) {
  auto surface = make_surface(device.Get(), 16, 8, D3DFMT_L8);
  round_trip(surface.Get(), 0, 16, 8, 1, 60);  // every share here passes shared_handle = NULL
}

TEST_F(DX9Surface, M9_SurfaceReferenceFollowsTheImage) {
  auto surface = make_surface(device.Get(), 16, 16, kNV12);
  const ULONG before = ref_count(surface.Get());
  cl_mem image = share(surface.Get(), 0);
  ASSERT_NE(image, nullptr);
  EXPECT_EQ(ref_count(surface.Get()), before + 1);
  clReleaseMemObject(image);
  EXPECT_TRUE(eventually([&] { return ref_count(surface.Get()) == before; }));
}

TEST_F(DX9Surface, M10_QueriesReturnWhatWasGiven) {
  const UINT width = 30, height = 18;
  auto surface = make_surface(device.Get(), width, height, kYV12);
  cl_mem image = share(surface.Get(), 2);
  ASSERT_NE(image, nullptr);
  cl_uint plane = 9;
  EXPECT_EQ(clvfGetImageInfo(image, CL_IMAGE_DX9_MEDIA_PLANE_KHR, sizeof plane, &plane, nullptr), CL_SUCCESS);
  EXPECT_EQ(plane, 2u);
  cl_dx9_surface_info_khr got = {};
  EXPECT_EQ(clvfGetMemObjectInfo(image, CL_MEM_DX9_MEDIA_SURFACE_INFO_KHR, sizeof got, &got, nullptr), CL_SUCCESS);
  EXPECT_EQ(got.resource, surface.Get());
  EXPECT_EQ(got.shared_handle, nullptr);
  cl_dx9_media_adapter_type_khr type = 0;
  EXPECT_EQ(clvfGetMemObjectInfo(image, CL_MEM_DX9_MEDIA_ADAPTER_TYPE_KHR, sizeof type, &type, nullptr), CL_SUCCESS);
  EXPECT_EQ(type, cl_dx9_media_adapter_type_khr(CL_ADAPTER_D3D9EX_KHR));
  size_t v = 0;
  clvfGetImageInfo(image, CL_IMAGE_WIDTH, sizeof v, &v, nullptr);
  EXPECT_EQ(v, width / 2);
  clvfGetImageInfo(image, CL_IMAGE_HEIGHT, sizeof v, &v, nullptr);
  EXPECT_EQ(v, height / 2);
  clvfGetImageInfo(image, CL_IMAGE_ELEMENT_SIZE, sizeof v, &v, nullptr);
  EXPECT_EQ(v, 1u);
  clvfGetImageInfo(image, CL_IMAGE_ROW_PITCH, sizeof v, &v, nullptr);
  EXPECT_EQ(v, width / 2) << "the plane's packed rows";
  clReleaseMemObject(image);
}

TEST_F(DX9Surface, AcquireReleaseStatesAndCommandTypes) {
  auto surface = make_surface(device.Get(), 16, 16, D3DFMT_L8);
  cl_mem image = share(surface.Get(), 0);
  const Sharing& s = sharing();
  EXPECT_EQ(s.release_dx9(context->queue(), 1, &image, 0, nullptr, nullptr), CL_DX9_MEDIA_SURFACE_NOT_ACQUIRED_KHR);
  cl_event event = nullptr;
  ASSERT_EQ(s.acquire_dx9(context->queue(), 1, &image, 0, nullptr, &event), CL_SUCCESS);
  cl_command_type type = 0;
  clvfGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_ACQUIRE_DX9_MEDIA_SURFACES_KHR));
  clReleaseEvent(event);
  EXPECT_EQ(s.acquire_dx9(context->queue(), 1, &image, 0, nullptr, nullptr), CL_DX9_MEDIA_SURFACE_ALREADY_ACQUIRED_KHR);
  EXPECT_EQ(s.acquire_d3d11(context->queue(), 1, &image, 0, nullptr, nullptr), CL_INVALID_CONTEXT)
      << "the D3D11 pair on a context made for DX9";
  ASSERT_EQ(s.release_dx9(context->queue(), 1, &image, 0, nullptr, &event), CL_SUCCESS);
  clvfGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_RELEASE_DX9_MEDIA_SURFACES_KHR));
  clReleaseEvent(event);
  clReleaseMemObject(image);
}

}  // namespace
}  // namespace clvf::detail::test
