// The NL-means denoise operation: validated and planned once (programs, kernel arguments), then
// run per frame without allocating. Serves the C API and, through it, the FFmpeg filter.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "clvf/clvf.h"
#include "interop/frame_planes.hpp"
#include "runtime/cl.hpp"
#include "runtime/device.hpp"
#include "runtime/profile.hpp"

namespace clvf {

// Throws Error(INVALID_ARGUMENT) naming the bad field and what is allowed.
void validate_denoise_params(const clvf_denoise_params& p);

class Denoise {
 public:
  Denoise(std::shared_ptr<Device> device, const clvf_denoise_params& params);
  void process(const clvf_frame& src, const clvf_frame& dst);
  std::string profile_report() const { return profile_.report(); }

 private:
  struct Plane {
    cl::Kernel kernel;
    cl::NDRange global, local;
    std::string name;  // in kernel-time reports
  };

  std::shared_ptr<Device> device_;
  clvf_denoise_params params_;
  std::vector<Plane> planes_;
  std::optional<FramePlanes> src_, dst_;
  KernelProfile profile_;
};

}  // namespace clvf
