// A one-node ONNX model, encoded directly as protobuf (the few fields of
// onnx.proto that such a model needs; numbers from onnx/onnx.proto).

// Element types (TensorProto.DataType).
export const ELEM = { float32: 1, float16: 10, bfloat16: 16 };

function varint(value) {
  const bytes = [];
  let v = BigInt(value);
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    bytes.push(b);
  } while (v);
  return Buffer.from(bytes);
}

// Field encoders: wire type 0 (varint) and 2 (length-delimited).
const intField = (n, v) => Buffer.concat([varint((n << 3) | 0), varint(v)]);
function bytesField(n, payload) {
  const data = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  return Buffer.concat([varint((n << 3) | 2), varint(data.length), data]);
}

// ValueInfoProto of a rank-1 tensor with a symbolic length.
function valueInfo(name, elemType) {
  const dim = bytesField(2, 'n');                         // Dimension.dim_param
  const shape = bytesField(1, dim);                       // TensorShapeProto.dim
  const tensor = Buffer.concat([intField(1, elemType), bytesField(2, shape)]);
  return Buffer.concat([bytesField(1, name), bytesField(2, bytesField(1, tensor))]);
}

// AttributeProto: strings only (type STRING = 3).
const stringAttribute = (name, value) =>
  Buffer.concat([bytesField(1, name), bytesField(4, value), intField(20, 3)]);

// NodeProto.  node = { op, domain, inputs, outputs, attributes: {name: string} }
function nodeProto(node, index) {
  const parts = [];
  for (const i of node.inputs) parts.push(bytesField(1, i));
  for (const o of node.outputs) parts.push(bytesField(2, o));
  parts.push(bytesField(3, `node${index}`), bytesField(4, node.op));
  for (const [k, v] of Object.entries(node.attributes ?? {})) parts.push(bytesField(5, stringAttribute(k, v)));
  if (node.domain) parts.push(bytesField(7, node.domain));
  return Buffer.concat(parts);
}

// ModelProto of a chain of nodes from input 'x' to output 'y'.
// opsets: { '': 20, 'com.microsoft': 1 }; irVersion 9 goes with opset 20.
export function encodeModel({ nodes, inputType, outputType, opsets, irVersion = 9 }) {
  const graph = Buffer.concat([
    ...nodes.map((n, i) => bytesField(1, nodeProto(n, i))),
    bytesField(2, 'gelu'),
    bytesField(11, valueInfo('x', inputType)),
    bytesField(12, valueInfo('y', outputType)),
  ]);
  const imports = Object.entries(opsets).map(([domain, version]) =>
    bytesField(8, Buffer.concat([bytesField(1, domain), intField(2, version)])));
  return Buffer.concat([intField(1, irVersion), bytesField(2, 'gelu-acc'), ...imports, bytesField(7, graph)]);
}

// Reads a varint at buf[pos]: [value as Number, next position].
function readVarint(buf, pos) {
  let value = 0, scale = 1, b;
  do {
    b = buf[pos++];
    value += (b & 0x7f) * scale;
    scale *= 128;
  } while (b & 0x80);
  return [value, pos];
}

// The length-delimited fields numbered n of a message, as Buffers.
function fields(buf, n) {
  const found = [];
  for (let pos = 0; pos < buf.length;) {
    let key, length;
    [key, pos] = readVarint(buf, pos);
    const wire = key & 7;
    if (wire === 0) [, pos] = readVarint(buf, pos);
    else if (wire === 1) pos += 8;
    else if (wire === 5) pos += 4;
    else if (wire === 2) {
      [length, pos] = readVarint(buf, pos);
      if (key >> 3 === n) found.push(buf.subarray(pos, pos + length));
      pos += length;
    } else throw new Error(`unexpected protobuf wire type ${wire}`);
  }
  return found;
}

// The op_type of each node of a model's graph, in order (to record what
// ORT made of the one node after its graph transformations).
export function graphOpTypes(model) {
  const [graph] = fields(model, 7);
  return fields(graph ?? Buffer.alloc(0), 1).map((node) => fields(node, 4)[0]?.toString('utf8') ?? '?');
}
