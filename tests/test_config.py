"""Black-box tests of configuration (semantics §Surfaces): discovery, validation, and what each key
does to the findings. Most runs call ``ordercheck.cli.main`` in process (fast); the
tests whose point is the real exit status and stderr of a config error also run
``python -m ordercheck`` in a subprocess."""
from __future__ import annotations

import json
import re

import pytest
from cliutil import Run, oc, write


def config_error(run: Run, file: str, key: str) -> str:
    """Exit 2, one line on stderr naming the file and the key."""
    assert run.code == 2, run
    lines = [ln for ln in run.err.splitlines() if ln.strip()]
    assert len(lines) == 1, run
    line = lines[0]
    assert file in line, line
    assert key in line, line
    assert run.codes() == [], run
    return line


# OC101 at line 4, OC102 at line 8.
BOTH = """\
class Runtime:
    def complete(self, run):
        self._store.save(run)
        self._ledger.append_terminal(run.id)

    def step(self, run, rec):
        self._store.save(run)
        self._ledger.append(rec)
"""


# --------------------------------------------------------------------------- discovery


def test_no_config_gives_defaults(tmp_path):
    write(tmp_path, "proj/a.py", BOTH)
    r = oc(tmp_path, "-q", "proj/a.py")
    assert r.codes() == [("proj/a.py", 4, "OC101"), ("proj/a.py", 8, "OC102")], r


def test_ordercheck_toml_top_level_keys(tmp_path):
    write(tmp_path, "proj/ordercheck.toml", 'select = ["OC102"]\n')
    write(tmp_path, "proj/src/pkg/a.py", BOTH)
    # discovered upward from the first path, not from the current directory
    r = oc(tmp_path, "-q", "proj/src/pkg/a.py")
    assert r.codes() == [("proj/src/pkg/a.py", 8, "OC102")], r


def test_dot_ordercheck_toml(tmp_path):
    write(tmp_path, "proj/.ordercheck.toml", 'select = ["OC102"]\n')
    write(tmp_path, "proj/src/a.py", BOTH)
    r = oc(tmp_path, "-q", "proj/src/a.py")
    assert r.codes() == [("proj/src/a.py", 8, "OC102")], r


def test_pyproject_tool_table(tmp_path):
    write(tmp_path, "proj/pyproject.toml", '[project]\nname = "x"\n\n[tool.ordercheck]\nselect = ["OC102"]\n')
    write(tmp_path, "proj/src/a.py", BOTH)
    r = oc(tmp_path, "-q", "proj/src/a.py")
    assert r.codes() == [("proj/src/a.py", 8, "OC102")], r


def test_discovery_from_current_directory_without_paths(tmp_path):
    write(tmp_path, "proj/ordercheck.toml", 'select = ["OC102"]\n')
    write(tmp_path, "proj/src/a.py", BOTH)
    r = oc(tmp_path / "proj" / "src", "-q")
    assert r.codes() == [("a.py", 8, "OC102")], r


def test_discovery_from_stdin_filename(tmp_path):
    write(tmp_path, "proj/ordercheck.toml", 'select = ["OC102"]\n')
    (tmp_path / "proj" / "src").mkdir(parents=True)
    r = oc(tmp_path, "-q", "--stdin-filename", "proj/src/a.py", stdin=BOTH.encode())
    assert r.codes() == [("proj/src/a.py", 8, "OC102")], r


def test_nearest_config_wins(tmp_path):
    write(tmp_path, "ordercheck.toml", 'select = ["OC101"]\n')
    write(tmp_path, "proj/pyproject.toml", '[tool.ordercheck]\nselect = ["OC102"]\n')
    write(tmp_path, "proj/a.py", BOTH)
    r = oc(tmp_path, "-q", "proj/a.py")
    assert r.codes() == [("proj/a.py", 8, "OC102")], r


@pytest.mark.parametrize(
    "winner, loser",
    [
        ("ordercheck.toml", ".ordercheck.toml"),
        ("ordercheck.toml", "pyproject.toml"),
        (".ordercheck.toml", "pyproject.toml"),
    ],
)
def test_first_name_wins_in_one_folder(tmp_path, winner, loser):
    def body(name, code):
        return f'[tool.ordercheck]\nselect = ["{code}"]\n' if name == "pyproject.toml" else f'select = ["{code}"]\n'

    write(tmp_path, f"proj/{winner}", body(winner, "OC102"))
    write(tmp_path, f"proj/{loser}", body(loser, "OC101"))
    write(tmp_path, "proj/a.py", BOTH)
    r = oc(tmp_path, "-q", "proj/a.py")
    assert r.codes() == [("proj/a.py", 8, "OC102")], r


def test_pyproject_without_table_is_skipped(tmp_path):
    write(tmp_path, "ordercheck.toml", 'select = ["OC102"]\n')
    write(tmp_path, "proj/pyproject.toml", '[project]\nname = "x"\n\n[tool.black]\nline-length = 100\n')
    write(tmp_path, "proj/a.py", BOTH)
    r = oc(tmp_path, "-q", "proj/a.py")
    assert r.codes() == [("proj/a.py", 8, "OC102")], r


def test_pyproject_without_table_is_not_validated(tmp_path):
    # keys of other tools are none of ordercheck's business
    write(tmp_path, "proj/pyproject.toml", '[tool.ruff]\nselct = 1\n')
    write(tmp_path, "proj/a.py", BOTH)
    r = oc(tmp_path, "-q", "proj/a.py")
    assert r.code == 1, r
    assert r.codes() == [("proj/a.py", 4, "OC101"), ("proj/a.py", 8, "OC102")]


def test_config_option_names_the_file(tmp_path):
    write(tmp_path, "ordercheck.toml", 'select = ["OC101"]\n')  # would be discovered
    write(tmp_path, "conf/custom.toml", 'select = ["OC102"]\n')
    write(tmp_path, "a.py", BOTH)
    r = oc(tmp_path, "-q", "--config", "conf/custom.toml", "a.py")
    assert r.codes() == [("a.py", 8, "OC102")], r


def test_config_option_pyproject(tmp_path):
    write(tmp_path, "conf/pyproject.toml", '[tool.ordercheck]\nselect = ["OC102"]\n')
    write(tmp_path, "a.py", BOTH)
    r = oc(tmp_path, "-q", "--config", "conf/pyproject.toml", "a.py")
    assert r.codes() == [("a.py", 8, "OC102")], r


def test_config_option_missing_file_exits_2(tmp_path):
    write(tmp_path, "a.py", BOTH)
    r = oc(tmp_path, "-q", "--config", "nope.toml", "a.py")
    assert r.code == 2, r
    lines = [ln for ln in r.err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "nope.toml" in lines[0], r


def test_command_line_select_replaces_config_select(tmp_path):
    write(tmp_path, "ordercheck.toml", 'select = ["OC102"]\n')
    write(tmp_path, "a.py", BOTH)
    r = oc(tmp_path, "-q", "--select", "OC101", "a.py")
    assert r.codes() == [("a.py", 4, "OC101")], r


def test_config_ignore(tmp_path):
    write(tmp_path, "ordercheck.toml", 'ignore = ["OC102"]\n')
    write(tmp_path, "a.py", BOTH)
    r = oc(tmp_path, "-q", "a.py")
    assert r.codes() == [("a.py", 4, "OC101")], r


def test_config_select_more_specific_than_ignore(tmp_path):
    write(tmp_path, "ordercheck.toml", 'select = ["OC102"]\nignore = ["OC1"]\n')
    write(tmp_path, "a.py", BOTH)
    r = oc(tmp_path, "-q", "a.py")
    assert r.codes() == [("a.py", 8, "OC102")], r


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "name, text, key, extra",
    [
        ("ordercheck.toml", 'selct = ["OC1"]\n', "selct", "did you mean `select`"),
        ("ordercheck.toml", 'ignroe = ["OC1"]\n', "ignroe", "did you mean `ignore`"),
        ("ordercheck.toml", 'exclud = ["x"]\n', "exclud", "did you mean `exclude`"),
        (".ordercheck.toml", 'swallow_types = ["x"]\n', "swallow_types", "did you mean `swallow-types`"),
        ("pyproject.toml", '[tool.ordercheck]\nselct = ["OC1"]\n', "selct", "did you mean `select`"),
        ("pyproject.toml", '[tool.ordercheck.per-file-ignore]\n"a" = ["OC1"]\n', "per-file-ignore",
         "did you mean `per-file-ignores`"),
        ("ordercheck.toml", 'frobnicate = true\n', "frobnicate", None),
    ],
)
def test_unknown_key(tmp_path, name, text, key, extra):
    write(tmp_path, name, text)
    write(tmp_path, "a.py", BOTH)
    r = oc(tmp_path, "-q", "a.py")
    line = config_error(r, name, key)
    if extra:
        assert extra in line, line
    else:
        assert "did you mean" not in line, line


@pytest.mark.parametrize("name", ["ordercheck.toml", "pyproject.toml"])
def test_config_error_as_a_process(tmp_path, name):
    text = 'selct = ["OC1"]\n'
    if name == "pyproject.toml":
        text = "[tool.ordercheck]\n" + text
    write(tmp_path, name, text)
    write(tmp_path, "a.py", BOTH)
    r = oc(tmp_path, "a.py", proc=True)
    line = config_error(r, name, "selct")
    assert "did you mean `select`" in line
    assert r.out == ""


@pytest.mark.parametrize(
    "text, key",
    [
        ('select = "OC1"\n', "select"),
        ('ignore = [1, 2]\n', "ignore"),
        ('extend-select = "OC204"\n', "extend-select"),
        ('include = "src"\n', "include"),
        ('exclude = [true]\n', "exclude"),
        ('rules = "my.toml"\n', "rules"),
        ('swallow-types = "sqlite3.Error"\n', "swallow-types"),
        ('terminal-markers = "expired"\n', "terminal-markers"),
        ('events = ["x"]\n', "events"),
        ('[events]\nsave = "*.save"\n', "events.save"),
        ('[extend-events]\nappend = [1]\n', "extend-events.append"),
        ('per-file-ignores = ["tests/**"]\n', "per-file-ignores"),
        ('[per-file-ignores]\n"tests/**" = "OC1"\n', "per-file-ignores"),
    ],
)
def test_wrong_type(tmp_path, text, key):
    write(tmp_path, "ordercheck.toml", text)
    write(tmp_path, "a.py", BOTH)
    r = oc(tmp_path, "-q", "a.py")
    config_error(r, "ordercheck.toml", key)


@pytest.mark.parametrize(
    "text, key, code",
    [
        ('select = ["OC999"]\n', "select", "OC999"),
        ('ignore = ["OC1", "OC77"]\n', "ignore", "OC77"),
        ('extend-select = ["XY1"]\n', "extend-select", "XY1"),
        ('[per-file-ignores]\n"tests/**" = ["OC2", "OC299"]\n', "per-file-ignores", "OC299"),
    ],
)
def test_unknown_code(tmp_path, text, key, code):
    write(tmp_path, "ordercheck.toml", text)
    write(tmp_path, "a.py", BOTH)
    r = oc(tmp_path, "-q", "a.py")
    line = config_error(r, "ordercheck.toml", key)
    assert code in line, line


def test_unknown_code_in_pyproject(tmp_path):
    write(tmp_path, "pyproject.toml", '[tool.ordercheck]\nselect = ["OC1", "OC1O1"]\n')
    write(tmp_path, "a.py", BOTH)
    r = oc(tmp_path, "-q", "a.py")
    line = config_error(r, "pyproject.toml", "select")
    assert "OC1O1" in line


@pytest.mark.parametrize(
    "text, key",
    [
        ('exclude = ["src/[abc"]\n', "exclude"),
        ('include = ["src/[x"]\n', "include"),
        ('exclude = [""]\n', "exclude"),
        ('swallow-types = ["sqlite3.[Error"]\n', "swallow-types"),
        ('[events]\nsave = ["*.[save"]\n', "events"),
        ('[extend-events]\nappend = ["*[ledger.append"]\n', "extend-events"),
        ('[per-file-ignores]\n"tests/[abc" = ["OC1"]\n', "per-file-ignores"),
    ],
)
def test_bad_glob(tmp_path, text, key):
    write(tmp_path, "ordercheck.toml", text)
    write(tmp_path, "a.py", BOTH)
    r = oc(tmp_path, "-q", "a.py")
    config_error(r, "ordercheck.toml", key)


def test_invalid_toml_names_the_file(tmp_path):
    write(tmp_path, "ordercheck.toml", 'select = [\n')
    write(tmp_path, "a.py", BOTH)
    r = oc(tmp_path, "-q", "a.py")
    assert r.code == 2, r
    lines = [ln for ln in r.err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "ordercheck.toml" in lines[0], r


def test_error_in_config_given_by_option(tmp_path):
    write(tmp_path, "conf/custom.toml", 'selct = ["OC1"]\n')
    write(tmp_path, "a.py", BOTH)
    r = oc(tmp_path, "-q", "--config", "conf/custom.toml", "a.py")
    line = config_error(r, "custom.toml", "selct")
    assert "did you mean `select`" in line


# --------------------------------------------------------------------------- events

CUSTOM_SAVE = """\
class Runtime:
    def a(self, run):
        self._store.save(run)
        self._ledger.append_terminal(run.id)

    def b(self, run):
        self._db.commit_it(run)
        self._ledger.append_terminal(run.id)
"""


def test_events_replaces_a_class(tmp_path):
    write(tmp_path, "ordercheck.toml", '[events]\nsave = ["*.commit_it"]\n')
    write(tmp_path, "a.py", CUSTOM_SAVE)
    r = oc(tmp_path, "-q", "a.py")
    assert r.codes() == [("a.py", 8, "OC101")], r


def test_extend_events_adds_to_a_class(tmp_path):
    write(tmp_path, "ordercheck.toml", '[extend-events]\nsave = ["*.commit_it"]\n')
    write(tmp_path, "a.py", CUSTOM_SAVE)
    r = oc(tmp_path, "-q", "a.py")
    assert r.codes() == [("a.py", 4, "OC101"), ("a.py", 8, "OC101")], r


def test_events_in_pyproject_subtable(tmp_path):
    write(tmp_path, "pyproject.toml", '[tool.ordercheck.events]\nsave = ["*.commit_it"]\n')
    write(tmp_path, "a.py", CUSTOM_SAVE)
    r = oc(tmp_path, "-q", "a.py")
    assert r.codes() == [("a.py", 8, "OC101")], r


def test_without_events_config_only_default_save(tmp_path):
    write(tmp_path, "a.py", CUSTOM_SAVE)
    r = oc(tmp_path, "-q", "a.py")
    assert r.codes() == [("a.py", 4, "OC101")], r


def test_extend_events_append(tmp_path):
    write(tmp_path, "pyproject.toml", '[tool.ordercheck.extend-events]\nappend = ["*.audit.record"]\n')
    write(tmp_path, "a.py", """\
        class Runtime:
            def step(self, run, rec):
                self._store.save(run)
                self.audit.record(rec)
                self._ledger.append(rec)
        """)
    r = oc(tmp_path, "-q", "a.py")
    assert r.codes() == [("a.py", 4, "OC102"), ("a.py", 5, "OC102")], r


MARKERS = """\
class Runtime:
    def expire(self, run):
        self._store.save(run)
        self._ledger.append(run.id, "run_expired")

    def complete(self, run):
        self._store.save(run)
        self._ledger.append(run.id, Status.COMPLETED)
"""


def test_default_terminal_markers(tmp_path):
    write(tmp_path, "a.py", MARKERS)
    r = oc(tmp_path, "-q", "a.py")
    assert r.codes() == [("a.py", 4, "OC102"), ("a.py", 8, "OC101")], r


def test_terminal_markers_replace_the_default_list(tmp_path):
    write(tmp_path, "ordercheck.toml", 'terminal-markers = ["expired"]\n')
    write(tmp_path, "a.py", MARKERS)
    r = oc(tmp_path, "-q", "a.py")
    assert r.codes() == [("a.py", 4, "OC101"), ("a.py", 8, "OC102")], r


def test_terminal_markers_several_words(tmp_path):
    write(tmp_path, "ordercheck.toml", 'terminal-markers = ["gave up"]\n')
    write(tmp_path, "a.py", """\
        class Runtime:
            def a(self, run):
                self._store.save(run)
                self._ledger.append(run.id, RunState.GAVE_UP)

            def b(self, run):
                self._store.save(run)
                self._ledger.append(run.id, "gave")
        """)
    r = oc(tmp_path, "-q", "a.py")
    assert r.codes() == [("a.py", 4, "OC101"), ("a.py", 8, "OC102")], r


# --------------------------------------------------------------------------- swallow-types

NARROW = """\
import sqlite3


class Runtime:
    def complete(self, run):
        try:
            self._ledger.append_terminal(run.id)
        except sqlite3.Error:
            pass
        self._store.save(run)

    def step(self, run, rec):
        try:
            self._ledger.append(rec)
        except sqlite3.Error:
            pass
        self._store.save(run)

    def persist(self, run):
        try:
            self._store.save(run)
        except sqlite3.Error:
            return None
        return run

    def loud(self, run):
        try:
            self._store.save(run)
        except sqlite3.Error:
            logger.warning("save failed")
            raise
"""


def test_narrow_handler_is_not_a_catch_by_default(tmp_path):
    write(tmp_path, "a.py", NARROW)
    r = oc(tmp_path, "-q", "a.py")
    assert r.code == 0, r
    assert r.codes() == []


def test_swallow_types_make_a_narrow_handler_catch(tmp_path):
    write(tmp_path, "ordercheck.toml", 'swallow-types = ["sqlite3.Error"]\n')
    write(tmp_path, "a.py", NARROW)
    r = oc(tmp_path, "-q", "a.py")
    assert r.codes() == [("a.py", 7, "OC201"), ("a.py", 14, "OC202"), ("a.py", 21, "OC203")], r


def test_swallow_types_other_type_does_not_catch(tmp_path):
    write(tmp_path, "ordercheck.toml", 'swallow-types = ["LedgerConflict"]\n')
    write(tmp_path, "a.py", NARROW)
    r = oc(tmp_path, "-q", "a.py")
    assert r.codes() == [], r


# --------------------------------------------------------------------------- per-file-ignores, include

# OC101 at line 4, OC203 at line 9
TEST_LIKE = """\
class Runtime:
    def complete(self, run):
        self._store.save(run)
        self._ledger.append_terminal(run.id)

    def persist(self, run):
        try:
            self._store.save(run)
        except Exception:
            pass
"""


def test_per_file_ignores(tmp_path):
    write(tmp_path, "ordercheck.toml", '[per-file-ignores]\n"tests/**" = ["OC1"]\n')
    write(tmp_path, "src/a.py", TEST_LIKE)
    write(tmp_path, "tests/test_a.py", TEST_LIKE)
    write(tmp_path, "tests/unit/test_b.py", TEST_LIKE)
    r = oc(tmp_path, "-q", ".")
    assert r.codes() == [
        ("src/a.py", 4, "OC101"),
        ("src/a.py", 8, "OC203"),
        ("tests/test_a.py", 8, "OC203"),
        ("tests/unit/test_b.py", 8, "OC203"),
    ], r


@pytest.mark.parametrize("glob", ["tests", "*tests", "unit"])
def test_per_file_ignores_match_a_folder_a_file_lies_in(tmp_path, glob):
    # (held-out set 183): `exclude = ["tests"]` prunes `pkg/tests/`, and the same name
    # under per-file-ignores matched no file there, silently
    write(tmp_path, "ordercheck.toml", f'[per-file-ignores]\n"{glob}" = ["OC1"]\n')
    write(tmp_path, "pkg/a.py", TEST_LIKE)
    write(tmp_path, "pkg/tests/unit/test_b.py", TEST_LIKE)
    r = oc(tmp_path, "-q", ".")
    assert r.codes() == [
        ("pkg/a.py", 4, "OC101"),
        ("pkg/a.py", 8, "OC203"),
        ("pkg/tests/unit/test_b.py", 8, "OC203"),
    ], r


def test_per_file_ignores_by_a_folder_name_under_a_config_kept_elsewhere(tmp_path):
    # (held-out set 190): `--config configs/x.toml` over a package elsewhere;
    # `exclude = ["tests"]` pruned `pkg/tests/`, the same name under per-file-ignores
    # matched nothing there; a glob with a `/` is still the config folder's
    write(tmp_path, "configs/x.toml", '[per-file-ignores]\n"tests" = ["OC1"]\n"pkg/a.py" = ["OC2"]\n')
    write(tmp_path, "src/pkg/a.py", TEST_LIKE)
    write(tmp_path, "src/pkg/tests/unit/test_b.py", TEST_LIKE)
    r = oc(tmp_path / "src", "-q", "--config", str(tmp_path / "configs/x.toml"), ".")
    assert r.codes() == [
        ("pkg/a.py", 4, "OC101"),
        ("pkg/a.py", 8, "OC203"),
        ("pkg/tests/unit/test_b.py", 8, "OC203"),
    ], r
    # (a review: the folders above the working one are not the project's; a project
    # kept under a `tests` folder keeps its findings)
    write(tmp_path, "tests/proj/pkg/a.py", TEST_LIKE)
    r = oc(tmp_path / "tests" / "proj", "-q", "--config", str(tmp_path / "configs/x.toml"), ".")
    assert r.codes() == [("pkg/a.py", 4, "OC101"), ("pkg/a.py", 8, "OC203")], r


def test_per_file_ignores_relative_to_config_folder(tmp_path):
    write(tmp_path, "proj/pyproject.toml", '[tool.ordercheck.per-file-ignores]\n"tests/**" = ["OC101", "OC203"]\n')
    write(tmp_path, "proj/tests/test_a.py", TEST_LIKE)
    write(tmp_path, "proj/src/tests_like.py", TEST_LIKE)
    r = oc(tmp_path / "proj" / "src", "-q", "..")
    assert r.codes() == [
        ("tests_like.py", 4, "OC101"),
        ("tests_like.py", 8, "OC203"),
    ], r


def test_include_is_used_without_paths(tmp_path):
    write(tmp_path, "ordercheck.toml", 'include = ["src"]\n')
    write(tmp_path, "src/a.py", TEST_LIKE)
    write(tmp_path, "other/b.py", TEST_LIKE)
    r = oc(tmp_path, "-q")
    assert r.codes() == [("src/a.py", 4, "OC101"), ("src/a.py", 8, "OC203")], r


def test_include_is_relative_to_config_folder(tmp_path):
    write(tmp_path, "proj/ordercheck.toml", 'include = ["src"]\n')
    write(tmp_path, "proj/src/a.py", TEST_LIKE)
    write(tmp_path, "proj/other/b.py", TEST_LIKE)
    r = oc(tmp_path / "proj" / "other", "-q")
    assert sorted({f[2] for f in r.codes()}) == ["OC101", "OC203"], r
    assert all(f[0].endswith("src/a.py") for f in r.codes()), r


def test_paths_on_command_line_override_include(tmp_path):
    write(tmp_path, "ordercheck.toml", 'include = ["src"]\n')
    write(tmp_path, "src/a.py", TEST_LIKE)
    write(tmp_path, "other/b.py", TEST_LIKE)
    r = oc(tmp_path, "-q", "other")
    assert r.codes() == [("other/b.py", 4, "OC101"), ("other/b.py", 8, "OC203")], r


# --------------------------------------------------------------------------- user rules

USER_RULE = """\
id = "XY100"
name = "save-without-append"
severity = "warning"
kind = "requires-before"
first = ["append"]
then = ["save"]
message = "state save without a ledger append before it"
explanation = \"\"\"
## What it finds

A save that no ledger append precedes.
\"\"\"
"""

USER_CODE = """\
class Runtime:
    def bare(self, run):
        self._store.save(run)

    def good(self, run, rec):
        self._ledger.append(rec)
        self._store.save(run)
"""


def test_user_rule_is_loaded_relative_to_config(tmp_path):
    write(tmp_path, "proj/ordercheck.toml", 'rules = ["myrules/*.toml"]\n')
    write(tmp_path, "proj/myrules/xy100.toml", USER_RULE)
    write(tmp_path, "proj/src/a.py", USER_CODE)
    # run from a folder where "myrules/" does not exist: the glob is the config's
    r = oc(tmp_path / "proj" / "src", "-q", "a.py")
    assert r.code == 1, r
    assert r.codes() == [("a.py", 3, "XY100")], r


@pytest.mark.parametrize("rules", ['["rules/oc.toml"]', '["rules/*.toml"]'])
def test_a_missing_rule_file_is_named_where_it_was_looked_for(tmp_path, rules):
    # (held-out set 192): under `--config cfg/x.toml` a relative rule file is the
    # config folder's, which the message did not say
    write(tmp_path, "cfg/x.toml", f"rules = {rules}\n")
    write(tmp_path, "rules/oc.toml", USER_RULE)
    write(tmp_path, "a.py", USER_CODE)
    r = oc(tmp_path, "--config", "cfg/x.toml", "a.py")
    assert r.code == 2, r
    assert "(looked for cfg/rules/" in r.err, r


def test_user_rule_in_pyproject(tmp_path):
    write(tmp_path, "pyproject.toml", '[tool.ordercheck]\nrules = ["tools/oc/xy100.toml"]\n')
    write(tmp_path, "tools/oc/xy100.toml", USER_RULE)
    write(tmp_path, "a.py", USER_CODE)
    r = oc(tmp_path, "-q", "a.py")
    assert r.codes() == [("a.py", 3, "XY100")], r


def test_user_rule_is_listed_explained_and_selectable(tmp_path):
    write(tmp_path, "ordercheck.toml", 'rules = ["myrules/*.toml"]\n')
    write(tmp_path, "myrules/xy100.toml", USER_RULE)
    write(tmp_path, "a.py", USER_CODE + "\n    def inv(self, run):\n        self._store.save(run)\n"
          "        self._ledger.append_terminal(run.id)\n")
    r = oc(tmp_path, "--list-rules")
    assert r.code == 0, r
    assert re.search(r"^\s*XY100\b.*save-without-append", r.out, re.M), r.out
    r = oc(tmp_path, "--explain", "XY100")
    assert r.code == 0 and "A save that no ledger append precedes." in r.out, r
    r = oc(tmp_path, "-q", "--select", "XY1", "a.py")
    assert r.codes() == [("a.py", 3, "XY100"), ("a.py", 10, "XY100")], r
    r = oc(tmp_path, "-q", "--ignore", "XY100", "a.py")
    assert r.codes() == [("a.py", 11, "OC101")], r


def test_user_rule_codes_are_known_to_config(tmp_path):
    write(tmp_path, "ordercheck.toml", 'rules = ["myrules/*.toml"]\nselect = ["XY100"]\n')
    write(tmp_path, "myrules/xy100.toml", USER_RULE)
    write(tmp_path, "a.py", USER_CODE)
    r = oc(tmp_path, "-q", "a.py")
    assert r.codes() == [("a.py", 3, "XY100")], r


@pytest.mark.parametrize(
    "text, key",
    [
        ('id = "XY100"\nname = "x"\nseverity = "warning"\nkind = "requires-before"\n', "message"),
        (USER_RULE.replace('kind = "requires-before"', 'kind = "requires-befor"'), "kind"),
        (USER_RULE.replace('severity = "warning"', 'severity = "fatal"'), "severity"),
        (USER_RULE.replace('first = ["append"]\n', ''), "first"),
        (USER_RULE.replace('id = "XY100"', 'id = "OC101"'), "id"),
        (USER_RULE + 'frist = ["append"]\n', "frist"),
        ('id = "XY100"\nname = [\n', None),
    ],
    ids=["missing-message", "bad-kind", "bad-severity", "missing-first", "duplicate-id", "unknown-key", "bad-toml"],
)
def test_bad_user_rule_file_exits_2_naming_it(tmp_path, text, key):
    write(tmp_path, "ordercheck.toml", 'rules = ["myrules/*.toml"]\n')
    write(tmp_path, "myrules/bad_rule.toml", text)
    write(tmp_path, "a.py", USER_CODE)
    r = oc(tmp_path, "-q", "a.py")
    assert r.code == 2, r
    lines = [ln for ln in r.err.splitlines() if ln.strip()]
    assert len(lines) == 1, r
    assert "bad_rule.toml" in lines[0], lines[0]
    if key:
        assert key in lines[0], lines[0]
    assert r.codes() == []


def test_bad_user_rule_file_as_a_process(tmp_path):
    write(tmp_path, "ordercheck.toml", 'rules = ["myrules/*.toml"]\n')
    write(tmp_path, "myrules/bad_rule.toml", USER_RULE.replace('kind = "requires-before"', 'kind = "requires-befor"'))
    write(tmp_path, "a.py", USER_CODE)
    r = oc(tmp_path, "-q", "a.py", proc=True)
    assert r.code == 2, r
    lines = [ln for ln in r.err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "bad_rule.toml" in lines[0] and "kind" in lines[0], r


def test_rules_glob_matching_nothing_exits_2(tmp_path):
    write(tmp_path, "ordercheck.toml", 'rules = ["myrules/*.toml"]\n')
    write(tmp_path, "a.py", USER_CODE)
    r = oc(tmp_path, "-q", "a.py")
    config_error(r, "ordercheck.toml", "rules")


def test_rules_missing_file_exits_2(tmp_path):
    write(tmp_path, "ordercheck.toml", 'rules = ["myrules/none.toml"]\n')
    write(tmp_path, "a.py", USER_CODE)
    r = oc(tmp_path, "-q", "a.py")
    line = config_error(r, "ordercheck.toml", "rules")
    assert "none.toml" in line


def test_explicit_config_file_holding_only_a_tool_ordercheck_table(tmp_path):
    import subprocess
    import sys

    (tmp_path / "corpus.toml").write_text('[tool.ordercheck]\nselect = ["OC102"]\n')
    (tmp_path / "run.py").write_text(
        "def f(store, ledger, run):\n    store.save(run)\n    ledger.append_terminal(run.id)\n    ledger.append_event(run.id)\n"
    )
    r = subprocess.run([sys.executable, "-m", "ordercheck", "--config", "corpus.toml", "-q", "--no-cache", "run.py"],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 1, r.stderr
    assert [l.split(": ")[1].split()[0] for l in r.stdout.splitlines()] == ["OC102"]
    assert r.stdout.startswith("run.py:4:5: OC102")


def test_pyproject_tool_that_is_not_a_table_names_the_key(tmp_path):
    (tmp_path / "pyproject.toml").write_text("tool = 1\n")
    (tmp_path / "a.py").write_text("x = 1\n")
    run = oc(tmp_path, "a.py", proc=True)
    assert run.code == 2
    assert "pyproject.toml" in run.err and "`tool`" in run.err and "internal error" not in run.err


@pytest.mark.parametrize("table, key, hint", [
    ("events", "sav", "save"),
    ("extend-events", "appnd", "append"),
    ("events", "audit_log", None),  # no close class: still unknown
])
def test_an_event_class_no_rule_uses_is_an_unknown_key(tmp_path, table, key, hint):
    # semantics §Configuration: unknown keys are errors (exit 2) naming the file and the
    # key; as a warning, a typo left the defaults in force and the run passed
    (tmp_path / "ordercheck.toml").write_text(f'[{table}]\n{key} = ["*.commit"]\n')
    (tmp_path / "a.py").write_text("x = 1\n")
    run = oc(tmp_path, "a.py", proc=True)
    assert run.code == 2
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and "ordercheck.toml" in lines[0] and f"`{table}.{key}`" in lines[0]
    assert (f"did you mean `{hint}`" in lines[0]) if hint else ("did you mean" not in lines[0])


def test_a_rule_naming_an_unknown_class_names_the_rule_file(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "X100.toml").write_text(
        'id = "X100"\nname = "x"\nseverity = "warning"\nkind = "requires-before"\n'
        'first = ["audit"]\nthen = ["save"]\nmessage = "m"\n'
    )
    (tmp_path / "ordercheck.toml").write_text('rules = ["rules/*.toml"]\n')
    (tmp_path / "a.py").write_text("x = 1\n")
    run = oc(tmp_path, "a.py", proc=True)
    assert run.code == 2 and "X100.toml" in run.err and "'audit'" in run.err
    (tmp_path / "ordercheck.toml").write_text('rules = ["rules/*.toml"]\n[events]\naudit = ["*.audit"]\n')
    assert oc(tmp_path, "--no-cache", "a.py", proc=True).code == 0


def test_include_accepts_globs(tmp_path):
    (tmp_path / "ordercheck.toml").write_text('include = ["svc_*"]\n')
    write(tmp_path, "svc_a/run.py", "def f(store, ledger, run):\n    store.save(run)\n    ledger.append_terminal(run.id)\n")
    write(tmp_path, "other/run.py", "def f(store, ledger, run):\n    store.save(run)\n    ledger.append_terminal(run.id)\n")
    run = oc(tmp_path, "--no-cache", "-q")
    assert run.code == 1 and run.codes() == [("svc_a/run.py", 3, "OC101")], run


# (A review, session 41.) The command line is a layer above the config, as in ruff: its
# `--select` is the basis and drops the config's modifiers; its `--ignore` and
# `--extend-select` apply on top of whatever the config chose.
LAYER_SRC = """
def f(store, ledger, run):
    store.save(run)
    ledger.append(run)
    ledger.append_terminal(run)
"""


@pytest.mark.parametrize("config, args, want", [
    ('ignore = ["OC101"]', ["--select", "OC101"], {"OC101"}),
    ('ignore = ["OC101"]', ["--extend-select", "OC101"], {"OC101", "OC102"}),
    ('select = ["OC101"]', ["--ignore", "OC1"], set()),
    ('select = ["OC101", "OC102"]', ["--ignore", "OC102"], {"OC101"}),
    ('extend-select = ["OC204"]\nignore = ["OC102"]', ["--select", "OC1"], {"OC101", "OC102"}),
    ('ignore = ["OC102"]', [], {"OC101"}),
    ('', ["--select", "OC1", "--ignore", "OC102"], {"OC101"}),
])
def test_the_command_line_is_a_layer_above_the_config(tmp_path, config, args, want):
    write(tmp_path, "ordercheck.toml", config + "\n")
    write(tmp_path, "m.py", LAYER_SRC)
    r = oc(tmp_path, "--format", "json", *args, "m.py")
    assert r.code in (0, 1), r
    got = {d["code"] for f in json.loads(r.out)["files"] for d in f["diagnostics"]}
    assert got == want, (config, args, r.out)


def test_a_typo_in_a_rule_file_is_blamed_on_the_rule_file(tmp_path):
    """(A review, session 41.) A rule naming `notifyy` where the config defines
    `notify` was reported as the config's unknown class, advising to rename the
    right name to the typo."""
    write(tmp_path, "pyproject.toml", '[tool.ordercheck]\nrules = ["rules/*.toml"]\n'
                                      '[tool.ordercheck.extend-events]\nnotify = ["*.publish"]\n')
    write(tmp_path, "rules/ur.toml", 'id = "UR4"\nname = "n"\nseverity = "warning"\nkind = "sequence"\n'
                                     'first = ["notifyy"]\nthen = ["save"]\nmessage = "m"\n')
    write(tmp_path, "m.py", "x = 1\n")
    r = oc(tmp_path, "m.py", proc=True)
    assert r.code == 2, r
    assert "ur.toml: `first`: unknown event class 'notifyy' (did you mean `notify`, which " in r.err, r.err
    assert "pyproject.toml defines and no rule uses? one of the two names is a typo" in r.err, r.err


def test_extend_select_turns_oc900_back_on(tmp_path):
    """(A review, session 41.) `--extend-select OC900` did not undo a config's
    `ignore = ["OC900"]`, though `--select OC900` did."""
    write(tmp_path, "ordercheck.toml", 'ignore = ["OC900"]\n')
    write(tmp_path, "bad.py", "def f(:\n")
    assert oc(tmp_path, "bad.py").code == 0
    r = oc(tmp_path, "--extend-select", "OC900", "bad.py")
    assert r.code == 1 and "OC900" in r.out, r


def test_a_top_level_key_below_a_table_says_where_it_belongs(tmp_path):
    """(Held-out set 70.) `terminal-markers` written after `[tool.ordercheck.extend-events]`
    is a key of that table; the hint named `terminal-append` instead."""
    write(tmp_path, "pyproject.toml", '[tool.ordercheck]\n[tool.ordercheck.extend-events]\n'
                                      'save = ["*.save"]\nterminal-markers = ["done"]\n')
    write(tmp_path, "m.py", "x = 1\n")
    r = oc(tmp_path, "m.py", proc=True)
    assert r.code == 2, r
    assert "`extend-events.terminal-markers`" in r.err and "is a top-level setting" in r.err, r.err
    assert "write it before the `extend-events` table" in r.err and "terminal-append" not in r.err, r.err


@pytest.mark.parametrize("line", ['cache-dir = ".oc-cache"', 'per-file-ignores = {"a.py" = ["OC101"]}'])
def test_a_top_level_key_of_another_shape_below_a_table_says_so_too(tmp_path, line):
    # (a third review) the events table's own value check answered first, with advice
    # that made `cache-dir` an event class
    write(tmp_path, "pyproject.toml", f'[tool.ordercheck]\n[tool.ordercheck.extend-events]\nsave = ["*.save"]\n{line}\n')
    write(tmp_path, "m.py", "x = 1\n")
    r = oc(tmp_path, "m.py", proc=True)
    assert r.code == 2 and "is a top-level setting" in r.err and "list of strings" not in r.err, r.err
