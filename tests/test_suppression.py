"""Black-box tests of suppression comments (semantics §Surfaces) and OC001 (unused suppression)."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from cliutil import FINDING_RE, Run, oc


def check(tmp_path: Path, source: str, *args, proc: bool = False) -> Run:
    (tmp_path / "mod.py").write_text(textwrap.dedent(source), encoding="utf-8")
    return oc(tmp_path, "-q", *args, "mod.py", proc=proc)


INVERTED = """\
class Runtime:
    def complete(self, run):
        self._store.save(run)
        self._ledger.append_terminal(run.id){comment}
"""


def test_suppressed_as_a_process(tmp_path):
    r = check(tmp_path, INVERTED.format(comment="  # ordercheck: ignore[OC101] -- reason"), proc=True)
    assert r.code == 0, r
    assert r.out == ""
    r = check(tmp_path, INVERTED.format(comment="  # noqa: OC102"), proc=True)
    assert r.code == 1, r
    assert r.line_codes() == [(4, "OC101")]


def test_baseline_without_comment(tmp_path):
    r = check(tmp_path, INVERTED.format(comment=""))
    assert r.code == 1, r
    assert r.line_codes() == [(4, "OC101")]


@pytest.mark.parametrize(
    "comment",
    [
        "  # ordercheck: ignore[OC101] -- replay re-appends the record",
        "  # ordercheck: ignore[OC101]",
        "  # ordercheck: ignore[OC101, OC203]",
        "  # ordercheck: ignore[OC102,OC101]",
        "  # noqa: OC101",
        "  # noqa:OC101",
        "  # noqa: OC101 -- replay re-appends the record",
        "  # noqa: E501, OC101",
        "  # ordercheck: ignore",
        "  # ordercheck: ignore -- reason",
        "  # noqa",
        "  # type: ignore  # noqa: OC101",
    ],
)
def test_suppressed_on_anchor_line(tmp_path, comment):
    r = check(tmp_path, INVERTED.format(comment=comment))
    assert r.code == 0, r
    assert r.line_codes() == []


@pytest.mark.parametrize(
    "comment",
    [
        "  # ordercheck: ignore[OC102]",
        "  # ordercheck: ignore[OC201] -- wrong code",
        "  # noqa: OC102",
        "  # noqa: E501",
        "  # noqa: F401, E501",
        "  # ordercheck: ignore[OC1011]",
        "  # just a comment mentioning OC101",
    ],
)
def test_other_code_does_not_suppress(tmp_path, comment):
    r = check(tmp_path, INVERTED.format(comment=comment))
    assert r.code == 1, r
    assert r.line_codes() == [(4, "OC101")]


def test_comment_text_inside_a_string_does_not_suppress(tmp_path):
    r = check(tmp_path, """\
        class Runtime:
            def complete(self, run):
                self._store.save(run)
                self._ledger.append_terminal(run.id, "# noqa: OC101")
        """)
    assert r.line_codes() == [(4, "OC101")], r


# --------------------------------------------------------------------------- multi-line statements

# The statement spans lines 4-6; the anchor (the call) starts on line 5.
MULTI = """\
class Runtime:
    def complete(self, run):
        self._store.save(run)
        seq = ({c4}
            self._ledger.append_terminal({c5}
                run.id,{c6}
                Status.COMPLETED,{c7}
            ){c8}
        ){c9}
        return seq
"""
SLOTS = ("c4", "c5", "c6", "c7", "c8", "c9")


def _multi(**comments):
    return MULTI.format(**{s: comments.get(s, "") for s in SLOTS})


def test_multi_line_baseline(tmp_path):
    r = check(tmp_path, _multi())
    assert r.line_codes() == [(5, "OC101")], r


@pytest.mark.parametrize("slot", ["c4", "c5", "c9"], ids=["statement-first-line", "anchor-line", "statement-last-line"])
@pytest.mark.parametrize("comment", ["  # ordercheck: ignore[OC101] -- reason", "  # noqa: OC101"])
def test_multi_line_suppressed_at_valid_places(tmp_path, slot, comment):
    r = check(tmp_path, _multi(**{slot: comment}))
    assert r.code == 0, r
    assert r.line_codes() == []


@pytest.mark.parametrize("slot", ["c6", "c7", "c8"])
def test_multi_line_not_suppressed_in_the_middle(tmp_path, slot):
    r = check(tmp_path, _multi(**{slot: "  # ordercheck: ignore[OC101]"}))
    assert r.line_codes() == [(5, "OC101")], r


def test_multi_line_call_statement_last_line(tmp_path):
    r = check(tmp_path, """\
        class Runtime:
            def complete(self, run):
                self._store.save(run)
                self._ledger.append_terminal(
                    run.id,
                    Status.COMPLETED,
                )  # noqa: OC101
        """)
    assert r.code == 0, r
    assert r.line_codes() == []


def test_comment_on_its_own_line_does_not_suppress(tmp_path):
    r = check(tmp_path, """\
        class Runtime:
            def complete(self, run):
                self._store.save(run)
                # ordercheck: ignore[OC101]
                self._ledger.append_terminal(run.id)
        """)
    assert r.line_codes() == [(5, "OC101")], r


def test_comment_on_the_save_line_does_not_suppress(tmp_path):
    r = check(tmp_path, """\
        class Runtime:
            def complete(self, run):
                self._store.save(run)  # ordercheck: ignore[OC101]
                self._ledger.append_terminal(run.id)
        """)
    assert r.line_codes() == [(4, "OC101")], r


# --------------------------------------------------------------------------- several codes on one line

# Line 5 carries two findings: OC101 (after the save) and OC201 (swallowed).
TWO = """\
class Runtime:
    def complete(self, run):
        self._store.save(run)
        try:
            self._ledger.append_terminal(run.id){comment}
        except Exception:
            pass
"""


def test_two_codes_baseline(tmp_path):
    r = check(tmp_path, TWO.format(comment=""))
    assert r.line_codes() == [(5, "OC101"), (5, "OC201")], r


@pytest.mark.parametrize(
    "comment, left",
    [
        ("  # ordercheck: ignore", []),
        ("  # ordercheck: ignore -- both are intended", []),
        ("  # noqa", []),
        ("  # ordercheck: ignore[OC101, OC201]", []),
        ("  # noqa: OC101, OC201", []),
        ("  # ordercheck: ignore[OC101]", [(5, "OC201")]),
        ("  # noqa: OC201", [(5, "OC101")]),
        ("  # noqa: E501", [(5, "OC101"), (5, "OC201")]),
    ],
)
def test_two_codes_on_one_line(tmp_path, comment, left):
    r = check(tmp_path, TWO.format(comment=comment))
    assert r.line_codes() == left, r
    assert r.code == (1 if left else 0), r


# --------------------------------------------------------------------------- OC001


def test_unused_suppression_off_by_default(tmp_path):
    r = check(tmp_path, """\
        class Runtime:
            def load(self, run_id):
                return self._store.load(run_id)  # ordercheck: ignore[OC101]
        """)
    assert r.code == 0, r
    assert r.line_codes() == []


def test_unused_suppression_reported_with_extend_select(tmp_path):
    r = check(tmp_path, """\
        class Runtime:
            def load(self, run_id):
                return self._store.load(run_id)  # ordercheck: ignore[OC101]
        """, "--extend-select", "OC001")
    assert r.code == 1, r
    assert r.line_codes() == [(3, "OC001")]


def test_unused_bare_ordercheck_ignore_reported(tmp_path):
    r = check(tmp_path, """\
        class Runtime:
            def load(self, run_id):
                return self._store.load(run_id)  # ordercheck: ignore
        """, "--extend-select", "OC001")
    assert r.line_codes() == [(3, "OC001")], r


def test_unused_noqa_with_our_code_reported(tmp_path):
    r = check(tmp_path, """\
        class Runtime:
            def load(self, run_id):
                return self._store.load(run_id)  # noqa: OC101
        """, "--extend-select", "OC001")
    assert r.line_codes() == [(3, "OC001")], r


def test_foreign_noqa_not_reported(tmp_path):
    r = check(tmp_path, """\
        import os, sys  # noqa

        class Runtime:
            def load(self, run_id):
                return self._store.load(run_id)  # noqa: E501
        """, "--extend-select", "OC001")
    assert r.code == 0, r
    assert r.line_codes() == []


def test_used_suppression_not_reported(tmp_path):
    r = check(tmp_path, INVERTED.format(comment="  # ordercheck: ignore[OC101] -- replay"), "--extend-select", "OC001")
    assert r.code == 0, r
    assert r.line_codes() == []


def test_wrong_code_is_both_unsuppressed_and_unused(tmp_path):
    r = check(tmp_path, INVERTED.format(comment="  # ordercheck: ignore[OC102]"), "--extend-select", "OC001")
    assert r.line_codes() == [(4, "OC001"), (4, "OC101")], r


def test_misplaced_comment_is_unused(tmp_path):
    r = check(tmp_path, """\
        class Runtime:
            def complete(self, run):
                self._store.save(run)
                # ordercheck: ignore[OC101] -- replay re-appends
                self._ledger.append_terminal(run.id)
        """, "--extend-select", "OC001")
    assert r.line_codes() == [(4, "OC001"), (5, "OC101")], r


def test_partly_used_suppression_reported(tmp_path):
    r = check(tmp_path, INVERTED.format(comment="  # ordercheck: ignore[OC101, OC203]"), "--extend-select", "OC001")
    assert r.line_codes() == [(4, "OC001")], r


def test_oc001_message_names_the_code(tmp_path):
    r = check(tmp_path, """\
        def load(store, run_id):
            return store.load(run_id)  # ordercheck: ignore[OC203]
        """, "--extend-select", "OC001")
    lines = [ln for ln in r.out.splitlines() if FINDING_RE.match(ln)]
    assert len(lines) == 1, r
    assert "OC203" in FINDING_RE.match(lines[0])["msg"], lines[0]


def test_oc001_itself_can_be_ignored(tmp_path):
    r = check(tmp_path, """\
        class Runtime:
            def load(self, run_id):
                return self._store.load(run_id)  # ordercheck: ignore[OC101]
        """, "--extend-select", "OC001", "--ignore", "OC001")
    assert r.line_codes() == [], r
