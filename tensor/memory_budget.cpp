// Declared tensor sizes against the physical memory and the process's resource limits.
#include "tensor/memory_budget.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "support/error.hpp"

namespace mctsat::tensor {
namespace {

constexpr std::uint64_t kUnbounded = std::numeric_limits<std::uint64_t>::max();

std::uint64_t saturating_multiply(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > kUnbounded / a) return kUnbounded;
  return a * b;
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return b > kUnbounded - a ? kUnbounded : a + b;
}

std::uint64_t tensor_elements(const Shape& shape) {
  std::uint64_t elements = 1;
  for (const std::int64_t d : shape)
    elements =
        saturating_multiply(elements, static_cast<std::uint64_t>(std::max<std::int64_t>(d, 0)));
  return elements;
}

std::uint64_t limit_of(int resource) {
  rlimit limit{};
  if (::getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return kUnbounded;
  return static_cast<std::uint64_t>(limit.rlim_cur);
}

}  // namespace

std::uint64_t memory_budget_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page_size = ::sysconf(_SC_PAGESIZE);
  std::uint64_t budget = pages > 0 && page_size > 0
                             ? saturating_multiply(static_cast<std::uint64_t>(pages),
                                                   static_cast<std::uint64_t>(page_size))
                             : kUnbounded;
  budget = std::min({budget, limit_of(RLIMIT_AS), limit_of(RLIMIT_DATA)});
  return budget;
}

void check_memory_budget(std::uint64_t bytes, std::string_view what, const SourceLocation& where) {
  const std::uint64_t budget = memory_budget_bytes();
  if (bytes <= budget) return;
  const auto gib = [](std::uint64_t b) { return static_cast<double>(b) / (1024.0 * 1024 * 1024); };
  throw Error(
      fmt::format("{} need {} ({:.3g} GiB), more than the {:.3g} GiB this process may use", what,
                  bytes == kUnbounded ? std::string("more bytes than can be counted")
                                      : fmt::format("{} bytes", bytes),
                  gib(bytes), gib(budget)),
      where);
}

void check_graph_fits_in_memory(const Graph& graph, std::uint64_t bytes_per_element,
                                std::string_view what, bool inputs_only) {
  std::uint64_t total = 0, largest = 0;
  std::string largest_node;
  for (const Node& node : graph.nodes()) {
    if (inputs_only && node.op != Op::kInput) continue;
    for (const TensorType& output : node.outputs) {
      const std::uint64_t bytes =
          saturating_multiply(tensor_elements(output.shape), bytes_per_element);
      total = saturating_add(total, bytes);
      if (bytes > largest) {
        largest = bytes;
        largest_node = node.name;
      }
    }
  }
  check_memory_budget(total, what, SourceLocation::at_node(largest_node));
}

}  // namespace mctsat::tensor
