// Operations on Direct3D frames through the C API (CLVF_STORAGE_DXVA2 / D3D11 on a device from
// clvf_device_open_d3d): each result must equal, byte for byte, the same operation on OpenCL
// images holding the same planes (the same kernels run on both).
#include <cstdio>
#include <string>

#include "clvf/clvf.hpp"
#include "d3d_env.hpp"
#include "nv_driver_model.hpp"

namespace clvf::detail::test {
namespace {

struct Planes {
  Bytes y, u, v;
};

Planes random_planes(UINT w, UINT h, uint32_t seed) {
  return {random_bytes(w * h, seed), random_bytes(w * h / 4, seed + 1), random_bytes(w * h / 4, seed + 2)};
}

void write_yv12(IDirect3DSurface9* s, const Planes& p) {
  write_plane(s, 0, p.y);
  write_plane(s, 1, p.u);
  write_plane(s, 2, p.v);
}

Planes read_yv12(IDirect3DSurface9* s) { return {read_plane(s, 0), read_plane(s, 1), read_plane(s, 2)}; }

bool operator==(const Planes& a, const Planes& b) { return a.y == b.y && a.u == b.u && a.v == b.v; }

// The reference: the operation on plain CL_R images of the planes, on a device of the same platform.
class ImageFrame {
 public:
  ImageFrame(cl_context context, cl_command_queue queue, UINT w, UINT h, const Planes* data)
      : queue_(queue), w_(w), h_(h) {
    const cl_image_format format = {CL_R, CL_UNORM_INT8};
    for (int i = 0; i < 3; ++i) {
      cl_image_desc desc = {};
      desc.image_type = CL_MEM_OBJECT_IMAGE2D;
      desc.image_width = i ? w / 2 : w;
      desc.image_height = i ? h / 2 : h;
      mems_[i] = clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, nullptr, nullptr);
      if (data) write_cl_image(queue, mems_[i], desc.image_width, desc.image_height, 1, i == 0 ? data->y : i == 1 ? data->u : data->v);
      frame.planes[i].mem = mems_[i];
    }
    frame.storage = CLVF_STORAGE_CL_IMAGE;
  }
  ~ImageFrame() {
    for (cl_mem m : mems_) clReleaseMemObject(m);
  }
  Planes read() const {
    return {read_cl_image(queue_, mems_[0], w_, h_, 1), read_cl_image(queue_, mems_[1], w_ / 2, h_ / 2, 1),
            read_cl_image(queue_, mems_[2], w_ / 2, h_ / 2, 1)};
  }
  clvf_frame frame{};

 private:
  cl_command_queue queue_;
  UINT w_, h_;
  cl_mem mems_[3] = {};
};

// CLVF_TEST_PLATFORM, copied once: a pointer from getenv dies with the next _putenv_s.
const char* test_spec() {
  static const std::string spec = std::getenv("CLVF_TEST_PLATFORM") ? std::getenv("CLVF_TEST_PLATFORM") : "";
  return spec.c_str();
}

clvf_frame dxva2_frame(IDirect3DSurface9* s) {
  clvf_frame f{};
  f.storage = CLVF_STORAGE_DXVA2;
  f.d3d_resource = s;
  return f;
}

class D3DFrames : public ::testing::Test {
 protected:
  void SetUp() override {
    d9 = make_d3d9ex_device();
    ASSERT_TRUE(d9);
    ASSERT_EQ(clvf_device_open_d3d(kSpec, CLVF_D3D9EX, d9.Get(), &shared), CLVF_OK) << clvf_last_error();
    ASSERT_EQ(clvf_device_open(kSpec, &plain), CLVF_OK) << clvf_last_error();
    clvf_device_handles(plain, &context, nullptr, &queue);
  }
  void TearDown() override {
    clvf_device_release(shared);
    clvf_device_release(plain);
  }
  const char* kSpec = test_spec();
  ComPtr<IDirect3DDevice9Ex> d9;
  clvf_device *shared = nullptr, *plain = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
};

TEST_F(D3DFrames, ScaleDXVA2SurfacesEqualsImages) {
  const UINT sw = 96, sh = 54, dw = 64, dh = 36;
  clvf_scale_params p;
  clvf_scale_params_default(&p);
  p.format = CLVF_PIX_YUV420P;
  p.src_width = sw, p.src_height = sh, p.dst_width = dw, p.dst_height = dh;
  p.algorithm = CLVF_SCALE_BICUBIC;
  p.src_storage = p.dst_storage = CLVF_STORAGE_CL_IMAGE;
  clvf_scale* reference = nullptr;
  ASSERT_EQ(clvf_scale_create(plain, &p, &reference), CLVF_OK) << clvf_last_error();
  p.src_storage = p.dst_storage = CLVF_STORAGE_DXVA2;
  clvf_scale* scale = nullptr;
  ASSERT_EQ(clvf_scale_create(shared, &p, &scale), CLVF_OK) << clvf_last_error();

  // A pool of two source surfaces, used in turn (imported once each, then kept).
  ComPtr<IDirect3DSurface9> pool[2] = {make_surface(d9.Get(), sw, sh, kYV12), make_surface(d9.Get(), sw, sh, kYV12)};
  auto out = make_surface(d9.Get(), dw, dh, kYV12);
  const ULONG pool_refs = ref_count(pool[0].Get());
  for (uint32_t frame = 0; frame < 4; ++frame) {
    Planes in = random_planes(sw, sh, 10 * frame);
    IDirect3DSurface9* src = pool[frame % 2].Get();
    write_yv12(src, in);
    clvf_frame s = dxva2_frame(src), d = dxva2_frame(out.Get());
    ASSERT_EQ(clvf_scale_process(scale, &s, &d), CLVF_OK) << clvf_last_error();
    ImageFrame ref_in(context, queue, sw, sh, &in), ref_out(context, queue, dw, dh, nullptr);
    ASSERT_EQ(clvf_scale_process(reference, &ref_in.frame, &ref_out.frame), CLVF_OK) << clvf_last_error();
    EXPECT_TRUE(read_yv12(out.Get()) == ref_out.read()) << "frame " << frame;
  }
  EXPECT_EQ(ref_count(pool[0].Get()), pool_refs + 3) << "imported once, used twice: its three planes stay imported";
  clvf_scale_release(scale);
  clvf_scale_release(reference);
  EXPECT_TRUE(eventually([&] { return ref_count(pool[0].Get()) == pool_refs; })) << "released with the operation";
}

// A decoder that makes a new pool (a seek, a new stream) lets go of the old surfaces: clvf gives
// back its references to one once 64 frames have gone by without it, and keeps those in use.
TEST_F(D3DFrames, ASurfaceUnusedForAPoolsWorthOfFramesIsLetGo) {
  const UINT w = 32, h = 16;
  clvf_scale_params p;
  clvf_scale_params_default(&p);
  p.format = CLVF_PIX_YUV420P;
  p.src_width = p.dst_width = w, p.src_height = p.dst_height = h;
  p.src_storage = p.dst_storage = CLVF_STORAGE_DXVA2;
  clvf_scale* scale = nullptr;
  ASSERT_EQ(clvf_scale_create(shared, &p, &scale), CLVF_OK) << clvf_last_error();
  auto old_pool = make_surface(d9.Get(), w, h, kYV12), new_pool = make_surface(d9.Get(), w, h, kYV12);
  auto out = make_surface(d9.Get(), w, h, kYV12);
  const ULONG unimported = ref_count(old_pool.Get());
  const auto run = [&](IDirect3DSurface9* src) {
    clvf_frame s = dxva2_frame(src), d = dxva2_frame(out.Get());
    return clvf_scale_process(scale, &s, &d);
  };
  ASSERT_EQ(run(old_pool.Get()), CLVF_OK) << clvf_last_error();
  EXPECT_EQ(ref_count(old_pool.Get()), unimported + 3) << "its three planes imported";
  for (int frame = 0; frame < 64; ++frame) ASSERT_EQ(run(new_pool.Get()), CLVF_OK) << clvf_last_error();
  EXPECT_EQ(ref_count(old_pool.Get()), unimported + 3) << "64 frames since its last use: kept";
  ASSERT_EQ(run(new_pool.Get()), CLVF_OK) << clvf_last_error();
  EXPECT_TRUE(eventually([&] { return ref_count(old_pool.Get()) == unimported; }))
      << "65 frames since its last use: let go (" << ref_count(old_pool.Get()) << " references)";
  EXPECT_EQ(ref_count(new_pool.Get()), unimported + 3) << "the surface in use stays imported";
  ASSERT_EQ(run(old_pool.Get()), CLVF_OK) << "imported again when it comes back: " << clvf_last_error();
  clvf_scale_release(scale);
}

// NV12 (or P010) DXVA2 surfaces through scale on a device without CL_RG images (buffers), against
// host frames (the same buffer kernels).
void scale_nv12_through_buffers(IDirect3DDevice9Ex* d9, clvf_device* shared, clvf_device* plain,
                                clvf_pixel_format format = CLVF_PIX_NV12) {
  const UINT sw = 100, sh = 60, dw = 64, dh = 36;
  const size_t b = format == CLVF_PIX_P010 ? 2 : 1;  // bytes per sample
  const D3DFORMAT d3d = format == CLVF_PIX_P010 ? kP010 : kNV12;
  clvf_scale_params p;
  clvf_scale_params_default(&p);
  p.format = format;
  p.src_width = sw, p.src_height = sh, p.dst_width = dw, p.dst_height = dh;
  p.algorithm = CLVF_SCALE_SPLINE36;
  clvf_scale* reference = nullptr;
  ASSERT_EQ(clvf_scale_create(plain, &p, &reference), CLVF_OK) << clvf_last_error();
  p.src_storage = p.dst_storage = CLVF_STORAGE_DXVA2;
  clvf_scale* scale = nullptr;
  ASSERT_EQ(clvf_scale_create(shared, &p, &scale), CLVF_OK) << clvf_last_error();
  auto src = make_surface(d9, sw, sh, d3d), dst = make_surface(d9, dw, dh, d3d);
  ASSERT_TRUE(src && dst);
  for (uint32_t frame = 0; frame < 3; ++frame) {
    Bytes y = random_bytes(sw * sh * b, 300 + frame), uv = random_bytes(sw * sh / 2 * b, 400 + frame);
    write_plane(src.Get(), 0, y);
    write_plane(src.Get(), 1, uv);
    clvf_frame s = dxva2_frame(src.Get()), d = dxva2_frame(dst.Get());
    ASSERT_EQ(clvf_scale_process(scale, &s, &d), CLVF_OK) << clvf_last_error();
    Bytes ry(dw * dh * b, 0xEE), ruv(dw * dh / 2 * b, 0xEE);
    clvf_frame hs{}, hd{};
    hs.storage = hd.storage = CLVF_STORAGE_HOST;
    hs.planes[0] = {y.data(), nullptr, 0, sw * b};
    hs.planes[1] = {uv.data(), nullptr, 0, sw * b};
    hd.planes[0] = {ry.data(), nullptr, 0, dw * b};
    hd.planes[1] = {ruv.data(), nullptr, 0, dw * b};
    ASSERT_EQ(clvf_scale_process(reference, &hs, &hd), CLVF_OK) << clvf_last_error();
    EXPECT_EQ(read_plane(dst.Get(), 0), ry) << "luma, frame " << frame;
    EXPECT_EQ(read_plane(dst.Get(), 1), ruv) << "chroma, frame " << frame;
  }
  // The surfaces are unlocked again: Direct3D can lock them.
  D3DLOCKED_RECT r;
  ASSERT_TRUE(SUCCEEDED(src->LockRect(&r, nullptr, 0)));
  src->UnlockRect();
  ASSERT_TRUE(SUCCEEDED(dst->LockRect(&r, nullptr, 0)));
  dst->UnlockRect();
  clvf_scale_release(scale);
  clvf_scale_release(reference);
}

TEST_F(D3DFrames, NV12SurfacesWithoutRGImagesUsedInPlace) {
  if (device_has_rg()) GTEST_SKIP() << "this device has CL_RG images: NV12 surfaces are shared as images";
  scale_nv12_through_buffers(d9.Get(), shared, plain);  // PoCL shares host memory: the locked surface in place
}

// P010 surfaces (10 bits in the top of 16, NV12's layout): where Wine makes them.
TEST_F(D3DFrames, P010SurfacesWithoutRGImagesUsedInPlace) {
  if (device_has_rg()) GTEST_SKIP() << "this device has CL_RG images: P010 surfaces are shared as images";
  if (!make_surface(d9.Get(), 16, 16, kP010)) GTEST_SKIP() << "this Direct3D 9 makes no P010 offscreen surfaces";
  scale_nv12_through_buffers(d9.Get(), shared, plain, CLVF_PIX_P010);
}

TEST_F(D3DFrames, NV12SurfacesWithoutRGImagesCopiedThroughBuffers) {
  if (device_has_rg()) GTEST_SKIP() << "this device has CL_RG images: NV12 surfaces are shared as images";
  _putenv_s("CLVF_NO_ZERO_COPY", "1");  // as on a discrete GPU: copies into device buffers
  clvf_device *shared_copy = nullptr, *plain_copy = nullptr;
  ASSERT_EQ(clvf_device_open_d3d(kSpec, CLVF_D3D9EX, d9.Get(), &shared_copy), CLVF_OK) << clvf_last_error();
  ASSERT_EQ(clvf_device_open(kSpec, &plain_copy), CLVF_OK) << clvf_last_error();
  _putenv_s("CLVF_NO_ZERO_COPY", "");
  scale_nv12_through_buffers(d9.Get(), shared_copy, plain_copy);
  clvf_device_release(shared_copy);
  clvf_device_release(plain_copy);
}

TEST_F(D3DFrames, ColorspaceDXVA2SurfacesEqualsImages) {
  const UINT w = 64, h = 40;
  clvf_colorspace_params p;
  clvf_colorspace_params_default(&p);
  p.src_format = p.dst_format = CLVF_PIX_YUV420P;
  p.width = w, p.height = h;
  p.src_matrix = CLVF_MATRIX_SMPTE170M;
  p.dst_matrix = CLVF_MATRIX_BT709;
  p.src_storage = p.dst_storage = CLVF_STORAGE_CL_IMAGE;
  clvf_colorspace *reference = nullptr, *convert = nullptr;
  ASSERT_EQ(clvf_colorspace_create(plain, &p, &reference), CLVF_OK) << clvf_last_error();
  p.src_storage = p.dst_storage = CLVF_STORAGE_DXVA2;
  ASSERT_EQ(clvf_colorspace_create(shared, &p, &convert), CLVF_OK) << clvf_last_error();
  auto src = make_surface(d9.Get(), w, h, kYV12), dst = make_surface(d9.Get(), w, h, kYV12);
  Planes in = random_planes(w, h, 77);
  write_yv12(src.Get(), in);
  clvf_frame s = dxva2_frame(src.Get()), d = dxva2_frame(dst.Get());
  ASSERT_EQ(clvf_colorspace_process(convert, &s, &d), CLVF_OK) << clvf_last_error();
  ImageFrame ref_in(context, queue, w, h, &in), ref_out(context, queue, w, h, nullptr);
  ASSERT_EQ(clvf_colorspace_process(reference, &ref_in.frame, &ref_out.frame), CLVF_OK) << clvf_last_error();
  EXPECT_TRUE(read_yv12(dst.Get()) == ref_out.read());
  EXPECT_FALSE(read_yv12(dst.Get()) == in) << "the conversion changed the picture";
  clvf_colorspace_release(convert);
  clvf_colorspace_release(reference);
}

// A BGRA -> RGBA conversion (B and R swapped) on D3D11 textures, on a device opened with
// profiling; `copy` is CLVF_D3D11_COPY's value while it opens.
struct D3D11Swap {
  void open(UINT w, UINT h, const char* copy = "") {
    device = make_d3d11_device();
    ASSERT_TRUE(device);
    device->GetImmediateContext(&ctx);
    clvf_request_profiling(1);
    _putenv_s("CLVF_D3D11_COPY", copy);
    const clvf_status opened = clvf_device_open_d3d(test_spec(), CLVF_D3D11, device.Get(), &shared);
    _putenv_s("CLVF_D3D11_COPY", "");
    clvf_request_profiling(0);
    ASSERT_EQ(opened, CLVF_OK) << clvf_last_error();
    clvf_colorspace_params p;
    clvf_colorspace_params_default(&p);
    p.width = w, p.height = h;
    p.src_format = CLVF_PIX_BGRA;
    p.dst_format = CLVF_PIX_RGBA;
    p.src_range = p.dst_range = CLVF_RANGE_PC;
    p.src_storage = p.dst_storage = CLVF_STORAGE_D3D11;
    ASSERT_EQ(clvf_colorspace_create(shared, &p, &convert), CLVF_OK) << clvf_last_error();
  }
  ~D3D11Swap() {
    clvf_colorspace_release(convert);
    clvf_device_release(shared);
  }
  // 12 frames from the slices of `src` in turn, each written right before the operation; every
  // output must be its frame swapped. `seed`: the frames' random contents.
  void run_slices(ID3D11Texture2D* src, ID3D11Texture2D* dst, UINT w, UINT h, UINT slices, uint32_t seed) {
    for (int frame = 0; frame < 12; ++frame) {
      const UINT slice = frame % slices;
      const Bytes in = random_bytes(w * h * 4, seed + frame);
      ctx->UpdateSubresource(src, slice, nullptr, in.data(), w * 4, 0);
      clvf_frame s{}, d{};
      s.storage = d.storage = CLVF_STORAGE_D3D11;
      s.d3d_resource = src;
      s.d3d_subresource = slice;
      d.d3d_resource = dst;
      ASSERT_EQ(clvf_colorspace_process(convert, &s, &d), CLVF_OK) << clvf_last_error();
      ASSERT_EQ(read_subresource(device.Get(), dst, 0, w * 4, h), expected(in)) << "frame " << frame;
    }
  }
  static Bytes expected(Bytes in) {
    for (size_t i = 0; i < in.size(); i += 4) std::swap(in[i], in[i + 2]);
    return in;
  }
  ComPtr<ID3D11Device> device;
  ComPtr<ID3D11DeviceContext> ctx;
  clvf_device* shared = nullptr;
  clvf_colorspace* convert = nullptr;
};

// D3D11: a BGRA texture array's second slice through colorspace into an RGBA texture (NV12
// textures do not copy faithfully under Wine), against the same conversion on images.
TEST(D3D11Frames, ColorspaceTextureSliceEqualsImages) {
  const UINT w = 48, h = 30;
  auto device = make_d3d11_device();
  ASSERT_TRUE(device);
  const char* spec = test_spec();
  clvf_device *shared = nullptr, *plain = nullptr;
  ASSERT_EQ(clvf_device_open_d3d(spec, CLVF_D3D11, device.Get(), &shared), CLVF_OK) << clvf_last_error();
  ASSERT_EQ(clvf_device_open(spec, &plain), CLVF_OK) << clvf_last_error();
  EXPECT_FALSE(clvf::Device::shared_with(CLVF_D3D11, device.Get(), spec).name().empty()) << "the C++ header's way";
  clvf_colorspace_params p;
  clvf_colorspace_params_default(&p);
  p.width = w, p.height = h;
  p.src_format = CLVF_PIX_BGRA;
  p.dst_format = CLVF_PIX_RGBA;
  p.src_range = p.dst_range = CLVF_RANGE_PC;  // RGB is full range
  p.src_storage = p.dst_storage = CLVF_STORAGE_D3D11;
  clvf_colorspace *convert = nullptr, *reference = nullptr;
  ASSERT_EQ(clvf_colorspace_create(shared, &p, &convert), CLVF_OK) << clvf_last_error();
  p.src_storage = p.dst_storage = CLVF_STORAGE_CL_IMAGE;
  ASSERT_EQ(clvf_colorspace_create(plain, &p, &reference), CLVF_OK) << clvf_last_error();

  auto src = make_texture(device.Get(), w, h, DXGI_FORMAT_B8G8R8A8_UNORM, 1, 2);
  auto dst = make_texture(device.Get(), w, h, DXGI_FORMAT_R8G8B8A8_UNORM);
  Bytes in = random_bytes(w * h * 4, 5);
  write_subresource(device.Get(), src.Get(), 1, w * 4, h, in);
  clvf_frame s{}, d{};
  s.storage = d.storage = CLVF_STORAGE_D3D11;
  s.d3d_resource = src.Get();
  s.d3d_subresource = 1;
  d.d3d_resource = dst.Get();
  ASSERT_EQ(clvf_colorspace_process(convert, &s, &d), CLVF_OK) << clvf_last_error();

  cl_context context;
  cl_command_queue queue;
  clvf_device_handles(plain, &context, nullptr, &queue);
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = w;
  desc.image_height = h;
  const cl_image_format bgra = {CL_BGRA, CL_UNORM_INT8}, rgba = {CL_RGBA, CL_UNORM_INT8};
  cl_mem ri = clCreateImage(context, CL_MEM_READ_WRITE, &bgra, &desc, nullptr, nullptr);
  cl_mem ro = clCreateImage(context, CL_MEM_READ_WRITE, &rgba, &desc, nullptr, nullptr);
  write_cl_image(queue, ri, w, h, 4, in);
  clvf_frame rs{}, rd{};
  rs.storage = rd.storage = CLVF_STORAGE_CL_IMAGE;
  rs.planes[0].mem = ri;
  rd.planes[0].mem = ro;
  ASSERT_EQ(clvf_colorspace_process(reference, &rs, &rd), CLVF_OK) << clvf_last_error();
  const Bytes expected = read_cl_image(queue, ro, w, h, 4);
  EXPECT_EQ(read_subresource(device.Get(), dst.Get(), 0, w * 4, h), expected);
  EXPECT_EQ(expected, D3D11Swap::expected(in));
  clReleaseMemObject(ri);
  clReleaseMemObject(ro);
  clvf_colorspace_release(convert);
  clvf_colorspace_release(reference);
  clvf_device_release(shared);
  clvf_device_release(plain);
}

// What decoders do: Direct3D writes the frame (UpdateSubresource, not flushed) right before it goes
// to the operation. Every one of 100 frames must come out from its own newest contents; the frames
// wait for the device before each acquire (interop/d3d_idle.hpp), and the profile says how long.
TEST(D3D11Frames, EveryFrameSeesTheWritesMadeJustBeforeIt) {
  const UINT w = 40, h = 24;
  D3D11Swap op;
  ASSERT_NO_FATAL_FAILURE(op.open(w, h));
  auto src = make_texture(op.device.Get(), w, h, DXGI_FORMAT_B8G8R8A8_UNORM);
  auto dst = make_texture(op.device.Get(), w, h, DXGI_FORMAT_R8G8B8A8_UNORM);
  clvf_frame s{}, d{};
  s.storage = d.storage = CLVF_STORAGE_D3D11;
  s.d3d_resource = src.Get();
  d.d3d_resource = dst.Get();
  for (int frame = 0; frame < 100; ++frame) {
    const Bytes in = random_bytes(w * h * 4, 700 + frame);
    op.ctx->UpdateSubresource(src.Get(), 0, nullptr, in.data(), w * 4, 0);
    ASSERT_EQ(clvf_colorspace_process(op.convert, &s, &d), CLVF_OK) << clvf_last_error();
    ASSERT_EQ(read_subresource(op.device.Get(), dst.Get(), 0, w * 4, h), D3D11Swap::expected(in)) << "frame " << frame;
  }
  const std::string profile = clvf_colorspace_profile(op.convert);
  EXPECT_NE(profile.find("D3D11 source"), std::string::npos) << profile;
  EXPECT_NE(profile.find("100 frames  mean"), std::string::npos) << profile;
  EXPECT_NE(profile.find("ms waiting for Direct3D"), std::string::npos) << profile;
  std::printf("%s", profile.c_str());
}

// Inputs a driver will not share (made without D3D11_RESOURCE_MISC_SHARED, as FFmpeg's decoder
// pools) are copied on the GPU into shareable textures of clvf's; CLVF_D3D11_COPY=1 asks for that
// always, which is how it runs here (the emulation shares every texture). Slices of an array
// texture, written right before each frame, must come out as with the texture itself.
TEST(D3D11Frames, InputsCopiedIntoShareableTexturesGiveTheSameFrames) {
  const UINT w = 40, h = 24, slices = 3;
  D3D11Swap op;
  ASSERT_NO_FATAL_FAILURE(op.open(w, h, "1"));
  auto src = make_texture(op.device.Get(), w, h, DXGI_FORMAT_B8G8R8A8_UNORM, 1, slices);
  auto dst = make_texture(op.device.Get(), w, h, DXGI_FORMAT_R8G8B8A8_UNORM);
  const ULONG unshared = ref_count(src.Get());
  ASSERT_NO_FATAL_FAILURE(op.run_slices(src.Get(), dst.Get(), w, h, slices, 900));
  EXPECT_EQ(ref_count(src.Get()), unshared) << "the decoder's texture itself is not shared: its copies are";
  const std::string profile = clvf_colorspace_profile(op.convert);
  EXPECT_NE(profile.find("D3D11 source"), std::string::npos) << profile;
  EXPECT_NE(profile.find("copies into shareable textures included: 12 frames"), std::string::npos) << profile;
  EXPECT_NE(profile.find("copies into shareable textures included: 0 frames"), std::string::npos)
      << "outputs are never copied: " << profile;
}

// On NVIDIA's sharing (a model of its driver: tests/interop/nv_driver_model.hpp), clvf takes the
// driver's NV functions; a texture whose format the driver does not share is staged through host
// memory, frame after frame, and the other side of the operation stays shared. NV12 and P010 are
// the formats NVIDIA's table lacks; here the model also lacks BGRA (source) or RGBA (destination),
// because this Direct3D 11 (Wine) does not copy NV12 faithfully and PoCL has no CL_RG for its
// chroma: the path taken is the same one.
class NvidiaD3D11Frames : public ::testing::TestWithParam<DXGI_FORMAT> {};

TEST_P(NvidiaD3D11Frames, FormatsTheDriverDoesNotShareAreStagedThroughHostMemory) {
  const UINT w = 40, h = 24, slices = 3;
  NvDriverModel nvidia;
  nvidia.refused.insert(GetParam());
  const bool source_staged = GetParam() == DXGI_FORMAT_B8G8R8A8_UNORM;
  D3D11Swap op;
  ASSERT_NO_FATAL_FAILURE(op.open(w, h));
  auto src = make_texture(op.device.Get(), w, h, DXGI_FORMAT_B8G8R8A8_UNORM, 1, slices);
  auto dst = make_texture(op.device.Get(), w, h, DXGI_FORMAT_R8G8B8A8_UNORM);
  ASSERT_NO_FATAL_FAILURE(op.run_slices(src.Get(), dst.Get(), w, h, slices, 1100));
  EXPECT_GE(nvidia.textures_refused, 1) << "the driver's function was asked";
  EXPECT_GE(nvidia.textures_shared, 1) << "the other side went to the driver and was shared";
  const std::string profile = clvf_colorspace_profile(op.convert);
  const std::string staged = "staged through host memory, the driver sharing no such textures: ";
  const size_t source = profile.find("D3D11 source"), destination = profile.find("D3D11 destination");
  ASSERT_NE(source, std::string::npos) << profile;
  ASSERT_NE(destination, std::string::npos) << profile;
  EXPECT_NE(profile.find(staged + (source_staged ? "12" : "0") + " frames", source), std::string::npos) << profile;
  EXPECT_NE(profile.find(staged + (source_staged ? "0" : "12") + " frames", destination), std::string::npos)
      << profile;
}

INSTANTIATE_TEST_SUITE_P(SourceOrDestination, NvidiaD3D11Frames,
                         ::testing::Values(DXGI_FORMAT_B8G8R8A8_UNORM, DXGI_FORMAT_R8G8B8A8_UNORM),
                         [](const auto& info) {
                           return std::string(info.param == DXGI_FORMAT_B8G8R8A8_UNORM ? "Source" : "Destination");
                         });

// With the model, the KHR names lead to the driver's NV functions; DX9 stays clvf's emulation.
TEST(NvidiaD3D11Paths, KhrNamesLeadToTheDriversNvFunctions) {
  const cl_platform_id platform = test_platform();
  ASSERT_NE(platform, nullptr);
  void* emulated = clvfGetExtensionFunctionAddressForPlatform(platform, "clCreateFromD3D11Texture2DKHR");
  void* dx9 = clvfGetExtensionFunctionAddressForPlatform(platform, "clCreateFromDX9MediaSurfaceKHR");
  NvDriverModel nvidia;
  void* nv = clvfGetExtensionFunctionAddressForPlatform(platform, "clCreateFromD3D11Texture2DKHR");
  EXPECT_NE(nv, nullptr);
  EXPECT_NE(nv, emulated) << "the model's clCreateFromD3D11Texture2DNV, not the emulation";
  EXPECT_EQ(clvfGetExtensionFunctionAddressForPlatform(platform, "clCreateFromDX9MediaSurfaceKHR"), dx9)
      << "DX9 media sharing stays emulated (NVIDIA has no cl_khr_dx9_media_sharing)";
}

// A texture the sharing functions refuse (here: a subresource it does not have) is named with the
// call and its error; one made without D3D11_RESOURCE_MISC_SHARED also gets the hint that some
// drivers need the flag, one made with it does not.
TEST(D3D11Frames, ARefusedTextureNamesAMissingSharedFlag) {
  const UINT w = 16, h = 8;
  auto device = make_d3d11_device();
  ASSERT_TRUE(device);
  const char* spec = test_spec();
  clvf_device* shared = nullptr;
  ASSERT_EQ(clvf_device_open_d3d(spec, CLVF_D3D11, device.Get(), &shared), CLVF_OK) << clvf_last_error();
  clvf_colorspace_params p;
  clvf_colorspace_params_default(&p);
  p.width = w, p.height = h;
  p.src_format = p.dst_format = CLVF_PIX_RGBA;
  p.src_range = p.dst_range = CLVF_RANGE_PC;
  p.src_storage = p.dst_storage = CLVF_STORAGE_D3D11;
  clvf_colorspace* convert = nullptr;
  ASSERT_EQ(clvf_colorspace_create(shared, &p, &convert), CLVF_OK) << clvf_last_error();
  auto dst = make_texture(device.Get(), w, h, DXGI_FORMAT_R8G8B8A8_UNORM);
  for (UINT misc : {0u, UINT(D3D11_RESOURCE_MISC_SHARED)}) {
    D3D11_TEXTURE2D_DESC desc = {};
    desc.Width = w, desc.Height = h, desc.MipLevels = desc.ArraySize = 1;
    desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.SampleDesc = {1, 0};
    desc.BindFlags = D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET;
    desc.MiscFlags = misc;
    ComPtr<ID3D11Texture2D> src;
    if (FAILED(device->CreateTexture2D(&desc, nullptr, &src))) {
      ASSERT_NE(misc, 0u);
      GTEST_SKIP() << "this Direct3D 11 makes no D3D11_RESOURCE_MISC_SHARED textures";
    }
    clvf_frame s{}, d{};
    s.storage = d.storage = CLVF_STORAGE_D3D11;
    s.d3d_resource = src.Get();
    s.d3d_subresource = 3;  // one slice, one mip: no subresource 3
    d.d3d_resource = dst.Get();
    EXPECT_EQ(clvf_colorspace_process(convert, &s, &d), CLVF_ERROR_INVALID_ARGUMENT);
    const std::string error = clvf_last_error();
    EXPECT_NE(error.find("source D3D11 frame, plane 0: clCreateFromD3D11Texture2DKHR"), std::string::npos) << error;
    EXPECT_EQ(error.find("without D3D11_RESOURCE_MISC_SHARED") != std::string::npos, misc == 0) << error;
  }
  clvf_colorspace_release(convert);
  clvf_device_release(shared);
}

TEST_F(D3DFrames, ErrorsNameWhatIsWrong) {
  clvf_scale_params p;
  clvf_scale_params_default(&p);
  p.format = CLVF_PIX_YUV420P;
  p.src_width = p.src_height = 32;
  p.dst_width = p.dst_height = 16;
  p.src_storage = p.dst_storage = CLVF_STORAGE_DXVA2;
  clvf_scale* scale = nullptr;
  EXPECT_EQ(clvf_scale_create(plain, &p, &scale), CLVF_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(clvf_last_error()).find("clvf_device_open_d3d"), std::string::npos) << clvf_last_error();
  p.src_storage = p.dst_storage = CLVF_STORAGE_D3D11;
  EXPECT_EQ(clvf_scale_create(shared, &p, &scale), CLVF_ERROR_INVALID_ARGUMENT) << "D3D11 frames on a DXVA2 device";
  p.src_storage = p.dst_storage = CLVF_STORAGE_DXVA2;
  p.format = CLVF_PIX_YUV444P;
  EXPECT_EQ(clvf_scale_create(shared, &p, &scale), CLVF_ERROR_UNSUPPORTED);
  EXPECT_NE(std::string(clvf_last_error()).find("nv12, p010, yuv420p (YV12 surfaces)"), std::string::npos)
      << clvf_last_error();
  p.format = CLVF_PIX_YUV420P;
  ASSERT_EQ(clvf_scale_create(shared, &p, &scale), CLVF_OK) << clvf_last_error();
  auto out = make_surface(d9.Get(), 16, 16, kYV12);
  clvf_frame s = dxva2_frame(nullptr), d = dxva2_frame(out.Get());
  EXPECT_EQ(clvf_scale_process(scale, &s, &d), CLVF_ERROR_INVALID_ARGUMENT) << "no d3d_resource";
  auto nv12 = make_surface(d9.Get(), 32, 32, kNV12);
  s = dxva2_frame(nv12.Get());
  EXPECT_NE(clvf_scale_process(scale, &s, &d), CLVF_OK) << "an NV12 surface given as YV12";
  clvf_scale_release(scale);
  clvf_device* none = nullptr;
  EXPECT_EQ(clvf_device_open_d3d(kSpec, CLVF_D3D11, nullptr, &none), CLVF_ERROR_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace clvf::detail::test
