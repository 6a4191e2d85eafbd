// Rules B1–B7: clCreateFromD3D11BufferKHR, and E3 for buffers (shared/spec/sharing-rules.md).
#include "d3d_env.hpp"

namespace clvf::detail::test {
namespace {

class D3D11Buffer : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(test_platform(), nullptr) << "no OpenCL platform matches CLVF_TEST_PLATFORM";
    device = make_d3d11_device();
    ASSERT_TRUE(device) << "D3D11CreateDevice failed (is a display (Xvfb) set?)";
    context = d3d11_context(device.Get());
    ASSERT_NE(context->get(), nullptr);
  }
  cl_mem share(ID3D11Buffer* buffer, cl_mem_flags flags = CL_MEM_READ_WRITE, cl_int* err = nullptr) {
    return sharing().create_buffer(context->get(), flags, buffer, err);
  }
  ComPtr<ID3D11Device> device;
  std::unique_ptr<Context> context;
};

TEST_F(D3D11Buffer, B1_SizeIsByteWidth) {
  for (UINT size : {1u, 16u, 4097u, 1u << 20}) {
    auto buffer = make_buffer(device.Get(), size);
    cl_int err = -1;
    cl_mem mem = share(buffer.Get(), CL_MEM_READ_WRITE, &err);
    ASSERT_EQ(err, CL_SUCCESS) << size;
    size_t got = 0;
    EXPECT_EQ(clvfGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof got, &got, nullptr), CL_SUCCESS);
    EXPECT_EQ(got, size);
    clReleaseMemObject(mem);
  }
}

TEST_F(D3D11Buffer, B2_FlagsOtherThanTheThreeAreRefused) {
  auto buffer = make_buffer(device.Get(), 64);
  for (cl_mem_flags bad : {cl_mem_flags(0), cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY),
                           cl_mem_flags(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR), cl_mem_flags(CL_MEM_USE_HOST_PTR),
                           cl_mem_flags(CL_MEM_HOST_NO_ACCESS)}) {
    cl_int err = 0;
    EXPECT_EQ(share(buffer.Get(), bad, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_VALUE) << bad;
  }
  for (cl_mem_flags good : {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE}) {
    cl_int err = -1;
    cl_mem mem = share(buffer.Get(), good, &err);
    EXPECT_EQ(err, CL_SUCCESS) << good;
    clReleaseMemObject(mem);  // the next flag shares the same buffer again
    ASSERT_TRUE(eventually([&] {
      cl_int e = 0;
      cl_mem again = share(buffer.Get(), CL_MEM_READ_ONLY, &e);
      if (again) clReleaseMemObject(again);
      return e == CL_SUCCESS;
    }));
  }
}

TEST_F(D3D11Buffer, B3_InvalidResourcesAreRefused) {
  cl_int err = 0;
  EXPECT_EQ(share(nullptr, CL_MEM_READ_WRITE, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_D3D11_RESOURCE_KHR) << "NULL";

  auto texture = make_texture(device.Get(), 16, 16, DXGI_FORMAT_R8_UNORM);
  err = 0;
  EXPECT_EQ(share(reinterpret_cast<ID3D11Buffer*>(texture.Get()), CL_MEM_READ_WRITE, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_D3D11_RESOURCE_KHR) << "a texture";

  Bytes initial(64, 7);
  auto immutable = make_buffer(device.Get(), 64, D3D11_USAGE_IMMUTABLE, &initial);
  ASSERT_TRUE(immutable);
  err = 0;
  EXPECT_EQ(share(immutable.Get(), CL_MEM_READ_ONLY, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_D3D11_RESOURCE_KHR) << "D3D11_USAGE_IMMUTABLE";

  auto buffer = make_buffer(device.Get(), 64);
  cl_mem first = share(buffer.Get());
  ASSERT_NE(first, nullptr);
  err = 0;
  EXPECT_EQ(share(buffer.Get(), CL_MEM_READ_WRITE, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_D3D11_RESOURCE_KHR) << "shared twice";
  clReleaseMemObject(first);

  auto other_device = make_d3d11_device();
  auto foreign = make_buffer(other_device.Get(), 64);
  err = 0;
  EXPECT_EQ(share(foreign.Get(), CL_MEM_READ_WRITE, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_D3D11_RESOURCE_KHR) << "another device's buffer";
}

TEST_F(D3D11Buffer, B4_ResourceReferenceFollowsTheMemObject) {
  auto buffer = make_buffer(device.Get(), 256);
  const ULONG before = ref_count(buffer.Get());
  cl_mem mem = share(buffer.Get());
  ASSERT_NE(mem, nullptr);
  EXPECT_EQ(ref_count(buffer.Get()), before + 1);
  clRetainMemObject(mem);
  clReleaseMemObject(mem);
  EXPECT_EQ(ref_count(buffer.Get()), before + 1) << "the cl_mem still has a reference";
  cl_uint cl_refs = 0;
  clvfGetMemObjectInfo(mem, CL_MEM_REFERENCE_COUNT, sizeof cl_refs, &cl_refs, nullptr);
  EXPECT_EQ(cl_refs, 1u);
  clReleaseMemObject(mem);
  EXPECT_TRUE(eventually([&] { return ref_count(buffer.Get()) == before; }));
}

TEST_F(D3D11Buffer, B5_ResourceQueryReturnsTheBuffer) {
  auto buffer = make_buffer(device.Get(), 32);
  cl_mem mem = share(buffer.Get());
  ID3D11Resource* got = nullptr;
  size_t size = 0;
  EXPECT_EQ(clvfGetMemObjectInfo(mem, CL_MEM_D3D11_RESOURCE_KHR, sizeof got, &got, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof got);
  EXPECT_EQ(static_cast<void*>(got), static_cast<void*>(buffer.Get()));
  EXPECT_EQ(clvfGetMemObjectInfo(mem, CL_MEM_D3D11_RESOURCE_KHR, 1, &got, nullptr), CL_INVALID_VALUE) << "short";
  clReleaseMemObject(mem);
}

TEST_F(D3D11Buffer, B6_NullErrcodeAndNullOnFailure) {
  auto buffer = make_buffer(device.Get(), 32);
  cl_mem mem = share(buffer.Get(), CL_MEM_READ_WRITE, nullptr);
  EXPECT_NE(mem, nullptr);
  EXPECT_EQ(share(buffer.Get(), CL_MEM_READ_WRITE, nullptr), nullptr);  // shared twice
  EXPECT_EQ(share(nullptr, CL_MEM_READ_WRITE, nullptr), nullptr);
  clReleaseMemObject(mem);
}

TEST_F(D3D11Buffer, E3_DataRoundTripsThroughOpenCLKernels) {
  for (D3D11_USAGE usage : {D3D11_USAGE_DEFAULT, D3D11_USAGE_STAGING}) {
    const UINT size = 4099;
    Bytes data = random_bytes(size, 11 + usage);
    auto buffer = make_buffer(device.Get(), size, usage, usage == D3D11_USAGE_DEFAULT ? &data : nullptr);
    if (usage == D3D11_USAGE_STAGING) write_buffer(device.Get(), buffer.Get(), data);
    cl_mem mem = share(buffer.Get());
    ASSERT_NE(mem, nullptr);
    const Sharing& s = sharing();
    ASSERT_EQ(s.acquire_d3d11(context->queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(read_cl_buffer(context->queue(), mem, size), data) << "Direct3D → OpenCL, usage " << usage;
    invert_with_kernel(context->get(), context->queue(), mem, size);
    ASSERT_EQ(s.release_d3d11(context->queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(read_buffer(device.Get(), buffer.Get()), inverted(data)) << "OpenCL → Direct3D, usage " << usage;
    clReleaseMemObject(mem);
  }
}

TEST_F(D3D11Buffer, E3_ReadOnlyObjectsAreNotCopiedBack) {
  Bytes data = random_bytes(512, 3);
  auto buffer = make_buffer(device.Get(), 512, D3D11_USAGE_DEFAULT, &data);
  cl_mem mem = share(buffer.Get(), CL_MEM_READ_ONLY);
  const Sharing& s = sharing();
  ASSERT_EQ(s.acquire_d3d11(context->queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_cl_buffer(context->queue(), mem, 512), data);
  // Direct3D writes while OpenCL holds it read-only: the release must not overwrite that.
  Bytes later = random_bytes(512, 4);
  write_buffer(device.Get(), buffer.Get(), later);
  ASSERT_EQ(s.release_d3d11(context->queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_buffer(device.Get(), buffer.Get()), later);
  clReleaseMemObject(mem);
}

}  // namespace
}  // namespace clvf::detail::test
