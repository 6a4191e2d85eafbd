// Rules P1–P5: mapping memory objects made from Direct3D resources and their sub-buffers, through
// clvfEnqueueMapBuffer / clvfEnqueueMapImage / clvfEnqueueUnmapMemObject.
#include <cstring>

#include "d3d_env.hpp"

namespace clvf::detail::test {
namespace {

class Mapping : public ::testing::Test {
 protected:
  void SetUp() override {
    device = make_d3d11_device();
    ASSERT_TRUE(device);
    context = d3d11_context(device.Get());
    data = random_bytes(kSize, 71);
    buffer = make_buffer(device.Get(), kSize, D3D11_USAGE_DEFAULT, &data);
    mem = sharing().create_buffer(context->get(), CL_MEM_READ_WRITE, buffer.Get(), nullptr);
    ASSERT_NE(mem, nullptr);
    ASSERT_EQ(sharing().acquire_d3d11(context->queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS);
  }
  void TearDown() override {
    if (mem) {
      sharing().release_d3d11(context->queue(), 1, &mem, 0, nullptr, nullptr);
      clReleaseMemObject(mem);
    }
  }
  uint8_t* map(cl_mem object, cl_map_flags flags, size_t offset, size_t size, cl_int* err) {
    return static_cast<uint8_t*>(
        clvfEnqueueMapBuffer(context->queue(), object, CL_TRUE, flags, offset, size, 0, nullptr, nullptr, err));
  }
  void unmap(cl_mem object, void* p) {
    ASSERT_EQ(clvfEnqueueUnmapMemObject(context->queue(), object, p, 0, nullptr, nullptr), CL_SUCCESS);
    clFinish(context->queue());
  }
  static constexpr UINT kSize = 4096;
  ComPtr<ID3D11Device> device;
  std::unique_ptr<Context> context;
  Bytes data;
  ComPtr<ID3D11Buffer> buffer;
  cl_mem mem = nullptr;
};

TEST_F(Mapping, P1_WrittenMapIsVisibleAfterUnmap) {
  cl_int err = -1;
  uint8_t* p = map(mem, CL_MAP_WRITE, 100, 200, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  std::memset(p, 0x5A, 200);
  unmap(mem, p);
  Bytes expected = data;
  std::memset(&expected[100], 0x5A, 200);
  EXPECT_EQ(read_cl_buffer(context->queue(), mem, kSize), expected);
  ASSERT_EQ(sharing().release_d3d11(context->queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_buffer(device.Get(), buffer.Get()), expected) << "and Direct3D reads it after release";
  ASSERT_EQ(sharing().acquire_d3d11(context->queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS);
}

TEST_F(Mapping, P2_OverlappingReadMapsAreAllowed) {
  cl_int e1 = -1, e2 = -1;
  uint8_t* a = map(mem, CL_MAP_READ, 0, 1000, &e1);
  uint8_t* b = map(mem, CL_MAP_READ, 500, 1000, &e2);
  ASSERT_EQ(e1, CL_SUCCESS);
  ASSERT_EQ(e2, CL_SUCCESS);
  EXPECT_EQ(Bytes(a, a + 1000), Bytes(data.begin(), data.begin() + 1000));
  EXPECT_EQ(Bytes(b, b + 1000), Bytes(data.begin() + 500, data.begin() + 1500));
  unmap(mem, a);
  unmap(mem, b);
}

TEST_F(Mapping, P3_OverlappingMapsForWritingAreRefused) {
  cl_int err = -1;
  uint8_t* w = map(mem, CL_MAP_WRITE, 1000, 1000, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  for (auto [offset, size, flags] : {std::tuple{size_t(1500), size_t(10), cl_map_flags(CL_MAP_WRITE)},
                                     std::tuple{size_t(0), size_t(1001), cl_map_flags(CL_MAP_READ)},
                                     std::tuple{size_t(1999), size_t(1), cl_map_flags(CL_MAP_WRITE_INVALIDATE_REGION)}}) {
    err = 0;
    EXPECT_EQ(map(mem, flags, offset, size, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_OPERATION) << offset << "+" << size;
  }
  err = -1;
  uint8_t* apart = map(mem, CL_MAP_WRITE, 2000, 100, &err);
  EXPECT_EQ(err, CL_SUCCESS) << "adjacent, not overlapping";
  // A sub-buffer over the written region counts as the same memory.
  cl_buffer_region region = {1024, 512};
  cl_mem sub = clCreateSubBuffer(mem, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  err = 0;
  EXPECT_EQ(map(sub, CL_MAP_WRITE, 0, 16, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_OPERATION) << "a sub-buffer's map over the parent's written map";
  unmap(mem, w);
  err = -1;
  uint8_t* s = map(sub, CL_MAP_WRITE, 0, 16, &err);
  EXPECT_EQ(err, CL_SUCCESS) << "after the unmap";
  unmap(sub, s);
  unmap(mem, apart);
  clReleaseMemObject(sub);
}

TEST_F(Mapping, P3_OverlappingImageMapsForWritingAreRefused) {
  auto texture = make_texture(device.Get(), 32, 32, DXGI_FORMAT_R8G8B8A8_UNORM);
  cl_mem image = sharing().create_texture2d(context->get(), CL_MEM_READ_WRITE, texture.Get(), 0, nullptr);
  ASSERT_EQ(sharing().acquire_d3d11(context->queue(), 1, &image, 0, nullptr, nullptr), CL_SUCCESS);
  const size_t origin[3] = {0, 0, 0}, region[3] = {16, 16, 1}, inside[3] = {8, 8, 0}, beside[3] = {16, 0, 0};
  size_t pitch = 0;
  cl_int err = -1;
  void* a = clvfEnqueueMapImage(context->queue(), image, CL_TRUE, CL_MAP_WRITE, origin, region, &pitch, nullptr, 0,
                                nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  err = 0;
  EXPECT_EQ(clvfEnqueueMapImage(context->queue(), image, CL_TRUE, CL_MAP_READ, inside, region, &pitch, nullptr, 0,
                                nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_OPERATION);
  err = -1;
  void* b = clvfEnqueueMapImage(context->queue(), image, CL_TRUE, CL_MAP_WRITE, beside, region, &pitch, nullptr, 0,
                                nullptr, nullptr, &err);
  EXPECT_EQ(err, CL_SUCCESS) << "side by side";
  unmap(image, a);
  unmap(image, b);
  ASSERT_EQ(sharing().release_d3d11(context->queue(), 1, &image, 0, nullptr, nullptr), CL_SUCCESS);
  clReleaseMemObject(image);
}

TEST_F(Mapping, P4_UnmappedBeforeAKernelUsesIt) {
  cl_int err = -1;
  uint8_t* p = map(mem, CL_MAP_WRITE, 0, kSize, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  Bytes written = random_bytes(kSize, 72);
  std::memcpy(p, written.data(), kSize);
  unmap(mem, p);
  invert_with_kernel(context->get(), context->queue(), mem, kSize);
  EXPECT_EQ(read_cl_buffer(context->queue(), mem, kSize), inverted(written));
}

TEST_F(Mapping, P4_ReleaseWhileMappedForWritingIsRefused) {
  cl_int err = -1;
  uint8_t* p = map(mem, CL_MAP_WRITE, 0, kSize, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  std::memset(p, 0x77, kSize);
  EXPECT_EQ(sharing().release_d3d11(context->queue(), 1, &mem, 0, nullptr, nullptr), CL_INVALID_OPERATION)
      << "the release would read a region the application is still writing";
  EXPECT_EQ(read_buffer(device.Get(), buffer.Get()), data) << "a refused release changes nothing";
  unmap(mem, p);
  ASSERT_EQ(sharing().release_d3d11(context->queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_buffer(device.Get(), buffer.Get()), Bytes(kSize, 0x77));
  ASSERT_EQ(sharing().acquire_d3d11(context->queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS);
  // Mapped for reading only: the release may read the object.
  uint8_t* r = map(mem, CL_MAP_READ, 0, 64, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(sharing().release_d3d11(context->queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS);
  unmap(mem, r);
  ASSERT_EQ(sharing().acquire_d3d11(context->queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS);
}

TEST_F(Mapping, P5_MappedPointerAsReadAndWritePointer) {
  cl_int err = -1;
  uint8_t* p = map(mem, CL_MAP_READ, 0, kSize, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_mem other = clCreateBuffer(context->get(), CL_MEM_READ_WRITE, kSize, nullptr, nullptr);
  ASSERT_EQ(clEnqueueWriteBuffer(context->queue(), other, CL_TRUE, 0, kSize, p, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_cl_buffer(context->queue(), other, kSize), data);
  unmap(mem, p);
  uint8_t* w = map(mem, CL_MAP_WRITE, 0, 64, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(context->queue(), other, CL_TRUE, 64, 64, w, 0, nullptr, nullptr), CL_SUCCESS);
  unmap(mem, w);
  Bytes expected = data;
  std::copy(data.begin() + 64, data.begin() + 128, expected.begin());
  EXPECT_EQ(read_cl_buffer(context->queue(), mem, kSize), expected);
  clReleaseMemObject(other);
}

}  // namespace
}  // namespace clvf::detail::test
