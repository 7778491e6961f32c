// The symbolic context of tensor/shape_functions.hpp: dimensions and integer attributes are Z3
// integer terms, and every requirement an operator places on its inputs becomes a constraint.
// Structural failures (a rank that cannot fit) are concrete: they end the evaluation, and the
// first one's message is kept.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <z3++.h>

namespace mctsat::verify {

class Z3ShapeContext {
 public:
  using Dim = z3::expr;
  using Bool = z3::expr;

  Z3ShapeContext(z3::context& z3, std::vector<z3::expr>& constraints)
      : z3_(z3), constraints_(constraints) {}

  template <class Message>
  bool require(const z3::expr& condition, Message&&) {
    constraints_.push_back(condition);
    return true;
  }
  template <class Message>
  bool fail(Message&& message) {
    if (structural_error.empty()) structural_error = message();
    return false;
  }
  z3::expr lit(std::int64_t value) const { return z3_.int_val(static_cast<int64_t>(value)); }
  static z3::expr select(const z3::expr& condition, const z3::expr& a, const z3::expr& b) {
    return z3::ite(condition, a, b);
  }
  static z3::expr div(const z3::expr& a, const z3::expr& b) { return a / b; }
  static z3::expr mod(const z3::expr& a, const z3::expr& b) { return z3::mod(a, b); }
  static z3::expr add(const z3::expr& a, const z3::expr& b) { return a + b; }
  static z3::expr mul(const z3::expr& a, const z3::expr& b) { return a * b; }
  // values[index], and 0 out of range (as the concrete context).
  z3::expr pick(const std::vector<z3::expr>& values, const z3::expr& index) const {
    z3::expr result = lit(0);
    for (std::size_t i = values.size(); i-- > 0;)
      result = z3::ite(index == static_cast<int>(i), values[i], result);
    return result;
  }
  static std::string show(const z3::expr& value) { return value.to_string(); }

  std::string structural_error;

 private:
  z3::context& z3_;
  std::vector<z3::expr>& constraints_;
};

}  // namespace mctsat::verify
