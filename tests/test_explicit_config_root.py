"""A config named with ``--config`` names the rules, not the project (session 37, a
docs audit): the project root, which SARIF URIs, baseline paths and the default cache
are relative to, is the nearest folder above the paths with ``pyproject.toml`` or
``.git``, as for the walk of the project, whatever folder the shell or the config is in."""
from __future__ import annotations

import json

from cliutil import oc, write

PROGRAM = "def f(store, ledger, run):\n    store.save(run)\n    ledger.append_terminal(run)\n"


def _layout(tmp_path, config_at="cfgs/oc.toml"):
    write(tmp_path, "proj/pyproject.toml", "")
    write(tmp_path, "proj/pkg/a.py", PROGRAM)
    write(tmp_path, config_at, 'select = ["OC101"]\n')
    return tmp_path / "proj"


def test_a_baseline_written_with_an_outside_config_hides_from_any_folder(tmp_path):
    proj = _layout(tmp_path)
    r = oc(tmp_path, "--config", "cfgs/oc.toml", "--no-cache", "--write-baseline", "bl.json", "proj/pkg/a.py")
    assert r.code == 0, r
    [entry] = json.loads((tmp_path / "bl.json").read_text())["findings"]
    assert entry["path"] == "pkg/a.py"
    assert oc(proj, "--config", "../cfgs/oc.toml", "--no-cache", "--baseline", "../bl.json", "pkg/a.py").code == 0
    assert oc(proj / "pkg", "--config", "../../cfgs/oc.toml", "--no-cache", "--baseline", "../../bl.json",
              "a.py").code == 0
    assert oc(proj, "--config", "../cfgs/oc.toml", "--no-cache", "pkg/a.py").code == 1  # (there is a finding)


def test_sarif_with_a_config_in_a_ci_folder_is_relative_to_the_project(tmp_path):
    proj = _layout(tmp_path, "proj/ci/oc.toml")
    r = oc(proj, "--config", "ci/oc.toml", "--no-cache", "--format", "sarif", "pkg/a.py")
    run = json.loads(r.out)["runs"][0]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"].rstrip("/").endswith("/proj")
    loc = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert loc == {"uri": "pkg/a.py", "uriBaseId": "%SRCROOT%"}


def test_the_default_cache_goes_to_the_project_and_a_configs_cache_dir_beside_the_config(tmp_path):
    proj = _layout(tmp_path)
    assert oc(tmp_path, "--config", "cfgs/oc.toml", "proj/pkg/a.py").code == 1
    assert (proj / ".ordercheck_cache").is_dir()
    assert not (tmp_path / "cfgs" / ".ordercheck_cache").exists()
    write(tmp_path, "cfgs/oc2.toml", 'select = ["OC101"]\ncache-dir = "cache-here"\n')
    assert oc(proj, "--config", "../cfgs/oc2.toml", "pkg/a.py").code == 1
    assert (tmp_path / "cfgs" / "cache-here").is_dir()


def test_a_discovered_config_still_makes_its_folder_the_root(tmp_path):
    write(tmp_path, "proj/.git/HEAD", "")
    write(tmp_path, "proj/sub/ordercheck.toml", 'select = ["OC101"]\n')
    write(tmp_path, "proj/sub/pkg/a.py", PROGRAM)
    r = oc(tmp_path / "proj", "--no-cache", "--format", "sarif", "sub/pkg/a.py")
    loc = json.loads(r.out)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert loc == {"uri": "pkg/a.py", "uriBaseId": "%SRCROOT%"}


def test_the_root_does_not_depend_on_which_files_a_hook_names(tmp_path):
    # (a review) a nested pyproject.toml in a sub-package made the root the first
    # named file's package, and the full run's baseline missed
    write(tmp_path, "repo/.git/HEAD", "")
    write(tmp_path, "repo/ordercheck.toml", 'select = ["OC101"]\n')
    write(tmp_path, "repo/app/b.py", PROGRAM)
    write(tmp_path, "repo/libs/x/pyproject.toml", "")
    write(tmp_path, "repo/libs/x/a.py", PROGRAM)
    repo = tmp_path / "repo"
    assert oc(repo, "--config", "ordercheck.toml", "--no-cache", "--write-baseline", "base.json", ".").code == 0
    paths = sorted(e["path"] for e in json.loads((repo / "base.json").read_text())["findings"])
    assert paths == ["app/b.py", "libs/x/a.py"]
    for named in (["app/b.py", "libs/x/a.py"], ["libs/x/a.py", "app/b.py"], ["libs/x/a.py"]):
        r = oc(repo, "--config", "ordercheck.toml", "--no-cache", "--baseline", "base.json", *named)
        assert r.code == 0, (named, r)


def test_a_config_named_or_discovered_gives_one_root(tmp_path):
    write(tmp_path, "repo/.git/HEAD", "")
    write(tmp_path, "repo/backend/ordercheck.toml", 'select = ["OC101"]\n')
    write(tmp_path, "repo/backend/app.py", PROGRAM)
    backend = tmp_path / "repo" / "backend"
    assert oc(backend, "--no-cache", "--write-baseline", "base.json", ".").code == 0
    assert [e["path"] for e in json.loads((backend / "base.json").read_text())["findings"]] == ["app.py"]
    r = oc(tmp_path / "repo", "--config", "backend/ordercheck.toml", "--no-cache", "--baseline",
           "backend/base.json", "backend/app.py")
    assert r.code == 0, r


def _sarif_root_and_uris(r):
    run = json.loads(r.out)["runs"][0]
    uris = [x["locations"][0]["physicalLocation"]["artifactLocation"] for x in run["results"]]
    return run["originalUriBaseIds"]["%SRCROOT%"]["uri"], uris


def test_a_symlinked_folder_keeps_the_project_it_is_named_in(tmp_path):
    # (a second review) `app -> ../outside/app`: the root search followed the link
    write(tmp_path, "proj/.git/HEAD", "")
    write(tmp_path, "proj/ordercheck.toml", 'select = ["OC101"]\n')
    write(tmp_path, "proj/main.py", PROGRAM)
    write(tmp_path, "outside/app/run.py", PROGRAM)
    (tmp_path / "proj" / "app").symlink_to(tmp_path / "outside" / "app")
    proj = tmp_path / "proj"
    for args in (("--config", "ordercheck.toml", "app/run.py", "main.py"), ("app/run.py", "main.py"),
                 ("--config", "ordercheck.toml", "app/run.py")):
        root, uris = _sarif_root_and_uris(oc(proj, "--no-cache", "--format", "sarif", *args))
        assert root.rstrip("/").endswith("/proj"), (args, root)
        assert ("main.py" in args) == ({"uri": "main.py", "uriBaseId": "%SRCROOT%"} in uris), (args, uris)
    assert oc(proj, "--config", "ordercheck.toml", "app/run.py").code == 1
    assert (proj / ".ordercheck_cache").is_dir() and not (tmp_path / "outside" / "app" / ".ordercheck_cache").exists()


def test_a_file_outside_any_project_reports_from_the_current_directory(tmp_path):
    write(tmp_path, "proj/.git/HEAD", "")
    write(tmp_path, "proj/ordercheck.toml", 'select = ["OC101"]\n')
    write(tmp_path, "elsewhere/buf.py", PROGRAM)
    proj = tmp_path / "proj"
    for args in (("../elsewhere/buf.py",), ("--config", "ordercheck.toml", "../elsewhere/buf.py")):
        r = oc(proj, "--format", "sarif", *args)
        root, _ = _sarif_root_and_uris(r)
        assert root.rstrip("/").endswith("/proj"), (args, root)
    assert not (tmp_path / "elsewhere" / ".ordercheck_cache").exists()


def test_graph_with_an_explicit_config_reads_the_projects_helpers(tmp_path):
    # (no marker: only the named config makes proj/ the project)
    write(tmp_path, "proj/ordercheck.toml", 'select = ["OC101"]\n')
    write(tmp_path, "proj/pkg/__init__.py", "")
    write(tmp_path, "proj/pkg/helper.py", "def finish(store, run):\n    store.save(run)\n")
    write(tmp_path, "proj/app/run.py", "from pkg.helper import finish\n\n\ndef complete(store, ledger, run):\n"
                                       "    finish(store, run)\n    ledger.append_terminal(run)\n")
    r = oc(tmp_path, "--config", "proj/ordercheck.toml", "--no-cache", "proj/app/run.py")
    assert r.codes() == [("proj/app/run.py", 6, "OC101")], r
    dot = oc(tmp_path, "--config", "proj/ordercheck.toml", "--graph", "proj/app/run.py:complete", "proj/app/run.py").out
    assert "[save]" in dot and "via finish" in dot, dot


def test_a_sarif_report_is_the_same_from_any_folder(tmp_path):
    """(Held-out set 61.) The texts that name a helper's call ("via Runtime._finish →
    self._store.save(run) at pkg/runtime.py:3") spell its file relative to the root,
    as the URIs do, not to the folder that ran the check."""
    write(tmp_path, "proj/pyproject.toml", "")
    write(tmp_path, "proj/pkg/__init__.py", "")
    write(tmp_path, "proj/pkg/runtime.py", """
        class Runtime:
            def _finish(self, run):
                self._store.save(run)

            def complete(self, run):
                self._finish(run)
                self._ledger.append_terminal(run.id)
    """)
    outside = oc(tmp_path, "--isolated", "--no-cache", "--format", "sarif", "proj/pkg").out
    inside = oc(tmp_path / "proj", "--isolated", "--no-cache", "--format", "sarif", "pkg").out
    assert outside == inside
    assert "self._store.save(run) at pkg/runtime.py:4" in inside
    assert "proj/pkg" not in inside.replace(str(tmp_path / "proj"), "ROOT")
