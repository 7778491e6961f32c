#!/usr/bin/env bash
# Installs the Debian packages mctsat builds and runs with, only those missing.
# Idempotent: a second run installs nothing. Needs root (or sudo) for apt-get.
set -euo pipefail

packages=(
  cmake ninja-build g++ make pkg-config
  tao-pegtl-dev libboost-graph-dev libtbb-dev nlohmann-json3-dev doctest-dev
  libz3-dev libcli11-dev libfmt-dev libspdlog-dev
  libonnx-dev libprotobuf-dev protobuf-compiler
  libdnnl-dev ocl-icd-opencl-dev opencl-c-headers
  coinor-libcbc-dev libbenchmark-dev libabsl-dev
  libonnx-testdata gnuplot-nox graphviz libgraphviz-dev
  clang libclang-rt-14-dev
  python3-dev pybind11-dev python3-pytest python3-pandas python3-venv python3-pip
  slurm-wlm munge
  # PyTorch 1.13 and torchvision 0.14 export the real-model corpus (tests/data/export-torch-models.py).
  python3-torch python3-torchvision
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' ||
    missing+=("$package")
done
# Node.js and npm run the tests' real ONNX client (onnxruntime-node) and fetch their models; a
# machine that has them already (whatever package brought them) keeps its own.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  missing+=(nodejs npm)
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present, and node and npm"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
apt_get=(apt-get)
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  apt_get=(sudo apt-get)
fi
export DEBIAN_FRONTEND=noninteractive
"${apt_get[@]}" update -qq
"${apt_get[@]}" install -y -qq --no-install-recommends "${missing[@]}"
