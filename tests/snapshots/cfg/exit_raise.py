
import sys, os
def f():
    if a():
        sys.exit(1)
    if b():
        os._exit(1)
    raise E(c())
