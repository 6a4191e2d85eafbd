// Every CLVF_* environment variable the library reads is read here, and nowhere else. A device
// reads its Settings once, when it opens (the library's edge), and keeps them: operations take
// them from their device, and tests and embedders give a device their own.
#pragma once
#include <filesystem>
#include <string>

namespace clvf::detail {

struct Settings {
  // CLVF_CACHE_DIR, else $XDG_CACHE_HOME/clvf, else $HOME/.cache/clvf; empty: no binary cache.
  std::filesystem::path cache_dir;
  bool zero_copy = true;      // CLVF_NO_ZERO_COPY=1: host frames always staged (the discrete-GPU path)
  bool host_buffers = true;   // CLVF_NO_HOST_BUFFERS=1: clvf_host_buffer_alloc refuses (the filters map their outputs)
  bool profiling = false;     // CLVF_PROFILE=1: queues the device makes record kernel times
  std::string scale_kernels;  // CLVF_SCALE_KERNELS: block, cpu or gpu ("": by the device's type)
  // CLVF_IMAGES: staged (image planes copied to and from buffers around the kernels) or in-place
  // ("": staged on CPU devices, in place elsewhere)
  std::string images;
  std::string denoise_shape;  // CLVF_DENOISE_SHAPE: WX,VEC,LANES,ROWS[,RUNS], a tuning aid
  int poison = -1;            // CLVF_POISON_SCRATCH: the byte scratch memory starts as (-1: left)
  // CLVF_D3D11_COPY=1: D3D11 input textures are always copied into shareable ones of clvf's
  // (otherwise only those the driver refuses to share)
  bool d3d11_copy_inputs = false;

  static Settings from_environment();
};

// Process-wide, read once: the device spec when none is given (CLVF_DEVICE, "" when unset),
// verbose logging (CLVF_LOG set and not 0), and the copy threads (CLVF_COPY_THREADS, -1 when unset).
std::string device_spec_setting();
bool verbose_log_setting();
int copy_threads_setting();

}  // namespace clvf::detail
