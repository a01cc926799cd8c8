#!/usr/bin/env node
// The floor for `oxo-flow dry-run` (bench/dry-run-scale.mjs): the least a Node program must do to plan
// the benchmark's workflows. It reads the same .oxoflow with smol-toml, expands the same jobs (one per
// rule and sample, `rule[sample=S]`, its inputs and outputs rendered), builds the same DAG (an
// input that is another job's output is an edge; levels by a topological sort), looks at the same
// folders to decide which jobs run, and prints the same count. No checks, no diagnostics, no run
// state, no commands (dry-run renders only those it prints), no layout: what is left is the work any
// planner of this DAG pays.
// Usage: node bench/min-planner.mjs [DIR]   (DIR holds main.oxoflow; default: the current folder)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';

const dir = path.resolve(process.argv[2] ?? '.');
const doc = parse(readFileSync(path.join(dir, 'main.oxoflow'), 'utf8'));
const samples = [];
for (const g of doc.sample_groups ?? []) for (const s of g.samples) if (!samples.includes(s)) samples.push(s);

const fill = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => values[k] ?? m);
// Flat lists: job i's inputs are inputPaths[inputStart[i]] … inputPaths[inputStart[i + 1] - 1].
const ids = [];
const inputPaths = [];
const inputStart = [0];
const outputPaths = [];
const outputStart = [0];
for (const rule of doc.rules) {
  for (const sample of samples) {
    for (const p of rule.input) inputPaths.push(fill(p, { sample }));
    for (const p of rule.output) outputPaths.push(fill(p, { sample }));
    ids.push(`${rule.name}[sample=${sample}]`);
    inputStart.push(inputPaths.length);
    outputStart.push(outputPaths.length);
  }
}

const n = ids.length;
const producers = new Map();
for (let i = 0; i < n; i++) for (let k = outputStart[i]; k < outputStart[i + 1]; k++) producers.set(outputPaths[k], i);
// deps[k] for k in inputStart[i] … : the producer of that input, or -1 (none, or a repeat).
const deps = new Int32Array(inputPaths.length).fill(-1);
const waiting = new Int32Array(n);
const dependentCount = new Int32Array(n + 1);
for (let i = 0; i < n; i++) {
  for (let k = inputStart[i]; k < inputStart[i + 1]; k++) {
    const d = producers.get(inputPaths[k]);
    if (d === undefined) continue;
    let repeat = false;
    for (let q = inputStart[i]; q < k; q++) if (deps[q] === d) repeat = true;
    if (repeat) continue;
    deps[k] = d;
    waiting[i] += 1;
    dependentCount[d + 1] += 1;
  }
}
for (let i = 0; i < n; i++) dependentCount[i + 1] += dependentCount[i];
const dependents = new Int32Array(dependentCount[n]);
const fillAt = dependentCount.slice(0, n);
for (let i = 0; i < n; i++) for (let k = inputStart[i]; k < inputStart[i + 1]; k++) if (deps[k] >= 0) dependents[fillAt[deps[k]]++] = i;
const levels = new Int32Array(n);
const order = new Int32Array(n);
let queued = 0;
for (let i = 0; i < n; i++) if (waiting[i] === 0) order[queued++] = i;
for (let h = 0; h < queued; h++) {
  const i = order[h];
  for (let k = dependentCount[i]; k < dependentCount[i + 1]; k++) {
    const d = dependents[k];
    if (levels[i] + 1 > levels[d]) levels[d] = levels[i] + 1;
    if (--waiting[d] === 0) order[queued++] = d;
  }
}

// Which files exist: one listing per folder.
const listings = new Map();
const exists = (p) => {
  const slash = p.lastIndexOf('/');
  const folder = slash < 0 ? '.' : p.slice(0, slash);
  let names = listings.get(folder);
  if (names === undefined) {
    try {
      names = new Set(readdirSync(path.join(dir, folder)));
    } catch {
      names = new Set();
    }
    listings.set(folder, names);
  }
  return names.has(p.slice(slash + 1));
};
const runs = new Uint8Array(n);
let run = 0;
let phases = 0;
for (let h = 0; h < queued; h++) {
  const i = order[h];
  let runs_ = false;
  for (let k = inputStart[i]; k < inputStart[i + 1]; k++) {
    exists(inputPaths[k]);
    if (deps[k] >= 0 && runs[deps[k]] === 1) runs_ = true;
  }
  for (let k = outputStart[i]; k < outputStart[i + 1]; k++) if (!exists(outputPaths[k])) runs_ = true;
  if (runs_) {
    runs[i] = 1;
    run += 1;
  }
  if (levels[i] + 1 > phases) phases = levels[i] + 1;
}
process.stdout.write(`${n} jobs in ${phases} phases — ${run} will run, ${n - run} skipped\n`);
