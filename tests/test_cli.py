"""Black-box tests of the command line (semantics §Surfaces).

Every test runs ordercheck inside ``tmp_path`` and asserts on exact exit codes, finding
lines (``path:line:col: CODE message``) and stderr. Tests whose point is the process's
exit status, stderr, a stdin pipe or colour run ``python -m ordercheck`` in a subprocess;
the rest call ``ordercheck.cli.main`` in process to keep the suite fast.
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from cliutil import FINDING_RE, Run, oc, write

REPO = Path(__file__).resolve().parents[1]
BUILTIN_CODES = ["OC001", "OC101", "OC102", "OC103", "OC201", "OC202", "OC203", "OC204", "OC301", "OC900", "OC901"]


def one_line_error(run: Run) -> str:
    lines = [ln for ln in run.err.splitlines() if ln.strip()]
    assert len(lines) == 1, run
    return lines[0]


# OC101 at 4:9, OC102 at 8:9, OC203 at 12:13, OC204 (off by default) at 13:9.
MIXED = """\
class Runtime:
    def complete(self, run):
        self._store.save(run)
        self._ledger.append_terminal(run.id)

    def step(self, run, rec):
        self._store.save(run)
        self._ledger.append(rec)

    def persist(self, run):
        try:
            self._store.save(run)
        except Exception:
            pass
"""
MIXED_DEFAULT = [
    ("mixed.py", 4, 9, "OC101"),
    ("mixed.py", 8, 9, "OC102"),
    ("mixed.py", 12, 13, "OC203"),
]

CLEAN = """\
class Runtime:
    def complete(self, run):
        self._ledger.append_terminal(run.id)
        self._store.save(run)
"""

INVERTED = """\
class Runtime:
    def complete(self, run):
        self._store.save(run)
        self._ledger.append_terminal(run.id)
"""


@pytest.fixture
def mixed(tmp_path):
    write(tmp_path, "mixed.py", MIXED)
    return tmp_path


# --------------------------------------------------------------------------- exit codes


def test_exit_0_when_clean(tmp_path):
    write(tmp_path, "clean.py", CLEAN)
    r = oc(tmp_path, "clean.py", proc=True)
    assert r.code == 0, r
    assert r.findings() == []
    assert r.err == ""


def test_exit_1_with_findings(mixed):
    r = oc(mixed, "-q", "mixed.py", proc=True)
    assert r.code == 1, r
    assert r.findings() == MIXED_DEFAULT


def test_exit_1_for_a_parse_error_alone(tmp_path):
    write(tmp_path, "broken.py", "def f(:\n    pass\n")
    r = oc(tmp_path, "-q", "broken.py", proc=True)
    assert r.code == 1, r
    assert [f[3] for f in r.findings()] == ["OC900"]


def test_exit_2_for_an_unknown_option(tmp_path):
    write(tmp_path, "clean.py", CLEAN)
    r = oc(tmp_path, "--no-such-option", "clean.py", proc=True)
    assert r.code == 2, r
    assert "--no-such-option" in r.err


def test_exit_2_for_a_missing_path(tmp_path):
    r = oc(tmp_path, "does_not_exist.py", proc=True)
    assert r.code == 2, r
    assert "does_not_exist.py" in one_line_error(r)


def test_exit_2_for_a_bad_format_choice(tmp_path):
    write(tmp_path, "clean.py", CLEAN)
    r = oc(tmp_path, "--format", "xml", "clean.py")
    assert r.code == 2, r
    assert "--format" in r.err


def test_exit_zero_reports_but_exits_0(mixed):
    r = oc(mixed, "-q", "--exit-zero", "mixed.py", proc=True)
    assert r.code == 0, r
    assert r.findings() == MIXED_DEFAULT


def test_exit_zero_still_exits_2_on_usage_error(mixed):
    r = oc(mixed, "--exit-zero", "--select", "OC999", "mixed.py", proc=True)
    assert r.code == 2, r


# --------------------------------------------------------------------------- statistics


def _stat_rows(out: str):
    rows = {}
    for line in out.splitlines():
        m = re.match(r"^\s*(\d+)\s+(OC\d{3})\b", line)
        if m:
            rows[m.group(2)] = int(m.group(1))
    return rows


def test_statistics_counts_per_rule(tmp_path):
    write(tmp_path, "a.py", MIXED)
    write(tmp_path, "b.py", INVERTED)
    r = oc(tmp_path, "--statistics", ".", proc=True)
    assert r.code == 1, r
    assert _stat_rows(r.out) == {"OC101": 2, "OC102": 1, "OC203": 1}
    # counts instead of findings: no finding lines
    assert r.findings() == []


def test_statistics_with_exit_zero(tmp_path):
    write(tmp_path, "b.py", INVERTED)
    r = oc(tmp_path, "--statistics", "--exit-zero", "b.py")
    assert r.code == 0, r
    assert _stat_rows(r.out) == {"OC101": 1}


def test_statistics_clean_run_exits_0(tmp_path):
    write(tmp_path, "clean.py", CLEAN)
    r = oc(tmp_path, "--statistics", "clean.py")
    assert r.code == 0, r
    assert _stat_rows(r.out) == {}
    # an empty table says so on stderr (held-out sets 177, 178), stdout stays the table
    assert r.out == "" and "All checks passed (1 file checked)." in r.err, r
    assert oc(tmp_path, "--statistics", "-q", "clean.py").err == ""


# --------------------------------------------------------------------------- select / ignore


@pytest.mark.parametrize(
    "args, expected",
    [
        (["--select", "OC102"], ["OC102"]),
        (["--select", "OC101,OC203"], ["OC101", "OC203"]),
        (["--select", "OC1"], ["OC101", "OC102"]),
        # a prefix selects every rule under it, off-by-default ones included (as in ruff)
        (["--select", "OC2"], ["OC203", "OC204"]),
        (["--select", "oc102"], ["OC102"]),
        (["--ignore", "OC1"], ["OC203"]),
        (["--ignore", "OC101,OC203"], ["OC102"]),
        (["--extend-select", "OC204"], ["OC101", "OC102", "OC203", "OC204"]),
        (["--extend-select", "OC2"], ["OC101", "OC102", "OC203", "OC204"]),
        # the more specific of a select and an ignore wins
        (["--select", "OC101", "--ignore", "OC1"], ["OC101"]),
        (["--select", "OC1", "--ignore", "OC101"], ["OC102"]),
        (["--ignore", "OC2", "--extend-select", "OC203"], ["OC101", "OC102", "OC203"]),
        (["--extend-select", "OC2", "--ignore", "OC204"], ["OC101", "OC102", "OC203"]),
        # spaces after commas are tolerated
        (["--select", "OC101, OC102"], ["OC101", "OC102"]),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) and v and v[0].startswith("--") else None,
)
def test_select_ignore_extend_select(mixed, args, expected):
    r = oc(mixed, "-q", *args, "mixed.py")
    got = sorted({f[3] for f in r.findings()})
    assert got == expected, r
    assert r.code == (1 if expected else 0), r


def test_off_by_default_rule_needs_selection(mixed):
    r = oc(mixed, "-q", "mixed.py")
    assert "OC204" not in {f[3] for f in r.findings()}
    r = oc(mixed, "-q", "--select", "OC204", "mixed.py")
    assert r.findings() == [("mixed.py", 13, 9, "OC204")], r


def test_select_nothing_matching_in_file_exits_0(mixed):
    r = oc(mixed, "-q", "--select", "OC301", "mixed.py")
    assert r.code == 0, r
    assert r.findings() == []


@pytest.mark.parametrize("option", ["--select", "--ignore", "--extend-select"])
@pytest.mark.parametrize("bad", ["OC999", "OC7", "XYZ1"])
def test_unknown_code_exits_2_naming_the_option(mixed, option, bad):
    r = oc(mixed, option, bad, "mixed.py")
    assert r.code == 2, r
    line = one_line_error(r)
    assert option in line, line
    assert bad in line, line
    assert r.findings() == []


def test_unknown_code_among_good_ones(mixed):
    r = oc(mixed, "--select", "OC101,OC10X", "mixed.py", proc=True)
    assert r.code == 2, r
    line = one_line_error(r)
    assert "--select" in line and "OC10X" in line, line


# --------------------------------------------------------------------------- version, rules, explain


def test_version():
    from importlib.metadata import version

    r = oc(REPO, "--version", proc=True)
    assert r.code == 0, r
    assert r.out.strip() == f"ordercheck {version('ordercheck')}"


def test_list_rules_lists_every_builtin_code(tmp_path):
    r = oc(tmp_path, "--list-rules")
    assert r.code == 0, r
    listed = [m.group(1) for m in re.finditer(r"^\s*(OC\d{3})\b", r.out, re.M)]
    assert sorted(listed) == BUILTIN_CODES, r.out
    # each row also names the rule
    for code, name in [("OC101", "terminal-append-after-save"), ("OC204", "silent-broad-except"),
                       ("OC001", "unused-suppression"), ("OC900", "parse-error")]:
        row = next(ln for ln in r.out.splitlines() if ln.strip().startswith(code))
        assert name in row, row


def test_explain_prints_the_rule_markdown(tmp_path):
    with open(REPO / "rules" / "OC101.toml", "rb") as fh:
        rule = tomllib.load(fh)
    r = oc(tmp_path, "--explain", "OC101")
    assert r.code == 0, r
    assert "terminal-append-after-save" in r.out
    assert rule["explanation"].strip() in r.out
    assert "## What it finds" in r.out


def test_explain_off_by_default_rule(tmp_path):
    with open(REPO / "rules" / "OC204.toml", "rb") as fh:
        rule = tomllib.load(fh)
    r = oc(tmp_path, "--explain", "OC204")
    assert r.code == 0, r
    assert rule["explanation"].strip() in r.out


def test_explain_unknown_code_exits_2(tmp_path):
    r = oc(tmp_path, "--explain", "OC999", proc=True)
    assert r.code == 2, r
    line = one_line_error(r)
    assert "OC999" in line and "--explain" in line, line
    assert r.out == ""


# --------------------------------------------------------------------------- stdin


def test_stdin_filename_reports_under_that_path(tmp_path):
    r = oc(tmp_path, "-q", "--stdin-filename", "src/run.py", stdin=INVERTED.encode(), proc=True)
    assert r.code == 1, r
    assert r.findings() == [("src/run.py", 4, 9, "OC101")]


def test_stdin_wins_over_the_file_on_disk(tmp_path):
    write(tmp_path, "src/run.py", CLEAN)
    r = oc(tmp_path, "-q", "--stdin-filename", "src/run.py", stdin=INVERTED.encode(), proc=True)
    assert r.code == 1, r
    assert r.findings() == [("src/run.py", 4, 9, "OC101")]
    # ...and the reverse: the editor's buffer is clean while the disk is not
    write(tmp_path, "src/run.py", INVERTED)
    r = oc(tmp_path, "-q", "--stdin-filename", "src/run.py", stdin=CLEAN.encode(), proc=True)
    assert r.code == 0, r
    assert r.findings() == []


def test_stdin_clean_exits_0(tmp_path):
    r = oc(tmp_path, "-q", "--stdin-filename", "src/run.py", stdin=CLEAN.encode(), proc=True)
    assert r.code == 0, r
    assert r.out == ""


def test_stdin_json_lists_the_file_even_when_clean(tmp_path):
    import json

    r = oc(tmp_path, "--format", "json", "--stdin-filename", "src/run.py", stdin=CLEAN.encode(), proc=True)
    assert r.code == 0, r
    doc = json.loads(r.out)
    assert [f["path"] for f in doc["files"]] == ["src/run.py"]
    assert doc["files"][0]["diagnostics"] == []
    assert doc["files"][0]["uri"].startswith("file://")
    assert doc["files"][0]["uri"].endswith("/src/run.py")
    assert doc["summary"]["findings"] == 0


def test_stdin_json_with_a_finding_is_zero_based(tmp_path):
    import json

    r = oc(tmp_path, "--format", "json", "--stdin-filename", "src/run.py", stdin=INVERTED.encode(), proc=True)
    assert r.code == 1, r
    doc = json.loads(r.out)
    assert [f["path"] for f in doc["files"]] == ["src/run.py"]
    (diag,) = doc["files"][0]["diagnostics"]
    assert diag["code"] == "OC101"
    assert diag["severity"] == 1
    assert diag["source"] == "ordercheck"
    assert diag["range"]["start"] == {"line": 3, "character": 8}


@pytest.mark.parametrize("spelled", ["./src/run.py", "src//run.py", "{root}/src/run.py"])
def test_stdin_filename_is_shown_as_given_with_the_files_findings(tmp_path, spelled):
    """An editor maps findings back by the name it sent (docs/decisions.md,
    "`--stdin-filename`'s name is shown as given"); the findings are the file's."""
    import json

    name = spelled.format(root=tmp_path)
    write(tmp_path, "src/run.py", INVERTED)
    r = oc(tmp_path, "--no-cache", "--format", "json", "--stdin-filename", name, stdin=INVERTED.encode())
    doc = json.loads(r.out)
    assert [f["path"] for f in doc["files"]] == [name]
    got = [(d["code"], d["range"]["start"]["line"]) for d in doc["files"][0]["diagnostics"]]
    on_disk = json.loads(oc(tmp_path, "--no-cache", "--format", "json", "src/run.py").out)
    assert [f["path"] for f in on_disk["files"]] == ["src/run.py"]
    assert got == [(d["code"], d["range"]["start"]["line"]) for d in on_disk["files"][0]["diagnostics"]] != []


def test_stdin_parse_error_is_oc900_under_that_path(tmp_path):
    r = oc(tmp_path, "-q", "--stdin-filename", "pkg/mod.py", stdin=b"def f(:\n    pass\n", proc=True)
    assert r.code == 1, r
    assert [(f[0], f[1], f[3]) for f in r.findings()] == [("pkg/mod.py", 1, "OC900")]


# --------------------------------------------------------------------------- text format


def test_quiet_prints_only_finding_lines(mixed):
    r = oc(mixed, "-q", "mixed.py")
    assert r.code == 1, r
    lines = r.out.splitlines()
    assert len(lines) == 3, r
    for line in lines:
        assert FINDING_RE.match(line), line
    assert r.findings() == MIXED_DEFAULT


def test_quiet_long_form(mixed):
    r = oc(mixed, "--quiet", "mixed.py")
    assert [ln for ln in r.out.splitlines()] and all(FINDING_RE.match(ln) for ln in r.out.splitlines()), r


def test_quiet_clean_prints_nothing(tmp_path):
    write(tmp_path, "clean.py", CLEAN)
    r = oc(tmp_path, "-q", "clean.py")
    assert r.code == 0, r
    assert r.out.strip() == ""


def test_text_line_shape_and_witness(tmp_path):
    write(tmp_path, "inv.py", INVERTED)
    r = oc(tmp_path, "--color", "never", "inv.py")
    assert r.code == 1, r
    lines = r.out.splitlines()
    m = FINDING_RE.match(lines[0])
    assert m, lines[0]
    assert (m["path"], m["line"], m["col"], m["code"]) == ("inv.py", "4", "9", "OC101")
    # the message names the save it follows
    assert "line 3" in m["msg"]
    # the witness: one indented line per step, line number, event class, text
    assert any(re.match(r"^\s+3\s+save\s+self\._store\.save\(run\)\s*$", ln) for ln in lines), r.out
    assert any(
        re.match(r"^\s+4\s+terminal-append\s+self\._ledger\.append_terminal\(run\.id\)\s*$", ln) for ln in lines
    ), r.out
    # only one finding line in the whole output
    assert len([ln for ln in lines if FINDING_RE.match(ln)]) == 1


def test_text_positions_are_one_based_at_module_level(tmp_path):
    write(tmp_path, "m.py", "store.save(run)\nledger.append_terminal(run)\n")
    r = oc(tmp_path, "-q", "m.py")
    assert r.findings() == [("m.py", 2, 1, "OC101")], r


def test_text_columns_count_characters_not_bytes(tmp_path):
    # "é" is 2 bytes in UTF-8; the column is still the character's 1-based position.
    write(tmp_path, "u.py", "x = 'é'; store.save(run)\nr = 'é'; ledger.append_terminal(run)\n")
    r = oc(tmp_path, "-q", "u.py")
    assert r.findings() == [("u.py", 2, 10, "OC101")], r


def test_text_paths_are_relative_to_cwd_for_nested_files(tmp_path):
    write(tmp_path, "src/pkg/run.py", INVERTED)
    r = oc(tmp_path, "-q", "src")
    assert r.findings() == [("src/pkg/run.py", 4, 9, "OC101")], r


def test_color_never_has_no_escape_codes(mixed):
    r = oc(mixed, "--color", "never", "mixed.py", proc=True)
    assert r.code == 1
    assert "\x1b" not in r.out and "\x1b" not in r.err


def test_color_auto_off_when_not_a_terminal(mixed):
    r = oc(mixed, "mixed.py", proc=True)
    assert "\x1b" not in r.out


def test_color_always_colours_even_when_piped(mixed):
    r = oc(mixed, "--color", "always", "mixed.py", proc=True)
    assert r.code == 1
    assert "\x1b[" in r.out, r


def test_color_bad_choice_exits_2(mixed):
    r = oc(mixed, "--color", "sometimes", "mixed.py", proc=True)
    assert r.code == 2, r


# --------------------------------------------------------------------------- --graph

DOT_NODE_RE = re.compile(r'^\s*("(?:[^"\\]|\\.)*"|\w+)\s*\[(.*)\];?\s*$')
DOT_EDGE_RE = re.compile(r'^\s*("(?:[^"\\]|\\.)*"|\w+)\s*->\s*("(?:[^"\\]|\\.)*"|\w+)\s*(?:\[(.*)\])?;?\s*$')


def _parse_dot(text: str):
    nodes, edges = {}, []
    for line in text.splitlines():
        m = DOT_EDGE_RE.match(line)
        if m:
            edges.append((m.group(1).strip('"'), m.group(2).strip('"'), m.group(3) or ""))
            continue
        m = DOT_NODE_RE.match(line)
        if m and m.group(1) not in ("node", "edge", "graph"):
            nodes[m.group(1).strip('"')] = m.group(2)
    return nodes, edges


def _is_red_bold(attrs: str) -> bool:
    red = re.search(r'\bcolor\s*=\s*"?red"?', attrs) is not None
    bold = re.search(r'penwidth\s*=\s*"?([0-9.]+)', attrs)
    bold = (bold is not None and float(bold.group(1)) >= 2) or re.search(r'style\s*=\s*"?[^"\],]*bold', attrs) is not None
    return red and bold


def test_graph_dot_highlights_the_witness(tmp_path):
    write(tmp_path, "inv.py", INVERTED)
    r = oc(tmp_path, "--graph", "inv.py:Runtime.complete")
    assert r.code == 0, r
    assert r.out.lstrip().startswith("digraph"), r.out
    assert r.out.rstrip().endswith("}")
    nodes, edges = _parse_dot(r.out)
    hot = [(u, v) for u, v, a in edges if _is_red_bold(a)]
    assert hot, r.out
    hot_nodes = {u for u, _ in hot} | {v for _, v in hot}
    save_nodes = {n for n, a in nodes.items() if "_store.save" in a}
    append_nodes = {n for n, a in nodes.items() if "append_terminal" in a}
    assert save_nodes & hot_nodes, r.out
    assert append_nodes & hot_nodes, r.out
    # the highlighted edges form one chain (a path), not scattered edges
    succ = {}
    for u, v in hot:
        succ.setdefault(u, set()).add(v)
    assert all(len(vs) == 1 for vs in succ.values()), r.out


def test_graph_clean_function_has_no_red_edges(tmp_path):
    write(tmp_path, "clean.py", CLEAN)
    r = oc(tmp_path, "--graph", "clean.py:Runtime.complete")
    assert r.code == 0, r
    assert r.out.lstrip().startswith("digraph")
    _, edges = _parse_dot(r.out)
    assert edges, r.out
    assert not [e for e in edges if _is_red_bold(e[2])], r.out


def test_graph_a_grey_class_has_black_text(tmp_path):
    # held-out set 106: a quiet call's node was white text on light grey
    write(tmp_path, "q.py", "import logging\nlog = logging.getLogger()\n\n\ndef f(store, run):\n"
                            "    log.debug('x')\n    store.save(run)\n")
    r = oc(tmp_path, "--graph", "q.py:f")
    nodes, _ = _parse_dot(r.out)
    [quiet] = [a for a in nodes.values() if "log.debug" in a and "[quiet]" in a]
    [save] = [a for a in nodes.values() if "store.save" in a and "[save]" in a]
    assert "fontcolor=black" in quiet and "fontcolor=white" in save, r.out


def test_graph_bad_qualname_exits_2(tmp_path):
    write(tmp_path, "inv.py", INVERTED)
    r = oc(tmp_path, "--graph", "inv.py:Runtime.nope", proc=True)
    assert r.code == 2, r
    line = one_line_error(r)
    assert "Runtime.nope" in line and "--graph" in line, line
    assert r.out == ""


SETTER = """\
class Run:
    @property
    def status(self):
        return self._status

    @status.setter
    def status(self, value):
        self._store.save(self)
        self._ledger.append_terminal(self)
"""


def test_graph_of_one_of_several_functions_of_a_name(tmp_path):
    """A property's getter and setter share a name (a blind probe, session 60): several
    definitions ask for ``QUALNAME@LINE``, and a line picks the one that holds it."""
    write(tmp_path, "m.py", SETTER)
    r = oc(tmp_path, "--graph", "m.py:Run.status", proc=True)
    assert r.code == 2 and r.out == "", r
    line = one_line_error(r)
    assert "lines 3, 7" in line and "Run.status@LINE" in line, line
    setter = oc(tmp_path, "--graph", "m.py:Run.status@9")
    assert setter.code == 0 and "append_terminal" in setter.out, setter
    assert [e for e in _parse_dot(setter.out)[1] if _is_red_bold(e[2])], setter.out  # its OC101's witness
    getter = oc(tmp_path, "--graph", "m.py:Run.status@3")
    assert getter.code == 0 and "append_terminal" not in getter.out, getter
    assert oc(tmp_path, "--graph", "m.py:Run.status@1").code == 2


def test_graph_missing_file_exits_2(tmp_path):
    r = oc(tmp_path, "--graph", "missing.py:f")
    assert r.code == 2, r
    line = one_line_error(r)
    assert "missing.py" in line, line


def test_graph_without_qualname_exits_2(tmp_path):
    write(tmp_path, "inv.py", INVERTED)
    r = oc(tmp_path, "--graph", "inv.py")
    assert r.code == 2, r
    assert "--graph" in one_line_error(r)


# --------------------------------------------------------------------------- walking

SKIPPED_DIRS = [".venv", "venv", "__pycache__", "build", "dist", ".tox", "node_modules", ".git"]


@pytest.fixture
def tree(tmp_path):
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/mod.py", INVERTED)
    write(tmp_path, "pkg/stub.pyi", INVERTED)
    write(tmp_path, "pkg/legacy/old.py", INVERTED)
    write(tmp_path, "pkg/notes.txt", INVERTED)
    for d in SKIPPED_DIRS:
        write(tmp_path, f"{d}/x.py", INVERTED)
        write(tmp_path, f"pkg/{d}/y.py", INVERTED)
    return tmp_path


def test_walk_skips_usual_suspects_and_pyi(tree):
    r = oc(tree, "-q", ".")
    assert r.code == 1, r
    assert r.findings() == [
        ("pkg/legacy/old.py", 4, 9, "OC101"),
        ("pkg/mod.py", 4, 9, "OC101"),
    ]


@pytest.mark.parametrize("name", ["build", "dist"])
def test_a_package_named_like_a_build_folder_is_walked(tree, name):
    # ase's own `ase/build/` (docs/decisions.md "A package named build"): with its
    # `__init__.py` it is the project's code; without one it is a build's output
    write(tree, f"pkg/{name}/__init__.py", "")
    r = oc(tree, "-q", ".")
    assert r.findings() == [
        (f"pkg/{name}/y.py", 4, 9, "OC101"),
        ("pkg/legacy/old.py", 4, 9, "OC101"),
        ("pkg/mod.py", 4, 9, "OC101"),
    ], r
    # named alone, with --force-exclude (pre-commit), it is checked too
    alone = oc(tree, "-q", "--force-exclude", f"pkg/{name}/y.py")
    assert alone.findings() == [(f"pkg/{name}/y.py", 4, 9, "OC101")], alone
    skipped = oc(tree, "-q", "--force-exclude", f"{name}/x.py")
    assert skipped.findings() == [], skipped


def test_walk_default_path_is_cwd(tree):
    r = oc(tree, "-q")
    assert r.findings() == [
        ("pkg/legacy/old.py", 4, 9, "OC101"),
        ("pkg/mod.py", 4, 9, "OC101"),
    ], r


def test_walk_honours_exclude(tree):
    write(tree, "ordercheck.toml", 'exclude = ["pkg/legacy/**"]\n')
    r = oc(tree, "-q", ".")
    assert r.findings() == [("pkg/mod.py", 4, 9, "OC101")], r


def test_walk_honours_exclude_file_glob(tree):
    write(tree, "ordercheck.toml", 'exclude = ["pkg/mod.py"]\n')
    r = oc(tree, "-q", ".")
    assert r.findings() == [("pkg/legacy/old.py", 4, 9, "OC101")], r


@pytest.mark.parametrize("rel", ["pkg/legacy/old.py", ".venv/x.py", "build/x.py", "pkg/stub.pyi", "pkg/node_modules/y.py"])
def test_explicit_file_is_always_checked(tree, rel):
    write(tree, "ordercheck.toml", 'exclude = ["pkg/legacy/**"]\n')
    r = oc(tree, "-q", rel)
    assert r.code == 1, r
    assert r.findings() == [(rel, 4, 9, "OC101")]


def test_explicit_file_and_directory_together(tree):
    r = oc(tree, "-q", "pkg", "build/x.py")
    assert r.findings() == [
        ("build/x.py", 4, 9, "OC101"),
        ("pkg/legacy/old.py", 4, 9, "OC101"),
        ("pkg/mod.py", 4, 9, "OC101"),
    ], r


def test_same_file_twice_reported_once(tree):
    r = oc(tree, "-q", "pkg/mod.py", "pkg/mod.py", "pkg")
    assert r.findings().count(("pkg/mod.py", 4, 9, "OC101")) == 1, r


# --------------------------------------------------------------------------- no traceback


@pytest.mark.parametrize(
    "args",
    [
        ["--format", "json", "--select", ""],
        ["--graph", ":"],
        ["--graph", "inv.py:"],
        ["--config", "nope.toml", "inv.py"],
        ["--explain", ""],
        ["--stdin-filename", ""],
    ],
    ids=str,
)
def test_odd_arguments_never_traceback(tmp_path, args):
    write(tmp_path, "inv.py", INVERTED)
    r = oc(tmp_path, *args, stdin=b"", proc=True)
    # oc() already asserts there is no traceback; the exit code is 0, 1 or 2.
    assert r.code in (0, 1, 2), r


def test_lsp_subcommand_rejects_arguments_with_a_usage_error(tmp_path):
    # the server itself is tested end to end in tests/test_lsp.py
    run = oc(tmp_path, "lsp", "src/", proc=True)
    assert run.code == 2
    assert "unexpected argument 'src/'" in run.err


def test_oc900_is_turned_off_only_by_its_exact_code(tmp_path):
    write(tmp_path, "bad.py", "def f(:\n")
    assert oc(tmp_path, "--no-cache", "--ignore", "OC9", "bad.py").code == 1
    assert oc(tmp_path, "--no-cache", "--ignore", "OC900", "bad.py").code == 0


def test_stdin_buffer_replaces_the_file_however_it_is_spelled(tmp_path):
    src = "def f(store, ledger, run):\n    store.save(run)\n    ledger.append_terminal(run.id)\n"
    write(tmp_path, "s1.py", src)
    run = oc(tmp_path, "--no-cache", "-q", "--stdin-filename", "./s1.py", "s1.py", stdin=src.encode())
    assert len(run.out.splitlines()) == 1, run
