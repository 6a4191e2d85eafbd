#include "api/chain/filter_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "api/chain/expression.hpp"
#include "api/chain/option_string.hpp"
#include "runtime/error.hpp"
#include "runtime/presets.hpp"

namespace clvf::detail::chain {

namespace {
[[noreturn]] void invalid(const std::string& message) { throw Error(CLVF_ERROR_INVALID_ARGUMENT, message); }
}  // namespace

FilterOptions::FilterOptions(std::string_view filter, std::string_view options, const OptionSet& set)
    : filter_(filter) {
  take(options, set, false);
  if (auto it = values_.find("preset"); it != values_.end()) {
    const std::string preset = it->second;
    values_.erase(it);
    take(presets::options(filter, preset), set, true);
  }
}

void FilterOptions::take(std::string_view options, const OptionSet& set, bool from_preset) {
  const auto listed = [](const std::vector<std::string>& list, const std::string& name) {
    return std::find(list.begin(), list.end(), name) != list.end();
  };
  for (auto& [given, value] : split_options(options, filter_)) {
    if (!listed(set.known, given)) {
      std::string list;
      for (const auto& k : set.known) list += (list.empty() ? "" : ", ") + k;
      invalid(fmt::format("{}: unknown option '{}'{}; the options are {}", filter_, given,
                          from_preset ? " in its preset" : "", list));
    }
    if (given == "device")
      invalid(fmt::format("{}: option 'device' is for ffmpeg; a chain runs on the device it is created with",
                          filter_));
    if (from_preset && given == "preset") invalid(fmt::format("{}: a preset cannot name another preset", filter_));
    const auto alias = set.aliases.find(given);
    const std::string key = alias == set.aliases.end() ? given : alias->second;
    // The constant 'unset' is as not given (the preset's value, else the default), as in ffmpeg;
    // elsewhere the word is read as any other value (and refused where it means nothing).
    if (value == "unset" && listed(set.take_unset, key)) continue;
    // The preset fills only what was not given explicitly.
    if (!from_preset || !values_.count(key)) values_[key] = value;
  }
}

const std::string* FilterOptions::text(const std::string& key) const {
  auto it = values_.find(key);
  return it == values_.end() ? nullptr : &it->second;
}

std::optional<double> FilterOptions::number(const std::string& key, double low, double high,
                                            const std::map<std::string, double>& constants) const {
  const std::string* value = text(key);
  if (!value) return std::nullopt;
  double v = 0;
  try {
    v = evaluate(*value, constants);
  } catch (const Error& e) {
    invalid(fmt::format("{}: option '{}': {}", filter_, key, e.what()));
  }
  if (!(v >= low && v <= high))
    invalid(fmt::format("{}: option '{}' is {}; allowed: {} to {}", filter_, key, *value, low, high));
  return v;
}

std::optional<int> FilterOptions::integer(const std::string& key, int low, int high,
                                          const std::map<std::string, double>& constants) const {
  const auto v = number(key, low, high, constants);
  if (!v) return std::nullopt;
  if (*v != std::floor(*v)) invalid(fmt::format("{}: option '{}' is {}; it takes an integer", filter_, key, *v));
  return static_cast<int>(*v);
}

}  // namespace clvf::detail::chain
