// An NV12 host frame of its own memory (flat luma 16, chroma 128), for tests that count what a
// frame does rather than check its pixels.
#pragma once
#include <cstdint>
#include <vector>

#include "clvf/clvf.h"

namespace clvf::detail::test {

struct HostNv12 {
  HostNv12(int w, int h) : luma(size_t(w) * h, 16), chroma(size_t(w) * h / 2, 128) {
    frame.storage = CLVF_STORAGE_HOST;
    frame.planes[0] = {luma.data(), nullptr, 0, size_t(w)};
    frame.planes[1] = {chroma.data(), nullptr, 0, size_t(w)};
  }
  std::vector<uint8_t> luma, chroma;
  clvf_frame frame{};
};

}  // namespace clvf::detail::test
