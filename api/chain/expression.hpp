// The part of FFmpeg's expression language that scale_clvf's w and h use (libavutil/eval.c
// semantics): numbers, named variables, + - * / ^, unary signs, parentheses, and the functions
// trunc, floor, ceil, round, abs, min, max, mod, if, ifnot, gt, gte, lt, lte, eq. The library
// evaluates these itself because it does not link FFmpeg; tests compare with FFmpeg's results.
#pragma once
#include <map>
#include <string>
#include <string_view>

namespace clvf::detail::chain {

// Throws Error(INVALID_ARGUMENT) naming the expression and what was wrong in it.
double evaluate(std::string_view expression, const std::map<std::string, double>& variables);

}  // namespace clvf::detail::chain
