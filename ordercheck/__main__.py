import os
import sys

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while still importing: the same exit, and the same word, as later
    sys.stderr.write("ordercheck: interrupted\n")
    sys.stderr.flush()
    os._exit(130)  # not SystemExit: CPython re-kills itself with SIGINT after an interrupt it saw

main()
