#include "api/chain/expression.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "runtime/error.hpp"

namespace clvf::detail::chain {

namespace {

constexpr const char* kFunctions = "trunc, floor, ceil, round, abs, min, max, mod, if, ifnot, gt, gte, lt, lte, eq";

// Recursive descent, lowest precedence first, as eval.c: sum := term (('+'|'-') term)*;
// term := factor (('*'|'/') factor)*; factor := sign? primary ('^' sign? primary)*, where '^'
// groups from the left and the leading sign applies to the whole power (-2^2 is -4).
class Parser {
 public:
  Parser(std::string_view text, const std::map<std::string, double>& variables)
      : text_(text), variables_(variables) {}

  double parse() {
    const double value = sum();
    skip_space();
    if (at_ < text_.size()) fail(fmt::format("unexpected '{}' at {}", text_[at_], at_ + 1));
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(CLVF_ERROR_INVALID_ARGUMENT, fmt::format("expression '{}': {}", text_, what));
  }
  void skip_space() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }
  bool take(char c) {
    skip_space();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!take(c)) fail(fmt::format("expected '{}' at {}", c, at_ + 1));
  }

  double sum() {
    double value = term();
    for (;;) {
      if (take('+')) value += term();
      else if (take('-')) value -= term();
      else return value;
    }
  }
  double term() {
    double value = factor();
    for (;;) {
      if (take('*')) value *= factor();
      else if (take('/')) value /= factor();
      else return value;
    }
  }
  double sign() { return take('-') ? -1.0 : (take('+'), 1.0); }
  double factor() {
    const double s = sign();
    double value = primary();
    while (take('^')) {
      const double s2 = sign();
      value = std::pow(value, s2 * primary());
    }
    return s * value;
  }

  // Nesting is bounded, as eval.c bounds it, so that no text can exhaust the stack.
  struct Depth {
    Parser& p;
    explicit Depth(Parser& parser) : p(parser) {
      if (++p.depth_ > kMaxDepth) p.fail(fmt::format("nested deeper than {} levels", kMaxDepth));
    }
    ~Depth() { --p.depth_; }
  };
  static constexpr int kMaxDepth = 100;

  double primary() {
    skip_space();
    Depth depth(*this);
    if (take('(')) {
      const double value = sum();
      expect(')');
      return value;
    }
    if (at_ >= text_.size()) fail("ends where a value was expected");
    const char c = text_[at_];
    // A number, its sign included where one follows the operator's (eval.c reads "2*-3" so).
    auto numeric = [&](size_t i) {
      return i < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[i])) || text_[i] == '.');
    };
    if (numeric(at_) || ((c == '-' || c == '+') && numeric(at_ + 1))) {
      const std::string rest(text_.substr(at_));
      char* end = nullptr;
      const double value = std::strtod(rest.c_str(), &end);
      if (end == rest.c_str()) fail(fmt::format("bad number at {}", at_ + 1));
      at_ += static_cast<size_t>(end - rest.c_str());
      return value;
    }
    if (!std::isalpha(static_cast<unsigned char>(c)) && c != '_') fail(fmt::format("unexpected '{}' at {}", c, at_ + 1));
    const size_t start = at_;
    while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_')) ++at_;
    const std::string name(text_.substr(start, at_ - start));
    if (take('(')) return call(name);
    if (auto it = variables_.find(name); it != variables_.end()) return it->second;
    std::string known;
    for (const auto& [n, v] : variables_) known += (known.empty() ? "" : ", ") + n;
    fail(known.empty() ? fmt::format("unknown name '{}'; this option takes a number (or an expression of numbers)", name)
                       : fmt::format("unknown name '{}'; the variables are {}", name, known));
  }

  double call(const std::string& name) {
    std::vector<double> args{sum()};
    while (take(',')) args.push_back(sum());
    expect(')');
    auto need = [&](size_t low, size_t high) {
      if (args.size() < low || args.size() > high)
        fail(fmt::format("{}() takes {} arguments, got {}", name, low == high ? fmt::format("{}", low)
                                                                               : fmt::format("{} or {}", low, high),
                         args.size()));
    };
    const double a = args[0];
    if (name == "trunc") return need(1, 1), std::trunc(a);
    if (name == "floor") return need(1, 1), std::floor(a);
    if (name == "ceil") return need(1, 1), std::ceil(a);
    if (name == "round") return need(1, 1), std::round(a);
    if (name == "abs") return need(1, 1), std::fabs(a);
    if (name == "min") return need(2, 2), std::fmin(a, args[1]);
    if (name == "max") return need(2, 2), std::fmax(a, args[1]);
    if (name == "mod") return need(2, 2), a - args[1] * std::floor(a / args[1]);
    if (name == "gt") return need(2, 2), a > args[1];
    if (name == "gte") return need(2, 2), a >= args[1];
    if (name == "lt") return need(2, 2), a < args[1];
    if (name == "lte") return need(2, 2), a <= args[1];
    if (name == "eq") return need(2, 2), a == args[1];
    if (name == "if") return need(2, 3), a != 0 ? args[1] : args.size() == 3 ? args[2] : 0.0;
    if (name == "ifnot") return need(2, 3), a == 0 ? args[1] : args.size() == 3 ? args[2] : 0.0;
    fail(fmt::format("unknown function '{}'; known: {}", name, kFunctions));
  }

  std::string_view text_;
  const std::map<std::string, double>& variables_;
  size_t at_ = 0;
  int depth_ = 0;
};

}  // namespace

double evaluate(std::string_view expression, const std::map<std::string, double>& variables) {
  return Parser(expression, variables).parse();
}

}  // namespace clvf::detail::chain
