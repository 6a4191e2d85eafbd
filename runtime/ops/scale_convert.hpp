// Scale with colour conversion: the scale writes unrounded float planes, the colour conversion
// reads them, so the samples are rounded (or dithered) once. What clvf_scale does when its params
// ask for a conversion.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "clvf/clvf.h"
#include "runtime/ops/colorspace.hpp"
#include "runtime/ops/scale.hpp"

namespace clvf::detail {

// Whether the params ask for a conversion (any of its fields set: they are then validated).
bool scale_conversion_asked(const clvf_scale_params& p);
// Whether the conversion needs its own pass: asked for, and not the identity.
bool scale_converts(const clvf_scale_params& p);
// The conversion's own params for a scale's (destination size; chroma filter = the algorithm).
clvf_colorspace_params conversion_params(const clvf_scale_params& p);
// Throws Error(INVALID_ARGUMENT) naming the bad field, the conversion's included.
void validate_scale_convert_params(const clvf_scale_params& p);

class ScaleConvert final : public Operation {
 public:
  ScaleConvert(std::shared_ptr<Device> device, const clvf_scale_params& params);
  void process(const clvf_frame& src, const clvf_frame& dst);
  // Asynchronous (Operation), as Scale's.
  bool submit(const clvf_frame* src, const clvf_frame& dst, const std::vector<cl::Event>& wait) override;
  const std::vector<cl::Event>& submitted() const override {
    return convert_ ? convert_->submitted() : scale_.submitted();
  }
  void complete() override;
  // Event-driven, for OpenCL frames: the event of the frame's last command.
  cl::Event enqueue(const clvf_frame& src, const clvf_frame& dst, const std::vector<cl::Event>& wait);
  std::string profile_report() const override;

 private:
  Scale scale_;
  std::optional<Colorspace> convert_;
};

}  // namespace clvf::detail
