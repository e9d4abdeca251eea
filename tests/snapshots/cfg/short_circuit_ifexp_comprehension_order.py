
def f():
    x = a() and b()
    y = d() if e() else k()
    store.save(ledger.append(r))
    z = [m(i) for i in n()]
