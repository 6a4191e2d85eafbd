// Filter strings as ffmpeg's -vf takes them: "FILTER=KEY=VALUE:KEY=VALUE,FILTER=...". A backslash
// takes the next character as it is, and '...' quotes a stretch (so a value may hold ':' or ',').
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clvf::detail::chain {

struct FilterText {
  std::string name;
  std::string options;  // still escaped: split_options reads it
};

using Options = std::vector<std::pair<std::string, std::string>>;  // in the order given

// Splits a chain at its top-level commas. Throws Error(INVALID_ARGUMENT) for an empty filter.
std::vector<FilterText> split_chain(std::string_view chain);
// KEY=VALUE pairs, unescaped. Throws for an item without '=' (positional values are not taken).
Options split_options(std::string_view options, std::string_view filter);

}  // namespace clvf::detail::chain
