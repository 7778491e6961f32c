#!/bin/sh
# Installs ONNX Runtime for Node (the npm package onnxruntime-node, which ships the CPU library)
# into DIR/node_modules, once, with install scripts disabled (they only fetch GPU providers), and
# checks that its native binding loads. When the npm registry is unreachable it writes the reason
# to DIR/UNAVAILABLE and exits 0: the tests that run ONNX Runtime then skip and print that reason.
# npm or node missing, or a binding that does not load, is an error (exit 1).
# Usage: install-onnxruntime.sh DIR
set -u
version="1.30.0"
dir="${1:?usage: install-onnxruntime.sh DIR}"
mkdir -p "$dir" || exit 1
rm -f "$dir/UNAVAILABLE"
for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "$tool is not installed (scripts/install-deps.sh installs it)" >&2
    exit 1
  fi
done
check='const ort = require(process.argv[1] + "/node_modules/onnxruntime-node");
       process.stdout.write("onnxruntime-node " + ort.env.versions.node + " loads\n");'
if [ "$(cat "$dir/.installed" 2>/dev/null)" = "$version" ] && node -e "$check" "$dir"; then
  exit 0
fi
[ -f "$dir/package.json" ] || echo '{"name": "mctsat-test-onnxruntime", "private": true}' >"$dir/package.json"
if ! (cd "$dir" && timeout 600 npm install --ignore-scripts --no-audit --no-fund --silent \
  "onnxruntime-node@$version" >npm.log 2>&1); then
  if ! timeout 60 npm ping >/dev/null 2>&1; then
    echo "the npm registry is unreachable (npm install onnxruntime-node@$version failed, npm ping too)" >"$dir/UNAVAILABLE"
    cat "$dir/UNAVAILABLE"
    exit 0
  fi
  echo "npm install onnxruntime-node@$version failed although the registry answers:" >&2
  cat "$dir/npm.log" >&2
  exit 1
fi
node -e "$check" "$dir" || exit 1
echo "$version" >"$dir/.installed"
