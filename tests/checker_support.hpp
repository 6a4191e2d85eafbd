// What the kernel checkers share: the seed and size switches, a fixture holding the test device
// (and a C API handle to it), and the storage kinds they run over.
#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "clvf/clvf.h"
#include "test_device.hpp"

namespace clvf::detail::test {

// Oclgrind simulates every work-item: CLVF_CHECK_SMALL keeps frames small.
inline bool small_only() { return std::getenv("CLVF_CHECK_SMALL") != nullptr; }

inline uint64_t checker_seed() {
  const char* s = std::getenv("CLVF_CHECK_SEED");
  return s ? std::strtoull(s, nullptr, 0) : 20261201;
}

class StorageChecker : public ::testing::TestWithParam<clvf_storage> {
 protected:
  void SetUp() override {
    device_ = open_test_device();
    ASSERT_EQ(clvf_device_wrap(device_->context()(), device_->device()(), device_->queue()(), &handle_), CLVF_OK)
        << clvf_last_error();
  }
  void TearDown() override { clvf_device_release(handle_); }
  // handle_ wrapped again around device_'s context, reading the environment's settings now.
  void rewrap() {
    clvf_device_release(handle_);
    handle_ = nullptr;
    ASSERT_EQ(clvf_device_wrap(device_->context()(), device_->device()(), device_->queue()(), &handle_), CLVF_OK)
        << clvf_last_error();
  }
  // NV12 in images needs CL_RG; without it creation must fail with UNSUPPORTED naming CL_RG.
  bool expect_unsupported_nv12_images(clvf_storage storage, clvf_pixel_format format, clvf_status status) {
    if (storage != CLVF_STORAGE_CL_IMAGE || format != CLVF_PIX_NV12 || device_->supports_image_format(CL_RG, CL_UNORM_INT8))
      return false;
    EXPECT_EQ(status, CLVF_ERROR_UNSUPPORTED);
    EXPECT_NE(std::string(clvf_last_error()).find("CL_RG"), std::string::npos) << clvf_last_error();
    return true;
  }

  std::shared_ptr<Device> device_;
  clvf_device* handle_ = nullptr;
};

inline std::string storage_name(const ::testing::TestParamInfo<clvf_storage>& info) {
  return info.param == CLVF_STORAGE_HOST ? "host" : info.param == CLVF_STORAGE_CL_BUFFER ? "buffer" : "image";
}

#define CLVF_INSTANTIATE_STORAGES(fixture)                                                                \
  INSTANTIATE_TEST_SUITE_P(Storages, fixture,                                                            \
                           ::testing::Values(CLVF_STORAGE_HOST, CLVF_STORAGE_CL_BUFFER, CLVF_STORAGE_CL_IMAGE), \
                           ::clvf::detail::test::storage_name)

}  // namespace clvf::detail::test
