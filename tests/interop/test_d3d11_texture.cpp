// Rules T1–T3: clCreateFromD3D11Texture2DKHR (and 3D), and E3 for each subresource and plane.
#include "d3d_env.hpp"

namespace clvf::detail::test {
namespace {

class D3D11Texture : public ::testing::Test {
 protected:
  void SetUp() override {
    device = make_d3d11_device();
    ASSERT_TRUE(device);
    context = d3d11_context(device.Get());
  }
  cl_mem share(ID3D11Texture2D* texture, UINT subresource, cl_int* err = nullptr) {
    return sharing().create_texture2d(context->get(), CL_MEM_READ_WRITE, texture, subresource, err);
  }
  // Direct3D → OpenCL → (inverted by a kernel... here by the host) → Direct3D for one image.
  void round_trip(cl_mem image, size_t width, size_t height, size_t pixel_bytes, const Bytes& expected_in,
                  const Bytes& out) {
    const Sharing& s = sharing();
    ASSERT_EQ(s.acquire_d3d11(context->queue(), 1, &image, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(read_cl_image(context->queue(), image, width, height, pixel_bytes), expected_in);
    write_cl_image(context->queue(), image, width, height, pixel_bytes, out);
    ASSERT_EQ(s.release_d3d11(context->queue(), 1, &image, 0, nullptr, nullptr), CL_SUCCESS);
  }
  ComPtr<ID3D11Device> device;
  std::unique_ptr<Context> context;
};

size_t image_size(cl_mem image, cl_image_info what) {
  size_t v = 0;
  clvfGetImageInfo(image, what, sizeof v, &v, nullptr);
  return v;
}

TEST_F(D3D11Texture, T1_SubresourceSelectsMipAndSlice) {
  const UINT width = 37, height = 21, mips = 2, slices = 3;
  auto texture = make_texture(device.Get(), width, height, DXGI_FORMAT_R8G8B8A8_UNORM, mips, slices);
  ASSERT_TRUE(texture);
  for (UINT sub = 0; sub < mips * slices; ++sub) {
    const UINT mip = sub % mips, w = std::max(1u, width >> mip), h = std::max(1u, height >> mip);
    Bytes in = random_bytes(w * h * 4, 100 + sub), out = random_bytes(w * h * 4, 200 + sub);
    write_subresource(device.Get(), texture.Get(), sub, w * 4, h, in);
    cl_int err = -1;
    cl_mem image = share(texture.Get(), sub, &err);
    ASSERT_EQ(err, CL_SUCCESS) << sub;
    EXPECT_EQ(image_size(image, CL_IMAGE_WIDTH), w);
    EXPECT_EQ(image_size(image, CL_IMAGE_HEIGHT), h);
    round_trip(image, w, h, 4, in, out);
    EXPECT_EQ(read_subresource(device.Get(), texture.Get(), sub, w * 4, h), out) << "subresource " << sub;
    clReleaseMemObject(image);
  }
}

TEST_F(D3D11Texture, T1_NV12PlanesFollowTheMediaSharingConvention) {
  const UINT width = 64, height = 36, slices = 2;
  auto texture = make_texture(device.Get(), width, height, DXGI_FORMAT_NV12, 1, slices, 0);
  if (!texture) GTEST_SKIP() << "this Direct3D 11 (Wine) cannot create NV12 textures";
  for (UINT slice = 0; slice < slices; ++slice) {
    // The whole NV12 subresource as Direct3D lays it out: Y rows, then UV rows.
    Bytes in = random_bytes(width * height * 3 / 2, 300 + slice);
    write_subresource(device.Get(), texture.Get(), slice, width, height * 3 / 2, in);
    Bytes back = read_subresource(device.Get(), texture.Get(), slice, width, height * 3 / 2);
    if (back != in) GTEST_SKIP() << "this Direct3D 11 (Wine) does not copy NV12 subresources faithfully";
    cl_int err = -1;
    cl_mem luma = share(texture.Get(), 2 * slice, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_image_format format;
    clvfGetImageInfo(luma, CL_IMAGE_FORMAT, sizeof format, &format, nullptr);
    EXPECT_EQ(format.image_channel_order, cl_channel_order(CL_R));
    EXPECT_EQ(format.image_channel_data_type, cl_channel_type(CL_UNORM_INT8));
    EXPECT_EQ(image_size(luma, CL_IMAGE_WIDTH), width);
    EXPECT_EQ(image_size(luma, CL_IMAGE_HEIGHT), height);
    Bytes y_in(in.begin(), in.begin() + width * height), y_out = random_bytes(width * height, 400 + slice);
    round_trip(luma, width, height, 1, y_in, y_out);
    Bytes expected = in;
    std::copy(y_out.begin(), y_out.end(), expected.begin());
    EXPECT_EQ(read_subresource(device.Get(), texture.Get(), slice, width, height * 3 / 2), expected)
        << "the luma plane written, the chroma plane kept";

    cl_mem chroma = share(texture.Get(), 2 * slice + 1, &err);
    if (!device_has_rg()) {
      EXPECT_EQ(err, CL_IMAGE_FORMAT_NOT_SUPPORTED) << "no CL_RG images on this device";
      clReleaseMemObject(luma);
      continue;
    }
    ASSERT_EQ(err, CL_SUCCESS);
    clvfGetImageInfo(chroma, CL_IMAGE_FORMAT, sizeof format, &format, nullptr);
    EXPECT_EQ(format.image_channel_order, cl_channel_order(CL_RG));
    EXPECT_EQ(image_size(chroma, CL_IMAGE_WIDTH), width / 2);
    EXPECT_EQ(image_size(chroma, CL_IMAGE_HEIGHT), height / 2);
    Bytes uv_in(expected.begin() + width * height, expected.end()), uv_out = random_bytes(uv_in.size(), 500 + slice);
    round_trip(chroma, width / 2, height / 2, 2, uv_in, uv_out);
    std::copy(uv_out.begin(), uv_out.end(), expected.begin() + width * height);
    EXPECT_EQ(read_subresource(device.Get(), texture.Get(), slice, width, height * 3 / 2), expected);
    clReleaseMemObject(luma);
    clReleaseMemObject(chroma);
  }
}

TEST_F(D3D11Texture, T2_QueriesReturnSubresourceResourceAndShape) {
  auto texture = make_texture(device.Get(), 40, 30, DXGI_FORMAT_R8_UNORM, 3, 2);
  cl_mem image = share(texture.Get(), 4);  // mip 1 of slice 1
  ASSERT_NE(image, nullptr);
  UINT sub = 99;
  EXPECT_EQ(clvfGetImageInfo(image, CL_IMAGE_D3D11_SUBRESOURCE_KHR, sizeof sub, &sub, nullptr), CL_SUCCESS);
  EXPECT_EQ(sub, 4u);
  ID3D11Resource* resource = nullptr;
  EXPECT_EQ(clvfGetMemObjectInfo(image, CL_MEM_D3D11_RESOURCE_KHR, sizeof resource, &resource, nullptr), CL_SUCCESS);
  EXPECT_EQ(static_cast<void*>(resource), static_cast<void*>(texture.Get()));
  EXPECT_EQ(image_size(image, CL_IMAGE_WIDTH), 20u);
  EXPECT_EQ(image_size(image, CL_IMAGE_HEIGHT), 15u);
  cl_image_format format;
  clvfGetImageInfo(image, CL_IMAGE_FORMAT, sizeof format, &format, nullptr);
  EXPECT_EQ(format.image_channel_order, cl_channel_order(CL_R));
  clReleaseMemObject(image);
}

TEST_F(D3D11Texture, T3_SameSubresourceTwiceOrOutOfRange) {
  auto texture = make_texture(device.Get(), 16, 16, DXGI_FORMAT_R8_UNORM, 2, 2);
  cl_mem first = share(texture.Get(), 3);
  ASSERT_NE(first, nullptr);
  cl_int err = 0;
  EXPECT_EQ(share(texture.Get(), 3, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_D3D11_RESOURCE_KHR) << "the same subresource twice";
  cl_mem other = share(texture.Get(), 2, &err);
  EXPECT_EQ(err, CL_SUCCESS) << "another subresource of the same texture";
  err = 0;
  EXPECT_EQ(share(texture.Get(), 4, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE) << "past the last subresource";
  auto unsupported = make_texture(device.Get(), 16, 16, DXGI_FORMAT_R10G10B10A2_UNORM);
  err = 0;
  EXPECT_EQ(share(unsupported.Get(), 0, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  clReleaseMemObject(first);
  clReleaseMemObject(other);
}

TEST_F(D3D11Texture, Texture3DMipLevelsRoundTrip) {
  D3D11_TEXTURE3D_DESC desc = {};
  desc.Width = 9;
  desc.Height = 7;
  desc.Depth = 5;
  desc.MipLevels = 2;
  desc.Format = DXGI_FORMAT_R8_UNORM;
  desc.Usage = D3D11_USAGE_DEFAULT;
  desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
  ComPtr<ID3D11Texture3D> texture;
  ASSERT_TRUE(SUCCEEDED(device->CreateTexture3D(&desc, nullptr, &texture)));
  cl_int err = -1;
  cl_mem image = sharing().create_texture3d(context->get(), CL_MEM_READ_WRITE, texture.Get(), 1, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(image_size(image, CL_IMAGE_WIDTH), 4u);
  EXPECT_EQ(image_size(image, CL_IMAGE_HEIGHT), 3u);
  EXPECT_EQ(image_size(image, CL_IMAGE_DEPTH), 2u);
  Bytes out = random_bytes(4 * 3 * 2, 9);
  const Sharing& s = sharing();
  ASSERT_EQ(s.acquire_d3d11(context->queue(), 1, &image, 0, nullptr, nullptr), CL_SUCCESS);
  const size_t origin[3] = {0, 0, 0}, region[3] = {4, 3, 2};
  ASSERT_EQ(clEnqueueWriteImage(context->queue(), image, CL_TRUE, origin, region, 0, 0, out.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(s.release_d3d11(context->queue(), 1, &image, 0, nullptr, nullptr), CL_SUCCESS);
  // Read the mip back through Direct3D.
  desc.Width = 4, desc.Height = 3, desc.Depth = 2, desc.MipLevels = 1;
  desc.Usage = D3D11_USAGE_STAGING, desc.BindFlags = 0, desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
  ComPtr<ID3D11Texture3D> staging;
  ASSERT_TRUE(SUCCEEDED(device->CreateTexture3D(&desc, nullptr, &staging)));
  ComPtr<ID3D11DeviceContext> ctx;
  device->GetImmediateContext(&ctx);
  ctx->CopySubresourceRegion(staging.Get(), 0, 0, 0, 0, texture.Get(), 1, nullptr);
  D3D11_MAPPED_SUBRESOURCE m;
  ASSERT_TRUE(SUCCEEDED(ctx->Map(staging.Get(), 0, D3D11_MAP_READ, 0, &m)));
  Bytes got;
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 4; ++x) got.push_back(static_cast<uint8_t*>(m.pData)[z * m.DepthPitch + y * m.RowPitch + x]);
  ctx->Unmap(staging.Get(), 0);
  EXPECT_EQ(got, out);
  err = 0;
  EXPECT_EQ(sharing().create_texture3d(context->get(), CL_MEM_READ_WRITE, texture.Get(), 2, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE) << "mip level out of range";
  clReleaseMemObject(image);
}

}  // namespace
}  // namespace clvf::detail::test
