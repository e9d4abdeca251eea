
def f():
    while True:
        a()
    b()
