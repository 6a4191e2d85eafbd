// Waits for the work a Direct3D device has been given so far (a decoder's writes into the frame
// about to be acquired): an event query issued after it, the commands flushed, the query polled
// until done. The sharing specs make the driver do this at acquire in a context without
// CL_CONTEXT_INTEROP_USER_SYNC (clvf's are such), but drivers have been seen to skip it (stale or
// torn frames: Intel compute-runtime issue 602, AMD AMF issue 231), so clvf's Direct3D frames wait
// themselves before every acquire. It waits for all of the device's work, not only the frame's:
// a decoder's frames decoded ahead are waited for too. Windows only.
#pragma once
#include <d3d11.h>
#include <d3d9.h>
#include <wrl/client.h>

namespace clvf::detail {

class D3DIdle {
 public:
  // `resource`: an ID3D11Resource (d3d11) or an IDirect3DSurface9; the query is made once per
  // device and made again when a frame of another device comes. Throws clvf's Error on failure.
  void wait(void* resource, bool d3d11);

 private:
  void* device_ = nullptr;  // the device the query below belongs to
  Microsoft::WRL::ComPtr<ID3D11DeviceContext> context11_;
  Microsoft::WRL::ComPtr<ID3D11Query> query11_;
  Microsoft::WRL::ComPtr<IDirect3DQuery9> query9_;
};

}  // namespace clvf::detail
