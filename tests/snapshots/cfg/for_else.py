
def f(xs):
    for x in it():
        a(x)
    else:
        b()
