
def f():
    try:
        a()
    except KeyError:
        b()
