#pragma once
#include <fmt/format.h>

#include <string>

#include "clvf/clvf.h"

namespace clvf::detail {

void log_message(clvf_log_level level, const std::string& message);

template <typename... Args>
void log(clvf_log_level level, fmt::format_string<Args...> format, Args&&... args) {
  log_message(level, fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace clvf::detail
