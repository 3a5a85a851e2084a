/* Which kind of array file a path holds: .npy files start with the magic
 * bytes "\x93NUMPY", anything else is taken as raw.  (A raw float32 file
 * whose first element is 0x4d554e93 followed by "PY" would be mistaken for
 * .npy and then rejected; open such a file as GA_FILE_RAW explicitly.) */
#ifndef GA_ARRAY_OPEN_H
#define GA_ARRAY_OPEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "formats/format.h"
#include "io/array_file.h"
#include "io/io_error.h"

/* *kind becomes GA_FILE_NPY or GA_FILE_RAW.  Files shorter than the magic
 * are raw; a file that is almost a .npy (four of the magic's six bytes, or
 * a header dict where one starts) is refused as a damaged .npy
 * (GA_IO_MALFORMED), not read as raw. */
enum ga_io_status ga_file_detect(const char *path, enum ga_file_kind *kind,
                                 struct ga_io_error *err);

/* Open path as kind (GA_FILE_AUTO: detect).  f may be NULL only for .npy,
 * whose dtype names the format. */
enum ga_io_status ga_file_open(const char *path, enum ga_file_kind kind,
                               const struct ga_format *f, struct ga_array_reader *r,
                               struct ga_io_error *err);

/* The whole array of path into a malloc'ed buffer (free() it). */
enum ga_io_status ga_file_read(const char *path, enum ga_file_kind kind,
                               const struct ga_format *f, ga_bits **v, size_t *n,
                               struct ga_io_error *err);

/* The most elements a .npy read as a list of inputs holds (2^32, what a
 * sweep measures), and the most bytes read through a pipe for it (a header
 * and 2^32 elements of 8 bytes); one more is refused. */
#define GA_NPY_STREAM_ELEMENTS ((uint64_t)1 << 32)
#define GA_NPY_STREAM_MAX (((uint64_t)1 << 35) + 65536)
#define GA_NPY_STREAM_WHAT "2^32 elements"

/* The .npy array of stream in (named name in messages), read once: a
 * regular file where it lies, a pipe or terminal held in an unlinked
 * temporary file up to GA_NPY_STREAM_MAX bytes. */
enum ga_io_status ga_npy_read_stream(FILE *in, const char *name, const struct ga_format *f,
                                     ga_bits **v, size_t *n, struct ga_io_error *err);

/* Write v[0..n) to path as kind (GA_FILE_NPY or GA_FILE_RAW), atomically;
 * an existing file is kept unless overwrite. */
enum ga_io_status ga_file_write(const char *path, enum ga_file_kind kind,
                                const struct ga_format *f, const ga_bits *v, size_t n,
                                bool overwrite, struct ga_io_error *err);

#endif
