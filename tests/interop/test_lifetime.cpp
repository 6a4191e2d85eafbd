// Rule L1 (lifetimes), and B7 (host allocation failures) through a test-only operator new that
// fails on request.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>

#include "d3d_env.hpp"

// GCC cannot see that this operator new and these deletes are one replaced pair.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace {
std::atomic<long> fail_countdown{-1};  // the allocation that fails: 0 = the next one; -1 = none
}

void* operator new(size_t size) {
  if (fail_countdown.load() >= 0 && fail_countdown.fetch_sub(1) == 0) throw std::bad_alloc();
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }

namespace clvf::detail::test {
namespace {

TEST(Lifetime, L1_MemObjectKeepsTheResourceAliveAfterTheApplicationDropsIt) {
  auto device = make_d3d11_device();
  Context context({CL_CONTEXT_D3D11_DEVICE_KHR, reinterpret_cast<cl_context_properties>(device.Get())});
  Bytes data = random_bytes(256, 81);
  ID3D11Buffer* raw = make_buffer(device.Get(), 256, D3D11_USAGE_DEFAULT, &data).Detach();
  cl_mem mem = sharing().create_buffer(context.get(), CL_MEM_READ_WRITE, raw, nullptr);
  ASSERT_NE(mem, nullptr);
  EXPECT_EQ(raw->Release(), 1u) << "the application's last reference gone; the cl_mem's remains";
  ASSERT_EQ(sharing().acquire_d3d11(context.queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_cl_buffer(context.queue(), mem, 256), data);
  invert_with_kernel(context.get(), context.queue(), mem, 256);
  EXPECT_EQ(sharing().release_d3d11(context.queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS);
  clReleaseMemObject(mem);
}

// When the Direct3D reference comes back: not during clReleaseMemObject (the platform's own call),
// but at the latest at the next sharing call (here an acquire of nothing), whatever the background
// pass has done by then: no waiting in this test.
TEST(Lifetime, L1_ResourceReferenceIsBackByTheNextSharingCall) {
  auto device = make_d3d11_device();
  Context context({CL_CONTEXT_D3D11_DEVICE_KHR, reinterpret_cast<cl_context_properties>(device.Get())});
  auto buffer = make_buffer(device.Get(), 64);
  const ULONG unshared = ref_count(buffer.Get());
  for (int round = 0; round < 20; ++round) {
    cl_mem mem = sharing().create_buffer(context.get(), CL_MEM_READ_WRITE, buffer.Get(), nullptr);
    ASSERT_NE(mem, nullptr);
    EXPECT_EQ(ref_count(buffer.Get()), unshared + 1) << "round " << round;
    clReleaseMemObject(mem);
    ASSERT_EQ(sharing().acquire_d3d11(context.queue(), 0, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(ref_count(buffer.Get()), unshared) << "round " << round;
  }
}

TEST(Lifetime, L1_ContextKeepsTheDeviceAliveAfterTheApplicationDropsIt) {
  ID3D11Device* raw = make_d3d11_device().Detach();
  const ULONG before = ref_count(raw);
  auto context = std::make_unique<Context>(
      std::vector<cl_context_properties>{CL_CONTEXT_D3D11_DEVICE_KHR, reinterpret_cast<cl_context_properties>(raw)});
  ASSERT_NE(context->get(), nullptr);
  // The application's reference gone, the context's alone holds the device (no resource of it
  // exists yet to hold it too).
  ASSERT_EQ(raw->Release(), before) << "the context holds a reference of its own";
  Bytes data = random_bytes(128, 82);
  ComPtr<ID3D11Buffer> buffer = make_buffer(raw, 128, D3D11_USAGE_DEFAULT, &data);
  cl_mem mem = sharing().create_buffer(context->get(), CL_MEM_READ_WRITE, buffer.Get(), nullptr);
  ASSERT_NE(mem, nullptr);
  ASSERT_EQ(sharing().acquire_d3d11(context->queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_cl_buffer(context->queue(), mem, 128), data);
  EXPECT_EQ(sharing().release_d3d11(context->queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS);
  clReleaseMemObject(mem);
  buffer.Reset();
  context.reset();
}

TEST(Lifetime, B7_HostAllocationFailureIsOutOfHostMemory) {
  auto device = make_d3d11_device();
  Context context({CL_CONTEXT_D3D11_DEVICE_KHR, reinterpret_cast<cl_context_properties>(device.Get())});
  auto buffer = make_buffer(device.Get(), 64);
  const ULONG before = ref_count(buffer.Get());
  const Sharing& s = sharing();  // looked up before any allocation is made to fail
  int failures = 0;
  // Fail allocation 0, 1, 2, ... of the call until the call makes fewer allocations than that.
  for (long n = 0; n < 1000; ++n) {
    cl_int err = -1;
    fail_countdown = n;
    cl_mem mem = s.create_buffer(context.get(), CL_MEM_READ_WRITE, buffer.Get(), &err);
    fail_countdown = -1;
    if (mem != nullptr) {
      EXPECT_EQ(err, CL_SUCCESS);
      clReleaseMemObject(mem);
      EXPECT_TRUE(eventually([&] { return ref_count(buffer.Get()) == before; }));
      break;
    }
    ++failures;
    EXPECT_EQ(err, CL_OUT_OF_HOST_MEMORY) << "allocation " << n;
    EXPECT_EQ(ref_count(buffer.Get()), before) << "a failed share keeps no reference (allocation " << n << ")";
  }
  std::printf("clCreateFromD3D11BufferKHR: %d allocations failed in turn, each CL_OUT_OF_HOST_MEMORY\n", failures);
  EXPECT_GT(failures, 0) << "no allocation inside clCreateFromD3D11BufferKHR was failed";
}

}  // namespace
}  // namespace clvf::detail::test
