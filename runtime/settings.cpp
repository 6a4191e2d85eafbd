#include "runtime/settings.hpp"

#include <cstdlib>

namespace clvf::detail {

namespace {
std::string text(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}
}  // namespace

Settings Settings::from_environment() {
  Settings s;
  if (const std::string d = text("CLVF_CACHE_DIR"); !d.empty())
    s.cache_dir = d;
  else if (const std::string x = text("XDG_CACHE_HOME"); !x.empty())
    s.cache_dir = std::filesystem::path(x) / "clvf";
  else if (const std::string h = text("HOME"); !h.empty())
    s.cache_dir = std::filesystem::path(h) / ".cache" / "clvf";
  s.zero_copy = text("CLVF_NO_ZERO_COPY") != "1";
  s.host_buffers = text("CLVF_NO_HOST_BUFFERS") != "1";
  s.profiling = text("CLVF_PROFILE") == "1";
  s.scale_kernels = text("CLVF_SCALE_KERNELS");
  s.denoise_shape = text("CLVF_DENOISE_SHAPE");
  s.images = text("CLVF_IMAGES");
  s.d3d11_copy_inputs = text("CLVF_D3D11_COPY") == "1";
  if (const std::string p = text("CLVF_POISON_SCRATCH"); !p.empty()) {
    char* end = nullptr;
    const long v = std::strtol(p.c_str(), &end, 0);
    if (!*end && v >= 0 && v <= 255) s.poison = static_cast<int>(v);
  }
  return s;
}

std::string device_spec_setting() { return text("CLVF_DEVICE"); }

bool verbose_log_setting() {
  static const bool verbose = [] {
    const std::string v = text("CLVF_LOG");
    return !v.empty() && v != "0";
  }();
  return verbose;
}

int copy_threads_setting() {
  static const int n = [] {
    const std::string v = text("CLVF_COPY_THREADS");
    return v.empty() ? -1 : std::atoi(v.c_str());
  }();
  return n;
}

}  // namespace clvf::detail
