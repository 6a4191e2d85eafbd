// OpenCL entry points newer than the 1.2 API the library is built against, looked up in the ICD
// loader at run time, so that the library still loads beside a loader that lacks them.
#pragma once

namespace clvf::detail {

// The loader's `name` (ocl-icd and the Khronos loader export the 2.x and 3.0 functions), or null.
void* cl_entry_point(const char* name);

template <typename F>
F cl_entry(const char* name) {
  return reinterpret_cast<F>(cl_entry_point(name));
}

}  // namespace clvf::detail
