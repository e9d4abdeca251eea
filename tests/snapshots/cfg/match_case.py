
def f(x):
    match g(x):
        case 1:
            a()
        case [y] if h(y):
            b()
        case _:
            c()
    d()
