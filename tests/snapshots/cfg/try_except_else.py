
def f():
    try:
        a()
    except (KeyError, ValueError) as e:
        b()
    except Exception:
        pass
    else:
        c()
    d()
