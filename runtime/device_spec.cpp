#include "runtime/device_spec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>

#include "runtime/error.hpp"
#include "runtime/settings.hpp"

namespace clvf::detail {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t");
  return std::string(s.substr(b, e - b + 1));
}

bool parse_index(std::string_view s, int& out) {
  if (s.empty()) return false;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size() && out >= 0;
}

bool contains(const std::string& haystack, const std::string& needle) {
  return lower(haystack).find(needle) != std::string::npos;
}

}  // namespace

DeviceSpec parse_device_spec(std::string_view raw) {
  const std::string s = lower(trim(raw));
  DeviceSpec spec;
  if (s.empty() || s == "default") return spec;
  if (s == "cpu" || s == "gpu" || s == "accelerator") {
    spec.kind = DeviceSpec::Kind::Type;
    spec.type = s == "cpu" ? DeviceSpec::Type::Cpu
                : s == "gpu" ? DeviceSpec::Type::Gpu
                             : DeviceSpec::Type::Accelerator;
    return spec;
  }
  if (std::isdigit(static_cast<unsigned char>(s[0]))) {
    const auto dot = s.find('.');
    if (dot == std::string::npos || !parse_index(std::string_view(s).substr(0, dot), spec.platform) ||
        !parse_index(std::string_view(s).substr(dot + 1), spec.device))
      throw Error(CLVF_ERROR_INVALID_ARGUMENT,
                  fmt::format("device spec '{}' is not valid: an index spec is PLATFORM.DEVICE, "
                              "e.g. 0.0; other specs: default, cpu, gpu, accelerator, or part of "
                              "a platform, vendor or device name",
                              raw));
    spec.kind = DeviceSpec::Kind::Index;
    return spec;
  }
  spec.kind = DeviceSpec::Kind::Name;
  spec.name = s;
  return spec;
}

std::string effective_device_spec(const char* spec) {
  if (spec && *spec) return spec;
  if (std::string env = device_spec_setting(); !env.empty()) return env;
  return "default";
}

std::optional<DeviceEntry> match_device(const DeviceSpec& spec, const std::vector<DeviceEntry>& devices) {
  auto find = [&](auto pred) -> std::optional<DeviceEntry> {
    const auto it = std::find_if(devices.begin(), devices.end(), pred);
    if (it == devices.end()) return std::nullopt;
    return *it;
  };
  switch (spec.kind) {
    case DeviceSpec::Kind::Default:
      if (auto gpu = find([](const DeviceEntry& d) { return d.is_gpu; })) return gpu;
      return find([](const DeviceEntry&) { return true; });
    case DeviceSpec::Kind::Type:
      return find([&](const DeviceEntry& d) {
        return spec.type == DeviceSpec::Type::Cpu   ? d.is_cpu
               : spec.type == DeviceSpec::Type::Gpu ? d.is_gpu
                                                    : d.is_accelerator;
      });
    case DeviceSpec::Kind::Index:
      return find([&](const DeviceEntry& d) { return d.platform == spec.platform && d.device == spec.device; });
    case DeviceSpec::Kind::Name:
      return find([&](const DeviceEntry& d) {
        return contains(d.platform_name, spec.name) || contains(d.vendor, spec.name) ||
               contains(d.device_name, spec.name);
      });
  }
  return std::nullopt;
}

std::string describe_devices(const std::vector<DeviceEntry>& devices) {
  if (devices.empty()) return "  (no OpenCL platform or device was found; is an ICD installed?)";
  std::string out;
  for (const auto& d : devices) {
    const char* type = d.is_gpu ? "gpu" : d.is_cpu ? "cpu" : d.is_accelerator ? "accelerator" : "other";
    out += fmt::format("  {}.{}  {} / {} ({})\n", d.platform, d.device, d.platform_name, d.device_name, type);
  }
  if (!out.empty()) out.pop_back();
  return out;
}

}  // namespace clvf::detail
