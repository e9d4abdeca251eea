"""The front end's own seams: the statement handler table, the kinds it emits, and
their way through the cache codec."""
import json

import libcst as cst
import pytest

from ordercheck import cache as cachemod
from ordercheck import frontend
from ordercheck.frontend.statements import Extractor
from ordercheck.ir import FileFacts
from ordercheck.kinds import StmtKind

SOURCE = b"""\
import os
class C:
    def m(self, store):
        if store:
            store.save(1)
        while False:
            pass
        for x in []:
            break
        try:
            raise KeyError
        except KeyError:
            return
        finally:
            assert True
        with open(os.devnull) as fh:
            fh.write("")
        match 1:
            case _:
                pass
"""


def _kinds(stmts):
    for st in stmts:
        yield st.kind
        for block in (st.body, st.orelse, st.finalbody, *[h.body for h in st.handlers], *[c.body for c in st.cases]):
            yield from _kinds(block)


def test_every_statement_kind_is_a_member_of_the_enum():
    facts = frontend.extract("m.py", SOURCE, "m")
    assert facts.error is None
    kinds = {k for fn in facts.functions for k in _kinds(fn.body)}
    assert all(type(k) is StmtKind for k in kinds)
    assert kinds == set(StmtKind) - {StmtKind.CONTINUE}


def test_a_compound_statement_nobody_handles_fails_loudly():
    ex = Extractor(FileFacts(path="m.py", module="m"), ["x = 1"], {})
    with pytest.raises(TypeError, match="no handler for the statement Module"):
        ex.statement(cst.parse_module("x = 1\n"), cst.parse_module("x = 1\n"))


@pytest.mark.internal_errors  # (a handler missing is the engine's bug: the file's OC901)
def test_a_missing_row_is_an_analysis_error_not_a_vanished_statement(monkeypatch):
    init = Extractor.__init__

    def without_if(self, *args, **kwargs):
        init(self, *args, **kwargs)
        del self.handlers[cst.If]

    monkeypatch.setattr(Extractor, "__init__", without_if)
    facts = frontend.extract("m.py", SOURCE, "m")
    assert facts.error is not None and "no handler for the statement If" in facts.error.message
    assert facts.error.internal  # ours, not libcst's (an OC901, not an OC900)
    assert facts.functions == []


def test_the_codec_reads_kinds_back_as_members_and_refuses_others():
    facts = frontend.extract("m.py", SOURCE, "m")
    text = cachemod.to_json(facts)
    back = cachemod.from_json(text)
    assert back == facts
    assert all(type(k) is StmtKind for fn in back.functions for k in _kinds(fn.body))
    data = json.loads(text)
    data["functions"][0]["body"][0]["kind"] = "bogus"
    with pytest.raises(cachemod.Invalid):
        cachemod.from_json(json.dumps(data))
