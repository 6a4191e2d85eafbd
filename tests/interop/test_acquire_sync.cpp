// Rule A4 as decoders meet it: Direct3D writes the resource on the GPU right before each acquire
// (D3D11 UpdateSubresource and CopyResource, D3D9 ColorFill), and every acquire must bring the new
// contents: 100 frames each, with CL_CONTEXT_INTEROP_USER_SYNC false (the implementation waits for
// Direct3D) and true (the application does, with an event query, as the extension asks of it).
#include <string>

#include "d3d_env.hpp"

namespace clvf::detail::test {
namespace {

constexpr UINT kWidth = 32, kHeight = 16;
constexpr int kFrames = 100;

cl_context_properties prop(const void* p) { return reinterpret_cast<cl_context_properties>(p); }

void wait_d3d11(ID3D11Device* device, ID3D11DeviceContext* ctx) {
  D3D11_QUERY_DESC desc = {D3D11_QUERY_EVENT, 0};
  ComPtr<ID3D11Query> query;
  ASSERT_EQ(device->CreateQuery(&desc, &query), S_OK);
  ctx->End(query.Get());
  BOOL done = FALSE;
  while (ctx->GetData(query.Get(), &done, sizeof done, 0) == S_FALSE) {
  }
}

void wait_d3d9(IDirect3DDevice9Ex* device) {
  ComPtr<IDirect3DQuery9> query;
  ASSERT_EQ(device->CreateQuery(D3DQUERYTYPE_EVENT, &query), S_OK);
  query->Issue(D3DISSUE_END);
  while (query->GetData(nullptr, 0, D3DGETDATA_FLUSH) == S_FALSE) {
  }
}

class AcquireSync : public ::testing::TestWithParam<cl_bool> {};

TEST_P(AcquireSync, A4_D3D11TextureWrittenRightBeforeEachAcquire) {
  const cl_bool user_sync = GetParam();
  auto device = make_d3d11_device();
  ComPtr<ID3D11DeviceContext> ctx;
  device->GetImmediateContext(&ctx);
  Context context({CL_CONTEXT_D3D11_DEVICE_KHR, prop(device.Get()), CL_CONTEXT_INTEROP_USER_SYNC, user_sync});
  ASSERT_NE(context.get(), nullptr);
  auto texture = make_texture(device.Get(), kWidth, kHeight, DXGI_FORMAT_R8G8B8A8_UNORM);
  auto source = make_texture(device.Get(), kWidth, kHeight, DXGI_FORMAT_R8G8B8A8_UNORM);
  cl_int err = -1;
  cl_mem mem = sharing().create_texture2d(context.get(), CL_MEM_READ_ONLY, texture.Get(), 0, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  int stale = 0;
  for (int frame = 0; frame < kFrames; ++frame) {
    const Bytes in = random_bytes(kWidth * kHeight * 4, 3000 + frame);
    if (frame % 2) {
      ctx->UpdateSubresource(texture.Get(), 0, nullptr, in.data(), kWidth * 4, 0);
    } else {
      ctx->UpdateSubresource(source.Get(), 0, nullptr, in.data(), kWidth * 4, 0);
      ctx->CopyResource(texture.Get(), source.Get());
    }
    if (user_sync) {
      ASSERT_NO_FATAL_FAILURE(wait_d3d11(device.Get(), ctx.Get()));
    }
    ASSERT_EQ(sharing().acquire_d3d11(context.queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS);
    if (read_cl_image(context.queue(), mem, kWidth, kHeight, 4) != in && stale++ < 3) {
      ADD_FAILURE() << "frame " << frame << " (" << (frame % 2 ? "UpdateSubresource" : "CopyResource")
                    << "): the acquire brought older contents";
    }
    ASSERT_EQ(sharing().release_d3d11(context.queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS);
  }
  EXPECT_EQ(stale, 0);
  clReleaseMemObject(mem);
}

TEST_P(AcquireSync, A4_Dx9SurfaceFilledRightBeforeEachAcquire) {
  const cl_bool user_sync = GetParam();
  auto device = make_d3d9ex_device();
  Context context({CL_CONTEXT_ADAPTER_D3D9EX_KHR, prop(device.Get()), CL_CONTEXT_INTEROP_USER_SYNC, user_sync});
  ASSERT_NE(context.get(), nullptr);
  auto surface = make_surface(device.Get(), kWidth, kHeight, D3DFMT_A8R8G8B8);
  ASSERT_TRUE(surface);
  cl_dx9_surface_info_khr info = {surface.Get(), nullptr};
  cl_int err = -1;
  cl_mem mem = sharing().create_surface(context.get(), CL_MEM_READ_ONLY, CL_ADAPTER_D3D9EX_KHR, &info, 0, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  int stale = 0;
  for (int frame = 0; frame < kFrames; ++frame) {
    const uint8_t r = static_cast<uint8_t>(frame * 37 + 1), g = static_cast<uint8_t>(frame * 11 + 2),
                  b = static_cast<uint8_t>(255 - frame);
    ASSERT_EQ(device->ColorFill(surface.Get(), nullptr, D3DCOLOR_ARGB(255, r, g, b)), S_OK);
    if (user_sync) {
      ASSERT_NO_FATAL_FAILURE(wait_d3d9(device.Get()));
    }
    ASSERT_EQ(sharing().acquire_dx9(context.queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS);
    Bytes expected;
    for (UINT i = 0; i < kWidth * kHeight; ++i) expected.insert(expected.end(), {b, g, r, 255});  // CL_BGRA
    if (read_cl_image(context.queue(), mem, kWidth, kHeight, 4) != expected && stale++ < 3) {
      ADD_FAILURE() << "frame " << frame << ": the acquire brought older contents";
    }
    ASSERT_EQ(sharing().release_dx9(context.queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS);
  }
  EXPECT_EQ(stale, 0);
  clReleaseMemObject(mem);
}

INSTANTIATE_TEST_SUITE_P(UserSync, AcquireSync, ::testing::Values(CL_FALSE, CL_TRUE),
                         [](const ::testing::TestParamInfo<cl_bool>& info) {
                           return info.param ? std::string("On") : std::string("Off");
                         });

}  // namespace
}  // namespace clvf::detail::test
