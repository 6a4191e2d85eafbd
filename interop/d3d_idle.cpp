#include "interop/d3d_idle.hpp"

#include <fmt/format.h>
#include <windows.h>

#include "runtime/error.hpp"

namespace clvf::detail {

namespace {

[[noreturn]] void failed(const char* call, HRESULT hr) {
  throw Error(CLVF_ERROR_OPENCL, fmt::format("waiting for the Direct3D device before an acquire: {} failed (HRESULT "
                                             "0x{:08x})",
                                             call, static_cast<unsigned>(hr)));
}

}  // namespace

void D3DIdle::wait(void* resource, bool d3d11) {
  if (d3d11) {
    Microsoft::WRL::ComPtr<ID3D11Device> device;
    static_cast<ID3D11Resource*>(resource)->GetDevice(&device);
    if (device.Get() != device_) {
      D3D11_QUERY_DESC desc{D3D11_QUERY_EVENT, 0};
      query11_.Reset(), context11_.Reset(), device_ = nullptr;
      if (HRESULT hr = device->CreateQuery(&desc, &query11_); FAILED(hr)) failed("ID3D11Device::CreateQuery", hr);
      device->GetImmediateContext(&context11_);
      device_ = device.Get();
    }
    context11_->End(query11_.Get());  // GetData without DONOTFLUSH flushes the commands
    HRESULT hr;
    BOOL done = FALSE;
    while ((hr = context11_->GetData(query11_.Get(), &done, sizeof done, 0)) == S_FALSE || (hr == S_OK && !done))
      SwitchToThread();
    if (FAILED(hr)) failed("ID3D11DeviceContext::GetData", hr);
    return;
  }
  Microsoft::WRL::ComPtr<IDirect3DDevice9> device;
  if (HRESULT hr = static_cast<IDirect3DSurface9*>(resource)->GetDevice(&device); FAILED(hr))
    failed("IDirect3DSurface9::GetDevice", hr);
  if (device.Get() != device_) {
    query9_.Reset(), device_ = nullptr;
    if (HRESULT hr = device->CreateQuery(D3DQUERYTYPE_EVENT, &query9_); FAILED(hr))
      failed("IDirect3DDevice9::CreateQuery", hr);
    device_ = device.Get();
  }
  if (HRESULT hr = query9_->Issue(D3DISSUE_END); FAILED(hr)) failed("IDirect3DQuery9::Issue", hr);
  HRESULT hr;
  while ((hr = query9_->GetData(nullptr, 0, D3DGETDATA_FLUSH)) == S_FALSE) SwitchToThread();
  if (FAILED(hr)) failed("IDirect3DQuery9::GetData", hr);
}

}  // namespace clvf::detail
