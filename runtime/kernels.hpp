#pragma once
#include <string_view>

namespace clvf::detail::kernels {
// The text of an embedded kernel file ("scale.cl", "plane.h"); empty when there is none.
std::string_view source(std::string_view name);
}  // namespace clvf::detail::kernels
