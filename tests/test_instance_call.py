"""An instance called runs its class's ``__call__`` (Python's ``type(x).__call__(x,
...)``), as ``x.m()`` runs ``m`` by the class of ``x`` (semantics §Events, "Resolution":
receiver types). ``saver(run)`` with ``saver: Saver`` carries ``Saver.__call__``'s
summary and matches ``*.Saver.__call__`` (held-out set 34: peewee-migrate's
``migrator()``, a parameter typed ``Migrator``, could not be named by its class)."""
from checkutil import cl, run_tree, write_tree

SAVER = """
class Saver:
    def __call__(self, run):
        self._store.save(run)

"""


def test_a_typed_instance_called_carries_its_classs_call():
    src = SAVER + """
class Runner:
    def __init__(self, saver: Saver):
        self._saver = saver

    def step(self, run, rec):
        self._saver(run)
        self._ledger.append(rec)


def by_parameter(saver: Saver, run, rec, ledger):
    saver(run)
    ledger.append(rec)


def by_constructor(run, rec, ledger):
    s = Saver()
    s(run)
    ledger.append(rec)
"""
    assert cl(src) == [("OC102", 13), ("OC102", 18), ("OC102", 24)]


def test_a_class_called_constructs_and_an_untyped_name_is_not_followed():
    src = SAVER + """
def construct(run, rec, ledger):
    Saver(run)
    ledger.append(rec)


def untyped(saver, run, rec, ledger):
    saver(run)
    ledger.append(rec)


class Plain:
    def step(self, run):
        self._store.save(run)


def no_call_method(p: Plain, run, rec, ledger):
    p(run)
    ledger.append(rec)
"""
    assert cl(src) == []


def test_an_instance_called_matches_its_classs_qualified_call_and_its_bases(tmp_path):
    write_tree(tmp_path, {
        "mig/__init__.py": "",
        "mig/migrator.py": """
            class BaseMigrator:
                def __call__(self, name):
                    ...


            class Migrator(BaseMigrator):
                pass
        """,
        "mig/runner.py": """
            from .migrator import Migrator


            def run_one(migrator: Migrator, history, name):
                migrator(name)
                history.append_record(name)


            def run_two(history, name):
                m = Migrator()
                history.append_record(name)
                m(name)
        """,
    })
    for pattern in ("*.Migrator.__call__", "*.BaseMigrator.__call__"):
        table = {"extend-events": {"save": [pattern]}}
        assert run_tree(tmp_path, table=table) == [("mig/runner.py", 7, "OC102")], pattern


def test_a_name_rebound_is_no_instance_of_its_first_class():
    """(A review, session 43.) A name bound twice may be anything when it is called:
    rebound to a function, an annotated module name bound to a class (calling it
    constructs), a typed parameter reused as a loop's target. And a module's ``def``
    of the name after an instance of it is the function that runs."""
    src = SAVER + """
class Quiet(Saver):
    def __init__(self, run=None):
        pass


def default_hook(run):
    pass


def local_rebound(run, ledger):
    s = Saver()
    s = default_hook
    s(run)
    ledger.append(run)


_Impl: Optional[Saver] = None
_Impl = Quiet


def construct(run, ledger):
    _Impl(run)
    ledger.append(run)


def loop_var(run, ledger, s: Saver, hooks):
    for s in hooks:
        s(run)
    ledger.append(run)
"""
    assert cl(src) == []
    shadow = """
class Keeper:
    def __call__(self, run):
        pass


record = Keeper()


def record(run):
    run.ledger.append(run)


def step(run, store):
    store.save(run)
    record(run)
"""
    assert cl(shadow) == [("OC102", 16)]
