// Topological sorting of ONNX graphs (see onnx_topological_sort.hpp): Kahn's algorithm with the
// ready nodes in a min-heap of their positions in the file.
#include "frontend/onnx_topological_sort.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <queue>
#include <string>
#include <vector>

#include "frontend/onnx_outer_names.hpp"

namespace mctsat::frontend {

void sort_topologically(onnx::GraphProto& graph) {
  for (auto& node : *graph.mutable_node())
    for (auto& attribute : *node.mutable_attribute()) {
      if (attribute.has_g()) sort_topologically(*attribute.mutable_g());
      for (auto& subgraph : *attribute.mutable_graphs()) sort_topologically(subgraph);
    }
  const int n = graph.node_size();
  std::map<std::string, int> producer;
  for (int k = 0; k < n; ++k)
    for (const auto& output : graph.node(k).output())
      if (!output.empty()) producer.emplace(output, k);
  std::vector<std::vector<int>> readers(static_cast<std::size_t>(n));
  std::vector<int> waiting(static_cast<std::size_t>(n), 0);
  bool sorted = true;
  for (int k = 0; k < n; ++k) {
    const onnx::NodeProto& node = graph.node(k);
    std::vector<std::string> reads(node.input().begin(), node.input().end());
    for (auto& name : outer_names(node)) reads.push_back(std::move(name));
    std::vector<int> from;
    for (const auto& name : reads) {
      const auto found = name.empty() ? producer.end() : producer.find(name);
      if (found == producer.end() || found->second == k) continue;
      from.push_back(found->second);
    }
    std::sort(from.begin(), from.end());
    from.erase(std::unique(from.begin(), from.end()), from.end());
    for (int p : from) {
      readers[static_cast<std::size_t>(p)].push_back(k);
      sorted = sorted && p < k;
    }
    waiting[static_cast<std::size_t>(k)] = static_cast<int>(from.size());
  }
  if (sorted) return;
  std::priority_queue<int, std::vector<int>, std::greater<>> ready;
  for (int k = 0; k < n; ++k)
    if (waiting[static_cast<std::size_t>(k)] == 0) ready.push(k);
  std::vector<int> order;
  std::vector<bool> placed(static_cast<std::size_t>(n), false);
  while (!ready.empty()) {
    const int k = ready.top();
    ready.pop();
    order.push_back(k);
    placed[static_cast<std::size_t>(k)] = true;
    for (int r : readers[static_cast<std::size_t>(k)])
      if (--waiting[static_cast<std::size_t>(r)] == 0) ready.push(r);
  }
  for (int k = 0; k < n; ++k)
    if (!placed[static_cast<std::size_t>(k)]) order.push_back(k);
  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  for (int k : order) *nodes.Add() = std::move(*graph.mutable_node(k));
  graph.mutable_node()->Swap(&nodes);
}

}  // namespace mctsat::frontend
