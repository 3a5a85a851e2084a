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
const LENGTHS_MAX = 1 << 20;  // inputs the other lengths run on at most
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

// The tensor lengths, as gelu-acc's own modules call libraries
// (doc/libraries.md, "Tensor lengths"): long runs, one element per run, and
// runs of 67 elements, three inputs after a body of 64 copies of the first.
const BODY = 64, TAIL = 3;
const LENGTHS = [
  { suffix: 'len1', label: '1', path: 'one element per run' },
  { suffix: 'len67', label: '67', path: 'length 67: the 3 elements after a 64-element vector body' },
];
const LONG_PATH = `long tensors: runs of up to ${CHUNK} elements, padded to a multiple of ${BODY}`;
// Bit patterns of each format, and whether one is a NaN.
const BITS = { float32: Uint32Array, float16: Uint16Array };
const IS_NAN = {
  float32: (b) => (b & 0x7f800000) === 0x7f800000 && (b & 0x7fffff) !== 0,
  float16: (b) => (b & 0x7c00) === 0x7c00 && (b & 0x3ff) !== 0,
};

// The session on a run of bit patterns; its outputs' bit patterns.  The
// tensor is a view of the same bytes: no NaN passes through a JS number.
async function runBits(session, format, bits) {
  const [tensorType, TypedArray] = JS_TYPE[format];
  const x = new ort.Tensor(tensorType, new TypedArray(bits.buffer, bits.byteOffset, bits.length), [bits.length]);
  const { y } = await session.run({ x });
  return new BITS[format](y.data.buffer, y.data.byteOffset, bits.length);
}

// The session on every element of bits at a length (LENGTHS), outputs in order.
async function runAtLength(session, format, bits, length) {
  const out = new BITS[format](bits.length);
  if (length.suffix === 'len1') {
    for (let i = 0; i < bits.length; i++)
      out[i] = (await runBits(session, format, bits.subarray(i, i + 1)))[0];
    return out;
  }
  const call = new BITS[format](BODY + TAIL);
  for (let i = 0; i < bits.length; i += TAIL) {
    const k = Math.min(TAIL, bits.length - i);
    call.fill(bits[i], 0, BODY);
    call.set(bits.subarray(i, i + k), BODY);
    call.fill(bits[i + k - 1], BODY + k);
    out.set((await runBits(session, format, call)).subarray(BODY, BODY + k), i);
  }
  return out;
}

// Inputs where two runs differ in bits, any NaN matching any NaN.
function differing(format, a, b) {
  let n = 0;
  for (let i = 0; i < a.length; i++)
    n += a[i] !== b[i] && !(IS_NAN[format](a[i]) && IS_NAN[format](b[i]));
  return n;
}

function readBits(path, format) {
  const npy = openNpy(path);
  try {
    const bytes = readChunk(npy, 0, npy.length);
    return new BITS[format](bytes.buffer, bytes.byteOffset, npy.length);
  } finally {
    closeSync(npy.fd);
  }
}

function writeBits(path, format, bits) {
  const npy = createNpy(path, NPY_DTYPE[format], bits.length);
  npy.append(Buffer.from(bits.buffer, bits.byteOffset, bits.byteLength));
  npy.close();
}

// Runs the session on every input of the file and writes the outputs.
async function run(session, format, inputsPath, outputsPath) {
  const input = openNpy(inputsPath);
  const output = createNpy(outputsPath, NPY_DTYPE[format], input.length);
  try {
    for (let start = 0; start < input.length; start += CHUNK) {
      const count = Math.min(CHUNK, input.length - start);
      const bytes = readChunk(input, start, count);
      const y = await runLong(session, format, new BITS[format](bytes.buffer, bytes.byteOffset, count));
      output.append(Buffer.from(y.buffer, y.byteOffset, y.byteLength));
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
  // The other lengths run one call per input or three: on the format's
  // inputs, or every 4096th float32 input where those are more.
  let lengthsInputs = { file: inputs, domain };
  if (format === 'float32' && inputCount(inputs) > LENGTHS_MAX) {
    lengthsInputs = { file: 'inputs-float32-lengths.npy', domain: 'stride:4096' };
    geluAcc('inputs', '--format', format, '--domain', lengthsInputs.domain, '-o', lengthsInputs.file, '--force');
  }
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
        `graph = ${opened.graph.join(' ')}`, `path = ${LONG_PATH}`);
      const other = await otherLengths(opened, variant, format, section, lengthsInputs);
      lines.push(`lengths = ${other.note}`, `graded = ${graded}`);
      record.lengths = other.note;
      await opened.session.release();
      sidecar.variants.push(record);
      manifest.push(...lines, '');
      console.log(`${section}: graded, ${gradedSummary(join(opt.out, graded))}`);
      for (const extra of other.sections) {
        sidecar.variants.push(extra.record);
        manifest.push(...extra.lines, '');
        console.log(`${extra.record.section}: graded, ${gradedSummary(join(opt.out, extra.record.graded))}`);
      }
      continue;
    }
    sidecar.variants.push(record);
    manifest.push(...lines, '');
    console.log(`${section}: ${record.unsupported}`);
  }
}

// A variant's other lengths against long runs, on the lengths' inputs: the
// note of its long section, and a section of its own for each length that
// differs on some input.
async function otherLengths(opened, variant, format, section, lengthsInputs) {
  const inputs = readBits(join(opt.out, lengthsInputs.file), format);
  const long = await runLong(opened.session, format, inputs);
  const results = [], sections = [];
  for (const length of LENGTHS) {
    const out = await runAtLength(opened.session, format, inputs, length);
    const differ = differing(format, out, long);
    results.push({ length, differ });
    if (differ === 0) continue;
    const name = `onnxruntime-${variant.name}-${length.suffix}-${format}`;
    const outputs = `${name}.npy`, graded = `${name}.json`;
    writeBits(join(opt.out, outputs), format, out);
    writeFileSync(join(opt.out, graded), geluAcc('grade', '--format', format, '--inputs', lengthsInputs.file,
      '--outputs', outputs, '--reference', variant.reference, '--name', name, '--json'));
    sections.push({
      record: { section: name, operator: variant.describe, format, reference: variant.reference,
        domain: lengthsInputs.domain, outputs, inputs: lengthsInputs.file, graded, graph: opened.graph, path: length.path },
      lines: [`[${name}]`, 'library = onnxruntime-node', `version = ${version}`,
        `operator = ${variant.describe}`, `format = ${format}`, `reference = ${variant.reference}`,
        ...machineLines, `kernel = outputs:${outputs}`, `inputs = ${lengthsInputs.file}`,
        `domain = ${lengthsInputs.domain}`, `graph = ${opened.graph.join(' ')}`, `path = ${length.path}`,
        `graded = ${graded}`],
    });
  }
  const n = inputs.length;
  const note = results.every((r) => r.differ === 0)
    ? `lengths 1 and 67: the same bits on ${n} inputs`
    : results.map(({ length, differ }) => differ === 0
      ? `length ${length.label}: the same bits on ${n} inputs`
      : `length ${length.label}: ${differ} of ${n} inputs differ (row onnxruntime-${variant.name}-${length.suffix}-${format})`).join('; ');
  return { note, sections };
}

// Long runs of bit patterns: chunks of up to CHUNK elements, the last
// padded to a multiple of BODY with copies of its last input, so that every
// input is in the vector body (a run of 5 inputs would be all remainder).
async function runLong(session, format, bits) {
  const out = new BITS[format](bits.length);
  for (let start = 0; start < bits.length; start += CHUNK) {
    const count = Math.min(bits.length - start, CHUNK);
    const padded = new BITS[format](Math.ceil(count / BODY) * BODY);
    padded.set(bits.subarray(start, start + count));
    padded.fill(bits[start + count - 1], count);
    out.set((await runBits(session, format, padded)).subarray(0, count), start);
  }
  return out;
}
writeFileSync(join(opt.out, 'manifest'), manifest.join('\n'));
writeFileSync(join(opt.out, 'onnxruntime.json'), JSON.stringify(sidecar, null, 2) + '\n');

function inputCount(file) {
  const npy = openNpy(join(opt.out, file));
  closeSync(npy.fd);
  return npy.length;
}

function gradedSummary(path) {
  const [r] = JSON.parse(readFileSync(path, 'utf8'));
  return `${r.count} inputs, ${(100 * r.correctly_rounded / r.count).toFixed(2)} % correctly rounded, max ${r.max_ulp} ulp`;
}
