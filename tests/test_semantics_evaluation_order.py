"""Events inside one statement are ordered as CPython evaluates them (docs/semantics.md §Events).

Corner cases written from the contract alone: every expectation was decided from the
semantics before running ordercheck.
"""


from checkutil import SEQ, cl


# ====================================================================== §2 evaluation order
def test_save_in_receiver_evaluated_before_append_argument():
    assert cl("""\
        def step(self, run, r):
            self._store.save(run).then(self._ledger.append(r))
        """, select=SEQ) == [("OC102", 2)]


def test_assignment_value_evaluated_before_subscript_target():
    # `a[i] = v` evaluates v first, then a, then i: the append precedes the save.
    assert cl("""\
        def step(self, run, rec, seqs):
            seqs[self._store.save(run)] = self._ledger.append(rec)
        """, select=SEQ) == []


def test_condition_of_conditional_expression_runs_first():
    assert cl("""\
        def step(self, run, rec):
            seq = self._ledger.append(rec) if self._store.save(run) else None
            return seq
        """, select=SEQ) == [("OC102", 2)]


def test_default_argument_of_nested_def_is_evaluated_in_enclosing_function():
    assert cl("""\
        def step(self, run, rec):
            def later(version=self._store.save(run)):
                return version
            self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 4)]


def test_walrus_in_if_condition():
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            if (seq := self._ledger.append(rec)) is None:
                return None
            return seq
        """, select=SEQ) == [("OC102", 3)]


def test_list_comprehension_events_belong_to_enclosing_graph():
    assert cl("""\
        def flush(self, runs, rec):
            [self._store.save(r) for r in runs]
            self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 3)]


def test_a_comprehensions_false_if_clause_skips_the_element():
    """(A conformance probe, session 40.) A round whose ``if`` is false ends there:
    round one appends and saves, round two appends and the loop ends unsaved."""
    assert cl("""\
        def flush(self, runs, rec):
            return [self._store.save(r) for r in runs if self._ledger.append(rec)]
        """, select=SEQ) == [("OC102", 2)]
    assert cl("""\
        def flush(self, runs, rec):
            return {r: self._store.save(r) for r in runs if r.ok if self._ledger.append(rec)}
        """, select=SEQ) == [("OC102", 2)]


def test_a_comprehensions_empty_inner_iterable_skips_the_element():
    """As the same loops written as statements: the inner ``for``'s iterable is
    evaluated each round of the outer one, and may be empty."""
    as_statements = cl("""\
        def flush(self, runs, rec):
            for r in runs:
                for x in self._ledger.append(rec):
                    self._store.save(x)
        """, select=SEQ)
    assert as_statements == [("OC102", 3)]
    assert cl("""\
        def flush(self, runs, rec):
            return [self._store.save(x) for r in runs for x in self._ledger.append(rec)]
        """, select=SEQ) == [("OC102", 2)]


def test_a_comprehensions_if_clause_before_the_save_is_no_finding():
    """The element still runs after its clause on the other branch: an append in the
    element after a save in the clause is reported, and a save after it is not."""
    assert cl("""\
        def flush(self, runs, rec):
            return [self._ledger.append(rec) for r in runs if self._store.save(r)]
        """, select=SEQ) == [("OC102", 2)]
    assert cl("""\
        def flush(self, runs, rec):
            done = [self._ledger.append(r) for r in runs if r.ok]
            self._store.save(runs)
            return done
        """, select=SEQ) == []


# ====================================================================== evaluation order, harder
def test_chained_subscripts_in_callee_left_to_right():
    # Python evaluates `a[x()][y()]` as a, x(), then y(): the save comes first
    assert cl("""\
        def step(self, run, rec):
            self._index[self._store.save(run)][self._ledger.append(rec)].touch()
        """, select=SEQ) == [("OC102", 2)]


def test_augmented_assignment_target_evaluated_before_value():
    # `t[k()] += v()` evaluates t and k() first, then v(): the append precedes the save
    assert cl("""\
        def step(self, run, rec, totals):
            totals[self._ledger.append(rec)] += self._store.save(run)
        """, select=SEQ) == []


def test_starred_positional_evaluated_before_earlier_keyword():
    # CPython evaluates positional (and starred) arguments before keyword ones
    assert cl("""\
        def step(self, run, rec):
            emit(version=self._store.save(run), *self._ledger.append(rec))
        """, select=SEQ) == []


def test_subscript_after_save_in_same_statement_can_raise_into_handler():
    # the save took effect, then `[...]` raised KeyError into the handler
    assert cl("""\
        def step(self, run, rec):
            try:
                version = self._store.save(run)["version"]
            except KeyError:
                self._ledger.append(rec)
                return None
            return version
        """, select=SEQ) == [("OC102", 5)]


def test_attribute_after_save_in_if_test_can_raise_into_handler():
    assert cl("""\
        def step(self, run, rec):
            try:
                if self._store.save(run).conflict:
                    return None
            except AttributeError:
                self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 6)]


def test_a_chained_comparison_runs_its_later_operands_only_when_the_earlier_held():
    # `a < b < save()` is `a < b and b < save()`: the re-save may not run, so the
    # append after the first save is an OC102 on the walk that skips it
    src = """\
        def settle(self, run, rec, a, b):
            self._store.save(run)
            self._ledger.append(rec)
            a < b < self._store.save(run)
        """
    assert cl(src, select=SEQ) == [("OC102", 3)]
    # its first two operands always run
    assert cl(src.replace("a < b < self._store.save(run)", "a < self._store.save(run) < b"), select=SEQ) == []


def test_each_link_of_a_chained_comparison_is_conditional_on_the_ones_before():
    # `save() < a < append()`: the append runs only after the save
    assert cl("""\
        def settle(self, run, rec, a):
            self._store.save(run) < a < self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 2)]
    # and `a < b < c < save()` still saves on some walk after an earlier append
    assert cl("""\
        def settle(self, run, rec, a, b, c):
            self._ledger.append(rec)
            a < b < c < self._store.save(run)
        """, select=SEQ) == []
