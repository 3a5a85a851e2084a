"""libgelu-acc through ctypes: finding the shared library, declaring the
functions of include/gelu-acc/gelu-acc.h, and turning its statuses into
Python exceptions.

Where the library is looked for, first found wins:
1. $GELU_ACC_LIBRARY (a path to libgelu-acc.so.1 or libgelu-acc.so);
2. the build tree when the module is imported from the source tree of an
   in-tree build (python/gelu_acc/../../.libs/libgelu-acc.so.1);
3. the libdir that 'make install' wrote into _installed.py next to this file;
4. the dynamic linker's own search (ld.so.conf, $LD_LIBRARY_PATH).
"""
import ctypes
import os

from .errors import LibraryError, LibraryNotFound

ENVIRONMENT_VARIABLE = "GELU_ACC_LIBRARY"
SONAME = "libgelu-acc.so.1"

# enum gelu_acc_status
OK, E_ARGUMENT, E_FORMAT, E_ENCODING, E_MEMORY, E_UNDECIDED, E_FILE, E_MISMATCH, E_TOO_LARGE = range(9)

# The flags of gelu_acc_ulp_error.
CORRECTLY_ROUNDED = 0x01
FAITHFUL = 0x02
NAN = 0x04
INF = 0x08
FLUSHED = 0x10
ZERO_SIGN = 0x20
NOT_NAN = 0x40
TINY = 0x80

FUNCTIONS = {"gelu": 0, "gelu_tanh": 1, "gelu_grad": 2, "gelu_tanh_grad": 3}
FORMATS = {"float64": 0, "float32": 1, "float16": 2, "bfloat16": 3, "float8_e4m3fn": 4,
           "float8_e5m2": 5, "float6_e2m3": 6, "float6_e3m2": 7, "float4_e2m1": 8}

_p, _size, _int, _u32p, _dblp = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, \
    ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(ctypes.c_double)

# name: (return type, argument types); every int-returning one is a status.
_PROTOTYPES = {
    "gelu_acc_version": (ctypes.c_char_p, []),
    "gelu_acc_last_error": (ctypes.c_char_p, []),
    "gelu_acc_truth": (_int, [_int, _int, _p, _p, _size]),
    "gelu_acc_backward": (_int, [_int, _int, _p, _p, _p, _size]),
    "gelu_acc_ulp_error": (_int, [_int, _int, _p, _p, _size, _dblp, _u32p]),
    "gelu_acc_backward_ulp_error": (_int, [_int, _int, _p, _p, _p, _size, _dblp, _u32p]),
    "gelu_acc_grader_new": (_int, [_int, _int, ctypes.POINTER(_p)]),
    "gelu_acc_grader_free": (None, [_p]),
    "gelu_acc_grader_add": (_int, [_p, _p, _p, _size]),
    "gelu_acc_grader_check_baseline": (_int, [_p, ctypes.c_char_p, ctypes.c_char_p,
                                              ctypes.POINTER(_int), ctypes.c_char_p, _size]),
    "gelu_acc_grader_check_bounds": (_int, [_p, ctypes.c_char_p, ctypes.POINTER(_int),
                                            ctypes.c_char_p, _size]),
    "gelu_acc_inputs": (_int, [_int, ctypes.c_char_p, ctypes.POINTER(_p), ctypes.POINTER(_size)]),
    "gelu_acc_free": (None, [_p]),
}


def _candidates():
    """(path, where it came from), in the order of the module's docstring."""
    named = os.environ.get(ENVIRONMENT_VARIABLE)
    if named:
        yield named, "$%s" % ENVIRONMENT_VARIABLE
        return
    here = os.path.dirname(os.path.abspath(__file__))
    build = os.path.join(os.path.dirname(os.path.dirname(here)), ".libs", SONAME)
    if os.path.exists(build):
        yield build, "the build tree"
    try:
        from . import _installed
        yield os.path.join(_installed.LIBDIR, SONAME), "the installed libdir"
    except ImportError:
        pass
    yield SONAME, "the dynamic linker's search path"


def _load():
    tried = []
    for path, origin in _candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError as error:
            tried.append("%s (%s): %s" % (path, origin, error))
            continue
        for name, (restype, argtypes) in _PROTOTYPES.items():
            function = getattr(lib, name)
            function.restype, function.argtypes = restype, argtypes
        global _path
        _path = path
        return lib
    raise LibraryNotFound("libgelu-acc could not be loaded; tried " + "; ".join(tried)
                          + ". Install gelu-acc (make install) or set $%s" % ENVIRONMENT_VARIABLE)


_library = None
_path = None


def library():
    """The loaded libgelu-acc (loaded on first use)."""
    global _library
    if _library is None:
        _library = _load()
    return _library


def call(name, *args):
    """Calls a status-returning function; a failure raises ValueError
    (a bad argument, format or encoding), MemoryError or LibraryError,
    with the library's message."""
    status = getattr(library(), name)(*args)
    if status == OK:
        return
    message = "%s: %s" % (name, library().gelu_acc_last_error().decode("utf-8", "replace"))
    if status in (E_ARGUMENT, E_FORMAT, E_ENCODING, E_MISMATCH, E_TOO_LARGE):
        raise ValueError(message)
    if status == E_MEMORY:
        raise MemoryError(message)
    raise LibraryError(status, message)


def pointer(array):
    """The address of a C-contiguous NumPy array's first element."""
    return ctypes.c_void_p(array.ctypes.data)


def path():
    """The path libgelu-acc was loaded from (loading it if need be)."""
    library()
    return _path


def version():
    """The package version of the library loaded, "MAJOR.MINOR.PATCH"."""
    return library().gelu_acc_version().decode()
