// The C API boundary: runs a C++ body, turns every exception into a status and a per-thread
// message, so no exception crosses into C callers (FFmpeg).
#pragma once
#include <new>
#include <string>

#include "clvf/clvf.h"
#include "runtime/cl.hpp"
#include "runtime/error.hpp"

namespace clvf::detail {

void set_last_error(const std::string& message);

// A pointer the caller must give.
template <typename T>
void require(const T* p, const char* what) {
  if (!p) throw Error(CLVF_ERROR_INVALID_ARGUMENT, std::string(what) + " must not be NULL");
}

template <typename Body>
clvf_status api_call(Body&& body) {
  clvf_status status = CLVF_OK;
  std::string message;
  try {
    body();
    return CLVF_OK;
  } catch (const Error& e) {
    status = e.status();
    message = e.what();
  } catch (const cl::Error& e) {
    status = cl_error_status(e.err());
    message = cl_error_message(e.what(), e.err());
  } catch (const std::bad_alloc&) {
    status = CLVF_ERROR_OUT_OF_MEMORY;
    message = "out of host memory";
  } catch (const std::exception& e) {
    status = CLVF_ERROR_INTERNAL;
    message = std::string("internal error: ") + e.what();
  }
  set_last_error(message);
  return status;
}

}  // namespace clvf::detail
