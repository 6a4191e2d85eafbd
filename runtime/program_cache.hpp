// Builds OpenCL programs, keeping their binaries on disk so later runs skip the compiler.
// An entry is keyed by platform, device, driver version, build options and a hash of the source;
// it is written atomically (temporary file + rename) and checked (key, size, checksum) when
// read. The kernels' argument names are kept beside the binary (runtime/kernel.hpp). A corrupt, foreign or unloadable entry is rebuilt and replaced, never trusted.
#pragma once
#include <filesystem>
#include <mutex>
#include <string>

#include "runtime/cl.hpp"
#include "runtime/kernel.hpp"

namespace clvf::detail {

struct Program {
  cl::Program program;
  KernelSignatures signatures;
  Kernel kernel(std::string name) const { return Kernel(program, signatures, std::move(name)); }
};

class ProgramCache {
 public:
  // dir empty: no disk cache.
  explicit ProgramCache(std::filesystem::path dir);

  Program build(const cl::Context& context, const cl::Device& device, const std::string& source,
                    const std::string& options);

  struct Stats {
    int hits = 0;      // loaded from disk and built from the binary
    int misses = 0;    // no entry: compiled from source, entry written
    int rejected = 0;  // an entry was there but unusable: compiled from source, entry replaced
  };
  Stats stats() const;
  // The file an entry for these inputs lives in (for tests and diagnostics).
  std::filesystem::path entry_path(const cl::Device& device, const std::string& source,
                                   const std::string& options) const;

 private:
  std::filesystem::path dir_;
  mutable std::mutex mutex_;
  Stats stats_;
};

}  // namespace clvf::detail
