// libFuzzer target: the text clvf reads from users. The first byte picks the reader, the rest is
// its input: device spec strings (parsed and matched against a fixed device list), preset files
// (written to a file and read as `preset=PATH`), the names of formats, matrices, ranges, dithers
// and algorithms, and filter chains as clvf_chain_create plans them (options, presets, w/h
// expressions) for a stream of a size the next bytes give. Each must return or throw clvf::detail::Error
// with a message, nothing else.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "api/chain/chain.hpp"
#include "runtime/device_spec.hpp"
#include "runtime/error.hpp"
#include "runtime/ops/colour_matrix.hpp"
#include "runtime/ops/pixel_format.hpp"
#include "runtime/ops/resample_table.hpp"
#include "runtime/presets.hpp"

namespace {

const std::vector<clvf::detail::DeviceEntry>& devices() {
  static const std::vector<clvf::detail::DeviceEntry> list = [] {
    std::vector<clvf::detail::DeviceEntry> l(3);
    l[0] = {0, 0, "Portable Computing Language", "The pocl project", "pthread-skylake", true, false, false};
    l[1] = {1, 0, "NVIDIA CUDA", "NVIDIA Corporation", "NVIDIA H200", false, true, false};
    l[2] = {1, 1, "NVIDIA CUDA", "NVIDIA Corporation", "NVIDIA H200", false, true, false};
    return l;
  }();
  return list;
}

// Removed when the fuzzer exits.
struct PresetFile {
  std::string path = "/tmp/clvf-fuzz-" + std::to_string(getpid()) + ".preset";
  ~PresetFile() { std::remove(path.c_str()); }
};

const std::string& preset_path() {
  static const PresetFile file;
  return file.path;
}

// Plans every stage of a chain (no device: the planning is what reads the text). The text's
// first two bytes give the input size; preset files (names with '/') are case 1's.
void plan_chain(const std::string& text) {
  if (text.size() < 2 || text.find('/') != std::string::npos) return;
  clvf_stream stream = {};
  stream.version = CLVF_API_VERSION;
  stream.width = 1 + static_cast<unsigned char>(text[0]) * 8;
  stream.height = 1 + static_cast<unsigned char>(text[1]) * 4;
  stream.format = CLVF_PIX_YUV420P;
  (void)clvf::detail::chain::plan_chain(text.substr(2), stream);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    switch (data[0] % 4) {
      case 0:
        (void)clvf::detail::match_device(clvf::detail::parse_device_spec(text), devices());
        break;
      case 1: {
        FILE* f = std::fopen(preset_path().c_str(), "wb");
        if (!f) std::abort();
        std::fwrite(text.data(), 1, text.size(), f);
        std::fclose(f);
        for (const char* filter : {"scale_clvf", "denoise_clvf", "colorspace_clvf"})
          try {
            (void)clvf::detail::presets::options(filter, preset_path());
          } catch (const clvf::detail::Error&) {
          }
        break;
      }
      case 2:  // a name (paths are case 1's)
        if (text.find('/') == std::string::npos)
          (void)clvf::detail::presets::options(data[0] % 8 < 4 ? "scale_clvf" : "denoise_clvf", text);
        break;
      default:
        switch (data[0] % 32 / 4) {
          case 0: (void)clvf::detail::pixel_format_from_name(text); break;
          case 1: (void)clvf::detail::matrix_from_name(text); break;
          case 2: (void)clvf::detail::range_from_name(text); break;
          case 3: (void)clvf::detail::dither_from_name(text); break;
          case 6:
          case 7: plan_chain(text); break;
          default: (void)clvf::detail::scale_algorithm_from_name(text); break;
        }
    }
  } catch (const clvf::detail::Error& e) {
    if (!*e.what()) std::abort();  // an error without a message
  }
  return 0;
}
