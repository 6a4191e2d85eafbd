// The OpenCL conformance tests' D3D11 and DX9 media matrices, as cases of our own (not their
// code): buffers of several sizes x bind flags x usages; 2D textures over R / RG / RGBA formats x
// sizes x mip levels x array slices; DX9 surfaces for each adapter type x context made from a
// device list or a type x NV12 / YV12 x user sync off and on, planes read by a kernel with integer
// and with float coordinates and written back by a kernel. Each object Direct3D can make is written by Direct3D, shared, acquired,
// read in OpenCL (and checked), written by OpenCL, released, and read back by Direct3D (and
// checked); textures also answer the format, size and subresource queries. Combinations this
// Direct3D refuses to create are counted and printed, not failed.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "cl_formats.hpp"
#include "d3d_env.hpp"

namespace clvf::detail::test {
namespace {

class CtsMatrix : public ::testing::Test {
 protected:
  void SetUp() override {
    device = make_d3d11_device();
    ASSERT_TRUE(device);
    device->GetImmediateContext(&ctx);
    context = d3d11_context(device.Get());
    ASSERT_NE(context->get(), nullptr);
  }
  ComPtr<ID3D11Device> device;
  ComPtr<ID3D11DeviceContext> ctx;
  std::unique_ptr<Context> context;
};

struct BufferKind {
  D3D11_USAGE usage;
  UINT bind, cpu;
  const char* name;
};

// Direct3D's own way in for each usage: initial data (default), a discarding map (dynamic), a map
// (staging).
ComPtr<ID3D11Buffer> filled_buffer(ID3D11Device* device, ID3D11DeviceContext* ctx, UINT size, const BufferKind& k,
                                   const Bytes& data) {
  D3D11_BUFFER_DESC desc = {size, k.usage, k.bind, k.cpu, 0, 0};
  D3D11_SUBRESOURCE_DATA init = {data.data(), 0, 0};
  ComPtr<ID3D11Buffer> buffer;
  if (FAILED(device->CreateBuffer(&desc, k.usage == D3D11_USAGE_DEFAULT ? &init : nullptr, &buffer))) return nullptr;
  if (k.usage == D3D11_USAGE_DEFAULT) return buffer;
  D3D11_MAPPED_SUBRESOURCE m;
  if (FAILED(ctx->Map(buffer.Get(), 0, k.usage == D3D11_USAGE_DYNAMIC ? D3D11_MAP_WRITE_DISCARD : D3D11_MAP_WRITE, 0,
                      &m)))
    return nullptr;
  std::memcpy(m.pData, data.data(), size);
  ctx->Unmap(buffer.Get(), 0);
  return buffer;
}

TEST_F(CtsMatrix, BuffersOfEverySizeBindAndUsage) {
  const BufferKind kinds[] = {
      {D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, "default vertex"},
      {D3D11_USAGE_DEFAULT, D3D11_BIND_INDEX_BUFFER, 0, "default index"},
      {D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, "default constant"},
      {D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, "default shader resource"},
      {D3D11_USAGE_DEFAULT, D3D11_BIND_STREAM_OUTPUT, 0, "default stream output"},
      {D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER, 0, "default vertex+index"},
      {D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE, "dynamic vertex"},
      {D3D11_USAGE_DYNAMIC, D3D11_BIND_CONSTANT_BUFFER, D3D11_CPU_ACCESS_WRITE, "dynamic constant"},
      {D3D11_USAGE_DYNAMIC, D3D11_BIND_SHADER_RESOURCE, D3D11_CPU_ACCESS_WRITE, "dynamic shader resource"},
      {D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE, "staging"},
  };
  const Sharing& s = sharing();
  int ran = 0;
  std::string refused;
  for (UINT size : {16u, 64u, 4096u, 4112u, 65536u, 1u << 20}) {
    for (const BufferKind& k : kinds) {
      const std::string what = std::string(k.name) + ", " + std::to_string(size) + " bytes";
      const Bytes data = random_bytes(size, size + k.bind + 7 * k.usage);
      auto buffer = filled_buffer(device.Get(), ctx.Get(), size, k, data);
      if (!buffer) {
        refused += "  " + what + "\n";
        continue;
      }
      cl_int err = -1;
      cl_mem mem = s.create_buffer(context->get(), CL_MEM_READ_WRITE, buffer.Get(), &err);
      ASSERT_EQ(err, CL_SUCCESS) << what;
      ASSERT_EQ(s.acquire_d3d11(context->queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS) << what;
      EXPECT_EQ(read_cl_buffer(context->queue(), mem, size), data) << "Direct3D -> OpenCL, " << what;
      invert_with_kernel(context->get(), context->queue(), mem, size);
      ASSERT_EQ(s.release_d3d11(context->queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS) << what;
      EXPECT_EQ(read_buffer(device.Get(), buffer.Get()), inverted(data)) << "OpenCL -> Direct3D, " << what;
      clReleaseMemObject(mem);
      ++ran;
    }
  }
  std::printf("CtsMatrix buffers: %d ran; refused by this Direct3D:\n%s", ran, refused.empty() ? "  none\n" : refused.c_str());
  EXPECT_GT(ran, 0);
}

struct TextureFormat {
  DXGI_FORMAT dxgi;
  cl_image_format cl;
  size_t bytes;
  const char* name;
};

size_t image_info(cl_mem image, cl_image_info what) {
  size_t v = 0;
  clvfGetImageInfo(image, what, sizeof v, &v, nullptr);
  return v;
}

TEST_F(CtsMatrix, TexturesOfEveryFormatSizeMipAndSlice) {
  const TextureFormat formats[] = {
      {DXGI_FORMAT_R8_UNORM, {CL_R, CL_UNORM_INT8}, 1, "R8_UNORM"},
      {DXGI_FORMAT_R16_UNORM, {CL_R, CL_UNORM_INT16}, 2, "R16_UNORM"},
      {DXGI_FORMAT_R16_FLOAT, {CL_R, CL_HALF_FLOAT}, 2, "R16_FLOAT"},
      {DXGI_FORMAT_R32_FLOAT, {CL_R, CL_FLOAT}, 4, "R32_FLOAT"},
      {DXGI_FORMAT_R8G8_UNORM, {CL_RG, CL_UNORM_INT8}, 2, "R8G8_UNORM"},
      {DXGI_FORMAT_R16G16_UNORM, {CL_RG, CL_UNORM_INT16}, 4, "R16G16_UNORM"},
      {DXGI_FORMAT_R32G32_FLOAT, {CL_RG, CL_FLOAT}, 8, "R32G32_FLOAT"},
      {DXGI_FORMAT_R8G8B8A8_UNORM, {CL_RGBA, CL_UNORM_INT8}, 4, "R8G8B8A8_UNORM"},
      {DXGI_FORMAT_B8G8R8A8_UNORM, {CL_BGRA, CL_UNORM_INT8}, 4, "B8G8R8A8_UNORM"},
      {DXGI_FORMAT_R16G16B16A16_UNORM, {CL_RGBA, CL_UNORM_INT16}, 8, "R16G16B16A16_UNORM"},
      {DXGI_FORMAT_R32G32B32A32_FLOAT, {CL_RGBA, CL_FLOAT}, 16, "R32G32B32A32_FLOAT"},
  };
  struct Size {
    UINT w, h;
  };
  const Sharing& s = sharing();
  int ran = 0, unsupported = 0;
  std::string refused;
  for (const TextureFormat& f : formats) {
    const bool cl_has = supported(context->get(), f.cl);
    for (Size size : {Size{4, 4}, Size{17, 3}, Size{130, 66}}) {
      for (UINT mips : {1u, 3u}) {
        for (UINT slices : {1u, 3u}) {
          const std::string what = fmt::format("{} {}x{}, {} mips, {} slices", f.name, size.w, size.h, mips, slices);
          auto texture = make_texture(device.Get(), size.w, size.h, f.dxgi, mips, slices);
          if (!texture) {
            refused += "  " + what + "\n";
            continue;
          }
          for (UINT sub = 0; sub < mips * slices; ++sub) {
            const UINT mip = sub % mips, w = std::max(1u, size.w >> mip), h = std::max(1u, size.h >> mip);
            const std::string at = what + ", subresource " + std::to_string(sub);
            cl_int err = -1;
            cl_mem image = s.create_texture2d(context->get(), CL_MEM_READ_WRITE, texture.Get(), sub, &err);
            if (!cl_has) {  // the device has no such images: refused, and said why
              EXPECT_EQ(image, nullptr) << at;
              EXPECT_EQ(err, CL_IMAGE_FORMAT_NOT_SUPPORTED) << at;
              ++unsupported;
              break;
            }
            ASSERT_EQ(err, CL_SUCCESS) << at;
            cl_image_format got{};
            clvfGetImageInfo(image, CL_IMAGE_FORMAT, sizeof got, &got, nullptr);
            EXPECT_EQ(got.image_channel_order, f.cl.image_channel_order) << at;
            EXPECT_EQ(got.image_channel_data_type, f.cl.image_channel_data_type) << at;
            EXPECT_EQ(image_info(image, CL_IMAGE_WIDTH), w) << at;
            EXPECT_EQ(image_info(image, CL_IMAGE_HEIGHT), h) << at;
            EXPECT_EQ(image_info(image, CL_IMAGE_ELEMENT_SIZE), f.bytes) << at;
            UINT asked = 99;
            clvfGetImageInfo(image, CL_IMAGE_D3D11_SUBRESOURCE_KHR, sizeof asked, &asked, nullptr);
            EXPECT_EQ(asked, sub) << at;
            ID3D11Resource* resource = nullptr;
            clvfGetMemObjectInfo(image, CL_MEM_D3D11_RESOURCE_KHR, sizeof resource, &resource, nullptr);
            EXPECT_EQ(static_cast<void*>(resource), static_cast<void*>(texture.Get())) << at;

            // Float formats get finite values (no NaN bit patterns to compare).
            Bytes in = random_bytes(w * h * f.bytes, 31 * sub + w), out = random_bytes(w * h * f.bytes, 57 * sub + h);
            if (f.cl.image_channel_data_type == CL_FLOAT || f.cl.image_channel_data_type == CL_HALF_FLOAT)
              for (Bytes* b : {&in, &out})
                for (size_t i = f.cl.image_channel_data_type == CL_FLOAT ? 3 : 1; i < b->size(); i += f.cl.image_channel_data_type == CL_FLOAT ? 4 : 2)
                  (*b)[i] &= 0x3f;
            write_subresource(device.Get(), texture.Get(), sub, w * f.bytes, h, in);
            ASSERT_EQ(s.acquire_d3d11(context->queue(), 1, &image, 0, nullptr, nullptr), CL_SUCCESS) << at;
            EXPECT_EQ(read_cl_image(context->queue(), image, w, h, f.bytes), in) << "Direct3D -> OpenCL, " << at;
            write_cl_image(context->queue(), image, w, h, f.bytes, out);
            ASSERT_EQ(s.release_d3d11(context->queue(), 1, &image, 0, nullptr, nullptr), CL_SUCCESS) << at;
            EXPECT_EQ(read_subresource(device.Get(), texture.Get(), sub, w * f.bytes, h), out)
                << "OpenCL -> Direct3D, " << at;
            clReleaseMemObject(image);
            ++ran;
          }
        }
      }
    }
  }
  std::printf("CtsMatrix textures: %d subresources ran, %d textures refused for want of the device's image format; "
              "refused by this Direct3D:\n%s",
              ran, unsupported, refused.empty() ? "  none\n" : refused.c_str());
  EXPECT_GT(ran, 0);
}

const char* kPlaneKernels = R"(
__constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
uchar q(float v) { return convert_uchar_sat_rte(v * 255.0f); }
kernel void read_plane(read_only image2d_t img, global uchar* by_int, global uchar* by_float, int channels) {
  const int x = get_global_id(0), y = get_global_id(1);
  const size_t i = ((size_t)y * get_image_width(img) + x) * channels;
  const float4 a = read_imagef(img, nearest, (int2)(x, y));
  const float4 b = read_imagef(img, nearest, (float2)(x + 0.5f, y + 0.5f));
  by_int[i] = q(a.x);
  by_float[i] = q(b.x);
  if (channels == 2) by_int[i + 1] = q(a.y), by_float[i + 1] = q(b.y);
}
kernel void write_plane(write_only image2d_t img, global const uchar* from, int channels) {
  const int x = get_global_id(0), y = get_global_id(1);
  const size_t i = ((size_t)y * get_image_width(img) + x) * channels;
  write_imagef(img, (int2)(x, y), (float4)(from[i] / 255.0f, channels == 2 ? from[i + 1] / 255.0f : 0.0f, 0.0f, 1.0f));
}
)";

void run_plane_kernel(cl_context context, cl_command_queue queue, const char* name, cl_mem image, cl_mem a, cl_mem b,
                      int channels, size_t w, size_t h) {
  cl_device_id device = nullptr;
  clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof device, &device, nullptr);
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &kPlaneKernels, nullptr, &err);
  ASSERT_EQ(clBuildProgram(program, 1, &device, "", nullptr, nullptr), CL_SUCCESS);
  cl_kernel kernel = clCreateKernel(program, name, &err);
  ASSERT_EQ(err, CL_SUCCESS) << name;
  cl_uint arg = 0;
  clSetKernelArg(kernel, arg++, sizeof image, &image);
  clSetKernelArg(kernel, arg++, sizeof a, &a);
  if (b) clSetKernelArg(kernel, arg++, sizeof b, &b);
  clSetKernelArg(kernel, arg++, sizeof channels, &channels);
  const size_t global[2] = {w, h};
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, kernel, 2, nullptr, global, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clFinish(queue), CL_SUCCESS);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

TEST(CtsMatrixDX9, SurfacesOfEveryAdapterContextFormatAndSync) {
  auto d9 = make_d3d9ex_device();
  ASSERT_TRUE(d9);
  ComPtr<IDirect3DDeviceManager9> manager;
  const std::vector<DX9Adapter> adapters = dx9_adapters(d9.Get(), manager);
  ASSERT_EQ(adapters.size(), 3u) << "a DXVA2 device manager for the device";
  const UINT w = 34, h = 18;
  const Sharing& s = sharing();
  int planes_ran = 0, planes_unsupported = 0;
  for (const DX9Adapter& a : adapters)
    for (bool from_type : {false, true})
      for (D3DFORMAT format : {kNV12, kYV12})
        for (cl_context_properties user_sync : {CL_FALSE, CL_TRUE}) {
          const std::string what = fmt::format("{}, context from {}, {}, user sync {}", a.name,
                                               from_type ? "a type" : "a device list",
                                               format == kNV12 ? "NV12" : "YV12", user_sync);
          const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(test_platform()),
                                                 a.key, reinterpret_cast<cl_context_properties>(a.object),
                                                 CL_CONTEXT_INTEROP_USER_SYNC, user_sync, 0};
          cl_int err = CL_SUCCESS;
          cl_device_id device = test_device();
          cl_context context = from_type ? clvfCreateContextFromType(props, CL_DEVICE_TYPE_ALL, nullptr, nullptr, &err)
                                         : clvfCreateContext(props, 1, &device, nullptr, nullptr, &err);
          ASSERT_NE(context, nullptr) << what << ": " << err;
          clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof device, &device, nullptr);
          cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
          auto surface = make_surface(d9.Get(), w, h, format);
          ASSERT_TRUE(surface) << what;
          const cl_uint planes = format == kNV12 ? 2 : 3;
          for (cl_uint plane = 0; plane < planes; ++plane) {
            const std::string at = what + ", plane " + std::to_string(plane);
            const int channels = format == kNV12 && plane == 1 ? 2 : 1;
            const size_t pw = plane ? w / 2 : w, ph = plane ? h / 2 : h, bytes = pw * ph * channels;
            const Bytes in = random_bytes(bytes, 11 * plane + a.type + (from_type ? 5 : 0)), out = random_bytes(bytes, 3 * plane + 99);
            write_plane(surface.Get(), plane, in);
            cl_dx9_surface_info_khr info = {surface.Get(), nullptr};
            cl_mem image = s.create_surface(context, CL_MEM_READ_WRITE, a.type, &info, plane, &err);
            if (channels == 2 && !supported(context, {CL_RG, CL_UNORM_INT8})) {
              EXPECT_EQ(image, nullptr) << at;
              EXPECT_EQ(err, CL_IMAGE_FORMAT_NOT_SUPPORTED) << at;
              ++planes_unsupported;
              continue;
            }
            ASSERT_EQ(err, CL_SUCCESS) << at;
            cl_mem by_int = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
            cl_mem by_float = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
            ASSERT_EQ(s.acquire_dx9(queue, 1, &image, 0, nullptr, nullptr), CL_SUCCESS) << at;
            run_plane_kernel(context, queue, "read_plane", image, by_int, by_float, channels, pw, ph);
            EXPECT_EQ(read_cl_buffer(queue, by_int, bytes), in) << "integer coordinates, " << at;
            EXPECT_EQ(read_cl_buffer(queue, by_float, bytes), in) << "float coordinates, " << at;
            write_cl_buffer(queue, by_int, out);
            run_plane_kernel(context, queue, "write_plane", image, by_int, nullptr, channels, pw, ph);
            cl_event released = nullptr;
            ASSERT_EQ(s.release_dx9(queue, 1, &image, 0, nullptr, &released), CL_SUCCESS) << at;
            if (user_sync == CL_TRUE) clWaitForEvents(1, &released);  // the application's part with user sync
            clReleaseEvent(released);
            EXPECT_EQ(read_plane(surface.Get(), plane), out) << "written back by a kernel, " << at;
            clReleaseMemObject(by_int);
            clReleaseMemObject(by_float);
            clReleaseMemObject(image);
            ++planes_ran;
          }
          clReleaseCommandQueue(queue);
          clReleaseContext(context);
        }
  std::printf("CtsMatrixDX9: 24 cases, %d planes ran, %d refused for want of CL_RG images\n", planes_ran,
              planes_unsupported);
  EXPECT_GT(planes_ran, 0);
}

}  // namespace
}  // namespace clvf::detail::test
