#!/bin/bash
# Final paired CPU-time measurements (level all vs level all), each candidate run twice (A/B) to show stability.
cd "$(dirname "$0")"
for pass in A B; do
  echo "## pass $pass $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
  ./run-all.sh \
    bert-layer:attn:2000 bert-layer:attn-sb:2000 bert-layer:attn-sln:2000 bert-layer:mhaop:2000 bert-layer:qkv:2000 bert-layer:skipbias:2000 \
    gpt2-block:attn:2000 gpt2-block:attn-sb:2000 gpt2-block:attn-sln:2000 gpt2-block:qkv:2000 \
    vit-tiny:attn:800 vit-tiny:attn-sln:800 \
    encoder-2l:attn:200 encoder-2l:attn-sln:200 \
    bert-hf-4l:attn:120 bert-hf-4l:attn-sb:120 bert-hf-4l:attn-sln:120 bert-hf-4l:ortform12:120 bert-hf-4l:qkv:120 bert-hf-4l:skipbias:120 \
    googlenet:convmerge:600 googlenet:convmerge2:600 inception-v3:convmerge:200
done
