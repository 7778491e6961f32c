// The tensor analysis of the e-graph (see egraph/analysis.hpp): per e-class, what kind of value it
// holds (a tensor with its type, a tuple of tensors, a literal, or nothing), whether it depends on
// weights only, and TENSAT's split hint. make() runs the one concrete shape-inference path
// (infer_types) on every e-node, so ill-shaped e-nodes are rejected and never added; merge()
// checks that the two classes hold the same type (a mismatch means an unsound rule).
//
// The data is trivially copyable and fixed-size (no heap pointers): MCTS copies e-graphs
// thousands of times, and a copy must be a flat memory copy. The analysis object itself holds the
// leaf and opaque tables (immutable, shared by every copy of the e-graph through a shared_ptr).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "egraph/analysis.hpp"
#include "tensor/attr.hpp"
#include "tensor/graph.hpp"
#include "tensor/tensor_language.hpp"
#include "tensor/tensor_type.hpp"
#include "tensor/tensor_value.hpp"

namespace mctsat::tensor {

enum class ValueKind : std::uint8_t { kNone, kTensor, kTuple, kInt, kInts, kFloat };
std::string_view value_kind_name(ValueKind kind);  // "none", "tensor", "tuple", "int", ...

// An input or weight of the converted graph: e-nodes (input/weight) carry its index as payload.
struct LeafEntry {
  std::string name;
  Op op = Op::kInput;  // kInput or kWeight
  TensorType type;
  std::shared_ptr<const Tensor> value;  // weights: values if known
};

// What the e-graph keeps outside its e-nodes: leaves and opaque operators (the original node:
// name, attributes, output types, OpaqueInfo; its `inputs` refer to the source graph and are
// replaced when a graph is built back).
struct TensorTables {
  std::vector<LeafEntry> leaves;
  std::vector<Node> opaque;
};

// The analysis data of one e-class.
struct TensorData {
  ValueKind kind = ValueKind::kNone;
  DType dtype = DType::kFloat32;  // tensor
  std::uint8_t rank = 0;          // tensor: rank; ints: length; split tuple: the input's rank
  std::uint8_t outputs = 0;       // tuple: number of outputs
  bool weight_only = false;       // tensor, tuple: computable from weights alone
  std::int8_t hint_axis = -1;     // tensor: split hint axis, -1 when none
  std::uint8_t split_axis = 0;    // split tuple: the axis
  bool opaque_tuple = false;      // tuple: outputs of an opaque operator (word = table index)
  // int: the value; float: its bits; tensor with a split hint: the size of the concat's first
  // input along hint_axis; opaque tuple: the opaque table index.
  std::int64_t word = 0;
  std::array<std::int64_t, kMaxRank> dims{};   // tensor: shape; ints: values; split: input shape
  std::array<std::int64_t, kMaxRank> sizes{};  // split tuple: output sizes along the axis

  bool is_tensor() const { return kind == ValueKind::kTensor; }
  std::span<const std::int64_t> shape() const { return {dims.data(), rank}; }  // tensor
  TensorType tensor_type() const { return {Shape(shape().begin(), shape().end()), dtype}; }
  std::int64_t int_value() const { return word; }
  double float_value() const { return payload_float(word); }
  std::span<const std::int64_t> ints() const { return {dims.data(), rank}; }
  bool has_split_hint() const { return hint_axis >= 0; }
  std::int64_t split_hint_position() const { return word; }

  friend bool operator==(const TensorData&, const TensorData&) = default;
};
static_assert(std::is_trivially_copyable_v<TensorData>);
static_assert(sizeof(TensorData) <= 144);

std::string data_string(const TensorData& data);  // "f32[4x8] weight-only", "int 3", ...

class TensorAnalysis {
 public:
  static constexpr bool kMayReject = true;
  using Data = TensorData;

  TensorAnalysis() = default;  // empty tables: leaves and opaque e-nodes are rejected
  explicit TensorAnalysis(std::shared_ptr<const TensorTables> tables);

  // The data of an e-node; false when the e-node is invalid: a child of the wrong kind, a literal
  // of the wrong form, shape inference failing, a rank or list over 8, a proj index out of range,
  // a leaf or opaque index not in the tables.
  bool make(const egraph::ENodeRef& node, std::span<const Data* const> children, Data& out) const;
  // Unites two classes' data: kinds and types must be equal (MCTSAT_ASSERT otherwise); weight_only
  // is either side's; a split hint is kept when either side has one (`into`'s first).
  egraph::MergeResult merge(Data& into, const Data& from) const;
  // Whether two classes may be united: the same kind and the same value or type.
  bool can_merge(const Data& a, const Data& b) const;
  // A hash of every field operator== compares (equal data, equal hashes).
  std::uint64_t hash(const Data& data) const;

  // The tensor inputs and attributes of a tensor operator's e-node, in signature order, from its
  // children's data (opaque e-nodes: attributes from the table). False on a wrong-kind child or a
  // wrong child count.
  bool operands(const egraph::ENodeRef& node, std::span<const Data* const> children,
                std::vector<TensorType>& inputs, Attrs& attrs) const;
  // The tensors a class holds: one for a tensor, one per output for a tuple, none otherwise.
  std::vector<TensorType> output_types(const Data& data) const;
  TensorType output_type(const Data& data, std::size_t output) const;

  const TensorTables& tables() const;
  const std::shared_ptr<const TensorTables>& shared_tables() const { return tables_; }

 private:
  bool make_literal_or_proj(const egraph::ENodeRef& node, std::span<const Data* const> children,
                            Data& out) const;
  std::shared_ptr<const TensorTables> tables_;
};

}  // namespace mctsat::tensor
