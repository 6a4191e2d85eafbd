// Rules A1–A5, R1, R2, R4, E1, E2: clEnqueueAcquire/ReleaseD3D11ObjectsKHR (and the DX9 pair,
// which shares the state machine; its own checks are in test_dx9_surface.cpp).
#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

#include "d3d_env.hpp"

namespace clvf::detail::test {
namespace {

class AcquireRelease : public ::testing::Test {
 protected:
  void SetUp() override {
    device = make_d3d11_device();
    ASSERT_TRUE(device);
    context = d3d11_context(device.Get());
    data = random_bytes(kSize, 21);
    buffer = make_buffer(device.Get(), kSize, D3D11_USAGE_DEFAULT, &data);
    mem = s.create_buffer(context->get(), CL_MEM_READ_WRITE, buffer.Get(), nullptr);
    ASSERT_NE(mem, nullptr);
  }
  void TearDown() override {
    if (mem) clReleaseMemObject(mem);
  }
  cl_int acquire(cl_mem* objects, cl_uint n = 1, cl_event* event = nullptr) {
    return s.acquire_d3d11(context->queue(), n, objects, 0, nullptr, event);
  }
  cl_int release(cl_mem* objects, cl_uint n = 1, cl_event* event = nullptr) {
    return s.release_d3d11(context->queue(), n, objects, 0, nullptr, event);
  }
  static constexpr UINT kSize = 1000;
  const Sharing& s = sharing();
  ComPtr<ID3D11Device> device;
  std::unique_ptr<Context> context;
  Bytes data;
  ComPtr<ID3D11Buffer> buffer;
  cl_mem mem = nullptr;
};

TEST_F(AcquireRelease, A1_AcquireBringsWhatDirect3DWrote) {
  Bytes later = random_bytes(kSize, 22);
  write_buffer(device.Get(), buffer.Get(), later);  // after creation, before acquire
  ASSERT_EQ(acquire(&mem), CL_SUCCESS);
  EXPECT_EQ(read_cl_buffer(context->queue(), mem, kSize), later);
  ASSERT_EQ(release(&mem), CL_SUCCESS);
}

TEST_F(AcquireRelease, A1_MapWhileNotAcquiredIsRefused) {
  const auto map = [&](cl_mem object, cl_int* err) {
    return clvfEnqueueMapBuffer(context->queue(), object, CL_TRUE, CL_MAP_WRITE, 0, 100, 0, nullptr, nullptr, err);
  };
  cl_buffer_region region{0, 200};  // at the start: sub-buffer origins must be aligned
  cl_int err = -1;
  cl_mem sub = clCreateSubBuffer(mem, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  err = 0;
  EXPECT_EQ(map(mem, &err), nullptr) << "before the first acquire";
  EXPECT_EQ(err, CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR);
  err = 0;
  EXPECT_EQ(map(sub, &err), nullptr) << "a sub-buffer of an object not acquired";
  EXPECT_EQ(err, CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR);

  ASSERT_EQ(acquire(&mem), CL_SUCCESS);
  void* p = map(sub, &err);
  ASSERT_EQ(err, CL_SUCCESS) << "acquired";
  std::memset(p, 0x33, 100);
  ASSERT_EQ(clvfEnqueueUnmapMemObject(context->queue(), sub, p, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(release(&mem), CL_SUCCESS);
  Bytes expected = data;
  std::fill(expected.begin(), expected.begin() + 100, 0x33);
  EXPECT_EQ(read_buffer(device.Get(), buffer.Get()), expected);

  err = 0;
  EXPECT_EQ(map(mem, &err), nullptr) << "after the release";
  EXPECT_EQ(err, CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR);
  EXPECT_EQ(read_buffer(device.Get(), buffer.Get()), expected) << "a refused map changes nothing";
  clReleaseMemObject(sub);
}

TEST_F(AcquireRelease, A2_AcquiredForEveryQueueOfTheContext) {
  cl_command_queue second = clCreateCommandQueue(context->get(), test_device(), 0, nullptr);
  ASSERT_EQ(acquire(&mem), CL_SUCCESS);
  EXPECT_EQ(read_cl_buffer(second, mem, kSize), data) << "used on another queue";
  invert_with_kernel(context->get(), second, mem, kSize);
  EXPECT_EQ(s.release_d3d11(second, 1, &mem, 0, nullptr, nullptr), CL_SUCCESS) << "released on another queue";
  EXPECT_EQ(read_buffer(device.Get(), buffer.Get()), inverted(data));
  clReleaseCommandQueue(second);
}

TEST_F(AcquireRelease, A3_EmptyAndInconsistentLists) {
  cl_event event = reinterpret_cast<cl_event>(1);
  EXPECT_EQ(s.acquire_d3d11(context->queue(), 0, nullptr, 0, nullptr, &event), CL_SUCCESS);
  EXPECT_EQ(event, nullptr) << "nothing happened, no event";
  EXPECT_EQ(s.release_d3d11(context->queue(), 0, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(acquire(&mem, 0), CL_INVALID_VALUE) << "a list with a count of 0";
  EXPECT_EQ(acquire(nullptr, 1), CL_INVALID_VALUE) << "a count with no list";
  EXPECT_EQ(release(&mem, 0), CL_INVALID_VALUE);
  EXPECT_EQ(release(nullptr, 1), CL_INVALID_VALUE);
}

TEST_F(AcquireRelease, A4_AcquireWaitsForEarlierDirect3DWork) {
  // Direct3D work issued just before the acquire, never flushed by the application.
  ComPtr<ID3D11DeviceContext> ctx;
  device->GetImmediateContext(&ctx);
  Bytes source = random_bytes(kSize, 23);
  auto other = make_buffer(device.Get(), kSize, D3D11_USAGE_DEFAULT, &source);
  ctx->CopyResource(buffer.Get(), other.Get());
  ASSERT_EQ(acquire(&mem), CL_SUCCESS);
  EXPECT_EQ(read_cl_buffer(context->queue(), mem, kSize), source);
  ASSERT_EQ(release(&mem), CL_SUCCESS);
}

TEST_F(AcquireRelease, A5_AcquireTwiceIsAlreadyAcquired) {
  ASSERT_EQ(acquire(&mem), CL_SUCCESS);
  EXPECT_EQ(acquire(&mem), CL_D3D11_RESOURCE_ALREADY_ACQUIRED_KHR);
  ASSERT_EQ(release(&mem), CL_SUCCESS);
  cl_mem twice[2] = {mem, mem};
  EXPECT_EQ(acquire(twice, 2), CL_D3D11_RESOURCE_ALREADY_ACQUIRED_KHR) << "listed twice";
  EXPECT_EQ(acquire(&mem), CL_SUCCESS) << "a refused acquire changes nothing";
  ASSERT_EQ(release(&mem), CL_SUCCESS);
}

TEST_F(AcquireRelease, R1_ReleaseWithoutAcquireIsNotAcquired) {
  EXPECT_EQ(release(&mem), CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR);
  ASSERT_EQ(acquire(&mem), CL_SUCCESS);
  ASSERT_EQ(release(&mem), CL_SUCCESS);
  EXPECT_EQ(release(&mem), CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR) << "released twice";
}

TEST_F(AcquireRelease, R2_AfterReleaseDirect3DUsesTheResource) {
  ASSERT_EQ(acquire(&mem), CL_SUCCESS);
  Bytes from_cl = random_bytes(kSize, 24);
  write_cl_buffer(context->queue(), mem, from_cl);
  ASSERT_EQ(release(&mem), CL_SUCCESS);
  EXPECT_EQ(read_buffer(device.Get(), buffer.Get()), from_cl);
  Bytes from_d3d = random_bytes(kSize, 25);
  write_buffer(device.Get(), buffer.Get(), from_d3d);
  EXPECT_EQ(read_buffer(device.Get(), buffer.Get()), from_d3d);
  ASSERT_EQ(acquire(&mem), CL_SUCCESS);
  EXPECT_EQ(read_cl_buffer(context->queue(), mem, kSize), from_d3d);
  ASSERT_EQ(release(&mem), CL_SUCCESS);
}

TEST_F(AcquireRelease, R4_ReleaseWaitsForTheWaitListAndQueuedWork) {
  ASSERT_EQ(acquire(&mem), CL_SUCCESS);
  // A kernel held back by a user event that another thread completes later.
  cl_event gate = clCreateUserEvent(context->get(), nullptr);
  invert_with_kernel(context->get(), context->queue(), mem, kSize, 1, &gate);
  clFlush(context->queue());
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    clSetUserEventStatus(gate, CL_COMPLETE);
  });
  cl_event released = nullptr;
  EXPECT_EQ(s.release_d3d11(context->queue(), 1, &mem, 1, &gate, &released), CL_SUCCESS);
  // Direct3D work right after the release sees the kernel's result.
  EXPECT_EQ(read_buffer(device.Get(), buffer.Get()), inverted(data));
  opener.join();
  clReleaseEvent(gate);
  clReleaseEvent(released);
}

TEST_F(AcquireRelease, E1_InvalidQueueObjectOrContext) {
  EXPECT_EQ(s.acquire_d3d11(nullptr, 1, &mem, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(s.release_d3d11(nullptr, 1, &mem, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
  cl_mem plain = clCreateBuffer(context->get(), CL_MEM_READ_WRITE, 64, nullptr, nullptr);
  EXPECT_EQ(acquire(&plain), CL_INVALID_MEM_OBJECT) << "a buffer not made from Direct3D";
  EXPECT_EQ(release(&plain), CL_INVALID_MEM_OBJECT);
  cl_mem null_mem = nullptr;
  EXPECT_EQ(acquire(&null_mem), CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(plain);
  Context other({});
  EXPECT_EQ(s.acquire_d3d11(other.queue(), 1, &mem, 0, nullptr, nullptr), CL_INVALID_CONTEXT)
      << "the queue's context was not made against a D3D11 device";
  Context second_d3d11({CL_CONTEXT_D3D11_DEVICE_KHR, reinterpret_cast<cl_context_properties>(device.Get())});
  EXPECT_EQ(s.acquire_d3d11(second_d3d11.queue(), 1, &mem, 0, nullptr, nullptr), CL_INVALID_CONTEXT)
      << "an object of another context";
}

TEST_F(AcquireRelease, E2_WaitListsAndEvents) {
  cl_event user = clCreateUserEvent(context->get(), nullptr);
  clSetUserEventStatus(user, CL_COMPLETE);
  EXPECT_EQ(s.acquire_d3d11(context->queue(), 1, &mem, 1, nullptr, nullptr), CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(s.acquire_d3d11(context->queue(), 1, &mem, 0, &user, nullptr), CL_INVALID_EVENT_WAIT_LIST);
  cl_event null_event = nullptr;
  EXPECT_EQ(s.acquire_d3d11(context->queue(), 1, &mem, 1, &null_event, nullptr), CL_INVALID_EVENT_WAIT_LIST);
  cl_event event = reinterpret_cast<cl_event>(1);
  EXPECT_EQ(release(&mem, 1, &event), CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR);
  EXPECT_EQ(event, nullptr) << "a failed enqueue creates no event";

  ASSERT_EQ(s.acquire_d3d11(context->queue(), 1, &mem, 1, &user, &event), CL_SUCCESS);
  ASSERT_NE(event, nullptr);
  cl_command_type type = 0;
  EXPECT_EQ(clvfGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_ACQUIRE_D3D11_OBJECTS_KHR));
  cl_command_queue queue = nullptr;
  clvfGetEventInfo(event, CL_EVENT_COMMAND_QUEUE, sizeof queue, &queue, nullptr);
  EXPECT_EQ(queue, context->queue());
  EXPECT_EQ(clWaitForEvents(1, &event), CL_SUCCESS);
  // The runtime may hold its own reference while the command is in flight (PoCL does, briefly):
  // once it is done, only the application's is left.
  cl_uint refs = 0;
  EXPECT_TRUE(eventually([&] {
    clvfGetEventInfo(event, CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, nullptr);
    return refs == 1u;
  })) << "the application's reference only, not " << refs;
  clReleaseEvent(event);

  ASSERT_EQ(release(&mem, 1, &event), CL_SUCCESS);
  EXPECT_EQ(clvfGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_RELEASE_D3D11_OBJECTS_KHR));
  clReleaseEvent(event);
  ASSERT_EQ(acquire(&mem), CL_SUCCESS) << "a NULL event is allowed";
  ASSERT_EQ(release(&mem), CL_SUCCESS);
  clReleaseEvent(user);
}

}  // namespace
}  // namespace clvf::detail::test
