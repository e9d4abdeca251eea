"""Aliases of aliases, annotated aliases, generic and aliased bases, and types given
through ``global``/``nonlocal`` (semantics §Events, receiver types and aliases; found by
a conformance probe written from the contract alone). Each case runs through the whole
pipeline (outline pre-pass, then libcst) and as a single file; each has a counterpart
that must stay silent."""
import pytest
from conformance import run_case, run_files

RUNSTORE = {"events": {"save": ["*.RunStore.save"]}}

STORE_CLASS = """\
class RunStore:
    def save(self, run):
        pass

"""

CASES = {
    # save = store.save; store = self.db: `save()` is `store.save()`, which `*store.save` matches
    "alias_of_an_alias": ("""\
class W:
    def f(self, run, ledger):
        store = self.db
        save = store.save
        save(run)
        ledger.append_terminal(run)   # !OC101
""", None),
    "alias_of_an_alias_by_tuples": ("""\
store, ledger = app.s, app.l
save, append = store.save, ledger.append

def f(run):
    save(run)
    append(run)   # !OC102
""", None),
    "alias_of_an_alias_that_matches_nothing": ("""\
class W:
    def f(self, run, ledger):
        cache = self.db
        put = cache.put
        put(run)
        ledger.append_terminal(run)
""", None),
    # repo: Repo = p -- the annotation types the name the alias stands for
    "annotated_alias_of_a_parameter": ("""\
class Repo:
    def persist(self, run):
        self._store.save(run)

def f(p, run, ledger):
    repo: Repo = p
    repo.persist(run)
    ledger.append_terminal(run)   # !OC101
""", None),
    "annotated_alias_of_an_attribute_matches_by_class": (STORE_CLASS + """\
class W:
    def f(self, r):
        store: RunStore = self._store
        try:
            store.save(r)   # !OC203
        except Exception:
            pass
""", RUNSTORE),
    "declared_then_aliased": ("""\
class Repo:
    def persist(self, run):
        self._store.save(run)

def f(p, run, ledger):
    repo: Repo
    repo = p
    repo.persist(run)
    ledger.append_terminal(run)   # !OC101
""", None),
    "annotated_alias_of_a_class_that_saves_nothing": ("""\
class Repo:
    def persist(self, run):
        return run

def f(p, run, ledger):
    repo: Repo = p
    repo.persist(run)
    ledger.append_terminal(run)
""", None),
    # class Svc(Base[int]): Base is in the MRO
    "generic_base": ("""\
from typing import Generic, TypeVar
T = TypeVar("T")

class Base(Generic[T]):
    def persist(self, run):
        self._store.save(run)

class Svc(Base[int]):
    def go(self, run, ledger):
        self.persist(run)
        ledger.append_terminal(run)   # !OC101
""", None),
    "generic_base_through_super": ("""\
from typing import Generic, TypeVar
T = TypeVar("T")

class Base(Generic[T]):
    def persist(self, run):
        self._store.save(run)

class Svc(Base[int]):
    def persist(self, run):
        super().persist(run)
        self.ledger.append_terminal(run)   # !OC101
""", None),
    "generic_base_that_saves_nothing": ("""\
from typing import Generic, TypeVar
T = TypeVar("T")

class Base(Generic[T]):
    def persist(self, run):
        return run

class Svc(Base[int]):
    def go(self, run, ledger):
        self.persist(run)
        ledger.append_terminal(run)
""", None),
    # BaseAlias = Base; class Svc(BaseAlias)
    "aliased_base": ("""\
class Base:
    def persist(self, run):
        self._store.save(run)

BaseAlias = Base

class Svc(BaseAlias):
    def go(self, run, ledger):
        self.persist(run)
        ledger.append_terminal(run)   # !OC101
""", None),
    # global STORE; STORE = RunStore(): the module's STORE is a RunStore
    "global_constructed_in_the_same_function": ("""\
class Repo:
    def persist(self, run):
        self._store.save(run)

REPO = None

def f(run, ledger):
    global REPO
    REPO = Repo()
    REPO.persist(run)
    ledger.append_terminal(run)   # !OC101
""", None),
    "global_constructed_by_a_lazy_init": (STORE_CLASS + """\
STORE = None

def init():
    global STORE
    STORE = RunStore()

def f(r):
    try:
        STORE.save(r)   # !OC203
    except Exception:
        pass
""", RUNSTORE),
    "nonlocal_constructed": (STORE_CLASS + """\
def outer(r):
    s = None
    def init():
        nonlocal s
        s = RunStore()
    init()
    try:
        s.save(r)   # !OC203
    except Exception:
        pass
""", RUNSTORE),
    "a_local_of_the_same_name_types_nothing_outside": (STORE_CLASS + """\
STORE = None

def init():
    STORE = RunStore()
    return STORE

def f(r):
    try:
        STORE.save(r)
    except Exception:
        pass
""", RUNSTORE),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_one_file(name):
    src, table = CASES[name]
    got, want, detail = run_case(src, table=table)
    assert got == want, detail


@pytest.mark.parametrize("name", sorted(CASES))
def test_whole_pipeline(name, tmp_path):
    src, table = CASES[name]
    got, want, detail = run_files(tmp_path / "proj", {"a.py": src}, table=table)
    assert got == want, detail


def test_a_generic_base_in_another_file(tmp_path):
    got, want, detail = run_files(tmp_path / "proj", {
        "pkg/__init__.py": "",
        "pkg/base.py": """\
from typing import Generic, TypeVar
T = TypeVar("T")

class Base(Generic[T]):
    def persist(self, run):
        self._store.save(run)
""",
        "pkg/svc.py": """\
from pkg.base import Base

class Svc(Base[int]):
    def go(self, run, ledger):
        self.persist(run)
        ledger.append_terminal(run)   # !OC101
""",
    })
    assert got == want, detail
