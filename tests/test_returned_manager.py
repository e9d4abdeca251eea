"""A function whose body only returns a project context manager's call hands that
manager on: `with driver.connect():` enters it, and its code after the `yield` runs
at the `with`'s exit (held-out set 149, terracotta's driver over its meta store;
docs/decisions.md "A function that hands on a context manager")."""
from checkutil import cl, tree_findings, write_tree

STORE = """\
import contextlib


class MetaStore:
    @contextlib.contextmanager
    def connect(self):
        yield self
        self.connection.commit()


class Driver:
    def __init__(self):
        self.meta_store = MetaStore()

    def connect(self):
        \"\"\"The store's connection.\"\"\"
        return self.meta_store.connect()

    def busy(self):
        self.check()
        return self.meta_store.connect()

    def insert(self, keys):
        with self.connect():
            self._ledger.append(keys)

    def insert_after(self, keys):
        with self.connect():
            pass
        self._ledger.append(keys)

    def insert_busy(self, keys):
        with self.busy():
            self._ledger.append(keys)
"""
TABLE = {"extend-events": {"save": ["*.connection.commit"], "append": ["*._ledger.append"]}}


def test_a_with_over_a_function_that_returns_a_manager_commits_at_its_exit():
    # insert: the commit is at the exit, after the append (no finding); insert_after:
    # before it; insert_busy: the function does more than hand the manager on, so the
    # generator's events stand at its call, as for any generator called (documented)
    assert cl(STORE, ["OC102"], table=TABLE) == [("OC102", 30), ("OC102", 34)]


def test_the_manager_handed_on_from_another_file(tmp_path):
    write_tree(tmp_path, {
        "store.py": STORE.split("class Driver:")[0],
        "driver.py": "from store import MetaStore\n\n\nclass Driver:" + STORE.split("class Driver:")[1],
    })
    found = sorted((f.path.rsplit("/", 1)[-1], f.span.line) for f in tree_findings(tmp_path, ["OC102"], table=TABLE))
    assert found == [("driver.py", 23), ("driver.py", 27)], found


PYPROJECT = """\
[tool.ordercheck.extend-events]
save = ["*.connection.commit"]
append = ["*._ledger.append"]
"""
#: the store's generator and a driver that only hands it on
HANDING = STORE.split("class Driver:")[0] + """
class Driver:
    def __init__(self):
        self.meta_store = MetaStore()

    def connect(self):
        return self.meta_store.connect()
"""
APP = """\
from store import Driver


class App:
    def __init__(self):
        self.driver = Driver()

    def insert(self, keys):
        with self.driver.connect():
            self._ledger.append(keys)
"""


def test_a_warm_run_reads_the_handed_manager_from_the_cache(tmp_path):
    """(A review.) With the factory's file read from the cache (an index stub, whose
    bodies are gone), the `with` ran the generator whole at the call again."""
    from cliutil import oc, write

    write(tmp_path, "pyproject.toml", PYPROJECT)
    write(tmp_path, "store.py", HANDING)
    write(tmp_path, "app.py", APP + """
    def insert_after(self, keys):
        with self.driver.connect():
            pass
        self._ledger.append(keys)
""")
    cache = ["--select", "OC102", "--cache-dir", str(tmp_path / "c")]
    runs = [oc(tmp_path, *cache, ".")]
    with open(tmp_path / "app.py", "a") as f:
        f.write("# edited\n")
    runs += [oc(tmp_path, *cache, "."), oc(tmp_path, *cache, "app.py")]
    for r in runs:
        assert [(p.rsplit("/", 1)[-1], line) for p, line, *_ in r.findings()] == [("app.py", 15)], r.out + r.err


HANDED_CASES = {
    "plain": ("return self.store.connect()", True),
    "parenthesised": ("return (\n        self.store.connect()\n    )", True),
    "two spaces": ("return  self.store.connect()", True),
    "docstring": ('"""Doc."""\n    return self.store.connect()', True),
    "parenthesised docstring": ('("Doc.")\n    return self.store.connect()', True),
    "lambda argument": ("return self.store.connect(lambda: other())", True),
    "await": ("return await self.store.connect()", False),
    "list": ("return [self.store.connect()]", False),
    "not": ("return not self.store.connect()", False),
    "or": ("return self.store.connect() or None", False),
    "attribute": ("return self.store.connect().inner", False),
    "walrus": ("return (c := self.store.connect())", False),
    "two calls": ("return self.store.connect(make())", False),
    "more": ("self.check()\n    return self.store.connect()", False),
}


def test_both_front_ends_hand_on_the_same_call():
    """(A third review.) The libcst walk handed on a call inside a list, `not`, `or`,
    `await` or a walrus, which the outline did not."""
    from ordercheck import frontend

    for name, (body, handed) in HANDED_CASES.items():
        src = f"async def f(self):\n    {body}\n".encode()
        whole = frontend.extract("m.py", src, "m")
        outline = frontend.outline("m.py", src, "m")
        got = [(fn.handed.callee if fn.handed else None) for fn in (whole.functions[0], outline.functions[0])]
        want = "self.store.connect" if handed else None
        assert got == [want, want], (name, got)


def test_a_warm_run_follows_the_factory_when_it_stops_or_starts_handing_on(tmp_path):
    """The call a function hands on is no export (an edit of a body keeps the other
    files' resolution): the project phase reads it of the current stub."""
    from cliutil import oc, write

    write(tmp_path, "pyproject.toml", PYPROJECT)
    busy = HANDING.replace("        return self.meta_store.connect()", "        self.check()\n        return self.meta_store.connect()")
    write(tmp_path, "app.py", APP)
    cache = ["--select", "OC102", "--cache-dir", str(tmp_path / "c")]
    for text, expected in ((HANDING, []), (busy, [10]), (HANDING, [])):
        (tmp_path / "store.py").write_text(text)
        for named in (".", "app.py"):
            warm = oc(tmp_path, *cache, named)
            cold = oc(tmp_path, "--select", "OC102", "--no-cache", named)
            assert [line for _, line, *_ in warm.findings()] == expected, (named, warm.out + warm.err)
            assert warm.findings() == cold.findings(), named
