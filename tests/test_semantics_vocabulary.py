"""How calls become events: patterns, classes and terminal markers (docs/semantics.md §Events).

Corner cases written from the contract alone: every expectation was decided from the
semantics before running ordercheck.
"""


from checkutil import SEQ, cl


# ====================================================================== §2 matching
def test_inner_call_renders_as_parens_in_callee_text():
    # `get_store().save` is the rendered text; a pattern naming it matches.
    table = {"events": {"save": ["get_store().save"]}}
    assert cl("""\
        def complete(run, ledger):
            get_store().save(run)
            ledger.append(run.id)
        """, select=SEQ, table=table) == [("OC102", 3)]


def test_replaced_save_class_drops_default_patterns():
    # [events] replaces a class's default patterns: store.save is no longer a save.
    table = {"events": {"save": ["*.commit"]}}
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            self._ledger.append(rec)

        def step2(self, db, rec):
            db.commit()
            self._ledger.append(rec)
        """, select=SEQ, table=table) == [("OC102", 7)]


def test_pattern_matches_qualified_name_through_from_import_alias():
    table = {"events": {"save": ["runtime_db.persist.commit_row"]}}
    assert cl("""\
        from runtime_db.persist import commit_row as commit

        def step(self, run, rec):
            commit(run)
            self._ledger.append(rec)
        """, select=SEQ, table=table) == [("OC102", 5)]


def test_extend_events_adds_to_defaults():
    table = {"extend-events": {"append": ["*.audit.write_entry"]}}
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            self.audit.write_entry(rec)
            self._ledger.append(rec)
        """, select=["OC102"], table=table) == [("OC102", 3), ("OC102", 4)]


# ====================================================================== §2 terminal markers
def test_string_literal_with_space_is_prose_and_gives_no_marker():
    # semantics §Events: a string holding whitespace is prose, not an event name
    assert cl("""\
        def expire(self, run):
            self._store.save(run)
            self._ledger.append(run.id, "step timed out")
        """, select=SEQ) == [("OC102", 3)]


def test_multi_word_marker_camel_case_class_name():
    assert cl("""\
        def expire(self, run):
            self._store.save(run)
            self._ledger.append(RunTimedOut(run.id))
        """, select=SEQ) == [("OC101", 3)]


def test_multi_word_marker_requires_consecutive_tokens():
    # "timed" and "out" are both tokens, but not consecutive.
    assert cl("""\
        def expire(self, run):
            self._store.save(run)
            self._ledger.append(run.timed, run.id, "out")
        """, select=SEQ) == [("OC102", 3)]


def test_f_string_whose_literal_parts_hold_whitespace_is_prose():
    # semantics §Events: an f-string's literal parts together hold whitespace: prose
    assert cl("""\
        def fail(self, run):
            self._store.save(run)
            self._ledger.append(f"run {run.id} failed")
        """, select=SEQ) == [("OC102", 3)]


def test_keyword_name_is_not_a_token_but_its_non_marker_value_keeps_it_plain():
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            self._ledger.append(rec, failed=False, completed=None)
        """, select=SEQ) == [("OC102", 3)]


def test_marker_in_the_event_own_callee_name():
    # semantics §Events: the last component of the event's own callee gives tokens
    # (`append_failed` is not a terminal-append pattern, yet it carries "failed")
    assert cl("""\
        def fail(self, run):
            self._store.save(run)
            self._ledger.append_failed(run.id)
        """, select=SEQ) == [("OC101", 3)]


def test_augmented_assignment_does_not_contribute_marker_tokens():
    # only `=` or annotated assignments bind for marker purposes
    assert cl("""\
        def note(self, run):
            kind = "step"
            kind += "_failed"
            self._store.save(run)
            self._ledger.append(run.id, kind)
        """, select=SEQ) == [("OC102", 5)]


def test_assignment_in_enclosing_function_is_not_the_same_function():
    assert cl("""\
        def outer(self, run):
            rec = Record(run.id, Status.COMPLETED)

            def inner(rec2):
                self._store.save(run)
                self._ledger.append(rec)

            inner(None)
        """, select=SEQ) == [("OC102", 6)]


def test_terminal_markers_config_replaces_defaults():
    table = {"terminal-markers": ["expired"]}
    assert cl("""\
        def complete(self, run):
            self._store.save(run)
            self._ledger.append(run.id, Status.COMPLETED)

        def expire(self, run):
            self._store.save(run)
            self._ledger.append(run.id, Status.EXPIRED)
        """, select=SEQ, table=table) == [("OC101", 7), ("OC102", 3)]


def test_terminal_markers_config_multi_word():
    table = {"terminal-markers": ["lease lost"]}
    assert cl("""\
        def drop(self, run):
            self._store.save(run)
            self._ledger.append(run.id, RunState.LEASE_LOST)

        def keep(self, run):
            self._store.save(run)
            self._ledger.append(run.id, "lease", "lost")
        """, select=SEQ, table=table) == [("OC101", 3), ("OC102", 7)]


def test_helper_call_terminal_when_callee_itself_appends_terminal():
    # the callee performs a terminal-append (marker inside the callee): the call
    # carries terminal-append even without a marker at the call site.
    assert cl("""\
        class Runtime:
            def _close(self, run):
                self._ledger.append(run.id, Status.COMPLETED)

            def finish(self, run):
                self._store.save(run)
                self._close(run)
        """, select=SEQ) == [("OC101", 7)]


# ====================================================================== markers, harder
def test_reassigned_parameter_contributes_its_assignment():
    # the function binds `reason` by an assignment: its right-hand side counts
    assert cl("""\
        def fail(self, run, reason=None):
            reason = reason or "run_failed"
            self._store.save(run)
            self._ledger.append(run.id, reason)
        """, select=SEQ) == [("OC101", 4)]


def test_with_as_target_is_not_an_assignment_binding():
    # only `=` or annotated assignments bind for marker purposes
    assert cl("""\
        def fail(self, run):
            with self._records.open("run_failed") as rec:
                self._store.save(run)
                self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 4)]


def test_module_level_constant_is_not_bound_by_the_function():
    assert cl("""\
        KIND = "run_failed"

        def fail(self, run):
            self._store.save(run)
            self._ledger.append(run.id, KIND)
        """, select=SEQ) == [("OC102", 5)]


def test_comment_inside_arguments_is_not_a_token():
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            self._ledger.append(
                rec,  # failed runs are recorded elsewhere
            )
        """, select=SEQ) == [("OC102", 3)]


def test_empty_terminal_markers_disables_marker_terminals():
    table = {"terminal-markers": []}
    assert cl("""\
        def complete(self, run):
            self._store.save(run)
            self._ledger.append(run.id, Status.COMPLETED)
            self._ledger.append_terminal(run.id)
        """, select=SEQ, table=table) == [("OC101", 4), ("OC102", 3)]


def test_standard_streams_are_no_file_write_even_when_patterns_are_replaced():
    from conformance import run_case
    src = """\
import os, sys

def restore(path, backup):
    try:
        os.replace(path + ".new", path)
    except OSError:
        sys.stderr.write("install failed, restoring backup")
        os.replace(backup, path)

def save(path, data):
    with open(path + ".tmp", "w") as f:
        f.write(data)
    os.replace(path + ".tmp", path)   # !OC301
"""
    got, want, detail = run_case(src)
    assert got == want, detail
    got, want, detail = run_case(src, table={"events": {"file-write": ["*.write"]}})
    assert got == want, detail


def test_an_in_memory_buffer_of_known_class_is_no_file_write():
    # `io.StringIO`/`io.BytesIO` by receiver type (however imported); an untyped `buf`
    # still matches `*.write`, as the contract's pattern says
    src = """
        import io
        import io as StringIO
        import os
        from io import BytesIO

        def report(path, rows):
            buf = io.StringIO()
            buf.write(rows)
            os.replace(path + ".tmp", path)

        def report2(path, rows):
            sio = StringIO.StringIO()
            sio.write(rows)
            os.replace(path + ".tmp", path)

        def report3(path, rows):
            b = BytesIO()
            b.write(rows)
            os.replace(path + ".tmp", path)

        def report4(path, rows, buf):
            buf.write(rows)
            os.replace(path + ".tmp", path)
    """
    assert cl(src, ["OC301"]) == [("OC301", 24)]
