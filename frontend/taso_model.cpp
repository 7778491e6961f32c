// The TASO `.model` importer.
//
// A file is a flat list of operators in topological order, four lines each: the guid; the type
// code (TASO's op_table: 0 Input, 1 Weight, 3 Conv, ...); the inputs as comma-separated
// `guid:output_index` pairs in argument order (Input and Weight carry a placeholder such as `10:0`,
// which is ignored); and a comma-separated list of integers whose layout depends on the type.
// The layouts, read from the five files TENSAT ships and checked against each other (every
// recorded input shape equals the shape computed for its producer):
//
//   Input, Weight      the shape
//   Conv               x shape (4), w shape (4), stride_h, stride_w, padding mode, activation,
//                      pad_h, pad_w                                       -> conv2d
//   MaxPool, AvgPool   x shape (4), type code again, kernel_h, kernel_w, stride_h, stride_w,
//                      padding mode, activation, pad_h, pad_w             -> poolmax / poolavg
//   Relu, Sigmoid, Tanh, Dropout, BatchNormalization, Add, Mul
//                      the shape of the first input                       -> relu, ..., ewmul
//   Concat             axis                                               -> concat
//   Split              axis, sizes...                                     -> split
//   Reshape            the new shape                                      -> reshape
//   Transpose          perm..., shuffle  or  ndim, perm..., shuffle       -> transpose
//   Matmul             activation, rank of the result                     -> matmul
//
// Padding mode 0 is SAME, 1 VALID (mapped onto the catalog's codes as below); activation 0 none,
// 1 sigmoid, 2 relu, 3 tanh (the catalog's codes). Groups of a convolution follow from the channel
// ratio, as in the catalog. A pooling operator's second input is TASO's placeholder weight of shape
// C x 1 x kernel_h x kernel_w; it is checked and dropped. Weights are created when first used, so
// weights nobody uses (the biases of these exports, the pooling placeholders) are left out. The
// transpose `shuffle` flag is dropped. Every other type becomes an opaque node keeping its op_table
// name and, as payload, its integer list; its output shapes are those its consumers record (an
// error if none does).
//
// Padding: TASO records pad_h/pad_w as Conv2D/Pool2D::get_padding computes them, and they are
// checked: VALID pads nothing; SAME pads ceil(total / 2) cells before the data, total = max((out -
// 1) * stride + kernel - in, 0) with out = ceil(in / stride): the catalog's SAME_LOWER. The
// catalog's SAME places floor(total / 2) cells before (ONNX SAME_UPPER), so the two agree whenever
// the total is even (every stride-1 odd kernel): TASO's SAME becomes the catalog's SAME there (the
// code the rules match) and SAME_LOWER where an axis has an odd total (in TENSAT's files only
// MobileNet-v2's five stride-2 3x3 convolutions on even inputs, total 1).
#include "frontend/taso_model.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "support/error.hpp"
#include "tensor/graph_builder.hpp"
#include "tensor/shape_inference.hpp"

namespace mctsat::frontend {
namespace {

using tensor::Attrs;
using tensor::Op;
using tensor::Padding;
using tensor::Shape;
using tensor::TensorRef;

// TASO's type codes that have a field layout here (op_table.txt).
constexpr std::int64_t kInput = 0, kWeight = 1, kConv = 3, kDropout = 4, kMaxPool = 6, kAvgPool = 7,
                       kRelu = 8, kSigmoid = 9, kTanh = 10, kBatchNorm = 11, kConcat = 12,
                       kSplit = 13, kReshape = 14, kTranspose = 15, kAdd = 16, kMul = 17,
                       kMatmul = 18;

// TASO's op_table: the type name of each code ("" where no operator has the code).
constexpr std::string_view kOpTable[] = {
    "Input",      "Weight",     "",           "Conv",
    "Dropout",    "",           "MaxPool",    "AveragePool",
    "Relu",       "Sigmoid",    "Tanh",       "BatchNormalization",
    "Concat",     "Split",      "Reshape",    "Transpose",
    "Add",        "Mul",        "Matmul",     "",
    "Enlarge",    "MergeGConv", "",           "",
    "",           "",           "Squeeze",    "Unsqueeze",
    "Sub",        "Div",        "Equal",      "Greater",
    "Less",       "Max",        "Min",        "ArgMax",
    "ArgMin",     "ReduceMax",  "ReduceMean", "ReduceMin",
    "ReduceProd", "ReduceSum",  "Pad",        "Shape",
    "Size",       "TopK",       "Where",      "Ceil",
    "Cast",       "Exp",        "Round",      "Log",
    "Not",        "Sqrt",       "",           "Slice",
    "Resize"};

std::optional<std::string_view> type_name(std::int64_t code) {
  if (code < 0 || code >= static_cast<std::int64_t>(std::size(kOpTable))) return std::nullopt;
  const std::string_view name = kOpTable[code];
  return name.empty() ? std::nullopt : std::optional(name);
}

struct Line {
  std::string_view text;
  std::uint32_t number = 0;  // 1-based
};

struct Ref {
  std::int64_t guid = 0;
  std::uint32_t index = 0;
  std::uint32_t column = 0;
};

struct Record {
  std::int64_t guid = 0;
  std::int64_t code = 0;
  std::string type;  // op_table name
  std::string name;  // <type>_<guid>
  Line lines[4];     // guid, type code, inputs, integers
  std::vector<Ref> inputs;
  std::vector<std::int64_t> params;
  std::vector<std::uint32_t> columns;  // of each integer
  bool leaf() const { return code == kInput || code == kWeight; }
  const Line& inputs_line() const { return lines[2]; }
  const Line& params_line() const { return lines[3]; }
};

// Where a record's integer list writes the shape of its input at `position`: [offset, offset +
// size) of the list, if it does. Used both to check mapped operators and to give opaque operators
// their output shapes.
std::optional<std::pair<std::size_t, std::size_t>> recorded_shape_slot(const Record& r,
                                                                       std::size_t position) {
  switch (r.code) {
    case kConv:
      if (r.params.size() == 14 && position < 2) return std::pair{position * 4, std::size_t{4}};
      break;
    case kMaxPool:
    case kAvgPool:
      if (r.params.size() == 13 && position == 0) return std::pair{std::size_t{0}, std::size_t{4}};
      break;
    case kRelu:
    case kSigmoid:
    case kTanh:
    case kDropout:
    case kBatchNorm:
    case kAdd:
    case kMul:
      if (position == 0) return std::pair{std::size_t{0}, r.params.size()};
      break;
    default:
      break;
  }
  return std::nullopt;
}

// The shape the integer list records for input `position`, with its offset in the list.
std::optional<std::pair<std::size_t, Shape>> recorded_shape(const Record& r, std::size_t position) {
  const auto slot = recorded_shape_slot(r, position);
  if (!slot) return std::nullopt;
  const auto begin = r.params.begin() + static_cast<std::ptrdiff_t>(slot->first);
  return std::pair{slot->first, Shape(begin, begin + static_cast<std::ptrdiff_t>(slot->second))};
}

// TASO's total SAME padding along one spatial axis (see the file comment).
std::int64_t taso_same_total(std::int64_t in, std::int64_t kernel, std::int64_t stride) {
  const std::int64_t out = (in + stride - 1) / stride;
  return std::max<std::int64_t>((out - 1) * stride + kernel - in, 0);
}

// TASO's padding before the data for one spatial axis (mode 0 SAME, 1 VALID).
std::int64_t taso_padding(std::int64_t in, std::int64_t kernel, std::int64_t stride,
                          std::int64_t mode) {
  if (mode != 0) return 0;
  return (taso_same_total(in, kernel, stride) + 1) / 2;
}

std::string_view trim(std::string_view text, std::uint32_t& column) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
    ++column;
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

template <class Int>
bool parse_integer(std::string_view text, Int& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

// Calls `each(item, column)` for the comma-separated items of a line (none for a blank line).
template <class Each>
void for_each_item(const Line& line, Each&& each) {
  std::uint32_t column = 1;
  if (trim(line.text, column).empty()) return;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.text.find(',', start);
    const std::size_t end = comma == std::string_view::npos ? line.text.size() : comma;
    std::uint32_t item_column = static_cast<std::uint32_t>(start + 1);
    const std::string_view item = trim(line.text.substr(start, end - start), item_column);
    each(item, item_column);
    if (comma == std::string_view::npos) return;
    start = comma + 1;
  }
}

class TasoModelReader {
 public:
  TasoModelReader(std::string_view text, std::string file) : file_(std::move(file)) {
    split_lines(text);
  }

  tensor::Graph read() {
    if (lines_.empty()) fail({}, 0, {}, "the file holds no operators");
    for (std::size_t first = 0; first < lines_.size(); first += 4) records_.push_back(parse(first));
    resolve_references();
    std::size_t operators = 0;
    for (std::size_t i = 0; i < records_.size(); ++i) {
      if (records_[i].code == kInput) {
        outputs_[i] = {create_leaf(i)};
      } else if (!records_[i].leaf()) {
        build(i);
        ++operators;
      }
    }
    if (operators == 0) fail({}, 0, {}, "the file holds only inputs and weights, no operators");
    for (std::size_t i = 0; i < records_.size(); ++i) {
      if (records_[i].leaf() || consumed_[i]) continue;
      for (const TensorRef& out : outputs_[i])
        builder_.output(tensor::tensor_ref_string(builder_.graph(), out), out);
    }
    // The builder cannot attach OpaqueInfo, so the graph is finished here.
    tensor::Graph graph = builder_.graph();
    for (auto& [id, info] : opaque_) graph.nodes()[id].opaque = std::move(info);
    try {
      graph.infer_and_validate();
    } catch (const Error& e) {
      throw e.located(SourceLocation::at(file_));
    }
    return graph;
  }

 private:
  [[noreturn]] void fail(const Line& line, std::uint32_t column, const std::string& node,
                         const std::string& message) const {
    SourceLocation where = SourceLocation::at(file_, line.number, column);
    where.node = node;
    throw Error(message, where);
  }
  [[noreturn]] void fail_param(const Record& r, std::size_t index,
                               const std::string& message) const {
    fail(r.params_line(), index < r.columns.size() ? r.columns[index] : 1, r.name, message);
  }

  // Runs a GraphBuilder call for a record; its errors (which name the node) get the record's
  // integer list line.
  template <class Build>
  auto located(const Record& r, Build&& build) {
    try {
      return build();
    } catch (const Error& e) {
      SourceLocation where = SourceLocation::at(file_, r.params_line().number, 1);
      where.node = r.name;
      throw e.located(where);
    }
  }

  void split_lines(std::string_view text) {
    std::uint32_t number = 1;
    while (!text.empty()) {
      const std::size_t newline = text.find('\n');
      std::string_view line = text.substr(0, newline);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      lines_.push_back({line, number++});
      if (newline == std::string_view::npos) break;
      text.remove_prefix(newline + 1);
    }
    // Blank lines at the end are not records.
    while (!lines_.empty()) {
      std::uint32_t column = 1;
      if (!trim(lines_.back().text, column).empty()) break;
      lines_.pop_back();
    }
  }

  Record parse(std::size_t first) {
    static constexpr const char* kFields[] = {"guid", "type code", "inputs", "integer list"};
    Record r;
    const std::size_t available = std::min<std::size_t>(4, lines_.size() - first);
    std::copy_n(lines_.begin() + static_cast<std::ptrdiff_t>(first), available, r.lines);
    parse_single(r.lines[0], r.guid, "the guid", {});
    r.name = std::to_string(r.guid);  // until the type is known
    if (available > 1) {
      parse_single(r.lines[1], r.code, "the type code", r.name);
      const auto type = type_name(r.code);
      if (!type)
        fail(r.lines[1], 1, r.name,
             fmt::format("unknown TASO operator type code {} (see TASO's op_table)", r.code));
      r.type = std::string(*type);
      r.name = fmt::format("{}_{}", r.type, r.guid);
    }
    if (available < 4)
      fail(Line{{}, lines_.back().number + 1}, 0, r.name,
           fmt::format("the file ends inside an operator: its {} line is missing (each operator "
                       "has four lines: guid, type code, inputs, integer list)",
                       kFields[available]));
    if (!guids_.emplace(r.guid, records_.size()).second)
      fail(r.lines[0], 1, r.name,
           fmt::format("guid {} is used twice (first on line {})", r.guid,
                       records_[guids_.at(r.guid)].lines[0].number));

    for_each_item(r.inputs_line(), [&](std::string_view item, std::uint32_t column) {
      Ref ref;
      ref.column = column;
      const std::size_t colon = item.find(':');
      if (colon == std::string_view::npos || !parse_integer(item.substr(0, colon), ref.guid) ||
          !parse_integer(item.substr(colon + 1), ref.index))
        fail(r.inputs_line(), column, r.name,
             fmt::format("an input must be 'guid:output_index', got '{}'", item));
      r.inputs.push_back(ref);
    });
    for_each_item(r.params_line(), [&](std::string_view item, std::uint32_t column) {
      std::int64_t value = 0;
      if (!parse_integer(item, value))
        fail(r.params_line(), column, r.name,
             fmt::format("expected an integer in the integer list, got '{}'", item));
      r.params.push_back(value);
      r.columns.push_back(column);
    });
    // Checked here too because weights nobody uses are never built.
    for (std::size_t k = 0; r.leaf() && k < r.params.size(); ++k) {
      if (r.params[k] <= 0)
        fail_param(r, k,
                   fmt::format("shape dimension {} must be positive, got {}", k, r.params[k]));
    }
    return r;
  }

  template <class Int>
  void parse_single(const Line& line, Int& out, const char* what, const std::string& node) const {
    std::uint32_t column = 1;
    const std::string_view text = trim(line.text, column);
    if (!parse_integer(text, out))
      fail(line, column, node, fmt::format("{} must be an integer, got '{}'", what, text));
  }

  // Every input names an operator listed earlier; records the consumers and the shapes they
  // write down for their inputs.
  void resolve_references() {
    producers_.resize(records_.size());
    consumed_.assign(records_.size(), false);
    outputs_.resize(records_.size());
    for (std::size_t i = 0; i < records_.size(); ++i) {
      const Record& r = records_[i];
      if (r.leaf()) continue;
      for (std::size_t position = 0; position < r.inputs.size(); ++position) {
        const Ref& ref = r.inputs[position];
        const auto found = guids_.find(ref.guid);
        if (found == guids_.end())
          fail(r.inputs_line(), ref.column, r.name,
               fmt::format("input {}:{} refers to guid {}, which no operator has", ref.guid,
                           ref.index, ref.guid));
        if (found->second >= i)
          fail(r.inputs_line(), ref.column, r.name,
               fmt::format("input {}:{} refers to '{}', which is not listed before this operator "
                           "(operators must be in topological order)",
                           ref.guid, ref.index, records_[found->second].name));
        producers_[i].push_back(found->second);
        consumed_[found->second] = true;
        if (auto recorded = recorded_shape(r, position))
          recorded_.try_emplace({found->second, ref.index}, std::move(recorded->second));
        auto& max_index = max_index_[found->second];
        max_index = std::max(max_index, ref.index);
      }
    }
  }

  TensorRef create_leaf(std::size_t index) {
    const Record& r = records_[index];
    return located(r, [&] {
      return r.code == kInput ? builder_.input(r.name, r.params)
                              : builder_.weight(r.name, r.params);
    });
  }

  // The tensor an operator's input refers to; weights are created on first use.
  TensorRef input(std::size_t consumer, std::size_t position) {
    const Record& r = records_[consumer];
    const Ref& ref = r.inputs[position];
    const std::size_t producer = producers_[consumer][position];
    if (outputs_[producer].empty() && records_[producer].code == kWeight)
      outputs_[producer] = {create_leaf(producer)};
    const auto& outs = outputs_[producer];
    if (ref.index >= outs.size())
      fail(r.inputs_line(), ref.column, r.name,
           fmt::format("input {}:{} refers to output {} of '{}', which has {} output{}", ref.guid,
                       ref.index, ref.index, records_[producer].name, outs.size(),
                       outs.size() == 1 ? "" : "s"));
    return outs[ref.index];
  }

  const Shape& shape_of(TensorRef ref) const { return builder_.type_of(ref).shape; }

  // The shape of an input, without creating a weight nobody else may use.
  Shape peek_shape(std::size_t consumer, std::size_t position) {
    const std::size_t producer = producers_[consumer][position];
    if (outputs_[producer].empty() && records_[producer].code == kWeight &&
        records_[consumer].inputs[position].index == 0)
      return records_[producer].params;
    return shape_of(input(consumer, position));
  }

  void require_inputs(const Record& r, std::size_t min, std::size_t max, const char* what) const {
    if (r.inputs.size() >= min && r.inputs.size() <= max) return;
    fail(r.inputs_line(), 1, r.name,
         fmt::format("{} takes {} ({}), got {}", r.type,
                     min == max ? fmt::format("{} input{}", min, min == 1 ? "" : "s")
                                : fmt::format("at least {} inputs", min),
                     what, r.inputs.size()));
  }
  void require_params(const Record& r, bool ok, const char* layout) const {
    if (ok) return;
    fail(r.params_line(), 1, r.name,
         fmt::format("{} needs the integer list '{}', got {} integer{}", r.type, layout,
                     r.params.size(), r.params.size() == 1 ? "" : "s"));
  }

  // Each recorded input shape must be the shape of that input.
  void check_recorded_shapes(std::size_t index, const std::vector<TensorRef>& ins) const {
    const Record& r = records_[index];
    for (std::size_t position = 0; position < ins.size(); ++position) {
      const auto recorded = recorded_shape(r, position);
      const Shape& actual = shape_of(ins[position]);
      if (!recorded || recorded->second == actual) continue;
      const Shape& shape = recorded->second;
      const auto differs =
          shape.size() == actual.size()
              ? std::mismatch(shape.begin(), shape.end(), actual.begin()).first - shape.begin()
              : 0;
      fail_param(
          r, recorded->first + static_cast<std::size_t>(differs),
          fmt::format("the integer list records input {} as {} but '{}' has shape {}", position,
                      tensor::shape_string(shape), records_[producers_[index][position]].name,
                      tensor::shape_string(actual)));
    }
  }

  // The catalog's padding code of TASO's padding mode (field `at` of the integer list): VALID, or
  // SAME / SAME_LOWER as the file comment says.
  std::int64_t catalog_padding(const Record& r, std::size_t at, const Shape& x,
                               std::int64_t kernel_h, std::int64_t kernel_w, std::int64_t stride_h,
                               std::int64_t stride_w) const {
    const std::int64_t mode = r.params[at];
    if (mode != 0 && mode != 1)
      fail_param(r, at, fmt::format("padding mode must be 0 (SAME) or 1 (VALID), got {}", mode));
    if (mode == 1) return static_cast<std::int64_t>(Padding::kValid);
    const bool odd = taso_same_total(x[2], kernel_h, stride_h) % 2 != 0 ||
                     taso_same_total(x[3], kernel_w, stride_w) % 2 != 0;
    return static_cast<std::int64_t>(odd ? Padding::kSameLower : Padding::kSame);
  }

  void check_padding(const Record& r, std::size_t at, const Shape& x, std::int64_t kernel_h,
                     std::int64_t kernel_w, std::int64_t stride_h, std::int64_t stride_w,
                     std::int64_t mode) const {
    const std::int64_t pad_h = taso_padding(x[2], kernel_h, stride_h, mode);
    const std::int64_t pad_w = taso_padding(x[3], kernel_w, stride_w, mode);
    if (r.params[at] != pad_h || r.params[at + 1] != pad_w)
      fail_param(
          r, r.params[at] != pad_h ? at : at + 1,
          fmt::format("padding recorded as {}x{}, but TASO's {} padding of this input, "
                      "kernel and stride is {}x{}",
                      r.params[at], r.params[at + 1], mode == 0 ? "SAME" : "VALID", pad_h, pad_w));
  }

  std::vector<TensorRef> add(const Record& r, Op op, std::vector<TensorRef> ins, Attrs attrs) {
    return located(r, [&] { return builder_.add(op, std::move(ins), std::move(attrs), r.name); });
  }

  void build(std::size_t index) {
    const Record& r = records_[index];
    std::vector<TensorRef> ins;
    const auto& p = r.params;
    // Checks the arity, resolves the first `used` inputs (all by default) and checks the shapes
    // the integer list records for them.
    auto inputs = [&](std::size_t min, std::size_t max, const char* what,
                      std::size_t used = std::numeric_limits<std::size_t>::max()) {
      require_inputs(r, min, max, what);
      for (std::size_t k = 0; k < std::min(used, r.inputs.size()); ++k)
        ins.push_back(input(index, k));
      check_recorded_shapes(index, ins);
    };
    std::vector<TensorRef>& out = outputs_[index];
    switch (r.code) {
      case kConv: {
        require_params(r, p.size() == 14,
                       "x shape (4), w shape (4), stride_h, stride_w, padding, activation, pad_h, "
                       "pad_w");
        inputs(2, 2, "input, weight");
        const Shape& w = shape_of(ins[1]);
        out = add(
            r, Op::kConv2d, ins,
            {p[8], p[9], catalog_padding(r, 10, shape_of(ins[0]), w[2], w[3], p[8], p[9]), p[11]});
        check_padding(r, 12, shape_of(ins[0]), p[6], p[7], p[8], p[9], p[10]);
        return;
      }
      case kMaxPool:
      case kAvgPool: {
        require_params(r, p.size() == 13,
                       "x shape (4), type, kernel_h, kernel_w, stride_h, stride_w, padding, "
                       "activation, pad_h, pad_w");
        if (p[4] != r.code)
          fail_param(r, 4,
                     fmt::format("the pooling type field says {} but the operator is {} ({})", p[4],
                                 r.type, r.code));
        inputs(2, 2, "input, placeholder weight", 1);
        const Shape placeholder{p[1], 1, p[5], p[6]};
        const Shape given = peek_shape(index, 1);
        if (given != placeholder)
          fail(r.inputs_line(), r.inputs[1].column, r.name,
               fmt::format("TASO's pooling weight for this input and kernel has shape {}, '{}' "
                           "has shape {}",
                           tensor::shape_string(placeholder), records_[producers_[index][1]].name,
                           tensor::shape_string(given)));
        out = add(r, r.code == kMaxPool ? Op::kPoolMax : Op::kPoolAvg, ins,
                  {p[5], p[6], p[7], p[8],
                   catalog_padding(r, 9, shape_of(ins[0]), p[5], p[6], p[7], p[8]), p[10]});
        check_padding(r, 11, shape_of(ins[0]), p[5], p[6], p[7], p[8], p[9]);
        return;
      }
      case kRelu:
      case kSigmoid:
      case kTanh:
      case kDropout: {
        inputs(1, 1, "x");
        const Op op = r.code == kRelu      ? Op::kRelu
                      : r.code == kSigmoid ? Op::kSigmoid
                      : r.code == kTanh    ? Op::kTanh
                                           : Op::kDropout;
        out = add(r, op, ins, {});
        return;
      }
      case kBatchNorm:
        inputs(5, 5, "x, scale, bias, mean, var");
        out = add(r, Op::kBatchNorm, ins, {});
        return;
      case kAdd:
      case kMul:
        inputs(2, 2, "a, b");
        out = add(r, r.code == kAdd ? Op::kEwAdd : Op::kEwMul, ins, {});
        return;
      case kConcat: {
        require_params(r, p.size() == 1, "axis");
        inputs(1, std::numeric_limits<std::size_t>::max(), "tensors to join");
        const auto rank = static_cast<std::int64_t>(shape_of(ins[0]).size());
        out = add(r, Op::kConcat, ins, {p[0], rank});
        return;
      }
      case kSplit:
        require_params(r, p.size() >= 2, "axis, sizes...");
        inputs(1, 1, "x");
        out = add(r, Op::kSplit, ins, {p[0], Shape(p.begin() + 1, p.end())});
        return;
      case kReshape:
        inputs(1, 1, "x");
        out = add(r, Op::kReshape, ins, {p});
        return;
      case kTranspose: {
        inputs(1, 1, "x");
        const std::size_t rank = shape_of(ins[0]).size();
        const bool with_rank = p.size() == rank + 2 && p[0] == static_cast<std::int64_t>(rank);
        require_params(r, with_rank || p.size() == rank + 1,
                       "perm..., shuffle' or 'ndim, perm..., shuffle");
        const std::size_t first = with_rank ? 1 : 0;
        if (p.back() != 0 && p.back() != 1)
          fail_param(r, p.size() - 1, fmt::format("shuffle must be 0 or 1, got {}", p.back()));
        out = add(r, Op::kTranspose, ins,
                  {Shape(p.begin() + static_cast<std::ptrdiff_t>(first),
                         p.begin() + static_cast<std::ptrdiff_t>(first + rank))});
        return;
      }
      case kMatmul: {
        require_params(r, p.size() == 2, "activation, rank");
        inputs(2, 2, "a, b");
        out = add(r, Op::kMatmul, ins, {p[0]});
        const auto rank = static_cast<std::int64_t>(shape_of(out[0]).size());
        if (p[1] != rank)
          fail_param(r, 1,
                     fmt::format("the result's rank is recorded as {}, but it is {}", p[1], rank));
        return;
      }
      default:
        build_opaque(index);
    }
  }

  // An operator the catalog does not cover: inputs as given, output shapes from the consumers.
  void build_opaque(std::size_t index) {
    const Record& r = records_[index];
    std::vector<TensorRef> ins;
    for (std::size_t k = 0; k < r.inputs.size(); ++k) ins.push_back(input(index, k));
    std::vector<tensor::TensorType> types;
    const std::uint32_t count = consumed_[index] ? max_index_.at(index) + 1 : 1;
    for (std::uint32_t k = 0; k < count; ++k) {
      const auto shape = recorded_.find({index, k});
      if (shape == recorded_.end())
        fail(r.lines[1], 1, r.name,
             fmt::format("operator type {} is not supported and no consumer records the shape of "
                         "its output {}, so it cannot be kept as an opaque operator",
                         r.type, k));
      types.push_back({shape->second, tensor::DType::kFloat32});
    }
    Attrs attrs{next_opaque_id_++, tensor::encode_output_types(types)};
    const std::vector<TensorRef> refs = add(r, Op::kOpaque, ins, std::move(attrs));
    outputs_[index] = refs;
    opaque_.emplace(refs.at(0).node, std::make_shared<const tensor::OpaqueInfo>(tensor::OpaqueInfo{
                                         r.type, std::string(r.params_line().text)}));
  }

  std::string file_;
  std::vector<Line> lines_;
  std::vector<Record> records_;
  std::unordered_map<std::int64_t, std::size_t> guids_;  // guid -> record
  std::vector<std::vector<std::size_t>> producers_;      // per record, per input: the record
  std::vector<bool> consumed_;
  std::map<std::size_t, std::uint32_t> max_index_;  // highest output index consumed, per record
  std::map<std::pair<std::size_t, std::uint32_t>, Shape> recorded_;  // (record, output) -> shape
  std::vector<std::vector<TensorRef>> outputs_;                      // per record, once built
  tensor::GraphBuilder builder_;
  std::map<tensor::NodeId, std::shared_ptr<const tensor::OpaqueInfo>> opaque_;
  std::int64_t next_opaque_id_ = 0;
};

}  // namespace

tensor::Graph graph_from_taso_model(std::string_view text, const std::string& file) {
  return TasoModelReader(text, file).read();
}

}  // namespace mctsat::frontend
