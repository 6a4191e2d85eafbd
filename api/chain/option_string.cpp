#include "api/chain/option_string.hpp"

#include <fmt/format.h>

#include "runtime/error.hpp"

namespace clvf::detail::chain {

namespace {

[[noreturn]] void invalid(const std::string& message) { throw Error(CLVF_ERROR_INVALID_ARGUMENT, message); }

// Splits `text` at unescaped, unquoted `separator`s. With `unescape` the pieces lose their
// backslashes and quotes; without, they are kept for the next level.
std::vector<std::string> split(std::string_view text, char separator, bool unescape, std::string_view what) {
  std::vector<std::string> pieces(1);
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\') {
      if (i + 1 == text.size()) invalid(fmt::format("{}: '{}' ends with a lone backslash", what, text));
      if (!unescape) pieces.back() += c;
      pieces.back() += text[++i];
    } else if (c == '\'') {
      quoted = !quoted;
      if (!unescape) pieces.back() += c;
    } else if (c == separator && !quoted) {
      pieces.emplace_back();
    } else {
      pieces.back() += c;
    }
  }
  if (quoted) invalid(fmt::format("{}: '{}' has an unclosed quote", what, text));
  return pieces;
}

std::string trimmed(std::string s) {
  const auto first = s.find_first_not_of(" \t\n");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\n") - first + 1);
}

}  // namespace

std::vector<FilterText> split_chain(std::string_view chain) {
  std::vector<FilterText> filters;
  for (std::string& piece : split(chain, ',', false, "chain")) {
    piece = trimmed(piece);
    if (piece.empty())
      invalid(fmt::format("chain '{}' has an empty filter; expected FILTER=OPTIONS,FILTER=OPTIONS", chain));
    const auto eq = piece.find('=');
    filters.push_back({trimmed(piece.substr(0, eq)), eq == std::string::npos ? "" : piece.substr(eq + 1)});
  }
  return filters;
}

Options split_options(std::string_view options, std::string_view filter) {
  Options out;
  if (options.empty()) return out;
  for (const std::string& item : split(options, ':', false, filter)) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      invalid(fmt::format("{}: option '{}' is not KEY=VALUE (values by position are not taken)", filter, item));
    const auto value = split(std::string_view(item).substr(eq + 1), '\0', true, filter);
    out.emplace_back(item.substr(0, eq), value.front());
  }
  return out;
}

}  // namespace clvf::detail::chain
