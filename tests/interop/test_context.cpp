// Rules C1–C5: contexts made against a Direct3D 11 device or a D3D9 adapter.
#include <thread>

#include "d3d_env.hpp"

namespace clvf::detail::test {
namespace {

cl_context_properties prop(IUnknown* p) { return reinterpret_cast<cl_context_properties>(p); }

TEST(SharingContext, C1_ObjectsOnlyFromAContextMadeWithTheDevice) {
  auto device = make_d3d11_device();
  auto d3d9 = make_d3d9ex_device();
  ASSERT_TRUE(device && d3d9);
  Context plain({});
  auto buffer = make_buffer(device.Get(), 64);
  cl_int err = 0;
  EXPECT_EQ(sharing().create_buffer(plain.get(), CL_MEM_READ_WRITE, buffer.Get(), &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT) << "a context without interop properties";

  Context d3d11({CL_CONTEXT_D3D11_DEVICE_KHR, prop(device.Get())});
  auto surface = make_surface(d3d9.Get(), 16, 16, kNV12);
  cl_dx9_surface_info_khr info = {surface.Get(), nullptr};
  err = 0;
  EXPECT_EQ(sharing().create_surface(d3d11.get(), CL_MEM_READ_WRITE, CL_ADAPTER_D3D9EX_KHR, &info, 0, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT) << "a DX9 surface in a context made for D3D11";

  Context dx9({CL_CONTEXT_ADAPTER_D3D9EX_KHR, prop(d3d9.Get())});
  err = 0;
  EXPECT_EQ(sharing().create_buffer(dx9.get(), CL_MEM_READ_WRITE, buffer.Get(), &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT) << "a D3D11 buffer in a context made for DX9";
}

TEST(SharingContext, C2_ContextHoldsAReferenceOnTheDevice) {
  auto device = make_d3d11_device();
  ASSERT_TRUE(device);
  const ULONG before = ref_count(device.Get());
  {
    Context context({CL_CONTEXT_D3D11_DEVICE_KHR, prop(device.Get())});
    ASSERT_NE(context.get(), nullptr);
    EXPECT_EQ(ref_count(device.Get()), before + 1);
    cl_uint refs = 0;
    clvfGetContextInfo(context.get(), CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, nullptr);
    EXPECT_EQ(refs, 2u) << "the application's reference and its queue's";
  }
  EXPECT_TRUE(eventually([&] { return ref_count(device.Get()) == before; }));

  auto d3d9 = make_d3d9ex_device();
  const ULONG d3d9_before = ref_count(d3d9.Get());
  {
    Context context({CL_CONTEXT_ADAPTER_D3D9EX_KHR, prop(d3d9.Get())});
    ASSERT_NE(context.get(), nullptr);
    EXPECT_EQ(ref_count(d3d9.Get()), d3d9_before + 1);
  }
  EXPECT_TRUE(eventually([&] { return ref_count(d3d9.Get()) == d3d9_before; }));
}

TEST(SharingContext, C2_InvalidDeviceIsRefused) {
  cl_int err = 0;
  Context null_device({CL_CONTEXT_D3D11_DEVICE_KHR, 0}, &err);
  EXPECT_EQ(null_device.get(), nullptr);
  EXPECT_EQ(err, CL_INVALID_D3D11_DEVICE_KHR);
  auto d3d9 = make_d3d9ex_device();
  err = 0;
  Context wrong_kind({CL_CONTEXT_D3D11_DEVICE_KHR, prop(d3d9.Get())}, &err);
  EXPECT_EQ(wrong_kind.get(), nullptr);
  EXPECT_EQ(err, CL_INVALID_D3D11_DEVICE_KHR) << "a D3D9 device given as a D3D11 one";
  auto device = make_d3d11_device();
  err = 0;
  Context wrong_adapter({CL_CONTEXT_ADAPTER_DXVA_KHR, prop(device.Get())}, &err);
  EXPECT_EQ(wrong_adapter.get(), nullptr);
  EXPECT_EQ(err, CL_INVALID_DX9_MEDIA_ADAPTER_KHR) << "a D3D11 device given as a DXVA device manager";
  const ULONG before = ref_count(device.Get());
  err = 0;
  Context twice({CL_CONTEXT_D3D11_DEVICE_KHR, prop(device.Get()), CL_CONTEXT_D3D11_DEVICE_KHR, prop(device.Get())}, &err);
  EXPECT_EQ(err, CL_INVALID_PROPERTY) << "the same property twice";
  EXPECT_EQ(ref_count(device.Get()), before) << "a refused context keeps no reference";
}

// C3 with A4 and R4: without USER_SYNC the runtime orders Direct3D's work and OpenCL's, with it
// the application does (here: a flush and an event query before the acquire, a wait for the
// release's event after). Direct3D writes the buffer right before every acquire and reads it
// right after every release; each frame must see the other side's newest data.
TEST(SharingContext, C3_UserSyncDecidesWhoSynchronises) {
  auto device = make_d3d11_device();
  ComPtr<ID3D11DeviceContext> ctx;
  device->GetImmediateContext(&ctx);
  for (cl_context_properties value : {CL_FALSE, CL_TRUE}) {
    Context context({CL_CONTEXT_D3D11_DEVICE_KHR, prop(device.Get()), CL_CONTEXT_INTEROP_USER_SYNC, value});
    ASSERT_NE(context.get(), nullptr);
    auto buffer = make_buffer(device.Get(), 300, D3D11_USAGE_DEFAULT);
    cl_mem mem = sharing().create_buffer(context.get(), CL_MEM_READ_WRITE, buffer.Get(), nullptr);
    ASSERT_NE(mem, nullptr);
    for (int frame = 0; frame < 20; ++frame) {
      const Bytes data = random_bytes(300, 100 + frame);
      ctx->UpdateSubresource(buffer.Get(), 0, nullptr, data.data(), 0, 0);  // not flushed
      if (value == CL_TRUE) {
        D3D11_QUERY_DESC desc{D3D11_QUERY_EVENT, 0};
        ComPtr<ID3D11Query> done;
        ASSERT_TRUE(SUCCEEDED(device->CreateQuery(&desc, &done)));
        ctx->End(done.Get());
        ctx->Flush();
        BOOL finished = FALSE;
        while (ctx->GetData(done.Get(), &finished, sizeof finished, 0) != S_OK || !finished) std::this_thread::yield();
      }
      ASSERT_EQ(sharing().acquire_d3d11(context.queue(), 1, &mem, 0, nullptr, nullptr), CL_SUCCESS);
      EXPECT_EQ(read_cl_buffer(context.queue(), mem, 300), data) << "USER_SYNC " << value << " frame " << frame;
      invert_with_kernel(context.get(), context.queue(), mem, 300);
      cl_event released = nullptr;
      ASSERT_EQ(sharing().release_d3d11(context.queue(), 1, &mem, 0, nullptr, &released), CL_SUCCESS);
      if (value == CL_TRUE) clWaitForEvents(1, &released);
      clReleaseEvent(released);
      EXPECT_EQ(read_buffer(device.Get(), buffer.Get()), inverted(data)) << "USER_SYNC " << value << " frame " << frame;
    }
    clReleaseMemObject(mem);
  }
  cl_int err = 0;
  Context bad({CL_CONTEXT_D3D11_DEVICE_KHR, prop(device.Get()), CL_CONTEXT_INTEROP_USER_SYNC, 2}, &err);
  EXPECT_EQ(err, CL_INVALID_PROPERTY);
}

bool subset(const std::vector<cl_device_id>& part, const std::vector<cl_device_id>& all) {
  for (cl_device_id d : part)
    if (std::find(all.begin(), all.end(), d) == all.end()) return false;
  return true;
}

TEST(SharingContext, C4_PreferredDevicesAreASubsetOfAll) {
  auto device = make_d3d11_device();
  ComPtr<IDXGIDevice> dxgi;
  ComPtr<IDXGIAdapter> adapter;
  ASSERT_TRUE(SUCCEEDED(device.As(&dxgi)) && SUCCEEDED(dxgi->GetAdapter(&adapter)));
  auto list = [&](cl_d3d11_device_source_khr source, void* object, cl_d3d11_device_set_khr set, cl_int* err) {
    cl_uint n = 0;
    *err = sharing().get_d3d11_devices(test_platform(), source, object, set, 0, nullptr, &n);
    std::vector<cl_device_id> out(n);
    if (n) sharing().get_d3d11_devices(test_platform(), source, object, set, n, out.data(), nullptr);
    return out;
  };
  for (auto [source, object] : {std::pair<cl_d3d11_device_source_khr, void*>{CL_D3D11_DEVICE_KHR, device.Get()},
                                {CL_D3D11_DXGI_ADAPTER_KHR, adapter.Get()}}) {
    cl_int e1 = -1, e2 = -1;
    auto preferred = list(source, object, CL_PREFERRED_DEVICES_FOR_D3D11_KHR, &e1);
    auto all = list(source, object, CL_ALL_DEVICES_FOR_D3D11_KHR, &e2);
    EXPECT_TRUE(e1 == CL_SUCCESS || e1 == CL_DEVICE_NOT_FOUND);
    EXPECT_EQ(e2, CL_SUCCESS);
    EXPECT_TRUE(subset(preferred, all));
    EXPECT_NE(std::find(all.begin(), all.end(), test_device()), all.end());
  }
  cl_uint n = 0;
  EXPECT_EQ(sharing().get_d3d11_devices(test_platform(), CL_D3D11_DEVICE_KHR, device.Get(), 0x1234, 0, nullptr, &n),
            CL_INVALID_VALUE);
  EXPECT_EQ(sharing().get_d3d11_devices(test_platform(), 0x1234, device.Get(), CL_ALL_DEVICES_FOR_D3D11_KHR, 0,
                                        nullptr, &n),
            CL_INVALID_VALUE);
  EXPECT_EQ(sharing().get_d3d11_devices(test_platform(), CL_D3D11_DEVICE_KHR, device.Get(),
                                        CL_ALL_DEVICES_FOR_D3D11_KHR, 0, nullptr, nullptr),
            CL_INVALID_VALUE);

  auto d3d9 = make_d3d9ex_device();
  cl_dx9_media_adapter_type_khr type = CL_ADAPTER_D3D9EX_KHR;
  void* adapters[1] = {d3d9.Get()};
  cl_uint preferred = 0, all = 0;
  EXPECT_EQ(sharing().get_dx9_devices(test_platform(), 1, &type, adapters,
                                      CL_PREFERRED_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR, 0, nullptr, &preferred),
            CL_SUCCESS);
  EXPECT_EQ(sharing().get_dx9_devices(test_platform(), 1, &type, adapters, CL_ALL_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR,
                                      0, nullptr, &all),
            CL_SUCCESS);
  EXPECT_LE(preferred, all);
  EXPECT_GE(all, 1u);
}

TEST(SharingContext, C5_PropertiesReadBackAsGiven) {
  auto device = make_d3d11_device();
  Context context({CL_CONTEXT_D3D11_DEVICE_KHR, prop(device.Get()), CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE});
  size_t size = 0;
  ASSERT_EQ(clvfGetContextInfo(context.get(), CL_CONTEXT_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
  std::vector<cl_context_properties> got(size / sizeof(cl_context_properties));
  ASSERT_EQ(clvfGetContextInfo(context.get(), CL_CONTEXT_PROPERTIES, size, got.data(), nullptr), CL_SUCCESS);
  EXPECT_EQ(got, context.properties);
  EXPECT_EQ(got.back(), 0) << "0-terminated";
}

}  // namespace
}  // namespace clvf::detail::test
