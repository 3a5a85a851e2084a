/* Small binary files read and written whole: partial files and audit
 * states.  Writing is atomic (atomic_file.h), reading refuses a file above
 * a size the caller gives, so that a wrong path cannot fill the memory. */
#ifndef GA_WHOLE_FILE_H
#define GA_WHOLE_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "io/io_error.h"

/* The bytes of path in a new buffer (*data, *size).  A file of more than
 * max bytes is GA_IO_MALFORMED, "larger than any <what>". */
enum ga_io_status ga_whole_file_read(const char *path, size_t max, const char *what,
                                     unsigned char **data, size_t *size,
                                     struct ga_io_error *err);

/* data[size] to path, atomically; an existing file only when overwrite. */
enum ga_io_status ga_whole_file_write(const char *path, const void *data, size_t size,
                                      bool overwrite, struct ga_io_error *err);

/* The file kinds built on these (partials, audit states, backward sweep
 * files) encode a whole object to bytes and decode it back; these two types
 * and functions are their write and read, with one way of naming the path
 * in an error. */
typedef enum ga_io_status (*ga_whole_file_encoder)(const void *object, unsigned char **data,
                                                   size_t *size, struct ga_io_error *err);
typedef enum ga_io_status (*ga_whole_file_decoder)(const unsigned char *data, size_t size,
                                                   void *object, struct ga_io_error *err);

/* encode(object) to path, atomically, replacing what was there. */
enum ga_io_status ga_whole_file_save(const char *path, ga_whole_file_encoder encode,
                                     const void *object, struct ga_io_error *err);

/* decode(the bytes of path, at most max of them) into object; a decoding
 * error is prefixed with the path. */
enum ga_io_status ga_whole_file_load(const char *path, size_t max, const char *what,
                                     ga_whole_file_decoder decode, void *object,
                                     struct ga_io_error *err);

#endif
