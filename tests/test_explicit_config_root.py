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
