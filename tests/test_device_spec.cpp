#include <gtest/gtest.h>

#include <cstdlib>

#include "runtime/device_spec.hpp"
#include "runtime/cl.hpp"
#include "runtime/error.hpp"

namespace clvf::detail {
namespace {

std::vector<DeviceEntry> sample_devices() {
  DeviceEntry pocl{0, 0, "Portable Computing Language", "The pocl project", "pthread-skylake", true, false, false};
  DeviceEntry nv0{1, 0, "NVIDIA CUDA", "NVIDIA Corporation", "NVIDIA H200", false, true, false};
  DeviceEntry nv1{1, 1, "NVIDIA CUDA", "NVIDIA Corporation", "NVIDIA H100", false, true, false};
  return {pocl, nv0, nv1};
}

TEST(DeviceSpec, ParsesEveryForm) {
  EXPECT_EQ(parse_device_spec("").kind, DeviceSpec::Kind::Default);
  EXPECT_EQ(parse_device_spec(" default ").kind, DeviceSpec::Kind::Default);
  EXPECT_EQ(parse_device_spec("CPU").type, DeviceSpec::Type::Cpu);
  EXPECT_EQ(parse_device_spec("gpu").type, DeviceSpec::Type::Gpu);
  EXPECT_EQ(parse_device_spec("accelerator").type, DeviceSpec::Type::Accelerator);
  const auto idx = parse_device_spec("1.12");
  EXPECT_EQ(idx.kind, DeviceSpec::Kind::Index);
  EXPECT_EQ(idx.platform, 1);
  EXPECT_EQ(idx.device, 12);
  const auto name = parse_device_spec("PoCL");
  EXPECT_EQ(name.kind, DeviceSpec::Kind::Name);
  EXPECT_EQ(name.name, "pocl");
}

TEST(DeviceSpec, RejectsMalformedIndexWithHelp) {
  for (const char* bad : {"1.", "1", "1.x", "0.-1", "1.2.3", "99999999999.0"}) {
    try {
      parse_device_spec(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), CLVF_ERROR_INVALID_ARGUMENT);
      EXPECT_NE(std::string(e.what()).find("PLATFORM.DEVICE"), std::string::npos) << e.what();
    }
  }
}

TEST(DeviceSpec, MatchesAgainstAList) {
  const auto devs = sample_devices();
  EXPECT_EQ(match_device(parse_device_spec("default"), devs)->device_name, "NVIDIA H200");  // first GPU
  EXPECT_EQ(match_device(parse_device_spec("cpu"), devs)->platform, 0);
  EXPECT_EQ(match_device(parse_device_spec("1.1"), devs)->device_name, "NVIDIA H100");
  EXPECT_EQ(match_device(parse_device_spec("nvidia"), devs)->device, 0);
  EXPECT_EQ(match_device(parse_device_spec("h100"), devs)->device, 1);
  EXPECT_EQ(match_device(parse_device_spec("pocl"), devs)->platform, 0);
  EXPECT_FALSE(match_device(parse_device_spec("accelerator"), devs));
  EXPECT_FALSE(match_device(parse_device_spec("2.0"), devs));
  EXPECT_FALSE(match_device(parse_device_spec("intel"), devs));
  // Without a GPU, default falls back to the first device.
  EXPECT_EQ(match_device(parse_device_spec("default"), {devs[0]})->platform, 0);
  EXPECT_FALSE(match_device(parse_device_spec("default"), {}));
}

TEST(DeviceSpec, DescribesDevicesForErrors) {
  const std::string text = describe_devices(sample_devices());
  EXPECT_NE(text.find("0.0  Portable Computing Language / pthread-skylake (cpu)"), std::string::npos) << text;
  EXPECT_NE(text.find("1.1  NVIDIA CUDA / NVIDIA H100 (gpu)"), std::string::npos) << text;
  EXPECT_NE(describe_devices({}).find("no OpenCL platform"), std::string::npos);
}

TEST(DeviceSpec, EnvironmentVariableIsTheDefault) {
  setenv("CLVF_DEVICE", "gpu", 1);
  EXPECT_EQ(effective_device_spec(nullptr), "gpu");
  EXPECT_EQ(effective_device_spec(""), "gpu");
  EXPECT_EQ(effective_device_spec("cpu"), "cpu");  // an explicit spec wins
  unsetenv("CLVF_DEVICE");
  EXPECT_EQ(effective_device_spec(nullptr), "default");
}

TEST(Errors, NameTheCallAndTheError) {
  EXPECT_STREQ(cl_error_name(-30), "CL_INVALID_VALUE");
  EXPECT_STREQ(cl_error_name(-11), "CL_BUILD_PROGRAM_FAILURE");
  EXPECT_STREQ(cl_error_name(12345), "unknown OpenCL error");
  EXPECT_EQ(cl_error_message("clCreateBuffer", -61), "clCreateBuffer: CL_INVALID_BUFFER_SIZE (-61)");
  EXPECT_EQ(cl_error_status(CL_OUT_OF_HOST_MEMORY), CLVF_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(cl_error_status(CL_MEM_OBJECT_ALLOCATION_FAILURE), CLVF_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(cl_error_status(CL_INVALID_VALUE), CLVF_ERROR_OPENCL);
}

}  // namespace
}  // namespace clvf::detail
