
import contextlib
def f():
    with contextlib.suppress(ValueError):
        a()
    with best_effort():
        b()
    c()
