#!/usr/bin/env python3
"""Exports the PyTorch corpus (tests/data/torch-models.tsv) to ONNX with torch.onnx.export.

Every model is built with randomly initialised weights (torch.manual_seed(0) before each model, so
a model's file does not depend on which others are exported; nothing is downloaded; a weight
matrix its builder sets to zero gets random values too), put in eval
mode, and exported at the manifest's opset with its weights as initializers and constant folding
on, with static shapes (the manifest's inputs). Files go to OUT/<id>.onnx; a model already there is
kept, unless this script, the manifest or the PyTorch version changed since the files were written
(OUT/.stamp holds their digest), in which case every cached file is removed first.

Needs PyTorch and torchvision: Debian's python3-torch and python3-torchvision (PyTorch 1.13,
torchvision 0.14; scripts/install-deps.sh installs them). Run under a Python without them, the
script looks for an interpreter that has them ($MCTSAT_TORCH_PYTHON, /usr/bin/python3, python3 on
PATH) and runs itself again under it; when none has them it prints why, writes the reason to
OUT/UNAVAILABLE and exits with 77 (the tests that need the files then skip, printing the reason).

Usage: export-torch-models.py OUT [--fast] [--only ID,ID...] [--manifest PATH] [--list]
  --fast   only the rows marked fast (the subset `make test` checks)
  --only   only these ids
  --list   print the selected rows' ids and exit (no PyTorch needed)
Prints one line per model (exported, or present) and exits 0; a model that fails to build or export
is an error (exit 1) naming it.
"""
import argparse
import hashlib
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_MANIFEST = os.path.join(HERE, "torch-models.tsv")
SKIP = 77
DEBIAN_PACKAGES = "python3-torch python3-torchvision"


def read_manifest(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cells = line.split("\t")
            if len(cells) != 6:
                sys.exit(f"{path}:{number}: expected 6 tab-separated columns, got {len(cells)}")
            ident, group, fast, opset, inputs, what = cells
            specs = []
            for spec in inputs.split(";"):
                name, _, rest = spec.rpartition("=")
                parts = rest.split(":")
                if not name or len(parts) < 2:
                    sys.exit(f"{path}:{number}: input '{spec}': expected NAME=DTYPE:DIMS[:FILL]")
                dims = [int(d) for d in parts[1].split(",")] if parts[1] else []
                fill = float(parts[2]) if len(parts) > 2 else None
                specs.append((name, parts[0], dims, fill))
            rows.append({"id": ident, "group": group, "fast": fast == "yes", "opset": int(opset),
                         "inputs": specs, "what": what})
    return rows


def has_torch(python):
    try:
        # find_spec does not import (importing torch takes seconds): the run under it checks.
        check = ("import importlib.util as u, sys; "
                 "sys.exit(0 if u.find_spec('torch') and u.find_spec('torchvision') else 1)")
        return subprocess.run([python, "-c", check], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=300).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def find_torch_or_skip(out):
    """Imports torch here, or runs this script again under an interpreter that has it."""
    try:
        import torch  # noqa: F401
        import torchvision  # noqa: F401
        return
    except ImportError:
        pass
    if os.environ.get("MCTSAT_TORCH_REEXEC") != "1":
        candidates = [os.environ.get("MCTSAT_TORCH_PYTHON"), "/usr/bin/python3",
                      shutil.which("python3")]
        for python in candidates:
            if python and os.path.exists(python) and os.path.realpath(python) != os.path.realpath(
                    sys.executable) and has_torch(python):
                env = dict(os.environ, MCTSAT_TORCH_REEXEC="1")
                sys.stdout.flush()
                os.execve(python, [python, os.path.abspath(__file__)] + sys.argv[1:], env)
    reason = (f"no Python here imports torch and torchvision (tried {sys.executable}, "
              f"$MCTSAT_TORCH_PYTHON, /usr/bin/python3, python3): install Debian's "
              f"{DEBIAN_PACKAGES} (scripts/install-deps.sh)")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "UNAVAILABLE"), "w", encoding="utf-8") as f:
        f.write(reason + "\n")
    print(f"skipped: {reason}")
    sys.exit(SKIP)


# --- the models -------------------------------------------------------------------------------


def text_models():
    import torch
    from torch import nn

    class NewGelu(nn.Module):
        """GPT-2's tanh approximation, as Hugging Face writes it (NewGELUActivation)."""

        def forward(self, x):
            return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) *
                                               (x + 0.044715 * torch.pow(x, 3.0))))

    class SelfAttention(nn.Module):
        """Multi-head self-attention with separate q/k/v projections (Hugging Face style)."""

        def __init__(self, d, heads, causal=False, max_positions=1024):
            super().__init__()
            self.heads, self.head_dim = heads, d // heads
            self.query, self.key, self.value = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
            self.dense = nn.Linear(d, d)
            self.causal = causal
            if causal:
                mask = torch.tril(torch.ones(max_positions, max_positions, dtype=torch.bool))
                self.register_buffer("bias", mask.view(1, 1, max_positions, max_positions))
                self.register_buffer("masked_bias", torch.tensor(-1e4))

        def split_heads(self, x):
            b, s, _ = x.size()
            return x.view(b, s, self.heads, self.head_dim).permute(0, 2, 1, 3)

        def forward(self, hidden, mask=None):
            q = self.split_heads(self.query(hidden))
            k = self.split_heads(self.key(hidden))
            v = self.split_heads(self.value(hidden))
            scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim)
            if self.causal:
                s = hidden.size(1)
                causal = self.bias[:, :, :s, :s]
                scores = torch.where(causal, scores, self.masked_bias.to(scores.dtype))
            if mask is not None:
                scores = scores + mask
            probs = nn.functional.softmax(scores, dim=-1)
            context = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
            b, s = context.size(0), context.size(1)
            return self.dense(context.view(b, s, self.heads * self.head_dim))

    class BertLayer(nn.Module):
        def __init__(self, d, heads, ff):
            super().__init__()
            self.attention = SelfAttention(d, heads)
            self.attention_norm = nn.LayerNorm(d, eps=1e-12)
            self.intermediate = nn.Linear(d, ff)
            self.output = nn.Linear(ff, d)
            self.output_norm = nn.LayerNorm(d, eps=1e-12)

        def forward(self, hidden, mask):
            hidden = self.attention_norm(hidden + self.attention(hidden, mask))
            inner = nn.functional.gelu(self.intermediate(hidden))
            return self.output_norm(hidden + self.output(inner))

    class Bert(nn.Module):
        def __init__(self, vocab, d, heads, ff, layers, positions=512):
            super().__init__()
            self.words = nn.Embedding(vocab, d)
            self.positions = nn.Embedding(positions, d)
            self.token_types = nn.Embedding(2, d)
            self.norm = nn.LayerNorm(d, eps=1e-12)
            self.layers = nn.ModuleList(BertLayer(d, heads, ff) for _ in range(layers))
            self.pooler = nn.Linear(d, d)

        def forward(self, input_ids, attention_mask):
            s = input_ids.size(1)
            position_ids = torch.arange(s, dtype=torch.long).unsqueeze(0)
            token_type_ids = torch.zeros_like(input_ids)
            hidden = self.norm(self.words(input_ids) + self.positions(position_ids) +
                               self.token_types(token_type_ids))
            mask = attention_mask[:, None, None, :].to(hidden.dtype)
            mask = (1.0 - mask) * torch.finfo(hidden.dtype).min
            for layer in self.layers:
                hidden = layer(hidden, mask)
            return hidden, torch.tanh(self.pooler(hidden[:, 0]))

    class Gpt2Block(nn.Module):
        def __init__(self, d, heads):
            super().__init__()
            self.ln_1 = nn.LayerNorm(d, eps=1e-5)
            self.attn = SelfAttention(d, heads, causal=True)
            self.ln_2 = nn.LayerNorm(d, eps=1e-5)
            self.c_fc, self.c_proj, self.act = nn.Linear(d, 4 * d), nn.Linear(4 * d, d), NewGelu()

        def forward(self, hidden):
            hidden = hidden + self.attn(self.ln_1(hidden))
            return hidden + self.c_proj(self.act(self.c_fc(self.ln_2(hidden))))

    class Gpt2(nn.Module):
        def __init__(self, vocab, d, heads, layers, positions=1024):
            super().__init__()
            self.wte, self.wpe = nn.Embedding(vocab, d), nn.Embedding(positions, d)
            self.h = nn.ModuleList(Gpt2Block(d, heads) for _ in range(layers))
            self.ln_f = nn.LayerNorm(d, eps=1e-5)
            self.lm_head = nn.Linear(d, vocab, bias=False)

        def forward(self, input_ids):
            s = input_ids.size(1)
            position_ids = torch.arange(s, dtype=torch.long).unsqueeze(0)
            hidden = self.wte(input_ids) + self.wpe(position_ids)
            for block in self.h:
                hidden = block(hidden)
            return self.lm_head(self.ln_f(hidden))

    class Recurrent(nn.Module):
        def __init__(self, cell, features, hidden, layers, classes):
            super().__init__()
            self.rnn = cell(features, hidden, num_layers=layers, batch_first=True)
            self.head = nn.Linear(hidden, classes)

        def forward(self, x):
            y, _ = self.rnn(x)
            return self.head(y)

    def encoder(layers, d=768, heads=12, ff=3072):
        layer = nn.TransformerEncoderLayer(d, heads, ff, dropout=0.1, activation="gelu",
                                           batch_first=True)
        return nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)

    return {
        "encoder-2l": lambda: encoder(2),
        "encoder-12l": lambda: encoder(12),
        "encoder-2l-opset17": lambda: encoder(2),
        "encoder-tiny": lambda: encoder(1, 64, 4, 128),
        "encoder-tiny-b4": lambda: encoder(1, 64, 4, 128),
        "bert-layer": lambda: BertLayer(256, 4, 1024),
        "bert-hf-4l": lambda: Bert(8192, 768, 12, 3072, 4),
        "bert-hf-12l": lambda: Bert(8192, 768, 12, 3072, 12),
        "bert-hf-tiny": lambda: Bert(512, 64, 4, 128, 1),
        "gpt2-block": lambda: Gpt2Block(256, 4),
        "gpt2-4l": lambda: Gpt2(8192, 768, 12, 4),
        "lstm": lambda: Recurrent(nn.LSTM, 64, 128, 2, 10),
        "lstm-large": lambda: Recurrent(nn.LSTM, 256, 512, 2, 10),
        "gru": lambda: Recurrent(nn.GRU, 256, 512, 2, 10),
    }


def vision_models():
    from torchvision import models
    from torchvision.models.vision_transformer import VisionTransformer

    return {
        "resnet18": lambda: models.resnet18(),
        "resnet50": lambda: models.resnet50(),
        "mobilenet-v2": lambda: models.mobilenet_v2(),
        "mobilenet-v3-small": lambda: models.mobilenet_v3_small(),
        "mobilenet-v3-large": lambda: models.mobilenet_v3_large(),
        "efficientnet-b0": lambda: models.efficientnet_b0(),
        "squeezenet1.1": lambda: models.squeezenet1_1(),
        "googlenet": lambda: models.googlenet(aux_logits=False, init_weights=True),
        "inception-v3": lambda: models.inception_v3(aux_logits=False, init_weights=True),
        "densenet121": lambda: models.densenet121(),
        "convnext-tiny": lambda: models.convnext_tiny(),
        "regnet-y-400mf": lambda: models.regnet_y_400mf(),
        "shufflenet-v2": lambda: models.shufflenet_v2_x1_0(),
        "vit-b16": lambda: models.vit_b_16(image_size=64),
        "vit-tiny": lambda: VisionTransformer(image_size=64, patch_size=8, num_layers=6,
                                              num_heads=3, hidden_dim=192, mlp_dim=768),
        "swin-t": lambda: models.swin_t(),
    }


def example_inputs(row):
    import torch
    dtypes = {"float32": torch.float32, "int64": torch.int64, "int32": torch.int32,
              "bool": torch.bool}
    values = []
    for name, dtype, dims, fill in row["inputs"]:
        if dtype not in dtypes:
            sys.exit(f"{row['id']}: input {name}: unknown dtype {dtype}")
        if fill is not None:
            values.append(torch.full(dims, fill, dtype=dtypes[dtype]))
        elif dtype == "float32":
            values.append(torch.randn(*dims))
        else:
            values.append(torch.zeros(dims, dtype=dtypes[dtype]))
    return values


def output_names(model, inputs):
    import torch
    with torch.no_grad():
        outputs = model(*inputs)
    count = len(outputs) if isinstance(outputs, (tuple, list)) else 1
    return ["output"] if count == 1 else [f"output{k}" for k in range(count)]


def nonzero_weights(model):
    """Gives weight matrices a builder initialised to zero random values instead (torchvision's
    ViT zeroes its classifier, whose outputs would then be zero and compare equal whatever the
    graph computes)."""
    import torch
    with torch.no_grad():
        for parameter in model.parameters():
            if parameter.dim() >= 2 and not parameter.any():
                parameter.normal_(0.0, 0.02)


def export(row, build, path):
    import torch
    torch.manual_seed(0)
    model = build().eval()
    nonzero_weights(model)
    inputs = example_inputs(row)
    names = output_names(model, inputs)
    directory = os.path.dirname(path)
    fd, scratch = tempfile.mkstemp(prefix=f".{row['id']}.", suffix=".onnx", dir=directory)
    os.close(fd)
    try:
        torch.onnx.export(model, tuple(inputs), scratch, export_params=True,
                          opset_version=row["opset"], do_constant_folding=True,
                          input_names=[spec[0] for spec in row["inputs"]], output_names=names,
                          training=torch.onnx.TrainingMode.EVAL)
        os.replace(scratch, path)
    finally:
        if os.path.exists(scratch):
            os.remove(scratch)


def stamp_of(manifest):
    import torch
    import torchvision
    digest = hashlib.sha256()
    for path in (os.path.abspath(__file__), manifest):
        with open(path, "rb") as f:
            digest.update(f.read())
    digest.update(f"torch {torch.__version__} torchvision {torchvision.__version__}".encode())
    return digest.hexdigest()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("--fast", action="store_true")
    parser.add_argument("--only", default="")
    parser.add_argument("--manifest", default=DEFAULT_MANIFEST)
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()

    rows = read_manifest(args.manifest)
    wanted = [w for w in args.only.split(",") if w]
    unknown = set(wanted) - {row["id"] for row in rows}
    if unknown:
        sys.exit(f"--only: no such model in {args.manifest}: {', '.join(sorted(unknown))}")
    rows = [r for r in rows if (not args.fast or r["fast"]) and (not wanted or r["id"] in wanted)]
    if args.list:
        print("\n".join(row["id"] for row in rows))
        return 0

    find_torch_or_skip(args.out)
    import torch
    torch.set_num_threads(1)
    builders = {**vision_models(), **text_models()}
    missing = [row["id"] for row in rows if row["id"] not in builders]
    if missing:
        sys.exit(f"no builder in {__file__} for: {', '.join(missing)}")

    os.makedirs(args.out, exist_ok=True)
    unavailable = os.path.join(args.out, "UNAVAILABLE")
    if os.path.exists(unavailable):
        os.remove(unavailable)
    stamp_path, stamp = os.path.join(args.out, ".stamp"), stamp_of(args.manifest)
    old = open(stamp_path, encoding="utf-8").read().strip() if os.path.exists(stamp_path) else ""
    if old != stamp:
        for name in os.listdir(args.out):
            if name.endswith(".onnx"):
                os.remove(os.path.join(args.out, name))
        with open(stamp_path, "w", encoding="utf-8") as f:
            f.write(stamp + "\n")

    import warnings
    warnings.filterwarnings("ignore")  # tracer warnings about Python values: the shapes are static
    for row in rows:
        path = os.path.join(args.out, row["id"] + ".onnx")
        if os.path.exists(path):
            print(f"{row['id']}: present in {path}")
            continue
        start = time.process_time()
        try:
            export(row, builders[row["id"]], path)
        except Exception as error:  # a model that does not export is this script's failure
            print(f"{row['id']}: export failed: {type(error).__name__}: {error}", file=sys.stderr)
            return 1
        size = os.path.getsize(path) / 2**20
        print(f"{row['id']}: exported to {path} ({size:.1f} MiB, "
              f"{time.process_time() - start:.1f} s CPU)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
