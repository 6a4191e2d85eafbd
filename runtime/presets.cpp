#include "runtime/presets.hpp"

#include <fmt/format.h>

#include <fstream>
#include <vector>

#include "runtime/error.hpp"

namespace clvf::detail::presets {
namespace {

struct Entry {
  std::string name, options;
};

[[noreturn]] void invalid(const std::string& message) { throw Error(CLVF_ERROR_INVALID_ARGUMENT, message); }

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

bool valid_name(std::string_view n) {
  if (n.empty()) return false;
  for (char c : n)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.')) return false;
  return true;
}

// "NAME: options" lines; blank lines and lines starting with '#' are skipped.
std::vector<Entry> parse(std::string_view text, std::string_view origin) {
  std::vector<Entry> entries;
  int line_no = 0;
  while (!text.empty()) {
    const auto end = text.find('\n');
    const std::string_view line = trim(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    ++line_no;
    if (line.empty() || line.front() == '#') continue;
    const auto colon = line.find(':');
    const std::string_view name = colon == std::string_view::npos ? line : trim(line.substr(0, colon));
    const std::string_view opts = colon == std::string_view::npos ? std::string_view{} : trim(line.substr(colon + 1));
    if (colon == std::string_view::npos || !valid_name(name) || opts.empty())
      invalid(fmt::format("{} line {}: expected \"NAME: options\" (NAME of letters, digits, '-', '_', '.'), got \"{}\"",
                          origin, line_no, line));
    entries.push_back({std::string(name), std::string(opts)});
  }
  return entries;
}

std::string list(const std::vector<Entry>& entries) {
  std::string out;
  for (const auto& e : entries) out += (out.empty() ? "" : ", ") + e.name;
  return out;
}

// Preset files are short text; the limit keeps a wrong path (a device, a video) from being read
// whole.
constexpr size_t kMaxPresetFile = 1 << 20;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) invalid(fmt::format("preset file {} cannot be read", path));
  std::string text;
  char chunk[4096];
  while (text.size() <= kMaxPresetFile && in.read(chunk, sizeof chunk).gcount() > 0)
    text.append(chunk, static_cast<size_t>(in.gcount()));
  if (in.bad()) invalid(fmt::format("preset file {} cannot be read", path));
  if (text.size() > kMaxPresetFile)
    invalid(fmt::format("preset file {} is larger than {} bytes; preset files are short text", path, kMaxPresetFile));
  return text;
}

}  // namespace

std::string names(std::string_view filter) {
  const std::string file = std::string(filter) + ".preset";
  return list(parse(source(file), file));
}

std::string options(std::string_view filter, std::string_view name) {
  if (name.find('/') != std::string_view::npos) {
    // PATH or PATH#NAME
    const auto hash = name.rfind('#');
    const std::string path(name.substr(0, hash));
    const std::string_view wanted = hash == std::string_view::npos ? std::string_view{} : name.substr(hash + 1);
    const auto entries = parse(read_file(path), path);
    if (wanted.empty()) {
      if (entries.size() == 1) return entries.front().options;
      invalid(fmt::format("preset file {} holds {} presets ({}); name one as {}#NAME", path, entries.size(),
                          list(entries), path));
    }
    for (const auto& e : entries)
      if (e.name == wanted) return e.options;
    invalid(fmt::format("preset file {} has no preset '{}'; it has: {}", path, wanted, list(entries)));
  }
  const std::string file = std::string(filter) + ".preset";
  const auto entries = parse(source(file), file);
  for (const auto& e : entries)
    if (e.name == name) return e.options;
  if (entries.empty()) invalid(fmt::format("{} has no presets; a preset file can be given by path", filter));
  invalid(fmt::format("preset '{}' is not known for {}; known: {} (or a file path)", name, filter, list(entries)));
}

}  // namespace clvf::detail::presets
