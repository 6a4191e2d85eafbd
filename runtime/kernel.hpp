// A kernel whose arguments are set by the names its source gives them, so that a change of a
// kernel's signature fails at plan time with a message naming the argument, instead of binding
// values to the wrong parameters. The names come from the program (built with
// -cl-kernel-arg-info; the disk cache keeps them beside the binary).
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/cl.hpp"

namespace clvf::detail {

// Each kernel of a program: its argument names in order.
using KernelSignatures = std::map<std::string, std::vector<std::string>, std::less<>>;

// The names of every kernel's arguments, read from a program built from source with
// -cl-kernel-arg-info. Throws Error(INTERNAL) where the platform cannot say them.
KernelSignatures read_signatures(const cl::Program& program);

class Kernel {
 public:
  Kernel() = default;
  // Throws Error(INTERNAL) when the program has no kernel `name`.
  Kernel(const cl::Program& program, const KernelSignatures& signatures, std::string name);

  // The index of argument `arg` followed by `suffix` (e.g. "src" "_pitch"); Error(INTERNAL)
  // naming the kernel and its arguments when it has none.
  cl_uint index(std::string_view arg, std::string_view suffix = {}) const;
  bool has(std::string_view arg) const;
  template <typename T>
  void set(std::string_view arg, const T& value) {
    kernel_.setArg(index(arg), value);
  }
  template <typename T>
  void set(std::string_view arg, std::string_view suffix, const T& value) {
    kernel_.setArg(index(arg, suffix), value);
  }
  // A cl_mem handle the caller owns (no reference taken).
  void set_mem(std::string_view arg, cl_mem mem) { kernel_.setArg(index(arg), sizeof(cl_mem), &mem); }
  // A pointer into a HostBuffer (runtime/host_buffer.hpp), for a global pointer argument.
  void set_host_pointer(std::string_view arg, const void* p);

  cl::Kernel& get() { return kernel_; }
  const std::string& name() const { return name_; }

 private:
  cl::Kernel kernel_;
  std::string name_;
  std::vector<std::string> args_;
};

}  // namespace clvf::detail
