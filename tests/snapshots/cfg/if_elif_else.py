
def f():
    if a():
        b()
    elif c:
        d()
    else:
        return
    e()
