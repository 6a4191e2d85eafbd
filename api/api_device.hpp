// What a clvf_device handle holds: for the runtime's own users of the C API's devices (the chain).
#pragma once
#include <memory>

#include "clvf/clvf.h"
#include "runtime/device.hpp"

struct clvf_device {
  std::shared_ptr<clvf::detail::Device> impl;
};
