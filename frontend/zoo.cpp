// The zoo registry: names, descriptions and builders of the built-in models and of the generated
// families (`nasrnn-40`). The builders live in
// one file per model family (zoo_<family>.cpp, declared in zoo_builders.hpp).
#include "frontend/zoo.hpp"

#include <utility>

#include "frontend/zoo_builders.hpp"

namespace mctsat::frontend {
namespace {

struct Builder {
  ZooEntry entry;
  tensor::Graph (*build)();
};

const Builder kBuilders[] = {
    {{"demo", "small two-branch example: fusable relu, mergeable 1x1 convolutions and matmuls"},
     zoo::build_demo},
    {{"bert", "TENSAT's BERT: 8 attention layers, 64 tokens, hidden 1024, 16 heads"},
     [] { return zoo::build_bert(); }},
    {{"nasrnn", "TENSAT's NasRNN: 5 steps of the NAS recurrent cell, hidden size 512"},
     [] { return zoo::build_nasrnn(); }},
    {{"nasneta", "TENSAT's NasNet-A: 3 x (5 normal + 1 reduction cell), 224x224 image"},
     zoo::build_nasneta},
    {{"resnext50", "TENSAT's ResNeXt-50: 16 bottleneck blocks, cardinality 32, 224x224 image"},
     zoo::build_resnext50},
    {{"resnet50", "TENSAT's ResNet-50: 16 bottleneck blocks on a 64x56x56 feature map"},
     zoo::build_resnet50},
    {{"vgg19", "VGG-19 as in TASO's export: 16 convolutions, 3 dense layers, 224x224 image"},
     zoo::build_vgg19},
    {{"squeezenet", "SqueezeNet v1.1 as in TASO's export: 8 fire modules, 224x224 image"},
     zoo::build_squeezenet},
    {{"mobilenetv2", "MobileNet-v2 as in TASO's export: 17 inverted residual blocks, 224x224"},
     zoo::build_mobilenetv2},
    {{"inceptionv3", "Inception-v3 as in TASO's export: 11 inception modules, 299x299 image"},
     zoo::build_inceptionv3},
};

struct Family {
  ZooEntry entry;  // name: the prefix before "-<size>"
  tensor::Graph (*build)(int size);
};

const Family kFamilies[] = {
    {{"nasrnn", "NasRNN unrolled over <size> steps (nasrnn-5 is nasrnn; 46 operators a step)"},
     zoo::build_nasrnn},
    {{"bert", "BERT-style encoder of <size> attention layers as bert's (bert-8 is bert)"},
     zoo::build_bert},
    {{"deepcnn", "<size> residual bottleneck blocks at 256 channels, 14x14 (5 operators each)"},
     zoo::build_deepcnn},
};

// "family-size" as the family's builder and the size; nullopt when the name is not of that form
// (a family's name, '-', a decimal size from 1 to kMaxGeneratedSize without leading zeros).
std::optional<std::pair<const Family*, int>> parse_generated(std::string_view name) {
  const auto dash = name.rfind('-');
  if (dash == std::string_view::npos) return std::nullopt;
  const std::string_view prefix = name.substr(0, dash), digits = name.substr(dash + 1);
  if (digits.empty() || digits.size() > 5 || digits[0] == '0') return std::nullopt;
  int size = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    size = size * 10 + (c - '0');
  }
  if (size > kMaxGeneratedSize) return std::nullopt;
  for (const Family& family : kFamilies)
    if (family.entry.name == prefix) return std::make_pair(&family, size);
  return std::nullopt;
}

}  // namespace

std::vector<ZooEntry> zoo_families() {
  std::vector<ZooEntry> entries;
  for (const Family& family : kFamilies) entries.push_back(family.entry);
  return entries;
}

bool is_zoo_model(std::string_view name) {
  for (const Builder& builder : kBuilders)
    if (builder.entry.name == name) return true;
  return parse_generated(name).has_value();
}

std::vector<ZooEntry> zoo_models() {
  std::vector<ZooEntry> entries;
  for (const Builder& builder : kBuilders) entries.push_back(builder.entry);
  return entries;
}

std::optional<tensor::Graph> build_zoo_model(std::string_view name) {
  for (const Builder& builder : kBuilders) {
    if (builder.entry.name == name) return builder.build();
  }
  if (const auto generated = parse_generated(name))
    return generated->first->build(generated->second);
  return std::nullopt;
}

}  // namespace mctsat::frontend
