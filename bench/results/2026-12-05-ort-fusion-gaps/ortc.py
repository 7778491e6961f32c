#!/usr/bin/python3
"""ctypes access to the C API of the ONNX Runtime 1.20.1 library that onnxruntime-node ships
(the node binding has no optimizedModelFilePath option). OrtApi slot indices below are the
stable, append-only C API order.
Usage: ortc.py save IN.onnx OUT.onnx [LEVEL=all|extended|basic|disabled]"""
import ctypes, sys
import os
# $MCTSAT_ONNXRUNTIME: the folder tests/data/install-onnxruntime.sh installed onnxruntime-node into.
LIB = os.path.join(os.environ["MCTSAT_ONNXRUNTIME"], "node_modules/onnxruntime-node/bin/napi-v3/"
                   "linux/x64/libonnxruntime.so.1.20.1")
lib = ctypes.CDLL(LIB)
class Base(ctypes.Structure):
    _fields_ = [("GetApi", ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_uint32)),
                ("GetVersionString", ctypes.CFUNCTYPE(ctypes.c_char_p))]
lib.OrtGetApiBase.restype = ctypes.POINTER(Base)
api = ctypes.cast(lib.OrtGetApiBase().contents.GetApi(20), ctypes.POINTER(ctypes.c_void_p))
P = ctypes.c_void_p
def fn(i, *args, res=P):
    return ctypes.CFUNCTYPE(res, *args)(api[i])
GetErrorMessage = fn(2, P, res=ctypes.c_char_p)
CreateEnv = fn(3, ctypes.c_int, ctypes.c_char_p, ctypes.POINTER(P))
CreateSession = fn(7, P, ctypes.c_char_p, P, ctypes.POINTER(P))
CreateSessionOptions = fn(10, ctypes.POINTER(P))
SetOptimizedModelFilePath = fn(11, P, ctypes.c_char_p)
SetSessionExecutionMode = fn(13, P, ctypes.c_int)
EnableProfiling = fn(14, P, ctypes.c_char_p)
SetSessionGraphOptimizationLevel = fn(23, P, ctypes.c_int)
SetIntraOpNumThreads = fn(24, P, ctypes.c_int)
SetInterOpNumThreads = fn(25, P, ctypes.c_int)
def check(st):
    if st:
        raise RuntimeError(GetErrorMessage(st).decode())
LEVELS = {"disabled": 0, "basic": 1, "extended": 2, "all": 99}
_env = P()
def env():
    if not _env.value:
        check(CreateEnv(3, b"ortlab", ctypes.byref(_env)))
    return _env
def save(inp, out, level="all"):
    so = P(); check(CreateSessionOptions(ctypes.byref(so)))
    check(SetIntraOpNumThreads(so, 1)); check(SetInterOpNumThreads(so, 1))
    check(SetSessionExecutionMode(so, 0))
    check(SetSessionGraphOptimizationLevel(so, LEVELS[level]))
    check(SetOptimizedModelFilePath(so, out.encode()))
    s = P(); check(CreateSession(env(), inp.encode(), so, ctypes.byref(s)))
if __name__ == "__main__":
    if sys.argv[1] == "save":
        save(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "all")

# --- profiling (slot indices: Run 9, CreateTensorWithDataAsOrtValue 49, CreateCpuMemoryInfo 69,
# ReleaseSession 95; checked by the run working and the profile file appearing)
Run = fn(9, P, P, ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(P), ctypes.c_size_t,
         ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t, ctypes.POINTER(P))
CreateTensorWithDataAsOrtValue = fn(49, P, P, ctypes.c_size_t, ctypes.POINTER(ctypes.c_int64),
                                    ctypes.c_size_t, ctypes.c_int, ctypes.POINTER(P))
CreateCpuMemoryInfo = fn(69, ctypes.c_int, ctypes.c_int, ctypes.POINTER(P))
ReleaseSession = fn(95, P, res=None)
def profile(model, prefix, feeds, outputs, runs=50, level="all"):
    """feeds: {name: numpy array}; writes PREFIX_<date>.json on session release."""
    import numpy as np
    so = P(); check(CreateSessionOptions(ctypes.byref(so)))
    check(SetIntraOpNumThreads(so, 1)); check(SetInterOpNumThreads(so, 1))
    check(SetSessionExecutionMode(so, 0)); check(SetSessionGraphOptimizationLevel(so, LEVELS[level]))
    check(EnableProfiling(so, prefix.encode()))
    s = P(); check(CreateSession(env(), model.encode(), so, ctypes.byref(s)))
    mi = P(); check(CreateCpuMemoryInfo(1, 0, ctypes.byref(mi)))
    types = {np.dtype("float32"): 1, np.dtype("int64"): 7, np.dtype("int32"): 6}
    vals, keep = [], []
    for name, a in feeds.items():
        a = np.ascontiguousarray(a); keep.append(a)
        shape = (ctypes.c_int64 * a.ndim)(*a.shape)
        v = P(); check(CreateTensorWithDataAsOrtValue(mi, a.ctypes.data_as(P), a.nbytes, shape, a.ndim,
                                                       types[a.dtype], ctypes.byref(v)))
        vals.append(v)
    inames = (ctypes.c_char_p * len(feeds))(*[k.encode() for k in feeds])
    ivals = (P * len(vals))(*vals)
    onames = (ctypes.c_char_p * len(outputs))(*[o.encode() for o in outputs])
    for _ in range(runs):
        outs = (P * len(outputs))()
        check(Run(s, None, inames, ivals, len(vals), onames, len(outputs), outs))
    ReleaseSession(s)
