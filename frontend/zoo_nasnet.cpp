// The zoo's `nasneta`: TENSAT's NasNet-A benchmark (uwplse/tensat, src/nasneta.rs, after TASO's
// examples/nasnet_a.py). NasNet-A (Zoph et al.) as TASO simplifies
// it: a 1x3x224x224 image, a 7x7/2 convolution + 3x3/2 max pool stem, then 3 repetitions of 5
// normal cells and 1 reduction cell, the cell width doubling at each reduction (128, 256, 512 ->
// 256, 512, 1024). A cell takes the previous two cells' outputs, squeezes them to its width with
// 1x1 convolutions (relu), combines them through five pairwise ewadds of separable convolutions
// (a depthwise kxk convolution, groups = channels, then a pointwise 1x1; no activation, no batch
// normalization), 3x3 pools and identities, and concatenates the five sums along the channels.
// Normal cells keep the resolution and use 3x3 separable convolutions (TASO uses 3x3 where the
// paper's cell has 5x5); reduction cells halve it with 7x7 and 5x5 separable convolutions and
// pools of stride 2. Output 1x5120x7x7.
//
// Operators: 383, as TENSAT's: 2 stem + 3 x (5 x 21 + 22), a normal cell being 12 conv2d
// (2 squeeze/fit + 5 separable x 2) + 3 poolavg + 5 ewadd + 1 concat, a reduction cell 12 conv2d
// + 2 poolmax + 2 poolavg + 5 ewadd + 1 concat. As in TENSAT, each normal cell pools the previous
// input twice identically and each reduction cell max-pools its input twice: the graph keeps both
// copies (TENSAT counts them), the e-graph merges them on insertion.
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "frontend/zoo_builders.hpp"
#include "tensor/graph_builder.hpp"

namespace mctsat::frontend::zoo {
namespace {

using tensor::Activation;
using tensor::GraphBuilder;
using tensor::Op;
using tensor::Padding;
using tensor::TensorRef;

constexpr int kRepetitions = 3;
constexpr int kNormalCells = 5;
constexpr std::int64_t kFirstWidth = 128;

// The operators of one cell, with weights named after the cell. Every operator is its own
// statement so that node order (and fresh names) never depends on the order in which the compiler
// evaluates arguments.
class Cell {
 public:
  Cell(GraphBuilder& b, int index, std::int64_t width)
      : b_(b), prefix_(fmt::format("cell{}", index)), width_(width) {}

  std::int64_t width() const { return width_; }

  // 1x1 convolution (relu) to the cell's width.
  TensorRef squeeze(TensorRef x) { return conv("squeeze", x, 1, 1, Activation::kRelu); }
  // `x` brought to the cell's width and to the resolution of `current`: a squeeze, or a strided
  // 3x3 convolution where the resolution differs (never the case in this network, kept as TENSAT).
  TensorRef fit(TensorRef current, TensorRef x) {
    if (height(x) == height(current)) return conv("fit", x, 1, 1, Activation::kRelu);
    return conv("fit", x, 3, 2, Activation::kRelu);
  }
  // Depthwise kxk convolution (groups = channels) followed by a pointwise 1x1 convolution.
  TensorRef separable(TensorRef x, std::int64_t kernel, std::int64_t stride) {
    const std::string name = fmt::format("sep{}", separables_++);
    const std::int64_t channels = b_.type_of(x).shape.at(1);
    const TensorRef depthwise_w = b_.weight(fmt::format("{}_{}_depthwise_w", prefix_, name),
                                            {width_, channels / width_, kernel, kernel});
    const TensorRef depthwise = b_.conv2d(x, depthwise_w, stride, stride, Padding::kSame);
    const TensorRef pointwise_w =
        b_.weight(fmt::format("{}_{}_pointwise_w", prefix_, name), {width_, width_, 1, 1});
    return b_.conv2d(depthwise, pointwise_w, 1, 1, Padding::kSame);
  }
  TensorRef pool(Op op, TensorRef x, std::int64_t stride) {
    return b_.pool(op, x, 3, 3, stride, stride, Padding::kSame);
  }
  TensorRef add(TensorRef a, TensorRef c) { return b_.ewadd(a, c); }
  TensorRef concat(std::vector<TensorRef> sums) { return b_.concat(1, std::move(sums)); }

 private:
  std::int64_t height(TensorRef x) const { return b_.type_of(x).shape.at(2); }
  TensorRef conv(const char* what, TensorRef x, std::int64_t kernel, std::int64_t stride,
                 Activation act) {
    const std::int64_t channels = b_.type_of(x).shape.at(1);
    const TensorRef w =
        b_.weight(fmt::format("{}_{}_w", prefix_, what), {width_, channels, kernel, kernel});
    return b_.conv2d(x, w, stride, stride, Padding::kSame, act);
  }

  GraphBuilder& b_;
  std::string prefix_;
  std::int64_t width_;
  int separables_ = 0;
};

TensorRef normal_cell(Cell& cell, TensorRef prev, TensorRef cur) {
  cur = cell.squeeze(cur);
  prev = cell.fit(cur, prev);
  const TensorRef sep_cur_a = cell.separable(cur, 3, 1);
  const TensorRef sep_prev_a = cell.separable(prev, 3, 1);
  const TensorRef sep_cur_b = cell.separable(cur, 3, 1);
  const TensorRef avg_cur = cell.pool(Op::kPoolAvg, cur, 1);
  const TensorRef avg_prev_a = cell.pool(Op::kPoolAvg, prev, 1);
  const TensorRef avg_prev_b = cell.pool(Op::kPoolAvg, prev, 1);
  const TensorRef sep_prev_b = cell.separable(prev, 3, 1);
  const TensorRef sep_prev_c = cell.separable(prev, 3, 1);
  std::vector<TensorRef> sums;
  sums.push_back(cell.add(sep_cur_a, cur));
  sums.push_back(cell.add(sep_prev_a, sep_cur_b));
  sums.push_back(cell.add(avg_cur, prev));
  sums.push_back(cell.add(avg_prev_a, avg_prev_b));
  sums.push_back(cell.add(sep_prev_b, sep_prev_c));
  return cell.concat(std::move(sums));
}

TensorRef reduction_cell(Cell& cell, TensorRef prev, TensorRef cur) {
  cur = cell.squeeze(cur);
  prev = cell.fit(cur, prev);
  std::vector<TensorRef> sums;
  const TensorRef sep_prev7 = cell.separable(prev, 7, 2);
  const TensorRef sep_cur5 = cell.separable(cur, 5, 2);
  sums.push_back(cell.add(sep_prev7, sep_cur5));
  const TensorRef max_cur_a = cell.pool(Op::kPoolMax, cur, 2);
  const TensorRef sep_prev7_b = cell.separable(prev, 7, 2);
  sums.push_back(cell.add(max_cur_a, sep_prev7_b));
  const TensorRef avg_cur = cell.pool(Op::kPoolAvg, cur, 2);
  const TensorRef sep_prev5 = cell.separable(prev, 5, 2);
  sums.push_back(cell.add(avg_cur, sep_prev5));
  const TensorRef max_cur_b = cell.pool(Op::kPoolMax, cur, 2);
  const TensorRef sep_first = cell.separable(sums[0], 3, 1);
  sums.push_back(cell.add(max_cur_b, sep_first));
  const TensorRef avg_first = cell.pool(Op::kPoolAvg, sums[0], 1);
  sums.push_back(cell.add(avg_first, sums[1]));
  return cell.concat(std::move(sums));
}

}  // namespace

tensor::Graph build_nasneta() {
  GraphBuilder b;
  const TensorRef image = b.input("image", {1, 3, 224, 224});
  const TensorRef stem =
      b.conv2d(image, b.weight("stem_w", {64, 3, 7, 7}), 2, 2, Padding::kSame, Activation::kRelu);
  TensorRef input = b.pool(Op::kPoolMax, stem, 3, 3, 2, 2, Padding::kSame);
  int index = 0;
  std::int64_t width = kFirstWidth;
  for (int repetition = 0; repetition < kRepetitions; ++repetition) {
    TensorRef prev = input, cur = input;
    for (int n = 0; n < kNormalCells; ++n) {
      Cell cell(b, index++, width);
      const TensorRef next = normal_cell(cell, prev, cur);
      prev = cur;
      cur = next;
    }
    width *= 2;
    Cell cell(b, index++, width);
    input = reduction_cell(cell, prev, cur);
  }
  b.output("features", input);
  return std::move(b).finish();
}

}  // namespace mctsat::frontend::zoo
