# A Hugging Face-style encoder (separate q, k, v Linear layers, LayerNorm, GELU) exported by
# PyTorch 1.13 (Debian python3-torch), random weights, seed 0. Usage: hf_encoder.py split|merged SEQ
# LAYERS; "merged" computes Q, K, V with one Linear of the concatenated weights (the form
# rules/exporters rewrites to). Writes hf-<form>-<seq>-<layers>.onnx.
import torch, math, sys
torch.manual_seed(0)
H, NH, S, L = 768, 12, int(sys.argv[2]), int(sys.argv[3])
class Layer(torch.nn.Module):
    def __init__(s, merged):
        super().__init__()
        s.merged = merged
        s.q = torch.nn.Linear(H, H); s.k = torch.nn.Linear(H, H); s.v = torch.nn.Linear(H, H)
        s.o = torch.nn.Linear(H, H); s.ln1 = torch.nn.LayerNorm(H); s.ln2 = torch.nn.LayerNorm(H)
        s.f1 = torch.nn.Linear(H, 4*H); s.f2 = torch.nn.Linear(4*H, H)
    def forward(s, x):
        B, T, _ = x.shape
        if s.merged:
            w = torch.cat([s.q.weight, s.k.weight, s.v.weight], 0); b = torch.cat([s.q.bias, s.k.bias, s.v.bias])
            q, k, v = torch.nn.functional.linear(x, w, b).split(H, dim=-1)
        else:
            q, k, v = s.q(x), s.k(x), s.v(x)
        sh = lambda t: t.view(B, T, NH, H // NH).transpose(1, 2)
        q, k, v = sh(q), sh(k), sh(v)
        a = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(H // NH), -1) @ v
        a = a.transpose(1, 2).reshape(B, T, H)
        x = s.ln1(x + s.o(a))
        return s.ln2(x + s.f2(torch.nn.functional.gelu(s.f1(x))))
merged = sys.argv[1] == "merged"
torch.manual_seed(0)
m = torch.nn.Sequential(*[Layer(merged) for _ in range(L)]).eval()
torch.onnx.export(m, torch.randn(1, S, H), f"hf-{sys.argv[1]}-{S}-{L}.onnx", opset_version=14, input_names=["x"], output_names=["y"])
