// Runs two ONNX models (an original and mctsat's optimized export of it) in ONNX Runtime (the CPU
// library of the npm package onnxruntime-node) on the same seeded random inputs, compares every
// output within a tolerance, and times both on one thread in interleaved rounds. Prints one JSON
// object; exits 0 when the outputs agree, 1 when they differ, 2 on bad usage or a load error.
// The study library embeds this file (onnxruntime_measurement.hpp); the corpus test runs it.
//
// Usage: node ort-compare.cjs --ort DIR ORIGINAL.onnx OPTIMIZED.onnx
//          [--input NAME=DTYPE:D1,D2,...[:FILL]]... [--tolerance T] [--rounds N] [--seed S]
//          [--reference-level LEVEL] [--warmup N] [--batch N] [--round-ms T] [--compact]
// DIR holds node_modules/onnxruntime-node. An input not given is an error (ONNX Runtime 1.20 does
// not report input shapes). NAME ends at the last '=' (tensor names may hold ':'). DTYPE is float32, int64, int32 or bool; FILL gives every element one
// value (e.g. a sample rate) instead of random ones in [-1, 1).
// The outputs agree when, per output, max |a - b| <= T * max(1, max |a|).
// --reference-level LEVEL computes the original's outputs for the comparison in a session at that
// graph optimization level (disabled, basic, extended, all) instead of the default one: ONNX
// Runtime 1.20's Pad fusion miscomputes a Pad before an AveragePool with count_include_pad = 0
// (what PyTorch writes for avg_pool2d(padding=1)), so a correct rewrite of such a file differs from
// the original as ONNX Runtime optimizes it.
// --warmup N runs each model N times before timing (default 0); --batch N times N runs per model
// and round; --round-ms T (default 0) makes a round last at least T ms per model: the two models
// then also run alternately for at least 2T ms each before timing, and the batch grows to what
// that warm-up says fills T ms (so a model of tens of microseconds is timed over hundreds of runs
// a round, whose mean varies far less than one run's time). Within a round the two models alternate run
// by run, the first one changing every run, so both see the same moments of a busy machine.
// --compact prints one line instead of the JSON.
//
// Usage: node ort-compare.cjs --ort DIR --serve-op-times PROFILE_DIR
// answers timing requests instead (the ONNX Runtime cost model, onnxruntime_operator_timer.hpp),
// one JSON object per line on standard input: {"model": PATH, "inputs": [NAME=DTYPE:SHAPE...],
// "warmup": W, "runs": R[, "uncounted": [OP_TYPE...]]}. For each it prints one line: {"ms": the sum over the model's kernels of
// each one's fastest time over the R runs by ONNX Runtime's profiler (a busy machine's preemptions
// only add to a kernel's wall time), "kernels": those times summed by operator type} or
// {"error": MESSAGE}. The layout conversions ONNX Runtime adds around a lone convolution
// (ReorderInput, ReorderOutput) are not counted: inside a model they sit only where a chain of
// convolutions begins and ends; nor are kernels of the "uncounted" types (a reader the model
// adds only so that ONNX Runtime fuses as it does inside a model). Profiles go to PROFILE_DIR and are removed. Needs an
// onnxruntime-node that profiles (1.21 or later).
"use strict";
const path = require("path");

function usage(message) {
  process.stderr.write(`ort-compare: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const args = {inputs: [], tolerance: 1e-3, rounds: 15, seed: 1, models: [], warmup: 0, batch: 1,
                roundMs: 0};
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--ort") args.ort = value();
    else if (a === "--input") args.inputs.push(value());
    else if (a === "--tolerance") args.tolerance = Number(value());
    else if (a === "--rounds") args.rounds = Number(value());
    else if (a === "--seed") args.seed = Number(value());
    else if (a === "--reference-level") args.referenceLevel = value();
    else if (a === "--warmup") args.warmup = Number(value());
    else if (a === "--batch") args.batch = Number(value());
    else if (a === "--round-ms") args.roundMs = Number(value());
    else if (a === "--compact") args.compact = true;
    else if (a === "--serve-op-times") args.serve = value();
    else if (a.startsWith("--")) usage(`unknown option ${a}`);
    else args.models.push(a);
  }
  if (!args.ort) usage("--ort DIR is required");
  if (args.serve !== undefined) return args;
  if (args.models.length !== 2) usage("give ORIGINAL.onnx and OPTIMIZED.onnx");
  if (!(args.rounds >= 1)) usage("--rounds must be at least 1");
  if (!(args.warmup >= 0)) usage("--warmup must be at least 0");
  if (!(args.batch >= 1)) usage("--batch must be at least 1");
  if (!(args.roundMs >= 0)) usage("--round-ms must be at least 0");
  return args;
}

// xorshift32: deterministic, the same values on every machine for a seed.
function generator(seed) {
  let state = (seed * 2654435761) >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296;
  };
}

function makeInput(ort, spec, random) {
  const equals = spec.lastIndexOf("=");
  const name = spec.slice(0, equals), parts = spec.slice(equals + 1).split(":");
  if (equals <= 0 || parts.length < 2) usage(`--input ${spec}: expected NAME=DTYPE:SHAPE[:FILL]`);
  const [dtype, dims] = parts;
  const fill = parts.length > 2 ? Number(parts[2]) : undefined;
  const shape = dims === "" ? [] : dims.split(",").map(Number);
  const count = shape.reduce((n, d) => n * d, 1);
  const value = () => (fill !== undefined ? fill : 2 * random() - 1);
  let data;
  if (dtype === "float32") data = Float32Array.from({length: count}, value);
  else if (dtype === "int64")
    data = BigInt64Array.from({length: count}, () => BigInt(Math.round(value())));
  else if (dtype === "int32") data = Int32Array.from({length: count}, () => Math.round(value()));
  else if (dtype === "bool") data = Uint8Array.from({length: count}, () => (value() > 0 ? 1 : 0));
  else usage(`--input ${spec}: unknown dtype ${dtype}`);
  return [name, new ort.Tensor(dtype, data, shape)];
}

function quartiles(values) {
  const s = [...values].sort((a, b) => a - b);
  const at = (q) => {
    const pos = (s.length - 1) * q, lo = Math.floor(pos), hi = Math.ceil(pos);
    return s[lo] + (s[hi] - s[lo]) * (pos - lo);
  };
  return {q1: at(0.25), median: at(0.5), q3: at(0.75)};
}

// One line: agreement, the largest difference, and the medians and paired CPU-time quartiles.
function compactLine(r) {
  const q = r.paired_cpu_speedup_percent;
  const diff = Math.max(...r.outputs.map((o) => o.max_abs_difference ?? Infinity));
  const value = Math.max(...r.outputs.map((o) => o.max_abs_value ?? 0));
  return `${r.passed ? "EQUAL" : "DIFFER"} maxdiff=${diff.toExponential(2)} (max|a|=${value.toFixed(2)})` +
         ` rounds=${r.rounds}x${r.batch} orig_cpu_ms=${r.original_cpu_ms.median.toFixed(3)}` +
         ` cand_cpu_ms=${r.optimized_cpu_ms.median.toFixed(3)}` +
         ` paired_cpu_speedup% q1=${q.q1.toFixed(2)} med=${q.median.toFixed(2)} q3=${q.q3.toFixed(2)}\n`;
}

const sessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: "sequential",
  logSeverityLevel: 3,
};

// One request of --serve-op-times: the model's kernel time per run, from its profile.
async function timeKernels(ort, request, prefix) {
  const fs = require("fs");
  const session = await ort.InferenceSession.create(
      request.model, {...sessionOptions, enableProfiling: true, profileFilePrefix: prefix});
  const random = generator(1);
  const feeds = Object.fromEntries(request.inputs.map((spec) => makeInput(ort, spec, random)));
  for (let i = 0; i < request.warmup + request.runs; ++i) await session.run(feeds);
  session.endProfiling();
  await session.release();
  const dir = path.dirname(prefix), stem = path.basename(prefix) + "_";
  const files = fs.readdirSync(dir).filter((f) => f.startsWith(stem) && f.endsWith(".json"));
  if (files.length !== 1) throw new Error(`ONNX Runtime wrote no profile (${prefix}_*.json)`);
  const events = JSON.parse(fs.readFileSync(path.join(dir, files[0]), "utf8"));
  fs.unlinkSync(path.join(dir, files[0]));
  const runs = events.filter((e) => e.cat === "Session" && e.name === "model_run")
                   .sort((a, b) => a.ts - b.ts).slice(request.warmup);
  const uncounted = new Set(request.uncounted ?? []);
  const kernels = events.filter((e) => e.cat === "Node" && e.name.endsWith("_kernel_time") &&
                                       !String(e.args?.op_name).startsWith("Reorder") &&
                                       !uncounted.has(e.args?.op_name));
  if (runs.length !== request.runs) throw new Error(`the profile holds ${runs.length} timed runs`);
  // Each kernel's fastest run (a busy machine's preemptions only add to a kernel's wall time),
  // summed over the kernels.
  const fastest = new Map(), type = new Map();
  for (const run of runs)
    for (const k of kernels)
      if (k.ts >= run.ts && k.ts <= run.ts + run.dur) {
        fastest.set(k.name, Math.min(fastest.get(k.name) ?? Infinity, k.dur));
        type.set(k.name, k.args.op_name);
      }
  const byType = {};
  for (const [name, us] of fastest) byType[type.get(name)] = (byType[type.get(name)] ?? 0) + us / 1e3;
  return {ms: [...fastest.values()].reduce((sum, us) => sum + us, 0) / 1e3, kernels: byType};
}

async function serveOpTimes(ort, args) {
  const lines = require("readline").createInterface({input: process.stdin});
  let count = 0;
  for await (const line of lines) {
    let answer;
    try {
      answer = await timeKernels(ort, JSON.parse(line), path.join(args.serve, `op${count++}`));
    } catch (e) {
      answer = {error: String(e.message || e)};
    }
    process.stdout.write(JSON.stringify(answer) + "\n");
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  let ort;
  try {
    ort = require(path.resolve(args.ort, "node_modules", "onnxruntime-node"));
  } catch (e) {
    usage(`cannot load onnxruntime-node from ${args.ort}: ${e.message}`);
  }
  if (args.serve !== undefined) return serveOpTimes(ort, args);
  const sessions = [];
  for (const model of args.models) {
    try {
      sessions.push(await ort.InferenceSession.create(model, sessionOptions));
    } catch (e) {
      usage(`ONNX Runtime cannot load ${model}: ${e.message}`);
    }
  }
  const random = generator(args.seed);
  const feeds = Object.fromEntries(args.inputs.map((spec) => makeInput(ort, spec, random)));
  for (const [k, session] of sessions.entries()) {
    for (const name of session.inputNames)
      if (!(name in feeds)) usage(`${args.models[k]} needs input '${name}': give --input`);
  }
  const feedFor = (session) => Object.fromEntries(session.inputNames.map((n) => [n, feeds[n]]));

  // Outputs: compared by name (mctsat keeps the graph outputs' names).
  let reference = sessions[0];
  if (args.referenceLevel) {
    try {
      reference = await ort.InferenceSession.create(
          args.models[0], {...sessionOptions, graphOptimizationLevel: args.referenceLevel});
    } catch (e) {
      usage(`ONNX Runtime cannot load ${args.models[0]} at level ${args.referenceLevel}: ${e.message}`);
    }
  }
  const [a, b] = [await reference.run(feedFor(reference)),
                  await sessions[1].run(feedFor(sessions[1]))];
  const outputs = [];
  let passed = true;
  for (const name of sessions[0].outputNames) {
    const x = a[name], y = b[name];
    if (!y) {
      outputs.push({name, error: "missing in the optimized model"});
      passed = false;
      continue;
    }
    if (x.data.length !== y.data.length || x.dims.join(",") !== y.dims.join(",")) {
      outputs.push({name, error: `shape [${x.dims}] vs [${y.dims}]`});
      passed = false;
      continue;
    }
    let maxAbs = 0, maxRef = 0;
    for (let i = 0; i < x.data.length; ++i) {
      const u = Number(x.data[i]), v = Number(y.data[i]);
      const d = Number.isNaN(u) !== Number.isNaN(v) ? Infinity : Math.abs(u - v) || 0;
      maxAbs = Math.max(maxAbs, d);
      if (Number.isFinite(u)) maxRef = Math.max(maxRef, Math.abs(u));
    }
    const ok = maxAbs <= args.tolerance * Math.max(1, maxRef);
    passed = passed && ok;
    outputs.push({name, shape: x.dims, max_abs_difference: maxAbs, max_abs_value: maxRef, ok});
  }

  // Timing: the two models alternate run by run within a round (the first one changes every run),
  // and a round's time of a model is its mean over the round's runs. Each run is timed by the
  // wall clock and by the process's CPU time: ONNX Runtime runs it on one thread here, so the CPU time is the
  // run's own work, which other processes on a busy machine delay but do not add to (the wall
  // clock counts their turns too).
  const runTimed = async (k) => {
    const cpuStart = process.cpuUsage(), start = process.hrtime.bigint();
    await sessions[k].run(feedFor(sessions[k]));
    const used = process.cpuUsage(cpuStart);
    return {ms: Number(process.hrtime.bigint() - start) / 1e6,
            cpuMs: (used.user + used.system) / 1e3};
  };
  for (let w = 0; w < args.warmup; ++w)
    for (const k of [0, 1]) await sessions[k].run(feedFor(sessions[k]));
  let batch = args.batch;
  if (args.roundMs > 0) {
    let runs = 0, ms = 0;  // ms: the two models' mean time per run, summed over the warm-up runs
    while (runs < 3 || ms < 2 * args.roundMs) {
      for (const k of [0, 1]) ms += (await runTimed(k)).ms / 2;
      ++runs;
    }
    batch = Math.max(batch, Math.ceil(args.roundMs * runs / ms));
  }
  const times = [[], []], cpu = [[], []];
  for (let r = 0; r < args.rounds; ++r) {
    const ms = [0, 0], cpuMs = [0, 0];
    for (let b = 0; b < batch; ++b) {
      for (const k of (r + b) % 2 === 0 ? [0, 1] : [1, 0]) {
        const t = await runTimed(k);
        ms[k] += t.ms;
        cpuMs[k] += t.cpuMs;
      }
    }
    for (const k of [0, 1]) {
      times[k].push(ms[k] / batch);
      cpu[k].push(cpuMs[k] / batch);
    }
  }
  const ratios = times[1].map((t, r) => t / times[0][r]);
  const original = quartiles(times[0]), optimized = quartiles(times[1]);
  const report = {
    passed,
    tolerance: args.tolerance,
    reference_level: args.referenceLevel || "all",
    outputs,
    onnxruntime: ort.env.versions,
    threads: 1,
    rounds: args.rounds,
    batch,
    round_ms: args.roundMs,
    original_ms: original,
    optimized_ms: optimized,
    optimized_over_original: quartiles(ratios),
    // As mctsat's estimate: 100 * (original / optimized - 1), of the medians; its spread is the
    // quartiles of the per-round paired speedups.
    speedup_percent: 100 * (original.median / optimized.median - 1),
    paired_speedup_percent: quartiles(times[0].map((t, r) => 100 * (t / times[1][r] - 1))),
    // The same figures by CPU time (see the timing loop).
    original_cpu_ms: quartiles(cpu[0]),
    optimized_cpu_ms: quartiles(cpu[1]),
    cpu_speedup_percent: 100 * (quartiles(cpu[0]).median / quartiles(cpu[1]).median - 1),
    paired_cpu_speedup_percent: quartiles(cpu[0].map((t, r) => 100 * (t / cpu[1][r] - 1))),
  };
  process.stdout.write(args.compact ? compactLine(report) : JSON.stringify(report, null, 1) + "\n");
  process.exit(passed ? 0 : 1);
}

main().catch((e) => usage(e.stack || String(e)));
