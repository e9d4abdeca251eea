"""A long call in a message is named by what it calls (session 53, held-out set 117:
ploomber-engine's OC103 said "`self._nb_man.cell_complete(self._nb.cells[index],
cell_in...`" and "`self._nb_man.cell_exception(self._nb.cells[index], cell_i...`", so
neither call's name was whole). The witness and the fingerprint keep the text."""
from __future__ import annotations

from checkutil import check_source

TABLE = {"extend-events": {"terminal-append": ["*.cell_complete", "*.cell_exception"]}}

SRC = '''\
def run(self, index):
    for cell in self._nb.cells:
        try:
            self.execute(cell)
        except Exception as ex:
            self._nb_man.cell_exception(self._nb.cells[index], cell_index=index, exception=ex)
            break
    self._nb_man.cell_complete(self._nb.cells[index], cell_index=index)
'''


def test_a_long_call_is_named_by_its_callee():
    [f] = check_source(SRC, table=TABLE, select=["OC103"])
    assert "`self._nb_man.cell_complete(...)`" in f.message, f.message
    assert "`self._nb_man.cell_exception(...)` at line 6" in f.message, f.message
    assert any(s.text.startswith("self._nb_man.cell_complete(self._nb.cells[index]") for s in f.witness)


def test_a_short_call_and_a_chain_keep_their_text():
    short = SRC.replace("self._nb_man.cell_complete(self._nb.cells[index], cell_index=index)",
                        "nb.cell_complete(i)")
    [f] = check_source(short, table=TABLE, select=["OC103"])
    assert "`nb.cell_complete(i)`" in f.message, f.message
    # the first parenthesis is not the call's own: the text is cut as before
    chained = SRC.replace("self._nb_man.cell_complete(self._nb.cells[index], cell_index=index)",
                          "self.manager_for(self._nb.cells[index]).cell_complete(cell_index=index, more=1)")
    [f] = check_source(chained, table=TABLE, select=["OC103"])
    assert "`self.manager_for(self._nb.cells[index]).cell_complete(cel...`" in f.message, f.message


def test_a_call_over_several_lines_cut_in_a_witness_says_so():
    # (held-out set 122, pytask) the step showed the first lines joined up to a limit,
    # ending in `id=entry.id,`, with no sign that the call went on
    src = ("def f(store, journal, run, entry):\n    store.save(run)\n    journal.append(\n"
           "        _JournalEntry(\n            lock_version=CURRENT_LOCKFILE_VERSION,\n"
           "            id=entry.id,\n            state=entry.state,\n            depends_on=entry.depends_on,\n"
           "            produces=entry.produces,\n        )\n    )\n")
    [f] = check_source(src, select=["OC102"])
    step = f.witness[-1]
    assert step.text.startswith("journal.append(_JournalEntry(") and step.text.endswith(" ..."), step.text
    assert "`journal.append(...)`" in f.message


def test_a_chain_and_a_committed_call():
    # (a review) the outermost call of a chain is not its first call's; a call a
    # transaction commits is named as the same call outside one is
    chain = ("def fluent(store, batch, run, key_one, value_one, key_two, value_two):\n"
             "    store.save(run)\n"
             "    batch.put(key_one, value_one).put(key_two, value_two).put(key_two, value_two)\n")
    table = {"extend-events": {"append": ["*.put"]}}
    messages = [f.message for f in check_source(chain, table=table, select=["OC102"])]
    assert not any("`batch.put(...)`" in m for m in messages), messages
    assert any("`batch.put(key_one, value_one).put(key_two, value_two).put...`" in m for m in messages), messages
    committed = ("from django.db import transaction\n\n\n"
                 "def t(store, ledger, run, some_really_long_argument_name_number_one, another_long_argument):\n"
                 "    store.save(run)\n"
                 "    with transaction.atomic():\n"
                 "        ledger.append(some_really_long_argument_name_number_one, another_long_argument)\n")
    [f] = check_source(committed, select=["OC102"])
    assert "ledger append `ledger.append(...)`" in f.message, f.message


def test_a_cut_right_after_an_inner_call_still_says_so():
    # (a review) the joined lines stopped right after an inner call's `)`: the text
    # ended in ")" though the outer call went on
    from ordercheck.diagnose import call_shown
    from ordercheck.ir import Call, Span
    call = Call(id=1, callee="journal.append", qualnames=(), span=Span(3, 4, 6, 5),
                text="journal.append(entry_for(run_identifier_of_some_length)", stmt_lines=(3, 6))
    assert call_shown(call).endswith(" ..."), call_shown(call)
    whole = Call(id=2, callee="journal.append", qualnames=(), span=Span(3, 4, 4, 5),
                 text="journal.append(entry_for(x), y)", stmt_lines=(3, 4))
    assert call_shown(whole) == "journal.append(entry_for(x), y)"
