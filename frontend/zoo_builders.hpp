// The builders behind the zoo registry (frontend/zoo.cpp), one source file per model family.
// Internal to frontend/: callers go through build_zoo_model() (tests may build other sizes of a
// family). Every builder returns a validated graph whose weights carry no values.
#pragma once

#include <cstdint>

#include "tensor/graph.hpp"

namespace mctsat::frontend::zoo {

// bert's sizes: the zoo's are TENSAT's. The attention products need tokens == head_size.
struct BertSizes {
  int layers = 8;
  std::int64_t tokens = 64, heads = 16, head_size = 64;  // hidden = heads * head_size
};

tensor::Graph build_demo();                // zoo_demo.cpp
tensor::Graph build_bert(int layers = 8);  // zoo_bert.cpp
tensor::Graph build_bert(const BertSizes& sizes);
tensor::Graph build_nasrnn(int steps = 5);  // zoo_nasrnn.cpp
tensor::Graph build_resnext50();            // zoo_resnet.cpp
tensor::Graph build_resnet50();             // zoo_resnet.cpp
tensor::Graph build_nasneta();              // zoo_nasnet.cpp
tensor::Graph build_vgg19();                // zoo_cnn.cpp
tensor::Graph build_squeezenet();           // zoo_cnn.cpp
tensor::Graph build_mobilenetv2();          // zoo_cnn.cpp
tensor::Graph build_inceptionv3();          // zoo_inception.cpp
tensor::Graph build_deepcnn(int blocks);    // zoo_deepcnn.cpp

}  // namespace mctsat::frontend::zoo
