#!/usr/bin/env node
// Grades ONNX Runtime's GELU operators (onnxruntime-node, CPU provider) with
// gelu-acc: for each format, writes an input set with 'gelu-acc inputs', runs
// each one-node model on it, saves the outputs as .npy, grades them with
// 'gelu-acc grade --json', and describes everything in OUT/manifest.
//
// usage: node gelu-ort.mjs --out DIR [--gelu-acc PATH] [--float32-domain D]
//                          [--formats float32,float16,bfloat16]
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import { encodeModel, graphOpTypes, ELEM } from './onnx-model.mjs';
import { openNpy, readChunk, createNpy } from './npy.mjs';

const CHUNK = 1 << 20;
const NPY_DTYPE = { float32: '<f4', float16: '<f2', bfloat16: '<u2' };
// Tensor types of the JavaScript API: it has no bfloat16 tensors.
const JS_TYPE = { float32: ['float32', Float32Array], float16: ['float16', Uint16Array] };

// The operators measured, with the function each approximates.
const VARIANTS = [
  { name: 'gelu', op: 'Gelu', domain: '', attributes: { approximate: 'none' }, reference: 'gelu',
    describe: 'Gelu (ai.onnx opset 20, approximate = none)' },
  { name: 'gelu-tanh', op: 'Gelu', domain: '', attributes: { approximate: 'tanh' }, reference: 'gelu_tanh',
    describe: 'Gelu (ai.onnx opset 20, approximate = tanh)' },
  { name: 'ms-gelu', op: 'Gelu', domain: 'com.microsoft', attributes: {}, reference: 'gelu',
    describe: 'Gelu (com.microsoft contrib op)' },
  { name: 'ms-fastgelu', op: 'FastGelu', domain: 'com.microsoft', attributes: {}, reference: 'gelu_tanh',
    describe: 'FastGelu (com.microsoft contrib op, tanh form, no bias)' },
];

const { values: opt } = parseArgs({ options: {
  out: { type: 'string' },
  'gelu-acc': { type: 'string', default: process.env.GELU_ACC ?? 'gelu-acc' },
  'float32-domain': { type: 'string', default: 'stride:16' },
  formats: { type: 'string', default: 'float32,float16,bfloat16' },
} });
if (!opt.out) {
  console.error('gelu-ort: --out DIR is required');
  process.exit(2);
}
const version = JSON.parse(readFileSync(new URL('./node_modules/onnxruntime-node/package.json', import.meta.url))).version;
// Run in the output directory with relative names, so that the graded JSON
// names its inputs file as the manifest does.
const program = opt['gelu-acc'].includes('/') ? resolve(opt['gelu-acc']) : opt['gelu-acc'];
const geluAcc = (...args) => execFileSync(program, args, { cwd: opt.out, encoding: 'utf8', maxBuffer: 1 << 26 });

function modelFor(variant, format) {
  return encodeModel({
    nodes: [{ op: variant.op, domain: variant.domain, inputs: ['x'], outputs: ['y'], attributes: variant.attributes }],
    inputType: ELEM[format], outputType: ELEM[format], opsets: { '': 20, 'com.microsoft': 1 },
  });
}

// A session and the op types of ORT's optimized graph, or { error }.
async function openSession(variant, format) {
  const scratch = mkdtempSync(join(tmpdir(), 'gelu-ort-'));
  try {
    const optimized = join(scratch, 'optimized.onnx');
    const session = await ort.InferenceSession.create(modelFor(variant, format),
      { optimizedModelFilePath: optimized, logSeverityLevel: 3 });
    if (!(format in JS_TYPE)) {
      await session.release();
      return { error: `onnxruntime-node's JavaScript API has no ${format} tensors` };
    }
    return { session, graph: graphOpTypes(readFileSync(optimized)) };
  } catch (e) {
    return { error: `the session fails: ${e.message.split('\n')[0]}` };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

// Runs the session on every input of the file and writes the outputs.
async function run(session, format, inputsPath, outputsPath) {
  const [tensorType, TypedArray] = JS_TYPE[format];
  const input = openNpy(inputsPath);
  const output = createNpy(outputsPath, NPY_DTYPE[format], input.length);
  try {
    for (let start = 0; start < input.length; start += CHUNK) {
      const count = Math.min(CHUNK, input.length - start);
      const bytes = readChunk(input, start, count);
      const x = new ort.Tensor(tensorType, new TypedArray(bytes.buffer, bytes.byteOffset, count), [count]);
      const { y } = await session.run({ x });
      output.append(Buffer.from(y.data.buffer, y.data.byteOffset, y.data.byteLength));
    }
  } finally {
    closeSync(input.fd);
    output.close();
  }
}

mkdirSync(opt.out, { recursive: true });
// The CPU that computes the outputs, named as gelu-acc names it for the
// rows it measures itself (the heading of its list of real libraries).
const cpu = /; CPU: (.*); ([^;]*)\):$/m.exec(geluAcc('list'));
const machineLines = cpu ? [`cpu = ${cpu[1]}`, `isa = ${cpu[2]}`] : [];
const manifest = [
  '# Real libraries: ONNX Runtime, written by tools/onnxruntime/gelu-ort.mjs.',
  '# One section per operator and format; paths are relative to this file.',
  '',
];
const sidecar = { library: 'onnxruntime-node', version, provider: 'CPUExecutionProvider',
  node: process.version, platform: `${process.platform}-${process.arch}`, variants: [] };
for (const format of opt.formats.split(',')) {
  const domain = format === 'float32' ? opt['float32-domain'] : 'all';
  const inputs = `inputs-${format}.npy`;
  geluAcc('inputs', '--format', format, '--domain', domain, '-o', inputs, '--force');
  for (const variant of VARIANTS) {
    const section = `onnxruntime-${variant.name}-${format}`;
    const record = { section, operator: variant.describe, format, reference: variant.reference, domain };
    const opened = await openSession(variant, format);
    const lines = [`[${section}]`, 'library = onnxruntime-node', `version = ${version}`,
      `operator = ${variant.describe}`, `format = ${format}`, `reference = ${variant.reference}`,
      ...machineLines];
    if (opened.error) {
      record.unsupported = opened.error;
      lines.push(`unsupported = ${opened.error}`);
    } else {
      const outputs = `${section}.npy`, graded = `${section}.json`;
      const started = Date.now();
      await run(opened.session, format, join(opt.out, inputs), join(opt.out, outputs));
      const seconds = (Date.now() - started) / 1000;
      const json = geluAcc('grade', '--format', format, '--inputs', inputs, '--outputs', outputs,
        '--reference', variant.reference, '--name', section, '--json');
      writeFileSync(join(opt.out, graded), json);
      Object.assign(record, { outputs, inputs, graded, graph: opened.graph, seconds });
      lines.push(`kernel = outputs:${outputs}`, `inputs = ${inputs}`, `domain = ${domain}`,
        `graph = ${opened.graph.join(' ')}`, `graded = ${graded}`);
      await opened.session.release();
    }
    sidecar.variants.push(record);
    manifest.push(...lines, '');
    console.log(`${section}: ${record.unsupported ?? `graded, ${gradedSummary(join(opt.out, `${section}.json`))}`}`);
  }
}
writeFileSync(join(opt.out, 'manifest'), manifest.join('\n'));
writeFileSync(join(opt.out, 'onnxruntime.json'), JSON.stringify(sidecar, null, 2) + '\n');

function gradedSummary(path) {
  const [r] = JSON.parse(readFileSync(path, 'utf8'));
  return `${r.count} inputs, ${(100 * r.correctly_rounded / r.count).toFixed(2)} % correctly rounded, max ${r.max_ulp} ulp`;
}
