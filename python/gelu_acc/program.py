"""Finding and running the gelu-acc executable."""
import os
import shutil
import subprocess

from .errors import AccuracyRegression, GeluAccError, OracleCapError, ProgramNotFound, UsageError

ENVIRONMENT_VARIABLE = "GELU_ACC"


def find_program(program=None):
    """The path of gelu-acc: ``program`` if given, else $GELU_ACC, else
    ``gelu-acc`` on $PATH.  Raises ProgramNotFound naming where it looked."""
    if program is None:
        program = os.environ.get(ENVIRONMENT_VARIABLE) or None
        origin = "$%s" % ENVIRONMENT_VARIABLE
    else:
        origin = "the program argument"
    if program is None:
        found = shutil.which("gelu-acc")
        if found is None:
            raise ProgramNotFound("gelu-acc is not on $PATH; pass program=PATH or set $%s"
                                  % ENVIRONMENT_VARIABLE)
        return found
    program = os.fspath(program)
    if os.sep not in program:
        found = shutil.which(program)
        if found is not None:
            return found
    if not (os.path.isfile(program) and os.access(program, os.X_OK)):
        raise ProgramNotFound("%s names '%s', which is not an executable file" % (origin, program))
    return program


def run(program, args, regression_status=None):
    """Runs ``program args`` and returns its stdout.  A failure raises the
    exception for its exit status: 2 UsageError, 3 OracleCapError,
    ``regression_status`` (1 for check) AccuracyRegression, else GeluAccError."""
    command = [program] + [os.fspath(a) for a in args]
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, check=False)
    if done.returncode == 0:
        return done.stdout
    kind = {2: UsageError, 3: OracleCapError}.get(done.returncode, GeluAccError)
    if done.returncode == regression_status:
        kind = AccuracyRegression
    raise kind(command, done.returncode, done.stderr, done.stdout)
