"""A function defined under an ``if``, ``try`` or ``with`` of a class body is a method
of the class (Python binds it there): ``self.m()`` resolves to it, and an
``__exit__`` so defined makes the class a context manager (docs/decisions.md,
"Methods defined under a statement of the class body")."""
import pytest
from checkutil import cl

from ordercheck import frontend

VERSIONED = """
import sys

class Store:
{defs}

    def finish(self, run):
        self.persist(run)
        self.ledger.append_terminal(run.id)
"""

SHAPES = {
    "if-else": """    if sys.version_info >= (3, 11):
        def persist(self, run):
            self.store.save(run)
    else:
        def persist(self, run):
            self.store.save(run)""",
    "elif": """    if sys.platform == "win32":
        pass
    elif sys.platform == "darwin":
        def persist(self, run):
            self.store.save(run)""",
    "try": """    try:
        import fast
    except ImportError:
        def persist(self, run):
            self.store.save(run)
    else:
        def persist(self, run):
            self.store.save(run)""",
    "with": """    with warnings.catch_warnings():
        async def other(self):
            pass
        def persist(self, run):
            self.store.save(run)""",
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_method_defined_under_a_statement_resolves_through_self(shape):
    src = VERSIONED.format(defs=SHAPES[shape])
    at = next(i for i, line in enumerate(src.splitlines(), 1) if "append_terminal" in line)
    assert cl(src, ["OC101"]) == [("OC101", at)]


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_both_front_ends_list_the_method(shape):
    """The outline (the pre-pass's, over ``ast``) and the full facts (over libcst) agree."""
    src = VERSIONED.format(defs=SHAPES[shape])
    full = frontend.extract("m.py", src.encode())
    outline = frontend.outline("m.py", src.encode())
    [cls_full] = full.classes
    [cls_outline] = outline.classes
    assert "persist" in cls_full.methods and "finish" in cls_full.methods
    assert set(cls_outline.methods) == set(cls_full.methods)


def test_a_nested_function_is_no_method():
    src = """
class Store:
    def helper(self):
        def persist(run):
            pass
        return persist
"""
    [cls] = frontend.extract("m.py", src.encode()).classes
    assert cls.methods == ("helper",)


def test_an_exit_defined_by_version_makes_a_manager():
    src = """
import sys

class Guard:
    def __enter__(self):
        return self
    if sys.version_info >= (3, 11):
        def __exit__(self, et, e, tb):
            return issubclass(et, KeyError)
    else:
        def __exit__(self, et, e, tb):
            return True

def finish(store, ledger, run):
    with Guard():
        ledger.append_terminal(run.id)
    store.save(run)
"""
    at = next(i for i, line in enumerate(src.splitlines(), 1) if "append_terminal" in line)
    # one definition swallows everything: the class may
    assert cl(src, ["OC201"]) == [("OC201", at)]


@pytest.mark.parametrize("conditional", [True, False])
def test_a_later_alias_in_the_class_body_rebinds_the_name(conditional):
    """``persist = _noop`` after the ``def``: Python binds the alias, so ``self.persist``
    is ``_noop``, which saves nothing."""
    define = ("    if FAST:\n        def persist(self, run):\n            self.store.save(run)\n" if conditional
              else "    def persist(self, run):\n        self.store.save(run)\n")
    src = f"""
def _noop(self, run):
    pass

class Store:
{define}    persist = _noop

    def finish(self, run):
        self.persist(run)
        self.ledger.append_terminal(run.id)
"""
    assert cl(src, ["OC101"]) == []
    [cls] = frontend.extract("m.py", src.encode()).classes
    assert "persist" not in cls.methods
    assert set(frontend.outline("m.py", src.encode()).classes[0].methods) == set(cls.methods)
    # the alias first, the definition after: the definition wins
    swapped = src.replace(define + "    persist = _noop\n", "    persist = _noop\n" + define)
    at = next(i for i, line in enumerate(swapped.splitlines(), 1) if "append_terminal" in line)
    assert cl(swapped, ["OC101"]) == [("OC101", at)]


@pytest.mark.parametrize("second, found", [
    # both definitions save only when they return True: whichever runs, the save
    # travels to the True way alone (a blind probe, session 60)
    ("if run.cancel:\n                self._store.save(run)\n                return True\n            return False", []),
    # one saves on every way: the save is no longer conditional
    ("self._store.save(run)\n            return run.cancel", [("OC101", 21)]),
    # one performs nothing: still only when True
    ("return False", []),
])
def test_definitions_in_both_arms_keep_a_shared_conditional_effect(second, found):
    src = f"""
import sys


class W:
    if sys.version_info >= (3, 11):
        def revoked(self, run):
            if run.flag:
                self._store.save(run)
                return True
            return False
    else:
        def revoked(self, run):
            {second}

    def finish(self, run):
        if self.revoked(run):
            return
        self._ledger.append_terminal(run)
"""
    lines = src.splitlines()
    found = [(c, next(i for i, x in enumerate(lines, 1) if "append_terminal" in x)) for c, _ in found]
    assert cl(src, select=["OC101"]) == found


def test_a_def_replaced_by_a_later_one_of_its_name_is_no_definition():
    """Python binds a name to its last ``def`` in a body: the first, which saves on every
    way, runs nowhere (a blind probe, session 60: both bodies were in the summary)."""
    src = """
class W:
    def revoked(self, run):
        self._store.save(run)
        return run.done

    def revoked(self, run):
        if run.flag:
            self._store.save(run)
            return True
        return False

    def finish(self, run):
        if self.revoked(run):
            return
        self._ledger.append_terminal(run)
"""
    assert cl(src, select=["OC101"]) == []
    # in a branch of its own, the first may be the one that runs: both count, as before
    branched = src.replace("    def revoked(self, run):\n        if run.flag:",
                           "    if FLAG:\n      def revoked(self, run):\n        if run.flag:", 1)
    branched = branched.replace("    def revoked(self, run):\n        self._store.save(run)",
                                "    if not FLAG:\n      def revoked(self, run):\n        self._store.save(run)", 1)
    assert cl(branched, select=["OC101"]) == [("OC101", 18)], branched


def test_a_property_setter_keeps_its_getter():
    import ast

    from ordercheck import scopes
    tree = ast.parse("class R:\n    @property\n    def s(self): ...\n    @s.setter\n    def s(self, v): ...\n"
                     "    def t(self): ...\n    def t(self): ...\n\ndef f(): ...\ndef f(): ...\n")
    assert scopes.superseded_defs(tree.body) == {6, 9}


@pytest.mark.parametrize("between, found", [
    ("", []),
    ("_orig = persist\n\n\n", [("OC101", 14)]),  # kept under another name: it may run (a review)
    ("class Keep:\n    save = persist\n\n\n", [("OC101", 15)]),
])
def test_a_def_kept_by_a_name_before_it_is_replaced_still_runs(between, found):
    src = f"""
def persist(store, run):
    store.save(run)


{between}def persist(store, run):
    store.note(run)


def finish(store, ledger, run):
    persist(store, run)
    _orig(store, run) if False else None
    ledger.append_terminal(run)
"""
    got = cl(src, select=["OC101"])
    lines = src.splitlines()
    assert got == [(c, next(i for i, x in enumerate(lines, 1) if "append_terminal" in x)) for c, _ in found]


def test_what_a_replaced_def_defines_runs_nowhere_either():
    """A review: the replaced `persist`'s nested `go` (one qualname with the live one's)
    still counted its save; and an `async def` replacing a `def` makes a coroutine."""
    nested = """
def persist(store, run):
    def go():
        store.save(run)
    go()


def persist(store, run):
    def go():
        store.note(run)
    go()


def finish(store, ledger, run):
    persist(store, run)
    ledger.append_terminal(run)
"""
    assert cl(nested, select=["OC101"]) == []
    coroutine = """
def persist(store, run):
    store.note(run)


async def persist(store, run):
    store.save(run)


def finish(store, ledger, run):
    persist(store, run)
    ledger.append_terminal(run)
"""
    assert cl(coroutine, select=["OC101"]) == []
