#include "runtime/log.hpp"

#include <atomic>
#include <cstdio>
#include <mutex>

#include "runtime/settings.hpp"

namespace clvf::detail {
namespace {

std::mutex sink_mutex;
clvf_log_callback sink = nullptr;
void* sink_opaque = nullptr;

void default_sink(clvf_log_level level, const std::string& message) {
  if (level > CLVF_LOG_WARNING && !verbose_log_setting()) return;
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

}  // namespace clvf::detail

extern "C" CLVF_API void clvf_set_log_callback(clvf_log_callback cb, void* opaque) {
  std::lock_guard lock(clvf::detail::sink_mutex);
  clvf::detail::sink = cb;
  clvf::detail::sink_opaque = opaque;
}
