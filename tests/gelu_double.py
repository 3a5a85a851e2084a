#!/usr/bin/env python3
"""Outputs of exact GELU computed in Python, for grading end to end.

Reads a float32 .npy (version 1, '<f4', as 'gelu-acc inputs' writes it) and
writes raw little-endian float32 outputs of 0.5*x*erfc(-x/sqrt(2)) in double,
rounded once to float32: the formula of the catalogue's 'double' entry,
evaluated by another program (Python's math.erfc and struct's rounding).

usage: gelu_double.py INPUTS.npy OUTPUTS.raw
"""
import math
import struct
import sys


def main(inputs, outputs):
    with open(inputs, 'rb') as f:
        data = f.read()
    if data[:6] != b'\x93NUMPY' or data[6] != 1:
        sys.exit('%s: not a version 1 .npy file' % inputs)
    header_len = struct.unpack_from('<H', data, 8)[0]
    header = data[10:10 + header_len].decode('latin-1')
    if "'<f4'" not in header:
        sys.exit('%s: not float32 little-endian: %s' % (inputs, header))
    body = data[10 + header_len:]
    xs = struct.unpack('<%df' % (len(body) // 4), body)
    ys = [(0.5 * x) * math.erfc(-x / math.sqrt(2)) for x in xs]
    with open(outputs, 'wb') as f:
        f.write(struct.pack('<%df' % len(ys), *ys))


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
