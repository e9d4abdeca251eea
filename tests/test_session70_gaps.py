"""Faults and gaps the held-out sets of session 70 found (docs/evaluation.md), and
the earlier notes' leftovers closed in that session."""
from __future__ import annotations

import pytest
from checkutil import write_tree
from cliutil import oc

CLASS_BODY_TWICE = {
    "ordercheck.toml": '[events]\nsave = ["*.db.commit"]\nappend = ["*.ledger.append"]\n',
    "pk/__init__.py": "",
    "pk/ops.py": "def save_state(self, run):\n    self.db.commit()\n",
}

FINISH = ("    def finish(self, run):\n"
          "        self.save_state(run)\n"
          "        self.ledger.append({'event': 'step'})\n")


@pytest.mark.parametrize("body, saves", [
    # Python keeps a class body's last binding of a name (held-out set 400)
    ("    def save_state(self, run):\n        pass\n\n    from .ops import save_state\n\n", True),
    ("    from .ops import save_state\n\n    def save_state(self, run):\n        pass\n\n", False),
    ("    from .ops import save_state\n\n", True),
    ("    def save_state(self, run):\n        pass\n\n    from .ops import save_state\n"
     "    save_state = None\n\n", False),
])
def test_a_class_body_binding_a_name_twice_keeps_the_last(tmp_path, body, saves):
    write_tree(tmp_path, {**CLASS_BODY_TWICE, "pk/a.py": "class Runner:\n" + body + FINISH})
    for args in ((".",), ("pk/a.py",)):
        got = oc(tmp_path, "--no-cache", *args).codes()
        assert got == ([("pk/a.py", 4 + body.count("\n"), "OC102")] if saves else []), (args, got)


def test_a_module_binding_a_function_then_importing_it_keeps_the_import(tmp_path):
    write_tree(tmp_path, {
        **CLASS_BODY_TWICE,
        "pk/ops.py": "def save_state(run):\n    run.db.commit()\n",
        "pk/c.py": ("def save_state(run):\n    pass\n\n\nfrom .ops import save_state  # noqa: E402\n\n\n"
                    "def finish(run):\n    save_state(run)\n    run.ledger.append({'event': 'step'})\n")})
    assert oc(tmp_path, "--no-cache", ".").codes() == [("pk/c.py", 10, "OC102")]
