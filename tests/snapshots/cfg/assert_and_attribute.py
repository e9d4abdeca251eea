
def f(x):
    assert g(x), "bad"
    y = x.attr
