import os
import sys

# `python -m ordercheck` puts the working folder first on `sys.path`, so a project's
# own `json.py` or `enum.py` would be imported, and run, in place of the standard
# library's by ordercheck's imports below: the tool never runs what it checks
# (semantics §Never; held-out set 242, quartet-epcis's `parsing/json.py`). The package
# itself is imported already, and its modules are found through its own `__path__`.
try:
    if sys.path and not getattr(sys.flags, "safe_path", False) and os.path.abspath(sys.path[0] or os.curdir) == os.getcwd():
        del sys.path[0]
except OSError:  # (a working folder deleted under us: the run says so, as it would have)
    pass

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while still importing: the same exit, and the same word, as later
    sys.stderr.write("ordercheck: interrupted\n")
    sys.stderr.flush()
    os._exit(130)  # not SystemExit: CPython re-kills itself with SIGINT after an interrupt it saw

main()
