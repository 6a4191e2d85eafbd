// The error plumbing of the extension functions: results through errcode_ret, failures as NULL.
#pragma once
#include <CL/cl.h>

namespace clvf::detail::interop {

inline cl_mem fail_mem(cl_int code, cl_int* errcode_ret) {
  if (errcode_ret) *errcode_ret = code;
  return nullptr;
}

inline cl_mem succeed_mem(cl_mem mem, cl_int* errcode_ret) {
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return mem;
}

}  // namespace clvf::detail::interop
