
def f():
    try:
        a()
    except* ValueError:
        b()
