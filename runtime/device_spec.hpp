// Device choice by spec string, kept apart from OpenCL so it can be tested on any list.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clvf::detail {

struct DeviceSpec {
  enum class Kind { Default, Type, Index, Name };
  enum class Type { Cpu, Gpu, Accelerator };
  Kind kind = Kind::Default;
  Type type = Type::Gpu;
  int platform = -1, device = -1;
  std::string name;  // lower case
};

// What the matcher needs to know of one device.
struct DeviceEntry {
  int platform = 0, device = 0;
  std::string platform_name, vendor, device_name;
  bool is_cpu = false, is_gpu = false, is_accelerator = false;
};

// Parses "", "default", "cpu", "gpu", "accelerator", "P.D", or a name part. Throws
// Error(INVALID_ARGUMENT) for a malformed index spec such as "1." or "a.b".
DeviceSpec parse_device_spec(std::string_view spec);

// The spec to use when the caller gave none: $CLVF_DEVICE if set, else "default".
std::string effective_device_spec(const char* spec);

// The first matching entry, or nullopt.
std::optional<DeviceEntry> match_device(const DeviceSpec& spec, const std::vector<DeviceEntry>& devices);

// "  0.0  Portable Computing Language / pthread-... (cpu)" lines for error messages.
std::string describe_devices(const std::vector<DeviceEntry>& devices);

}  // namespace clvf::detail
