#include "runtime/cl_entry.hpp"

#if defined(_WIN32)
#include <windows.h>
#else
#include <dlfcn.h>
#endif

namespace clvf::detail {

void* cl_entry_point(const char* name) {
#if defined(_WIN32)
  HMODULE loader = GetModuleHandleA("OpenCL.dll");
  return loader ? reinterpret_cast<void*>(GetProcAddress(loader, name)) : nullptr;
#else
  return dlsym(RTLD_DEFAULT, name);
#endif
}

}  // namespace clvf::detail
