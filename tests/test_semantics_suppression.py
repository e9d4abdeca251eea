"""Suppression comments (docs/semantics.md §Project; docs/configuration.md).

Corner cases written from the contract alone: every expectation was decided from the
semantics before running ordercheck.
"""


from checkutil import SEQ, SWL, check_source, cl, codes_lines, run_tree, write_tree

# ====================================================================== §6 suppression
SUP = SEQ + ["OC001"]


def test_noqa_on_first_line_of_statement_holding_the_anchor():
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            seq = (  # noqa: OC102
                self._ledger.append(rec)
            )
            return seq
        """, select=SUP) == []


def test_ignore_on_anchor_first_line_in_middle_of_statement():
    assert cl("""\
        def step(self, run, rec):
            pair = combine(
                self._store.save(run),
                self._ledger.append(rec),  # ordercheck: ignore[OC102]
                other,
            )
            return pair
        """, select=SUP) == []


def test_noqa_without_space_after_colon():
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            self._ledger.append(rec)  # noqa:OC102
        """, select=SUP) == []


def test_bare_noqa_suppresses_every_code_on_the_line():
    assert cl("""\
        def settle(self, run):
            self._ledger.append_terminal(run.id, Status.COMPLETED)
            self._store.save(run)
            self._ledger.append_terminal(run.id, Status.ENDED)  # noqa
        """, select=SUP + ["OC103"]) == []


def test_ignore_one_of_two_codes_on_a_line_keeps_the_other():
    assert cl("""\
        def settle(self, run):
            self._ledger.append_terminal(run.id, Status.COMPLETED)
            self._store.save(run)
            self._ledger.append_terminal(run.id, Status.ENDED)  # ordercheck: ignore[OC103]
        """, select=SUP + ["OC103"]) == [("OC101", 4)]


def test_ignore_in_if_header_holding_the_anchor():
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            if self._ledger.append(rec) is None:  # noqa: OC102
                return None
            return run
        """, select=SUP) == []


def test_oc204_suppressed_on_except_line_with_noqa():
    assert cl("""\
        def refresh(self):
            try:
                self._cache.refresh()
            except Exception:  # noqa: OC204
                pass
        """, select=["OC204", "OC001"]) == []


def test_per_file_ignores_prefix(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a config without a file: relative to the current folder
    write_tree(tmp_path, {
        "src/legacy/old.py": """\
            def step(self, run, rec):
                self._store.save(run)
                self._ledger.append(rec)
                try:
                    self._store.save(run)
                except Exception:
                    pass
            """,
    })
    table = {"per-file-ignores": {"src/legacy/**": ["OC2"]}}
    assert run_tree(tmp_path, select=SEQ + SWL, table=table) == [("src/legacy/old.py", 3, "OC102")]


# ====================================================================== suppression comments
def test_noqa_on_last_line_of_multi_line_call():
    assert cl("""\
        def f(self, run, rec):
            self._store.save(run)
            self._ledger.append(
                rec,
            )  # noqa: OC102
        """, select=SEQ + ["OC001"]) == []


def test_ignore_in_middle_of_multi_line_call_is_unused():
    assert cl("""\
        def f(self, run, rec):
            self._store.save(run)
            self._ledger.append(
                rec,  # ordercheck: ignore[OC102]
            )
        """, select=SEQ + ["OC001"]) == [("OC001", 4), ("OC102", 3)]


def test_bare_noqa_on_last_line_of_statement():
    assert cl("""\
        def f(self, run):
            self._store.save(run)
            self._ledger.append_terminal(
                run.id,
            )  # noqa
        """, select=SEQ + ["OC001"]) == []


def test_bare_noqa_unused_is_never_reported():
    assert cl("""\
        def f(self, run):
            self._ledger.append_terminal(run.id)  # noqa
            self._store.save(run)
        """, select=SEQ + ["OC001"]) == []


def test_bare_ordercheck_ignore_unused_is_reported():
    assert cl("""\
        def f(self, run):
            self._ledger.append_terminal(run.id)  # ordercheck: ignore
            self._store.save(run)
        """, select=SEQ + ["OC001"]) == [("OC001", 2)]


def test_per_code_oc001_for_the_unused_code_only():
    found = check_source("""\
        def f(self, run, rec):
            self._store.save(run)
            self._ledger.append(rec)  # noqa: OC101, OC102
        """, select=SEQ + ["OC001"])
    assert codes_lines(found) == [("OC001", 3)]
    (f,) = found
    assert "OC101" in f.message and "OC102" not in f.message


def test_suppression_on_handler_anchor_of_swallow():
    assert cl("""\
        def f(self, rec):
            try:
                self._ledger.append(rec)  # ordercheck: ignore[OC202] -- best effort
            except Exception:
                pass
        """, select=SWL + ["OC001"]) == []


def test_an_unknown_code_in_our_own_comment_is_unused_but_not_in_a_noqa():
    """`# ordercheck: ignore[OC1O1]` (a typo) suppressed nothing: OC001 says so; a
    `# noqa: E501` names another tool's code, not ours to judge."""
    assert cl("""\
        def load(self, run_id):
            x = self._store.load(run_id)  # ordercheck: ignore[OC1O1]
            y = len(x)  # noqa: E501
            z = len(y)  # ordercheck: ignore[XY9] -- no such rule
            return z
        """, select=["OC001"]) == [("OC001", 2), ("OC001", 4)]
