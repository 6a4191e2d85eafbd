// A device reads the CLVF_* environment once, when it opens, and its operations use what it read
// (runtime/settings.hpp): the environment changing afterwards changes nothing, and a device given
// its own settings does not read the environment at all.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "runtime/error.hpp"
#include "runtime/ops/denoise.hpp"
#include "runtime/ops/scale_convert.hpp"
#include "test_device.hpp"

namespace clvf::detail::test {
namespace {

clvf_scale_params small_scale() {
  clvf_scale_params p;
  clvf_scale_params_default(&p);
  p.format = CLVF_PIX_NV12, p.src_width = p.src_height = 16, p.dst_width = p.dst_height = 8;
  return p;
}

// The message of what f throws; empty when it throws nothing.
template <class F>
std::string error_of(F f) {
  try {
    f();
    return "";
  } catch (const Error& e) {
    return e.what();
  }
}

std::string scale_error(const std::shared_ptr<Device>& device) {
  return error_of([&] { ScaleConvert scale(device, small_scale()); });
}

// A 1080p NV12 denoise, p=7 r=15.
std::string denoise_error(const std::shared_ptr<Device>& device) {
  clvf_denoise_params p;
  clvf_denoise_params_default(&p);
  p.format = CLVF_PIX_NV12, p.width = 1920, p.height = 1080, p.patch_size = 7, p.research_size = 15;
  return error_of([&] { Denoise denoise(device, p); });
}

// Sets a variable for its scope and puts back what was there (a whole-binary run may have set it).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnv() { had_ ? setenv(name_, old_.c_str(), 1) : unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

const char* test_spec() {
  const char* spec = std::getenv("CLVF_TEST_DEVICE");
  return spec && *spec ? spec : "pocl";
}

TEST(Settings, ReadWhenTheDeviceOpensAndKept) {
  std::shared_ptr<Device> device;
  {
    ScopedEnv kernels("CLVF_SCALE_KERNELS", "bogus");
    device = Device::open(test_spec());
  }
  EXPECT_EQ(device->settings().scale_kernels, "bogus");
  EXPECT_NE(scale_error(device).find("CLVF_SCALE_KERNELS is 'bogus'"), std::string::npos) << scale_error(device);
  EXPECT_EQ(scale_error(Device::open(test_spec())), "");  // a device opened now reads the change
}

TEST(Settings, GivenSettingsAreNotReadFromTheEnvironment) {
  ScopedEnv kernels("CLVF_SCALE_KERNELS", "bogus"), staged("CLVF_NO_ZERO_COPY", "1"), mapped("CLVF_NO_HOST_BUFFERS", "1");
  Settings given;
  given.scale_kernels = "gpu";
  given.poison = 7;
  auto device = Device::open(test_spec(), given);
  EXPECT_EQ(scale_error(device), "");
  EXPECT_TRUE(device->settings().zero_copy);
  EXPECT_TRUE(device->settings().host_buffers);
  EXPECT_EQ(device->settings().poison, 7);
}

// CLVF_DENOISE_SHAPE (a tuning aid) is checked, and the shapes it allows make a denoise (with more
// rows than work-items the output pass has no runs; RUNS above 1 is that many runs a row). Only the
// planning is run, not a frame.
TEST(Settings, DenoiseShapeIsCheckedAndAllowedShapesMakeADenoise) {
  Settings given;
  for (const char* shape : {"32,1,256,64,1", "128,1,256,12,1", "112,1,256,14,1", "108,1,96,12,8", "4,16,64,32",
                            "64,1,256,8"}) {
    given.denoise_shape = shape;
    EXPECT_EQ(denoise_error(Device::open(test_spec(), given)), "") << shape;
  }
  for (const char* shape : {"64,3,256,8", "0,1,256,8", "64,1,256,65", "64,4,256,8,1", "96,1,84,12,9"}) {
    given.denoise_shape = shape;
    const std::string e = denoise_error(Device::open(test_spec(), given));
    EXPECT_NE(e.find(fmt::format("CLVF_DENOISE_SHAPE '{}' is not WX,VEC", shape)), std::string::npos) << e;
  }
}

TEST(Settings, FromTheEnvironment) {
  {
    ScopedEnv cache("CLVF_CACHE_DIR", "/tmp/clvf-settings-test"), poison("CLVF_POISON_SCRATCH", "0x2a"),
        profile("CLVF_PROFILE", "1"), images("CLVF_IMAGES", "in-place");
    const Settings s = Settings::from_environment();
    EXPECT_EQ(s.images, "in-place");
    EXPECT_EQ(s.cache_dir, "/tmp/clvf-settings-test");
    EXPECT_EQ(s.poison, 42);
    EXPECT_TRUE(s.profiling);
  }
  ScopedEnv poison("CLVF_POISON_SCRATCH", "300");  // not a byte: no poison
  EXPECT_EQ(Settings::from_environment().poison, -1);
}

}  // namespace
}  // namespace clvf::detail::test
