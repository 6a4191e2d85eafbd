// The same through the C++ header (clvf/clvf.hpp): handles released by their destructors, and a
// bad parameter arrives as clvf::Error with the C API's status and message.
#include <clvf/clvf.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

int main() {
  constexpr int W = 64, H = 48;
  try {
    const clvf::Device dev;
    clvf_colorspace_params p;
    clvf_colorspace_params_default(&p);
    p.width = W, p.height = H, p.dst_format = CLVF_PIX_RGBA, p.dst_range = CLVF_RANGE_PC;
    clvf::Colorspace op(dev, p);
    std::vector<unsigned char> nv12(W * H * 3 / 2, 128), rgba(W * H * 4);
    std::memset(nv12.data(), 126, W * H);
    clvf_frame src{CLVF_STORAGE_HOST}, dst{CLVF_STORAGE_HOST};
    src.planes[0].data = nv12.data(), src.planes[0].pitch = W;
    src.planes[1].data = nv12.data() + W * H, src.planes[1].pitch = W;
    dst.planes[0].data = rgba.data(), dst.planes[0].pitch = W * 4;
    op.process(src, dst);
    for (int i = 0; i < W * H * 4; i++)
      if (rgba[i] != (i % 4 == 3 ? 255 : 128)) {
        std::fprintf(stderr, "consumer++: byte %d is %d\n", i, rgba[i]);
        return 1;
      }
    // The same conversion as a chain, and a chain preset planned for this size.
    clvf_stream in{};
    in.version = CLVF_API_VERSION, in.width = W, in.height = H, in.format = CLVF_PIX_NV12;
    clvf::Chain chain(dev, "colorspace_clvf=format=rgba", in);
    std::vector<unsigned char> again(rgba.size());
    dst.planes[0].data = again.data();
    if (!chain.process(&src, dst) || again != rgba) {
      std::fprintf(stderr, "consumer++: the chain's frame differs from the operation's\n");
      return 1;
    }
    const clvf_stream web = clvf::Chain(dev, "web-720p", in).output();
    if (web.width != 960 || web.height != 720) {
      std::fprintf(stderr, "consumer++: web-720p of 64x48 gave %dx%d\n", web.width, web.height);
      return 1;
    }
    p.width = -4;
    try {
      clvf::Colorspace bad(dev, p);
      std::fprintf(stderr, "consumer++: a negative width was accepted\n");
      return 1;
    } catch (const clvf::Error& e) {
      if (e.status() != CLVF_ERROR_INVALID_ARGUMENT || !std::strstr(e.what(), "width")) {
        std::fprintf(stderr, "consumer++: unexpected error %d: %s\n", e.status(), e.what());
        return 1;
      }
    }
    std::printf("consumer++: %s converted NV12 to RGBA through clvf.hpp, also as a chain; bad width refused; "
                "host frames %s\n", dev.name().c_str(), dev.copies_host_frames() ? "copied" : "used in place");
  } catch (const clvf::Error& e) {
    std::fprintf(stderr, "consumer++: %s\n", e.what());
    return 1;
  }
  return 0;
}
