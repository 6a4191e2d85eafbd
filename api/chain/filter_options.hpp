// The options of one filter of a chain, read as the ffmpeg filter reads them: preset= expands to
// the preset's options and the options given explicitly win; numbers may be expressions of the
// option's named constants; ranges are the filter's.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clvf::detail::chain {

// A filter's option names.
struct OptionSet {
  std::vector<std::string> known;               // aliases included
  std::map<std::string, std::string> aliases;   // alias → name
  std::vector<std::string> take_unset;          // those with the constant 'unset' (as not given)
};

class FilterOptions {
 public:
  FilterOptions(std::string_view filter, std::string_view options, const OptionSet& set);

  const std::string* text(const std::string& key) const;
  std::optional<double> number(const std::string& key, double low, double high,
                               const std::map<std::string, double>& constants = {}) const;
  std::optional<int> integer(const std::string& key, int low, int high,
                             const std::map<std::string, double>& constants = {}) const;
  const std::string& filter() const { return filter_; }

 private:
  void take(std::string_view options, const OptionSet& set, bool from_preset);

  std::string filter_;
  std::map<std::string, std::string> values_;
};

}  // namespace clvf::detail::chain
