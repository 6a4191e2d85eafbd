#include "runtime/log.hpp"

#include <atomic>
#include <cstdio>
#include <mutex>

namespace clvf {
namespace {

std::mutex sink_mutex;
clvf_log_callback sink = nullptr;
void* sink_opaque = nullptr;

void default_sink(clvf_log_level level, const std::string& message) {
  static const bool verbose = [] {
    const char* v = std::getenv("CLVF_LOG");
    return v && *v && std::string(v) != "0";
  }();
  if (level > CLVF_LOG_WARNING && !verbose) return;
  static const char* names[] = {"error", "warning", "info", "debug"};
  fmt::print(stderr, "clvf {}: {}\n", names[level], message);
}

}  // namespace

void log_message(clvf_log_level level, const std::string& message) {
  std::lock_guard lock(sink_mutex);
  if (sink)
    sink(sink_opaque, level, message.c_str());
  else
    default_sink(level, message);
}

}  // namespace clvf

extern "C" CLVF_API void clvf_set_log_callback(clvf_log_callback cb, void* opaque) {
  std::lock_guard lock(clvf::sink_mutex);
  clvf::sink = cb;
  clvf::sink_opaque = opaque;
}
