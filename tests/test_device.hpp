#pragma once
#include <cstdlib>
#include <memory>

#include "runtime/device.hpp"

namespace clvf::detail::test {
// The device tests run on: $CLVF_TEST_DEVICE, else PoCL.
inline std::shared_ptr<Device> open_test_device() {
  const char* spec = std::getenv("CLVF_TEST_DEVICE");
  return Device::open(spec && *spec ? spec : "pocl");
}
}  // namespace clvf::detail::test
