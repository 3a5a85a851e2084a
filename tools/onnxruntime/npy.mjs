// NumPy .npy files, one dimension, little-endian, read and written a chunk
// at a time (an input set of 2^28 float32 is 1 GiB).
import { openSync, readSync, writeSync, closeSync } from 'node:fs';

const MAGIC = Buffer.from([0x93, ...Buffer.from('NUMPY')]);
const ITEM_SIZE = { '<f4': 4, '<f2': 2, '<u2': 2 };

// Opens path and parses its header: { fd, dtype, length, dataStart }.
export function openNpy(path) {
  const fd = openSync(path, 'r');
  const prefix = Buffer.alloc(12);
  const fail = (what) => { closeSync(fd); throw new Error(`${path}: ${what}`); };
  if (readSync(fd, prefix, 0, 12, 0) < 10 || !prefix.subarray(0, 6).equals(MAGIC))
    fail('not a NumPy .npy file (magic \\x93NUMPY missing at byte 0)');
  const major = prefix[6];
  const lengthBytes = major === 1 ? 2 : 4;
  const headerLength = lengthBytes === 2 ? prefix.readUInt16LE(8) : prefix.readUInt32LE(8);
  const dataStart = 8 + lengthBytes + headerLength;
  const header = Buffer.alloc(headerLength);
  readSync(fd, header, 0, headerLength, 8 + lengthBytes);
  const text = header.toString('latin1');
  const descr = /'descr':\s*'([^']*)'/.exec(text);
  const shape = /'shape':\s*\((\d+),?\)/.exec(text);
  if (!descr || !(descr[1] in ITEM_SIZE)) fail(`byte ${8 + lengthBytes}: dtype not one of ${Object.keys(ITEM_SIZE)}`);
  if (!shape) fail(`byte ${8 + lengthBytes}: expected a one-dimensional 'shape'`);
  if (/'fortran_order':\s*True/.test(text)) fail('fortran_order True is not supported');
  return { fd, dtype: descr[1], length: Number(shape[1]), dataStart, itemSize: ITEM_SIZE[descr[1]] };
}

// Reads elements [start, start + count) into a new Buffer.
export function readChunk(npy, start, count) {
  const bytes = Buffer.alloc(count * npy.itemSize);
  const got = readSync(npy.fd, bytes, 0, bytes.length, npy.dataStart + start * npy.itemSize);
  if (got !== bytes.length) throw new Error(`short read at element ${start}: ${got} of ${bytes.length} bytes`);
  return bytes;
}

// Creates path with a version 1.0 header whose data starts on a 64-byte
// boundary, as NumPy writes it; returns a writer with append() and close().
export function createNpy(path, dtype, length) {
  let dict = `{'descr': '${dtype}', 'fortran_order': False, 'shape': (${length},), }`;
  const used = MAGIC.length + 2 + 2 + dict.length + 1;
  dict += ' '.repeat((64 - (used % 64)) % 64) + '\n';
  const prefix = Buffer.concat([MAGIC, Buffer.from([1, 0]), Buffer.alloc(2)]);
  prefix.writeUInt16LE(dict.length, 8);
  const fd = openSync(path, 'w');
  writeSync(fd, Buffer.concat([prefix, Buffer.from(dict, 'latin1')]));
  let written = 0;
  return {
    append(buffer) { writeSync(fd, buffer); written += buffer.length / ITEM_SIZE[dtype]; },
    close() {
      closeSync(fd);
      if (written !== length) throw new Error(`${path}: wrote ${written} of ${length} elements`);
    },
  };
}
