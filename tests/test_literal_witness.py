"""A finding's witness prefers a walk that does not test a name against the literal it
was just bound to (docs/decisions.md "Witnesses and literal assignments"): `x = None`
then `if x is None:` (false) is no walk Python takes. The contract's correlated tests
take facts from tests only, so what is *found* does not change: only which of its
walks a finding shows (a held-out set's triage, session 34: two of mem0ai's
witnesses went through `extracted = []` and then `if not extracted:` false)."""
from __future__ import annotations

import textwrap

import libcst as cst
import pytest
from checkutil import check_source, codes_lines

import ordercheck.feasible as feasible
from ordercheck import runner
from ordercheck.frontend.statements import literal_truth

ADD = '''\
def add(self, response, existing):
    extracted = None
    if response:
        extracted = parse(response)
    if extracted is None:
        return None
    self.store.save(extracted)
    self._ledger.append(extracted)
    return extracted
'''


def steps(f):
    return [(s.span.line, s.kind, s.text) for s in f.witness]


def test_the_witness_takes_a_walk_python_can_take():
    [f] = check_source(ADD, select=["OC102"])
    assert (f.code, f.span.line) == ("OC102", 8)
    # not `if response:` (false) then `if extracted is None:` (false): the response
    # was parsed
    assert steps(f)[:2] == [(3, "branch", "if response:  (true)"), (5, "branch", "if extracted is None:  (false)")]


def test_without_literal_facts_the_shortest_walk_was_shown(monkeypatch):
    """(What the witness was before: the contract's graph's shortest walk.)"""
    # (the module itself: `runner.feasible` is a lazy stand-in until first used, and a
    # value set on it before then missed the module's own calls when this test ran alone)
    monkeypatch.setattr(feasible, "literal_names", lambda g: frozenset())
    [f] = check_source(ADD, select=["OC102"])
    assert (3, "branch", "if response:  (false)") in steps(f)


@pytest.mark.parametrize("binding", ["pending = done = []", "pending = []; self._batch = pending",
                                     "pending = {}", "pending = set()"])
def test_a_mutable_display_tells_nothing(binding):
    """Another name, an attribute or a closure may hold the same list and fill it (a
    review, session 34): `[]`, `{}` tell nothing of its truth (only that it is not
    None, session 66), so the witness is the contract's."""
    src = f'''\
    def close(self, run):
        {binding}
        fill(self)
        self.store.save(run)
        if pending:
            ok = True
        else:
            note(run)
            tidy(run)
        self._ledger.append(run)
    '''
    [f] = check_source(src, select=["OC102"])
    assert (5, "branch", "if pending:  (true)") in steps(f)


def test_a_class_bodys_binding_is_no_fact_of_the_function():
    src = '''\
    def close(self, run, pending):
        class Batch:
            pending = None
        self.store.save(run)
        if pending is None:
            note(run)
            tidy(run)
        else:
            ok = True
        self._ledger.append(run)
    '''
    [f] = check_source(src, select=["OC102"])
    assert (5, "branch", "if pending is None:  (false)") in steps(f)


def test_a_finding_on_such_a_walk_only_is_still_found():
    """The contract: an assignment tells nothing, so a walk through `done = False`
    then `if not done:` (false) is a path, and its finding stands (with that witness)."""
    src = '''\
    def finish(self, run):
        done = False
        if not done:
            return
        self.store.save(run)
        self._ledger.append(run)
    '''
    found = check_source(src, select=["OC102"])
    assert codes_lines(found) == [("OC102", 6)]
    assert (3, "branch", "if not done:  (false)") in steps(found[0])


def test_the_same_findings_and_messages_otherwise():
    """A function whose every literal test agrees with its finding's walk: no change."""
    src = '''\
    def finish(self, run, flag):
        pending = None
        if flag:
            pending = run
        if pending is not None:
            self.store.save(pending)
        self._ledger.append(run)
    '''
    [f] = check_source(src, select=["OC102"])
    assert f.span.line == 7 and "after the state save at line 6" in f.message
    assert (3, "branch", "if flag:  (true)") in steps(f)


def test_the_witness_survives_the_cache(tmp_path):
    from checkutil import settings_for

    (tmp_path / "a.py").write_text(textwrap.dedent(ADD))
    s = settings_for(None, ["OC102"])
    cold = runner.run([tmp_path], s, cache_dir=tmp_path / ".cache")
    runner.RUN_CACHE, saved = False, runner.RUN_CACHE  # (the facts and check memos, not the run's record)
    try:
        (tmp_path / "b.py").write_text("x = 1\n")
        warm = runner.run([tmp_path], s, cache_dir=tmp_path / ".cache")
    finally:
        runner.RUN_CACHE = saved
    assert [steps(f) for f in warm.findings] == [steps(f) for f in cold.findings]
    assert (3, "branch", "if response:  (true)") in steps(cold.findings[0])


def test_the_literals_survive_the_facts_cache_encoding():
    from pathlib import Path

    from ordercheck import cache

    facts = runner.read_facts(Path("a.py"), textwrap.dedent(ADD).encode(), "a.py")
    back = cache.from_json(cache.to_json(facts))

    def literals(stmts):
        for st in stmts:
            if st.literals:
                yield st.literals
            for block in (st.body, st.orelse, st.finalbody):
                yield from literals(block)

    got = list(literals(back.functions[0].body))
    assert got == list(literals(facts.functions[0].body)) == [(("extracted", 1),)]


@pytest.mark.parametrize("text, mask", [
    ("None", 1), ("False", 2), ("0", 2), ("0.0", 2), ("0j", 2), ('""', 2), ("b''", 2), ("()", 2),
    ("True", 4), ("1", 4), ("0x10", 4), ("1_000", 4), ('"done"', 4), ("(x,)", 4), ("(x, *xs)", 4),
    # a mutable display: never None, its truth unknown (session 66, held-out set 318)
    ("[]", 6), ("{}", 6), ("[x]", 6), ("{1}", 6), ("{'a': 1}", 6), ("[x for x in y]", 6), ("(*xs,)", 0),
    ("f()", 0), ("x", 0), ("'a' 'b'", 0), ("f'{x}'", 0), ("-1", 0), ("list()", 0),
    # a constructor's instance is never None (session 49): not None, truth unknown
    ("ExceptionInfo()", 6), ("billiard.einfo.ExceptionInfo(exc)", 6), ("_Sentinel()", 6),
    ("MAKE()", 0), ("make_info()", 0), ("get()()", 0), ("Foo[int]()", 0),
])
def test_what_a_literal_is(text, mask):
    assert literal_truth(cst.parse_expression(text)) == mask


def test_a_constructor_tells_the_witness_its_name_is_not_none():
    # (celery's `Request.on_timeout`) `einfo = None`, then `einfo = ExceptionInfo()` in
    # the handler the path takes: the `finally`'s `if einfo is not None:` is true there
    src = """\
    def on_timeout(self, exc):
        self._store.save(self.id, exc)
        einfo = None
        try:
            try:
                raise exc
            except TimeLimitExceeded:
                einfo = ExceptionInfo()
            self.send_event("task-failed")
        finally:
            if einfo is not None:
                del einfo
            exc.__traceback__ = None
        self._ledger.append(self.id)
    """
    found = [f for f in check_source(src) if f.code == "OC102"]
    assert len(found) == 1, found
    branches = [s.text for s in found[0].witness if s.kind == "branch"]
    assert branches == ["if einfo is not None:  (true)"], branches
