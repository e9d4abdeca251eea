
def f():
    while c():
        if d():
            break
        if e():
            continue
        g()
    else:
        h()
    k()
