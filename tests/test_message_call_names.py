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
