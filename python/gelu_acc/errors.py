"""Exceptions: what the gelu-acc program reported, with its message and exit status."""
import os


class GeluAccError(Exception):
    """gelu-acc failed: ``status`` is its exit status, ``message`` what it printed
    on stderr, ``output`` its stdout, ``command`` the argument list it ran with."""

    def __init__(self, command, status, message, output=""):
        self.command = list(command)
        self.status = status
        self.message = message.strip()
        self.output = output
        what = "exited with status %d" % status if status >= 0 else "was killed by signal %d" % -status
        super().__init__("%s %s %s: %s" % (os.path.basename(command[0]), command[1], what, self.message or "(no message)"))


class UsageError(GeluAccError):
    """Exit status 2: a usage or input error (an unknown format or domain, an
    unreadable or malformed file, outputs of the wrong length or dtype)."""


class AccuracyRegression(GeluAccError, AssertionError):
    """Exit status 1 from ``gelu-acc check``: a recorded bound was exceeded.
    ``exceeded`` lists the lines that name the kernel, the metric, the old and
    new values and an input of that figure (doc/baselines.md, "Which input a
    line names"), and with a snapshot the inputs whose class changed.  An AssertionError, so that pytest shows it
    as a failed assertion."""

    def __init__(self, command, status, message, output=""):
        self.exceeded = [line for line in output.splitlines()
                         if line and not line.startswith(("PASS ", "FAIL "))]
        super().__init__(command, status, message or "\n".join(output.splitlines()), output)


class OracleCapError(GeluAccError):
    """Exit status 3: the MPFR oracle reached its precision cap (never expected)."""


class ProgramNotFound(FileNotFoundError):
    """The gelu-acc executable is not where the argument, $GELU_ACC or $PATH says."""


class LibraryNotFound(ImportError):
    """libgelu-acc could not be loaded (the message names every place tried)."""


class LibraryError(RuntimeError):
    """libgelu-acc returned a status that is not about the caller's input:
    ``status`` (GELU_ACC_E_UNDECIDED 5, GELU_ACC_E_FILE 6) and its message."""

    def __init__(self, status, message):
        self.status = status
        super().__init__(message)
