// Named option sets for the filters (presets/FILTER.preset, embedded at build time), and preset
// files given by path.
#pragma once
#include <string>
#include <string_view>

namespace clvf::detail::presets {
// The text of an embedded preset file ("scale_clvf.preset"); empty when there is none.
std::string_view source(std::string_view name);

// The option string of preset `name` for `filter`: an embedded preset, or, when `name` contains
// a '/', the single "NAME: options" entry (or the only entry) of that file. Throws
// Error(INVALID_ARGUMENT) listing the known names when there is no such preset.
std::string options(std::string_view filter, std::string_view name);
// "web-720p, web-1080p, ..." for `filter`; empty when it has none.
std::string names(std::string_view filter);
}  // namespace clvf::detail::presets
