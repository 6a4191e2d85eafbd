#pragma once
#include <stdexcept>
#include <string>

#include "clvf/clvf.h"

namespace clvf::detail {

// Every failure inside the library is an Error; the C API turns it into a status + message.
class Error : public std::runtime_error {
 public:
  Error(clvf_status status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  clvf_status status() const { return status_; }

 private:
  clvf_status status_;
};

// "CL_INVALID_VALUE" for -30; "unknown OpenCL error" for codes outside the standard table.
const char* cl_error_name(int code);
// "clBuildProgram: CL_BUILD_PROGRAM_FAILURE (-11)"
std::string cl_error_message(const char* call, int code);
// CLVF_ERROR_OUT_OF_MEMORY for the allocation failures, CLVF_ERROR_OPENCL for the rest.
clvf_status cl_error_status(int code);

}  // namespace clvf::detail
