#include "runtime/program_cache.hpp"

#include <fmt/format.h>
#include <xxhash.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <vector>

#include "runtime/error.hpp"
#include "runtime/log.hpp"

namespace clvf::detail {
namespace {

// Entry format 2: the binary and the kernels' argument names (which a program built from a binary
// may not report).
constexpr char kMagic[8] = {'C', 'L', 'V', 'F', 'B', 'I', 'N', '2'};
// Always added: kernels set their arguments by name (runtime/kernel.hpp).
constexpr const char* kArgInfo = " -cl-kernel-arg-info";

std::string cache_key(const cl::Device& device, const std::string& source, const std::string& options) {
  const cl::Platform platform(device.getInfo<CL_DEVICE_PLATFORM>());
  const XXH128_hash_t h = XXH3_128bits(source.data(), source.size());
  return fmt::format("entry=2\nplatform={}|{}\ndevice={}|{}\ndriver={}\noptions={}\nsource={:016x}{:016x}\n",
                     platform.getInfo<CL_PLATFORM_NAME>(), platform.getInfo<CL_PLATFORM_VERSION>(),
                     device.getInfo<CL_DEVICE_NAME>(), device.getInfo<CL_DEVICE_VERSION>(),
                     device.getInfo<CL_DRIVER_VERSION>(), options, h.high64, h.low64);
}

std::string file_name(const std::string& key) {
  const XXH128_hash_t h = XXH3_128bits(key.data(), key.size());
  return fmt::format("{:016x}{:016x}.clbin", h.high64, h.low64);
}

std::string signatures_text(const KernelSignatures& signatures) {
  std::string out;
  for (const auto& [kernel, args] : signatures) {
    out += kernel;
    for (const auto& a : args) out += ' ' + a;
    out += '\n';
  }
  return out;
}

std::optional<KernelSignatures> parse_signatures(const std::string& text) {
  KernelSignatures out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string kernel;
    if (!(words >> kernel)) return std::nullopt;
    std::vector<std::string> args;
    for (std::string a; words >> a;) args.push_back(a);
    out.emplace(std::move(kernel), std::move(args));
  }
  if (out.empty()) return std::nullopt;
  return out;
}

struct Entry {
  std::vector<unsigned char> binary;
  KernelSignatures signatures;
};

void put_u64(std::string& out, uint64_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }

bool get_u64(const std::string& in, size_t& pos, uint64_t& v) {
  if (in.size() - pos < sizeof v) return false;
  std::memcpy(&v, in.data() + pos, sizeof v);
  pos += sizeof v;
  return true;
}

// The entry stored for key, or nullopt when the file is missing, foreign or damaged.
std::optional<Entry> read_entry(const std::filesystem::path& path, const std::string& key,
                                                     bool& present) {
  std::ifstream in(path, std::ios::binary);
  present = static_cast<bool>(in);
  if (!in) return std::nullopt;
  in.seekg(0, std::ios::end);
  const std::streamoff length = in.tellg();
  if (length < 0) return std::nullopt;
  std::string data(static_cast<size_t>(length), '\0');
  in.seekg(0);
  if (!in.read(data.data(), length)) return std::nullopt;
  size_t pos = sizeof kMagic;
  uint64_t key_len = 0, size = 0, sig_size = 0, checksum = 0;
  if (data.size() < pos || std::memcmp(data.data(), kMagic, sizeof kMagic) != 0) return std::nullopt;
  if (!get_u64(data, pos, key_len) || data.size() - pos < key_len || data.compare(pos, key_len, key) != 0)
    return std::nullopt;
  pos += key_len;
  if (!get_u64(data, pos, size) || !get_u64(data, pos, sig_size) || !get_u64(data, pos, checksum) || size == 0 ||
      data.size() - pos < size || data.size() - pos - size != sig_size)
    return std::nullopt;
  if (XXH3_64bits(data.data() + pos, size + sig_size) != checksum) return std::nullopt;
  auto signatures = parse_signatures(data.substr(pos + size));
  if (!signatures) return std::nullopt;
  return Entry{std::vector<unsigned char>(data.begin() + pos, data.begin() + pos + size), std::move(*signatures)};
}

void write_entry(const std::filesystem::path& dir, const std::filesystem::path& path, const std::string& key,
                 const std::vector<unsigned char>& binary, const KernelSignatures& signatures) {
  std::string payload(reinterpret_cast<const char*>(binary.data()), binary.size());
  const std::string sig = signatures_text(signatures);
  payload += sig;
  std::string data(kMagic, sizeof kMagic);
  put_u64(data, key.size());
  data += key;
  put_u64(data, binary.size());
  put_u64(data, sig.size());
  put_u64(data, XXH3_64bits(payload.data(), payload.size()));
  data += payload;

  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const auto tmp = path.string() + fmt::format(".tmp{:x}", std::random_device{}());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    out.close();
    if (!out) {
      std::filesystem::remove(tmp, ec);
      log(CLVF_LOG_WARNING, "program cache: cannot write {} (kernels will be compiled again next time)",
          tmp);
      return;
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    log(CLVF_LOG_WARNING, "program cache: cannot write {}: {}", path.string(), ec.message());
  }
}

cl::Program build_program(cl::Program program, const cl::Device& device, const std::string& options) {
  try {
    program.build({device}, (options + kArgInfo).c_str());
  } catch (const cl::Error& e) {
    std::string build_log;
    try {
      build_log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
    } catch (const cl::Error&) {
    }
    throw Error(cl_error_status(e.err()), cl_error_message("clBuildProgram", e.err()) +
                                       (build_log.empty() ? "" : "\nbuild log:\n" + build_log));
  }
  return program;
}

}  // namespace

ProgramCache::ProgramCache(std::filesystem::path dir) : dir_(std::move(dir)) {}

ProgramCache::Stats ProgramCache::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

std::filesystem::path ProgramCache::entry_path(const cl::Device& device, const std::string& source,
                                               const std::string& options) const {
  return dir_ / file_name(cache_key(device, source, options));
}

Program ProgramCache::build(const cl::Context& context, const cl::Device& device, const std::string& source,
                            const std::string& options) {
  if (dir_.empty()) {
    cl::Program program = build_program(cl::Program(context, source), device, options);
    return {program, read_signatures(program)};
  }

  const std::string key = cache_key(device, source, options);
  const auto path = dir_ / file_name(key);
  bool present = false;
  if (auto entry = read_entry(path, key, present)) {
    try {
      cl::Program program(context, {device}, cl::Program::Binaries{entry->binary});
      program.build({device}, (options + kArgInfo).c_str());
      std::lock_guard lock(mutex_);
      ++stats_.hits;
      return {program, std::move(entry->signatures)};
    } catch (const cl::Error& e) {
      log(CLVF_LOG_WARNING, "program cache: entry {} was not accepted by the driver ({}); rebuilding",
          path.string(), cl_error_message("clBuildProgram", e.err()));
    }
  } else if (present) {
    log(CLVF_LOG_WARNING, "program cache: entry {} is damaged or foreign; rebuilding", path.string());
  }

  cl::Program program = build_program(cl::Program(context, source), device, options);
  KernelSignatures signatures = read_signatures(program);
  const auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
  if (!binaries.empty() && !binaries.front().empty()) write_entry(dir_, path, key, binaries.front(), signatures);
  std::lock_guard lock(mutex_);
  ++(present ? stats_.rejected : stats_.misses);
  return {program, std::move(signatures)};
}

}  // namespace clvf::detail
