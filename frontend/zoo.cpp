// The zoo registry: names, descriptions and builders of the built-in models. The builders live in
// one file per model family (zoo_<family>.cpp, declared in zoo_builders.hpp).
#include "frontend/zoo.hpp"

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
     zoo::build_bert},
    {{"nasrnn", "TENSAT's NasRNN: 5 steps of the NAS recurrent cell, hidden size 512"},
     zoo::build_nasrnn},
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

}  // namespace

std::vector<ZooEntry> zoo_models() {
  std::vector<ZooEntry> entries;
  for (const Builder& builder : kBuilders) entries.push_back(builder.entry);
  return entries;
}

std::optional<tensor::Graph> build_zoo_model(std::string_view name) {
  for (const Builder& builder : kBuilders) {
    if (builder.entry.name == name) return builder.build();
  }
  return std::nullopt;
}

}  // namespace mctsat::frontend
