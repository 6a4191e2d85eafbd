// A model of NVIDIA's OpenCL platform with cl_nv_d3d11_sharing, for tests: no NVIDIA driver runs
// here. Installed (set_next_cl), it makes the test's platform (PoCL) look like NVIDIA's to clvf: the
// extension string names cl_nv_d3d11_sharing and not the KHR extension, the D3D11 functions are
// found under their NV names, and clCreateContext takes CL_CONTEXT_D3D11_DEVICE_NV (0x401D, KHR's
// value). NVIDIA's extension (version 2, 2010) maps the DXGI formats of KHR's table and no planar
// ones: the model refuses NV12, P010 and P016 textures, and any format a test adds, with
// CL_INVALID_IMAGE_FORMAT_DESCRIPTOR (what an implementation returns for a format outside its
// table). What it shares, clvf's emulation moves: the model checks clvf's choices, not the data
// paths of NVIDIA's driver.
#pragma once
#include <d3d11.h>

#include <set>

namespace clvf::detail::test {

struct NvDriverModel {
  std::set<DXGI_FORMAT> refused = {DXGI_FORMAT_NV12, DXGI_FORMAT_P010, DXGI_FORMAT_P016};
  int textures_shared = 0, textures_refused = 0;

  // Installs the model until the object is destroyed (one at a time).
  NvDriverModel();
  ~NvDriverModel();
  NvDriverModel(const NvDriverModel&) = delete;
  NvDriverModel& operator=(const NvDriverModel&) = delete;
};

}  // namespace clvf::detail::test
