"""semantics §Contracts: a handler path that hands the caught exception on is not silent; the
`quiet` class (§2). Every case goes through the engine and reads findings.

Each sentence of the contract paragraph has a case that makes the handler loud (valid) and
one that leaves it silent (invalid)."""
import fnmatch

import pytest
from checkutil import check_source, codes_lines

from ordercheck import frontend, ir
from ordercheck.vocabulary import BUILTIN_CLASSES, Vocabulary, load_default_vocab

RULES = ["OC201", "OC202", "OC203", "OC204"]


def found(handler_body: str, head: str = "", try_body: str = "self._ledger.append_terminal(run.id, Status.FAILED)",
          clause: str = "except Exception as e:") -> list:
    """Findings of a function whose terminal append fails into ``clause``."""
    body = "\n".join("        " + line for line in handler_body.strip("\n").splitlines())
    src = (
        "import sys\nimport traceback\n\n"
        f"{head}\n"
        "def complete(self, run):\n"
        "    try:\n"
        f"        {try_body}\n"
        f"    {clause}\n"
        f"{body}\n"
    )
    return codes_lines(check_source(src, select=RULES, dedent=False))


def silent(handler_body: str, **kw) -> bool:
    out = found(handler_body, **kw)
    codes = {c for c, _ in out}
    assert codes in (set(), {"OC201", "OC204"}), out
    return codes == {"OC201", "OC204"}


# ---- the caught exception flows into ...


@pytest.mark.parametrize("body", [
    "return e",
    "return Failure(error=e)",
    "return (run, e)",
    "yield e",
    "x = yield e",
    "self._error = e",
    "activation_err = e",
    "err: BaseException = e",
    "self.errors[run.id] = e",
    "errors += [e]",
    "if (last := e):\n    pass",
    "report_failure(run, e)",
    "self.errors.append(e)",
    "report_failure(run, error=e)",
    "report_failure(*[e])",
])
def test_the_as_name_handed_on_is_loud(body):
    assert not silent(body)


@pytest.mark.parametrize("body", [
    "pass",
    "return None",
    "failed = True",
    "self.failed = True",
    "return False",
    "logger.debug('lost: %s', e)",
    "logger.info('lost: %s', e)",
    "logging.info(e)",
    "log.debug(e, exc_info=True)",
    # (held-out set 80, aria2p: loguru's trace level, below debug, through its builder)
    "logger.opt(exception=True).trace(e)",
    "logger.bind(gid=gid).trace(e)",
    "if isinstance(e, KeyError):\n    pass",
    "kind = type(e).__name__",
    "has_code = hasattr(e, 'code')",
    "code = getattr(e, 'code', None)",
    "same = issubclass(type(e), KeyError)",
    "ok = e is None",
    "report_failure(run)",
])
def test_a_flag_a_constant_or_a_quiet_log_is_silent(body):
    assert silent(body)


@pytest.mark.parametrize("source", ["sys.exc_info()", "sys.exception()", "traceback.format_exc()",
                                    "sys.exc_info()[1]"])
def test_the_exception_by_sys_and_traceback_is_a_source(source):
    assert not silent(f"report_failure(run, {source})", clause="except Exception:")
    assert not silent(f"self.last_error = {source}", clause="except Exception:")
    assert silent(f"logger.debug('lost: %s', {source})", clause="except Exception:")


def test_sources_resolve_through_imports():
    head = "from sys import exc_info\nfrom traceback import format_exc as fmt\n"
    assert not silent("report_failure(run, exc_info())", head=head, clause="except Exception:")
    assert not silent("report_failure(run, fmt())", head=head, clause="except Exception:")
    assert silent("report_failure(run, exc_info)", head=head, clause="except Exception:")


@pytest.mark.parametrize("expr", [
    "str(e)", "repr(e)", "format(e)", "f'lost: {e}'", "'lost: %s' % e", "'lost: %s' % (e,)",
    "'lost: {}'.format(e)", "''.join(traceback.format_exception(e))", "e.args", "str(e).lower()",
    "e if run else None", "[str(x) for x in [e]]", "{'error': e}",
])
def test_conversions_pass_it_through(expr):
    assert not silent(f"report_failure(run, {expr})")
    assert not silent(f"message = {expr}")
    assert silent(f"logger.debug('lost: %s', {expr})")


def test_inspection_hands_nothing_on():
    assert silent("report_failure(run, isinstance(e, KeyError))")
    assert silent("report_failure(run, type(e))")
    assert silent("report_failure(run, hasattr(e, 'code'), getattr(e, 'code', 0))")
    assert silent("report_failure(run, e is None, not e)")


def test_an_unrelated_name_carries_nothing():
    assert silent("report_failure(run, err)")
    assert silent("self._error = exc")


def test_a_later_rebinding_of_the_name_outside_the_handler_is_not_the_exception():
    src = """
    def complete(self, run, e):
        try:
            self._ledger.append_terminal(run.id, Status.FAILED)
        except Exception:
            pass
        self._error = e
    """
    assert codes_lines(check_source(src, select=RULES)) == [("OC201", 4), ("OC204", 5)]


# ---- some path, and whose exception


def test_handing_on_on_one_path_only_is_still_silent():
    assert silent("if run.verbose:\n    self.errors.append(e)")
    assert not silent("if run.verbose:\n    self.errors.append(e)\nelse:\n    raise")


def test_an_inner_handlers_exception_is_not_the_outer_one():
    body = """
try:
    run.rollback()
except Exception as inner:
    self.errors.append(inner)
"""
    # the outer exception (e) is never handed on: the outer handler falls through silently
    assert silent(body)
    body_outer = """
try:
    run.rollback()
except Exception as inner:
    self.errors.append(e)
else:
    self.errors.append(e)
"""
    # the outer exception handed on inside the inner handler still counts for the outer
    # one; the inner handler swallows its own exception silently
    assert found(body_outer) == [("OC204", 11)]


def test_sys_exc_info_means_the_innermost_handled_exception():
    body = """
try:
    run.rollback()
except ValueError:
    self.last = sys.exc_info()
"""
    # inside the inner handler, sys.exc_info() is the ValueError, not e
    assert silent(body)


def test_a_nested_function_is_not_the_handler():
    body = """
def later():
    return e
"""
    # the nested function's `return e` is its own, not the handler's
    assert silent(body)
    # but passed on, it carries the exception it closes over, as a lambda does
    # (session 31; docs/decisions.md "Handing the exception on")
    assert not silent(body + "run.callbacks.append(later)\n")


# ---- quiet: by pattern and through summaries


def test_a_quiet_helper_stays_quiet():
    head = "def _note(exc):\n    logger.debug('failed: %s', exc)\n"
    assert silent("_note(e)", head=head)


def test_a_helper_with_more_than_quiet_effects_receives_it():
    head = "def _note(exc, store):\n    logger.debug('failed: %s', exc)\n    store.save(exc)\n"
    assert not silent("_note(e, self._store)", head=head)


def test_a_helper_without_events_receives_it():
    head = "def _keep(exc):\n    ERRORS.append(exc)\n"
    assert not silent("_keep(e)", head=head)


def test_quiet_is_configurable():
    src = """
    def complete(self, run):
        try:
            self._ledger.append_terminal(run.id, Status.FAILED)
        except Exception as e:
            audit.note(e)
    """
    assert codes_lines(check_source(src, select=RULES)) == []
    table = {"extend-events": {"quiet": ["audit.note"]}}
    assert codes_lines(check_source(src, select=RULES, table=table)) == [("OC201", 4), ("OC204", 5)]


def test_quiet_is_a_builtin_class():
    assert "quiet" in BUILTIN_CLASSES
    patterns, _, descriptions = load_default_vocab()
    assert "quiet" in patterns and "quiet" in descriptions


def _concrete(pattern: str) -> str:
    return pattern.replace("*", "self._x")


def test_quiet_and_surface_never_overlap():
    vocab = Vocabulary.build()
    patterns = vocab.patterns
    for mine, other in (("quiet", "surface"), ("surface", "quiet")):
        for pat in patterns[mine]:
            text = _concrete(pat)
            assert fnmatch.fnmatchcase(text, pat)
            assert not any(fnmatch.fnmatchcase(text, p) for p in patterns[other]), (mine, pat)
    for callee in ("logger.debug", "self.logger.info", "logging.info", "log.debug", "LOG.info"):
        call = ir.Call(0, callee, (), ir.Span(1, 0, 1, 0), callee, (1, 1))
        assert vocab.direct(call) == frozenset({"quiet"}), callee
    for callee in ("logger.warning", "logger.error", "logger.exception", "logging.warning"):
        call = ir.Call(0, callee, (), ir.Span(1, 0, 1, 0), callee, (1, 1))
        assert vocab.direct(call) == frozenset({"surface"}), callee


# ---- every swallowed rule and OC204; re-raising handlers


@pytest.mark.parametrize("call,code", [
    ("self._ledger.append_terminal(run.id, Status.FAILED)", "OC201"),
    ("self._ledger.append(run.id)", "OC202"),
    ("self._store.save(run)", "OC203"),
])
def test_every_swallowed_rule(call, code):
    assert found("pass", try_body=call) == [(code, 7), ("OC204", 8)]
    assert found("self.errors.append(e)", try_body=call) == []
    assert found("logger.info('lost %s', e)", try_body=call) == [(code, 7), ("OC204", 8)]


def test_oc204_alone():
    src = """
    def load(name):
        try:
            return importlib.import_module(name)
        except Exception as exc:
            return PluginError(name, exc)
    """
    assert codes_lines(check_source(src, select=RULES)) == []
    src2 = src.replace("PluginError(name, exc)", "None")
    assert codes_lines(check_source(src2, select=RULES)) == [("OC204", 5)]


def test_a_handler_that_hands_on_and_reraises_is_not_a_quiet_reraise():
    src = """
    def complete(self, run):
        try:
            try:
                self._ledger.append_terminal(run.id, Status.FAILED)
            except Exception as e:
                {inner}
                raise
        except Exception:
            pass
    """
    quiet = codes_lines(check_source(src.format(inner="logger.debug(e)"), select=["OC201"]))
    assert quiet == [("OC201", 5)]
    loud = codes_lines(check_source(src.format(inner="self.errors.append(e)"), select=["OC201"]))
    assert loud == []


def test_the_facts_record_where_it_is_handed_on():
    src = b"def f(run):\n    try:\n        g()\n    except Exception as e:\n        report(str(e))\n        x = e\n        logger.debug(e)\n"
    fn = next(f for f in frontend.extract("a.py", src).functions if f.name == "f")
    handler = fn.body[0].handlers[0]
    assert handler.name == "e"
    first, second, third = handler.body
    by_callee = {c.callee: c.hands_on for c in fn.calls}
    assert by_callee == {"g": (), "str": (), "report": (4,), "logger.debug": (4,)}
    assert (first.hands_on, second.hands_on, third.hands_on) == ((), (4,), ())


@pytest.mark.parametrize("handler_body,silent", [
    ("e = None\nself._error = e", True),               # the name no longer holds the exception
    ("e = None\nreturn e", True),
    ("e = None; self._error = e", True),
    ("self._error = e\ne = None", False),               # handed on first
    ("e = wrap(e)\nself._error = e", False),            # the new value carries it (and is handed on)
    ("if run.quiet:\n    e = None\nself._error = e", False),  # a walk keeps it
    ("e = None\nself._error = sys.exc_info()", False),  # the other sources still hand it on
])
def test_the_name_rebound_in_its_own_clause_hands_nothing_on(handler_body, silent):
    """`e = None` in the clause's own block: what follows hands nothing on through `e`
    (docs/decisions.md, "Handing on")."""
    got = found(handler_body)
    assert got == ([("OC201", 7), ("OC204", 8)] if silent else []), got


@pytest.mark.parametrize("body", [
    "loop.call_soon_threadsafe(lambda: fut.set_exception(e))",
    "self.callbacks.append(lambda: report_failure(run, e))",
    "schedule(lambda run=run: report_failure(run, str(e)))",
    "schedule(lambda: (lambda: report_failure(run, e)))",
])
def test_a_lambda_that_captures_the_exception_hands_it_on(body):
    """A call that receives a lambda naming the exception receives the exception
    (docs/decisions.md, "Handing the exception on")."""
    assert not silent(body)


@pytest.mark.parametrize("body", [
    "schedule(lambda e: report_failure(run, e))",       # its own parameter, not the exception
    "schedule(lambda *e: report_failure(run, e))",
    "schedule(lambda: fut.e)",                            # an attribute named e
    "schedule(lambda: report_failure(run, e=1))",         # a keyword named e
    "schedule(lambda e: (lambda: report_failure(e)))",   # shadowed for the inner lambda too
    "logger.debug('lost: %s', lambda: e)",                # quiet
])
def test_a_lambda_that_does_not_capture_it_hands_nothing_on(body):
    assert silent(body)
