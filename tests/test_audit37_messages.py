"""Messages a docs audit found unclear (session 37): a ``[tool.ordercheck]`` table in
``ordercheck.toml``, a ``cache-dir`` of the wrong type, and a cache folder that cannot
be written, which ran without a cache and said nothing."""
from __future__ import annotations

from cliutil import oc, write


def test_a_tool_table_in_ordercheck_toml_says_where_the_keys_go(tmp_path):
    write(tmp_path, "ordercheck.toml", '[tool.ordercheck]\nselect = ["OC101"]\n')
    write(tmp_path, "a.py", "x = 1\n")
    r = oc(tmp_path, "a.py")
    assert r.code == 2
    assert "ordercheck.toml" in r.err and "`tool`" in r.err and "top level" in r.err


def test_a_tool_table_in_pyproject_is_no_unknown_key(tmp_path):
    write(tmp_path, "pyproject.toml", '[tool.ordercheck]\nselect = ["OC101"]\n')
    write(tmp_path, "a.py", "x = 1\n")
    assert oc(tmp_path, "--no-cache", "a.py").code == 0


def test_a_cache_dir_of_the_wrong_type_names_the_key_and_what_it_takes(tmp_path):
    write(tmp_path, "ordercheck.toml", "cache-dir = 5\n")
    write(tmp_path, "a.py", "x = 1\n")
    r = oc(tmp_path, "a.py")
    assert r.code == 2 and "`cache-dir`: must be a string" in r.err, r


def test_a_cache_folder_that_cannot_be_made_is_said_once_and_the_run_goes_on(tmp_path):
    write(tmp_path, "pyproject.toml", "")
    write(tmp_path, "a.py", "def f(store, ledger, run):\n    store.save(run)\n    ledger.append_terminal(run)\n")
    (tmp_path / "blocker").write_text("a file, not a folder")
    r = oc(tmp_path, "--cache-dir", "blocker/sub", "a.py")
    assert r.code == 1 and r.codes() == [("a.py", 3, "OC101")]
    assert r.err.count("cannot use the cache folder blocker/sub") == 1, r
    quiet = oc(tmp_path, "-q", "--cache-dir", "blocker/sub", "a.py")
    assert quiet.code == 1 and "cache folder" not in quiet.err
    assert "cache folder" not in oc(tmp_path, "--cache-dir", "c", "a.py").err


def test_a_walk_into_a_nested_project_says_so(tmp_path):
    write(tmp_path, "ordercheck.toml", 'select = ["OC101"]\n')
    write(tmp_path, "sub/ordercheck.toml", 'select = ["OC102"]\n')
    write(tmp_path, "sub/pkg/a.py", "x = 1\n")
    write(tmp_path, "b.py", "x = 1\n")
    r = oc(tmp_path, "--no-cache", ".")
    assert r.code == 0
    [line] = [ln for ln in r.err.splitlines() if "which this run does not use" in ln]
    assert "sub/ordercheck.toml" in line
    # excluded by the outer config, or checked in a run of its own: nothing to say
    write(tmp_path, "ordercheck.toml", 'select = ["OC101"]\nextend-exclude = ["sub/**"]\n')
    assert "does not use" not in oc(tmp_path, "--no-cache", ".").err
    assert "does not use" not in oc(tmp_path / "sub", "--no-cache", ".").err


def test_a_nested_project_named_and_walked_is_said_once(tmp_path):
    write(tmp_path, "ordercheck.toml", 'select = ["OC101"]\n')
    write(tmp_path, "sub/ordercheck.toml", 'select = ["OC102"]\n')
    write(tmp_path, "sub/s.py", "x = 1\n")
    r = oc(tmp_path, "--no-cache", ".", "sub/s.py")
    assert r.err.count("which this run does not use") == 1, r
