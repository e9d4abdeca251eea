"""The Conformance to the contract (docs/semantics.md, version 2) cases through the real command line: every single-file
case without a config of its own is a file of one project, checked by one
`python -m ordercheck --format json` run, the way a corpus is graded. The findings
of each file must be exactly its marks (tests/conformance.py)."""
import json
import textwrap

import test_v2_conformance as groups_a
import test_v2_conformance_contracts as groups_c
import test_v2_conformance_edges as groups_e
import test_v2_conformance_more as groups_m
import test_v2_conformance_resolution as groups_r
from cliutil import oc
from conformance import expected


def _cases():
    for mod in (groups_a, groups_r, groups_c, groups_e, groups_m):
        for name, case in mod.CASES.items():
            src, *rest = case if isinstance(case, tuple) else (case,)
            if any(rest):  # a config or an extra rule: checked in-process only
                continue
            yield name, textwrap.dedent(src)


def test_every_plain_case_through_the_cli(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ordercheck]\n")
    want = {}
    for name, text in _cases():
        fname = "case_" + name.replace("-", "_").replace("?", "") + ".py"
        (tmp_path / "cases" / fname).parent.mkdir(exist_ok=True)
        (tmp_path / "cases" / fname).write_text(text)
        want[f"cases/{fname}"] = expected(text)
    assert len(want) > 250
    run = oc(tmp_path, "--format", "json", "--no-cache", "--jobs", "1", "cases", proc=True, timeout=300)
    assert run.code in (0, 1), run.err
    got = {path: [] for path in want}
    for f in json.loads(run.out)["files"]:
        for d in f["diagnostics"]:
            got[f["path"]].append((d["code"], d["range"]["start"]["line"] + 1))
    wrong = {p: (sorted(got[p]), w) for p, w in want.items() if sorted(got[p]) != w}
    assert not wrong, wrong
