// Graph -> e-graph, and a selection of e-nodes -> Graph.
#include "tensor/egraph_conversion.hpp"

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "support/error.hpp"

namespace mctsat::tensor {
namespace {

// The tables of a graph's leaves and opaque nodes, and each such node's index in them.
std::shared_ptr<TensorTables> collect_tables(const Graph& graph,
                                             std::vector<std::int64_t>& table_index) {
  auto tables = std::make_shared<TensorTables>();
  table_index.assign(graph.size(), -1);
  for (NodeId id = 0; id < graph.size(); ++id) {
    const Node& node = graph.node(id);
    if (node.op == Op::kInput || node.op == Op::kWeight) {
      table_index[id] = static_cast<std::int64_t>(tables->leaves.size());
      tables->leaves.push_back({node.name, node.op, node.outputs.at(0), node.value});
    } else if (node.op == Op::kOpaque) {
      table_index[id] = static_cast<std::int64_t>(tables->opaque.size());
      tables->opaque.push_back(node);
    }
  }
  return tables;
}

// The literal class of an attribute value.
Id add_attr(TensorGraphEGraph& egraph, const Attr& attr) {
  switch (attr_kind(attr)) {
    case ParamKind::kInt:
      return add_int(egraph, attr_int(attr));
    case ParamKind::kInts:
      return add_ints(egraph, std::span<const std::int64_t>(attr_ints(attr)));
    default:
      return add_float(egraph, attr_float(attr));
  }
}

// A literal class's value as an attribute.
Attr attr_of(const TensorData& data) {
  switch (data.kind) {
    case ValueKind::kInt:
      return data.int_value();
    case ValueKind::kInts:
      return std::vector<std::int64_t>(data.ints().begin(), data.ints().end());
    case ValueKind::kFloat:
      return data.float_value();
    default:
      MCTSAT_ASSERT(false && "not a literal class");
  }
}

bool is_literal_kind(ValueKind kind) {
  return kind == ValueKind::kInt || kind == ValueKind::kInts || kind == ValueKind::kFloat;
}

// Builds the graph of a selection, class by class in post-order (iteratively: graphs can be deep).
class SelectionBuilder {
 public:
  SelectionBuilder(const TensorEGraph& egraph, const Selection& selection)
      : teg_(egraph), egraph_(egraph.egraph), selection_(selection) {
    if (selection_.size() != egraph_.num_ids())
      throw std::logic_error(fmt::format("the selection has {} entries for an e-graph of {} ids",
                                         selection_.size(), egraph_.num_ids()));
    for (const std::string& name : teg_.source->node_names) reserved_.insert(name);
    for (const LeafEntry& leaf : teg_.tables().leaves) reserved_.insert(leaf.name);
    for (const Node& node : teg_.tables().opaque) reserved_.insert(node.name);
    built_.assign(egraph_.num_ids(), TensorRef{});
    state_.assign(egraph_.num_ids(), State::kUnvisited);
  }

  Graph build() && {
    const GraphSource& source = *teg_.source;
    MCTSAT_ASSERT(source.output_names.size() == teg_.roots.size());
    for (std::size_t i = 0; i < teg_.roots.size(); ++i) {
      const Id root = egraph_.find(teg_.roots[i]);
      build_from(root);
      graph_.add_output(source.output_names[i], built_[root]);
    }
    graph_.infer_and_validate();
    return std::move(graph_);
  }

 private:
  enum class State : std::uint8_t { kUnvisited, kActive, kDone };

  Id chosen(Id eclass) const {
    const Id node = selection_[eclass];
    if (node == kNoId)
      throw std::logic_error(
          fmt::format("the selection has no e-node for the needed e-class {} ({})", eclass,
                      data_string(egraph_.data(eclass))));
    if (node >= egraph_.num_ids() || !egraph_.live(node) || egraph_.find(node) != eclass)
      throw std::logic_error(
          fmt::format("the selection chooses e-node {} for e-class {}, which it is not a live "
                      "e-node of",
                      node, eclass));
    return node;
  }

  bool needs_node(Id eclass) const { return !is_literal_kind(egraph_.data(eclass).kind); }

  void build_from(Id root) {
    std::vector<Id> stack{root};
    while (!stack.empty()) {
      const Id eclass = stack.back();
      if (state_[eclass] == State::kDone) {
        stack.pop_back();
        continue;
      }
      const Id node = chosen(eclass);
      if (state_[eclass] == State::kActive) {
        build_class(eclass, node);
        state_[eclass] = State::kDone;
        stack.pop_back();
        continue;
      }
      state_[eclass] = State::kActive;
      for (Id child : egraph_.node(node).children) {
        child = egraph_.find(child);
        if (!needs_node(child) || state_[child] == State::kDone) continue;
        if (state_[child] == State::kActive)
          throw std::logic_error(
              fmt::format("the selection is cyclic: e-node {} of e-class {} uses e-class {}", node,
                          eclass, child));
        stack.push_back(child);
      }
    }
  }

  std::string name_for(Id node, Op op) {
    const GraphSource& source = *teg_.source;
    if (node < source.node_names.size() && !source.node_names[node].empty())
      return source.node_names[node];
    std::string name;
    do {
      name = fmt::format("{}_{}", op_name(op), counter_++);
    } while (reserved_.count(name) != 0);
    return name;
  }

  void build_class(Id eclass, Id node_id) {
    const egraph::ENodeRef enode = egraph_.node(node_id);
    if (enode.op == kProjOp) {
      const TensorRef tuple = built_[egraph_.find(enode.children[0])];
      built_[eclass] = {tuple.node, static_cast<std::uint32_t>(enode.payload)};
      return;
    }
    const auto op = tensor_op(enode.op);
    MCTSAT_ASSERT(op && "a literal e-node chosen for a non-literal class");
    const TensorData& data = egraph_.data(eclass);
    const TensorTables& tables = teg_.tables();
    Node node;
    if (*op == Op::kInput || *op == Op::kWeight) {
      const LeafEntry& leaf = tables.leaves.at(static_cast<std::size_t>(enode.payload));
      node.name = leaf.name;
      node.op = leaf.op;
      node.attrs = {leaf.type.shape};
      node.value = leaf.value;
      node.leaf_dtype = leaf.type.dtype;
    } else if (*op == Op::kOpaque) {
      node = tables.opaque.at(static_cast<std::size_t>(enode.payload));
      node.inputs.clear();
      for (Id child : enode.children) node.inputs.push_back(built_[egraph_.find(child)]);
    } else {
      node.name = name_for(node_id, *op);
      node.op = *op;
      const auto params = signature(*op).params;
      for (std::size_t i = 0; i < enode.children.size(); ++i) {
        const Id child = egraph_.find(enode.children[i]);
        if (params[std::min(i, params.size() - 1)].kind == ParamKind::kTensor) {
          node.inputs.push_back(built_[child]);
        } else {
          node.attrs.push_back(attr_of(egraph_.data(child)));
        }
      }
    }
    node.outputs = egraph_.analysis().output_types(data);  // checked by infer_and_validate
    built_[eclass] = {graph_.add_node(std::move(node)), 0};
  }

  const TensorEGraph& teg_;
  const TensorGraphEGraph& egraph_;
  const Selection& selection_;
  Graph graph_;
  std::vector<TensorRef> built_;  // by class: its tensor (tuples: the node, output 0)
  std::vector<State> state_;
  std::unordered_set<std::string> reserved_;  // every name of the source graph
  std::size_t counter_ = 0;
};

// Adds a validated graph's nodes to the e-graph, its leaves and opaque nodes with the payloads
// `table_index` gives them (by node id). Returns, per node, the class of each output. With a
// `source`, records the node names of the classes it creates.
std::vector<std::vector<Id>> add_nodes(TensorGraphEGraph& egraph, const Graph& graph,
                                       const std::vector<std::int64_t>& table_index,
                                       GraphSource* source) {
  std::vector<std::vector<Id>> values(graph.size());
  TensorGraphEGraph::ChildIds children;
  for (NodeId id : graph.topological_order()) {
    const Node& node = graph.node(id);
    children.clear();
    std::int64_t payload = 0;
    try {
      if (node.op == Op::kInput || node.op == Op::kWeight) {
        payload = table_index[id];
        children.push_back(add_attr(egraph, node.attrs.at(0)));
      } else if (node.op == Op::kOpaque) {
        payload = table_index[id];
        for (const TensorRef& in : node.inputs) children.push_back(values[in.node][in.output]);
      } else {
        std::size_t next_input = 0, next_attr = 0;
        for (const Param& param : signature(node.op).params) {
          if (param.kind != ParamKind::kTensor) {
            children.push_back(add_attr(egraph, node.attrs.at(next_attr++)));
            continue;
          }
          do {
            const TensorRef& in = node.inputs.at(next_input++);
            children.push_back(values[in.node][in.output]);
          } while (param.variadic && next_input < node.inputs.size());
        }
      }
    } catch (const Error& e) {
      throw e.located(SourceLocation::at_node(node.name));
    }
    const egraph::ENodeRef enode{op_code(node.op), payload, egraph::id_span(children)};
    TensorData data;
    if (!egraph.make_data_of_classes(enode, data))
      throw node_error(node, fmt::format("{} cannot be represented in the e-graph (ranks and "
                                         "integer lists are limited to {})",
                                         op_name(node.op), kMaxRank));
    const Id eclass = egraph.add(enode.op, enode.payload, enode.children);
    if (source != nullptr) {
      if (source->node_names.size() <= eclass) source->node_names.resize(eclass + 1);
      if (source->node_names[eclass].empty()) source->node_names[eclass] = node.name;
    }
    if (data.kind == ValueKind::kTuple) {
      for (std::uint32_t k = 0; k < data.outputs; ++k)
        values[id].push_back(egraph.add(kProjOp, k, {eclass}));
    } else {
      values[id].push_back(eclass);
    }
  }
  return values;
}

}  // namespace

TensorEGraph to_egraph(const Graph& graph) {
  for (const Node& node : graph.nodes()) {
    if (node.outputs.empty())
      throw node_error(node, "the graph must be validated before it is converted to an e-graph");
  }
  std::vector<std::int64_t> table_index;
  std::shared_ptr<const TensorTables> tables = collect_tables(graph, table_index);
  auto source = std::make_shared<GraphSource>();
  TensorEGraph result{TensorGraphEGraph(TensorAnalysis(tables)), {}, nullptr};
  TensorGraphEGraph& egraph = result.egraph;
  const auto values = add_nodes(egraph, graph, table_index, source.get());
  for (const GraphOutput& out : graph.outputs()) {
    result.roots.push_back(values.at(out.tensor.node).at(out.tensor.output));
    source->output_names.push_back(out.name);
  }
  source->source_nodes = egraph.num_ids();
  source->node_names.resize(source->source_nodes);
  result.source = std::move(source);
  egraph.rebuild();
  return result;
}

void add_equivalent_graph(TensorEGraph& state, const Graph& graph) {
  const TensorTables& tables = state.tables();
  std::unordered_map<std::string_view, std::int64_t> leaf_index, opaque_index;
  for (std::size_t i = 0; i < tables.leaves.size(); ++i)
    leaf_index.emplace(tables.leaves[i].name, static_cast<std::int64_t>(i));
  for (std::size_t i = 0; i < tables.opaque.size(); ++i)
    opaque_index.emplace(tables.opaque[i].name, static_cast<std::int64_t>(i));
  std::vector<std::int64_t> table_index(graph.size(), -1);
  for (NodeId id = 0; id < graph.size(); ++id) {
    const Node& node = graph.node(id);
    if (node.outputs.empty())
      throw node_error(node, "the graph must be validated before it is added to an e-graph");
    const bool leaf = node.op == Op::kInput || node.op == Op::kWeight;
    if (!leaf && node.op != Op::kOpaque) continue;
    const auto& index = leaf ? leaf_index : opaque_index;
    const auto found = index.find(node.name);
    if (found == index.end())
      throw node_error(node, fmt::format("the e-graph's source has no {} '{}'",
                                         leaf ? "input or weight" : "opaque operator", node.name));
    table_index[id] = found->second;
  }
  if (graph.outputs().size() != state.roots.size())
    throw Error(fmt::format("the graph has {} outputs, the e-graph {} roots",
                            graph.outputs().size(), state.roots.size()));
  const auto values = add_nodes(state.egraph, graph, table_index, nullptr);
  for (std::size_t i = 0; i < state.roots.size(); ++i) {
    const TensorRef out = graph.outputs()[i].tensor;
    state.egraph.merge(state.roots[i], values.at(out.node).at(out.output));
  }
  state.egraph.rebuild();
}

Selection source_selection(const TensorEGraph& egraph) {
  const TensorGraphEGraph& g = egraph.egraph;
  Selection selection(g.num_ids(), kNoId);
  for (Id node = 0; node < egraph.source->source_nodes; ++node) {
    if (!g.live(node)) continue;
    Id& slot = selection[g.find(node)];
    if (slot == kNoId) slot = node;
  }
  return selection;
}

Graph build_graph(const TensorEGraph& egraph, const Selection& selection) {
  MCTSAT_ASSERT(egraph.egraph.clean());
  return SelectionBuilder(egraph, selection).build();
}

}  // namespace mctsat::tensor
