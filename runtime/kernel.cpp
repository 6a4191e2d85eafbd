#include "runtime/kernel.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "runtime/error.hpp"
#include "runtime/host_buffer.hpp"

namespace clvf::detail {

KernelSignatures read_signatures(const cl::Program& program) {
  KernelSignatures out;
  std::vector<cl::Kernel> kernels;
  cl::Program(program).createKernels(&kernels);  // createKernels is not const in the bindings
  for (const cl::Kernel& k : kernels) {
    const auto name = k.getInfo<CL_KERNEL_FUNCTION_NAME>();
    const auto count = k.getInfo<CL_KERNEL_NUM_ARGS>();
    std::vector<std::string> args(count);
    for (cl_uint i = 0; i < count; ++i) {
      try {
        args[i] = k.getArgInfo<CL_KERNEL_ARG_NAME>(i);
      } catch (const cl::Error& e) {
        throw Error(CLVF_ERROR_INTERNAL,
                    fmt::format("{} (CL_KERNEL_ARG_NAME of kernel {}): clvf sets kernel arguments by name and needs "
                                "the platform to report them",
                                cl_error_message("clGetKernelArgInfo", e.err()), name));
      }
      // Some compilers keep a trailing NUL in the returned string.
      while (!args[i].empty() && args[i].back() == '\0') args[i].pop_back();
    }
    out.emplace(name, std::move(args));
  }
  return out;
}

Kernel::Kernel(const cl::Program& program, const KernelSignatures& signatures, std::string name)
    : name_(std::move(name)) {
  const auto it = signatures.find(name_);
  if (it == signatures.end()) {
    std::vector<std::string_view> names;
    for (const auto& [n, args] : signatures) names.push_back(n);
    throw Error(CLVF_ERROR_INTERNAL,
                fmt::format("the program has no kernel {} (it has: {})", name_, fmt::join(names, ", ")));
  }
  args_ = it->second;
  kernel_ = cl::Kernel(program, name_.c_str());
}

bool Kernel::has(std::string_view arg) const { return std::find(args_.begin(), args_.end(), arg) != args_.end(); }

cl_uint Kernel::index(std::string_view arg, std::string_view suffix) const {
  const auto it = std::find_if(args_.begin(), args_.end(), [&](std::string_view a) {
    return a.size() == arg.size() + suffix.size() && a.starts_with(arg) && a.ends_with(suffix);
  });
  if (it == args_.end())
    throw Error(CLVF_ERROR_INTERNAL, fmt::format("kernel {} has no argument {}{} (its arguments: {})", name_, arg,
                                                 suffix, fmt::join(args_, ", ")));
  return static_cast<cl_uint>(it - args_.begin());
}

void Kernel::set_host_pointer(std::string_view arg, const void* p) { set_host_buffer_arg(kernel_, index(arg), p); }

}  // namespace clvf::detail
