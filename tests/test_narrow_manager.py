"""A project context manager that catches only named exception types swallows those
types, judged as ``contextlib.suppress(KeyError)`` is (docs/decisions.md, "A project
manager that catches a narrow type"): a swallowing handler for the ``swallowed``
rules only when a type is broad or listed in ``swallow-types``; any other exception
goes on through the manager's exit, which has run (its effects taken) by then."""

import pytest
from checkutil import check_source, cl, codes_lines
from cliutil import oc

GUARD = """
from contextlib import contextmanager

@contextmanager
def guard():
    try:
        yield
    except {caught}:
        {handler}
"""

BODY = """
def finish(store, ledger, run):
    with guard():
        ledger.append_terminal(run.id)
    store.save(run)
"""


def _src(caught: str, handler: str = "pass") -> str:
    return GUARD.format(caught=caught, handler=handler) + BODY


def _line(src: str, text: str) -> int:
    return next(i for i, line in enumerate(src.splitlines(), 1) if text in line)


@pytest.mark.parametrize("caught,swallows", [
    ("KeyError", ["KeyError"]),
    ("(KeyError, LookupError)", ["KeyError", "LookupError"]),
    ("errors.NotFound", ["errors.NotFound"]),
    ("Exception", "all"),
    ("BaseException", "all"),
    ("(KeyError, Exception)", "all"),
])
def test_a_generator_is_judged_by_the_types_it_catches(caught, swallows):
    src = _src(caught)
    at = _line(src, "ledger.append_terminal")
    assert cl(src, ["OC201"]) == ([("OC201", at)] if swallows == "all" else [])
    if swallows != "all":
        for t in swallows:  # listed in swallow-types: a swallowing handler
            assert cl(src, ["OC201"], {"swallow-types": [t]}) == [("OC201", at)]
        assert cl(src, ["OC201"], {"swallow-types": ["ValueError"]}) == []


def test_a_bare_except_swallows_everything():
    src = GUARD.replace("except {caught}:", "except:").format(handler="pass") + BODY
    assert cl(src, ["OC201"]) == [("OC201", _line(src, "ledger.append_terminal"))]


def test_a_narrow_clause_that_surfaces_is_loud_even_when_listed():
    src = _src("KeyError", "logger.warning('lost')")
    assert cl(src, ["OC201"], {"swallow-types": ["KeyError"]}) == []


def _generator(body: str) -> str:
    """A ``guard()`` generator with ``body`` (indented by four), and ``BODY``'s caller."""
    return "\nfrom contextlib import contextmanager\n\n@contextmanager\ndef guard():\n" + body + "\n" + BODY


@pytest.mark.parametrize("body,swallows", [
    # an outer broad clause swallows what the narrow one lets through
    ("    try:\n        try:\n            yield\n        except KeyError:\n            pass\n"
     "    except Exception:\n        pass", "all"),
    # a ``finally`` that returns swallows everything
    ("    try:\n        yield\n    except KeyError:\n        pass\n    finally:\n        return", "all"),
    # a broad clause that re-raises leaves the narrow one deciding
    ("    try:\n        yield\n    except KeyError:\n        pass\n    except Exception:\n        raise", "KeyError"),
    # ``except ValueError`` in the ``KeyError`` clause's body catches what that body
    # raises, never the thrown exception
    ("    try:\n        yield\n    except KeyError:\n        try:\n            cleanup()\n"
     "        except ValueError:\n            pass", "KeyError"),
])
def test_what_reaches_the_generators_end_decides(body, swallows):
    src = _generator(body)
    at = _line(src, "ledger.append_terminal")
    assert cl(src, ["OC201"]) == ([("OC201", at)] if swallows == "all" else [])
    if swallows != "all":
        assert cl(src, ["OC201"], {"swallow-types": ["ValueError"]}) == []
        assert cl(src, ["OC201"], {"swallow-types": [swallows]}) == [("OC201", at)]


def test_any_other_exception_goes_on_to_the_callers_handler():
    """The failure passes the narrow manager and runs into the caller's silent
    ``except Exception``: that handler swallows it (the witness names it), where the
    literal reading blamed the ``with``."""
    src = _src("KeyError").replace(BODY, "") + """
def finish(store, ledger, run):
    try:
        with guard():
            ledger.append_terminal(run.id)
    except Exception:
        pass
    store.save(run)
"""
    found = check_source(src, select=["OC201"], dedent=False)
    assert codes_lines(found) == [("OC201", _line(src, "ledger.append_terminal"))]
    assert "except Exception" in found[0].message
    assert "with guard()" not in found[0].message


def test_the_exit_has_run_before_any_other_exception_goes_on():
    """The generator's ``finally`` saves at the exit on every way out, the exception
    that goes on included: the caller's handler appends a terminal record after that
    save (OC101), as with a manager that catches nothing."""
    narrow = """
from contextlib import contextmanager

@contextmanager
def committing(store, run):
    try:
        yield
    except KeyError:
        pass
    finally:
        store.save(run)


def finish(store, ledger, run):
    try:
        with committing(store, run):
            work(run)
    except Exception:
        ledger.append_terminal(run.id)
"""
    at = _line(narrow, "ledger.append_terminal")
    plain = narrow.replace("    except KeyError:\n        pass\n", "")
    assert cl(plain, ["OC101"]) == [("OC101", at - 2)]
    assert cl(narrow, ["OC101"]) == [("OC101", at)]


def test_an_async_generator_and_a_class_alike():
    src = """
from contextlib import asynccontextmanager

@asynccontextmanager
async def guard():
    try:
        yield
    except KeyError:
        pass

class Picky:
    def __enter__(self):
        return self
    def __exit__(self, exc_type, exc, tb):
        return isinstance(exc, KeyError)

async def finish(store, ledger, run):
    async with guard():
        await ledger.append_terminal(run.id)
    with Picky():
        ledger.append_terminal(run.id)
    store.save(run)
"""
    assert cl(src, ["OC201"]) == []
    appends = [i for i, line in enumerate(src.splitlines(), 1) if "ledger.append_terminal" in line]
    assert cl(src, ["OC201"], {"swallow-types": ["KeyError"]}) == [("OC201", n) for n in appends]


def _findings(root):
    r = oc(root, "--cache-dir", str(root / "cache"), ".")
    return sorted((line.split(":")[0], int(line.split(":")[1])) for line in r.out.splitlines()
                  if ": OC2" in line and line.endswith("re-raised"))


def test_a_warm_run_remembers_what_the_manager_catches(tmp_path):
    """The types travel in the remembered summaries: a warm run, and one after the
    caller's file changed (its summary rebuilt, the manager's read back), agree."""
    root = tmp_path / "p"
    root.mkdir()
    (root / "pyproject.toml").write_text('[tool.ordercheck]\nswallow-types = ["KeyError"]\n')
    (root / "guard.py").write_text(GUARD.format(caught="KeyError", handler="pass"))
    use = "from guard import guard\n" + BODY
    (root / "use.py").write_text(use)
    at = _line(use, "ledger.append_terminal")
    cold = _findings(root)
    assert cold == [("use.py", at)]
    assert _findings(root) == cold
    (root / "use.py").write_text(use + "\n\ndef more():\n    pass\n")
    assert _findings(root) == cold
    (root / "guard.py").write_text(GUARD.format(caught="ValueError", handler="pass"))
    assert _findings(root) == []


EXIT_CLASS = """
import errors
import errors as er
from errors import NotFound

class Picky:
    def __enter__(self):
        return self
    def __exit__(self, exc_type, exc, tb{star}):
{body}

def finish(store, ledger, run):
    with Picky():
        ledger.append_terminal(run.id)
    store.save(run)
"""


@pytest.mark.parametrize("body,swallows", [
    ("        return issubclass(exc_type, KeyError) if exc_type else False", ["KeyError"]),
    ("        return self.lenient and issubclass(exc_type, KeyError)", ["KeyError"]),
    ("        if exc_type is not None and issubclass(exc_type, KeyError):\n            return True\n        return False",
     ["KeyError"]),
    ("        if exc_type is KeyError:\n            self.seen = True\n            return True\n"
     "        elif isinstance(exc, ValueError):\n            return 1", ["KeyError", "ValueError"]),
    ("        if issubclass(exc_type, KeyError):\n            pass\n        return True", "all"),  # not guarded
    ("        return issubclass(type(exc), KeyError)", ["KeyError"]),
    ("        return exc.__class__ is KeyError", ["KeyError"]),
    ("        return issubclass(exc_type, NotFound)", ["NotFound", "errors.NotFound", "*.NotFound"]),
    ("        return issubclass(exc_type, er.NotFound)", ["er.NotFound", "errors.NotFound"]),
    ("        return isinstance(exc, errors.NotFound)", ["errors.NotFound"]),
    # no test of the exception: true whatever is raised
    ("        return self.mode is Strict", "all"),
    ("        return isinstance(self.policy, Lenient)", "all"),
    # a constant, not a class: any type may be in it
    ("        return issubclass(exc_type, RETRYABLE)", "all"),
    # a flag beside the test in an ``or``: true for any type once set
    ("        return issubclass(exc_type, KeyError) or self.flag", "all"),
    ("        if self.flag or issubclass(exc_type, KeyError):\n            return True\n        return False", "all"),
])
def test_an_exit_is_judged_by_the_classes_its_true_values_test(body, swallows):
    src = EXIT_CLASS.format(body=body, star="")
    at = _line(src, "ledger.append_terminal")
    assert cl(src, ["OC201"]) == ([("OC201", at)] if swallows == "all" else [])
    if swallows != "all":
        for pattern in swallows:
            assert cl(src, ["OC201"], {"swallow-types": [pattern]}) == [("OC201", at)], pattern
        assert cl(src, ["OC201"], {"swallow-types": ["OSError"]}) == []


def test_an_exit_taking_the_exception_as_star_args():
    src = EXIT_CLASS.format(body="        return issubclass(args[0], KeyError)", star="").replace(
        "exc_type, exc, tb", "*args")
    at = _line(src, "ledger.append_terminal")
    assert cl(src, ["OC201"]) == []
    assert cl(src, ["OC201"], {"swallow-types": ["KeyError"]}) == [("OC201", at)]


def test_a_manager_in_another_file_qualifies_its_types_through_its_own_imports(tmp_path):
    from checkutil import run_tree, write_tree
    write_tree(tmp_path, {
        "errors.py": "class NotFound(Exception):\n    pass\n",
        "mgr.py": """
            from contextlib import contextmanager
            from errors import NotFound

            @contextmanager
            def tolerant():
                try:
                    yield
                except NotFound:
                    pass

            class Tolerant:
                def __enter__(self):
                    return self
                def __exit__(self, exc_type, exc, tb):
                    return issubclass(exc_type, NotFound)
            """,
        "use.py": """
            from mgr import Tolerant, tolerant

            def f(store, ledger, run):
                with tolerant():
                    ledger.append_terminal(run.id)
                store.save(run)

            def g(store, ledger, run):
                with Tolerant():
                    ledger.append_terminal(run.id)
                store.save(run)
            """,
    })
    assert run_tree(tmp_path, ["OC201"]) == []
    want = [("use.py", 6, "OC201"), ("use.py", 11, "OC201")]
    assert run_tree(tmp_path, ["OC201"], {"swallow-types": ["errors.NotFound"]}) == want
    assert run_tree(tmp_path, ["OC201"], {"swallow-types": ["*.NotFound"]}) == want


@pytest.mark.parametrize("narrow,broad,finding", [
    ("logger.warning('missing')", "pass", True),      # the broad clause swallows silently
    ("pass", "logger.warning('lost')", False),        # only an unlisted KeyError is silent
    ("logger.warning('missing')", "logger.warning('lost')", False),
])
def test_a_generator_swallowing_everything_is_loud_only_if_its_broad_way_is(narrow, broad, finding):
    src = f"""
from contextlib import contextmanager

@contextmanager
def guard():
    try:
        yield
    except KeyError:
        {narrow}
    except Exception:
        {broad}

def finish(store, ledger, run):
    with guard():
        ledger.append_terminal(run.id)
    store.save(run)
"""
    assert cl(src, ["OC201"]) == ([("OC201", _line(src, "ledger.append_terminal"))] if finding else [])


@pytest.mark.parametrize("around_yield", [
    "    with contextlib.suppress(KeyError):\n        yield",
    "    with inner():\n        yield",  # a project manager that catches KeyError
])
def test_a_generator_yielding_inside_a_narrow_with_swallows_its_types(around_yield):
    src = f"""
import contextlib
from contextlib import contextmanager

@contextmanager
def inner():
    try:
        yield
    except KeyError:
        pass

@contextmanager
def guard():
{around_yield}

def finish(store, ledger, run):
    with guard():
        ledger.append_terminal(run.id)
    store.save(run)
"""
    at = _line(src, "ledger.append_terminal")
    assert cl(src, ["OC201"]) == []
    assert cl(src, ["OC201"], {"swallow-types": ["KeyError"]}) == [("OC201", at)]


def test_a_generator_around_a_suppress_naming_nothing_swallows_nothing():
    src = """
import contextlib
from contextlib import contextmanager

@contextmanager
def guard():
    with contextlib.suppress():
        yield

def finish(store, ledger, run):
    with guard():
        ledger.append_terminal(run.id)
    store.save(run)
"""
    assert cl(src, ["OC201"]) == []
