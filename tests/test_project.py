"""semantics §Surfaces "The project, and the files reported": one file checked alone (named, or a
buffer on standard input) gets exactly the findings the whole-project run gives it,
because summaries always cover the whole project; module names follow the ``src``
roots (namespace packages included); ``--force-exclude`` applies ``exclude`` to named
files."""
import json
import textwrap
from pathlib import Path

import pytest
from cliutil import FINDING_RE, oc, write

from ordercheck import config as configmod
from ordercheck import project

HELPER = '''
    def finish(store, run):
        store.save(run)
'''


def _worker(import_line: str) -> str:
    return f'''
    {import_line}


    def complete(store, ledger, run):
        finish(store, run)
        ledger.append_terminal(run.id)


    def clean(store, ledger, run):
        ledger.append_terminal(run.id)
        finish(store, run)
'''


# name -> (files, cwd below the tmp folder, the worker's path from that cwd)
LAYOUTS = {
    "package": ({
        "pyproject.toml": "[project]\nname = 'x'\n",
        "pkg/__init__.py": "",
        "pkg/helpers.py": HELPER,
        "pkg/worker.py": _worker("from pkg.helpers import finish"),
    }, ".", "pkg/worker.py"),
    "package-relative-import": ({
        "pyproject.toml": "",
        "pkg/__init__.py": "",
        "pkg/sub/__init__.py": "",
        "pkg/helpers.py": HELPER,
        "pkg/sub/worker.py": _worker("from ..helpers import finish"),
    }, ".", "pkg/sub/worker.py"),
    "src-layout": ({
        "pyproject.toml": "[tool.ordercheck]\nselect = ['OC1']\n",
        "src/app/__init__.py": "",
        "src/app/helpers.py": HELPER,
        "src/app/worker.py": _worker("from app.helpers import finish"),
        "tests/test_app.py": "def test_x():\n    assert True\n",
    }, ".", "src/app/worker.py"),
    "namespace-package": ({
        ".git/HEAD": "ref: refs/heads/main\n",
        "src/ns/jobs/helpers.py": HELPER,
        "src/ns/jobs/worker.py": _worker("from ns.jobs.helpers import finish"),
    }, ".", "src/ns/jobs/worker.py"),
    "namespace-relative-import": ({
        "pyproject.toml": "",
        "services/billing/helpers.py": HELPER,
        "services/billing/worker.py": _worker("from .helpers import finish"),
    }, ".", "services/billing/worker.py"),
    "base-class-in-another-file": ({
        "pyproject.toml": "",
        "lib/finishing.py": """
            class Finisher:
                def finish(self, store, run):
                    store.save(run)
        """,
        "lib/worker.py": """
            from lib.finishing import Finisher


            class Worker(Finisher):
                def complete(self, store, ledger, run):
                    self.finish(store, run)
                    ledger.append_terminal(run.id)
        """,
    }, ".", "lib/worker.py"),
    "top-level-modules": ({
        "pyproject.toml": "",
        "helpers.py": HELPER,
        "worker.py": _worker("from helpers import finish"),
    }, ".", "worker.py"),
    "config-in-a-parent-folder": ({
        "ordercheck.toml": "src = ['lib']\nexclude = ['lib/legacy']\n",
        "lib/billing/helpers.py": HELPER,
        "lib/billing/jobs/worker.py": _worker("from billing.helpers import finish"),
        "lib/legacy/old.py": "def f(store):\n    store.save(1)\n",
    }, "lib/billing/jobs", "worker.py"),
    "regular-package-below-a-plain-folder": ({
        "pyproject.toml": "",
        "backend/app/__init__.py": "",
        "backend/app/helpers.py": HELPER,
        "backend/app/worker.py": _worker("from app.helpers import finish"),
    }, ".", "backend/app/worker.py"),
}


def _lines(run, path):
    """The finding lines on stdout that concern ``path`` (as printed)."""
    out = []
    for line in run.out.splitlines():
        m = FINDING_RE.match(line)
        if m and Path(m["path"]) == Path(path):
            out.append(line)
    return sorted(out)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_one_file_and_a_buffer_see_what_the_whole_project_sees(tmp_path, layout):
    files, cwd, target = LAYOUTS[layout]
    for rel, text in files.items():
        write(tmp_path, rel, text)
    here = tmp_path / cwd
    whole = oc(here, "--select", "OC101", "--no-cache", "--color", "never")
    wanted = _lines(whole, target)
    # the helper's save makes complete() an OC101 — only if the summaries saw helpers.py
    assert [int(FINDING_RE.match(x)["line"]) for x in wanted] == [
        files_line(files, cwd, target, "ledger.append_terminal(run.id)", 0)
    ], whole
    one = oc(here, "--select", "OC101", "--no-cache", "--color", "never", target)
    assert _lines(one, target) == wanted, one
    cached = [oc(here, "--select", "OC101", "--color", "never", target) for _ in range(2)]
    assert all(_lines(r, target) == wanted for r in cached), cached
    source = (here / target).read_bytes()
    buf = oc(here, "--select", "OC101", "--no-cache", "--color", "never", "--stdin-filename", target, "-",
             stdin=source)
    assert _lines(buf, target) == wanted, buf
    # and only the named file is reported
    assert {FINDING_RE.match(x)["path"] for x in one.out.splitlines() if FINDING_RE.match(x)} == {target}


def files_line(files, cwd, target, text, nth):
    rel = (Path(cwd) / target).as_posix() if cwd != "." else target
    lines = __import__("textwrap").dedent(files[rel]).splitlines()
    return [i + 1 for i, line in enumerate(lines) if text in line][nth]


def test_an_unsaved_buffer_replaces_the_file_on_disk_and_is_seen_by_the_others(tmp_path):
    """A buffer is what the project holds for that file: an edited helper changes the
    caller's findings (what an editor with several open buffers needs)."""
    from checkutil import settings_for

    from ordercheck import runner

    write(tmp_path, "pyproject.toml", "")
    write(tmp_path, "helpers.py", "def finish(store, run):\n    pass\n")
    worker = write(tmp_path, "worker.py", _worker("from helpers import finish"))
    s = settings_for(select=["OC101"])
    before = runner.run([worker], s)
    assert before.findings == []
    after = runner.run([worker], s, buffers={str(tmp_path / "helpers.py"): textwrap.dedent(HELPER).encode()})
    assert [f.span.line for f in after.findings if Path(f.path).name == "worker.py"] == [7]
    # the buffer is reported too, the unnamed file on disk is not
    assert sorted(Path(p).name for p in after.files) == ["helpers.py", "worker.py"]


def test_force_exclude_applies_exclude_to_named_files_and_buffers(tmp_path):
    write(tmp_path, "pyproject.toml", "[tool.ordercheck]\nexclude = ['gen/**']\n")
    write(tmp_path, "gen/out.py", """
        def complete(store, ledger, run):
            store.save(run)
            ledger.append_terminal(run.id)
    """)
    write(tmp_path, "gen/helpers.py", HELPER)
    named = oc(tmp_path, "--select", "OC101", "--no-cache", "gen/out.py")
    assert named.code == 1 and len(named.findings()) == 1, named
    forced = oc(tmp_path, "--select", "OC101", "--no-cache", "--force-exclude", "gen/out.py")
    assert forced.code == 0 and forced.findings() == [], forced
    buf = oc(tmp_path, "--select", "OC101", "--no-cache", "--force-exclude", "--stdin-filename", "gen/out.py", "-",
             stdin=(tmp_path / "gen/out.py").read_bytes())
    assert buf.code == 0 and buf.findings() == [], buf
    # excluded files are not part of the project: the helper's save is not seen from elsewhere
    write(tmp_path, "app.py", _worker("from gen.helpers import finish"))
    assert oc(tmp_path, "--select", "OC101", "--no-cache", "app.py").findings() == []


def test_force_exclude_skips_what_a_walk_of_the_project_skips(tmp_path):
    # a one-file run under --force-exclude reports there what the whole project's run
    # reports: nothing under `build/`, a virtual environment or `*.egg-info`
    write(tmp_path, "pyproject.toml", "")
    body = """
        def complete(store, ledger, run):
            store.save(run)
            ledger.append_terminal(run.id)
    """
    for rel in ("build/x.py", "env/lib/y.py", "pkg.egg-info/z.py", "src/ok.py"):
        write(tmp_path, rel, body)
    write(tmp_path, "env/pyvenv.cfg", "home = /usr\n")
    whole = oc(tmp_path, "--select", "OC101", "--no-cache", ".")
    assert [p for p, _, _ in whole.codes()] == ["src/ok.py"], whole
    for rel in ("build/x.py", "env/lib/y.py", "pkg.egg-info/z.py"):
        assert oc(tmp_path, "--select", "OC101", "--no-cache", rel).code == 1, rel  # named: checked
        forced = oc(tmp_path, "--select", "OC101", "--no-cache", "--force-exclude", rel)
        assert forced.code == 0 and forced.findings() == [], (rel, forced)
    forced = oc(tmp_path, "--select", "OC101", "--no-cache", "--force-exclude", "src/ok.py")
    assert [p for p, _, _ in forced.codes()] == ["src/ok.py"], forced
    # the folders above the project are no suspects
    write(tmp_path, "build/proj/pyproject.toml", "")
    write(tmp_path, "build/proj/a.py", body)
    inner = oc(tmp_path / "build" / "proj", "--select", "OC101", "--no-cache", "--force-exclude", "a.py")
    assert [p for p, _, _ in inner.codes()] == ["a.py"], inner


def test_excluded_helpers_do_not_feed_summaries_but_named_folders_are_walked(tmp_path):
    write(tmp_path, "ordercheck.toml", "include = ['src']\n")
    write(tmp_path, "src/helpers.py", HELPER)
    write(tmp_path, "src/worker.py", _worker("from helpers import finish"))
    write(tmp_path, "scripts/tool.py", _worker("from helpers import finish"))
    # a file outside `include` that is named explicitly is checked, and sees the project
    r = oc(tmp_path, "--select", "OC101", "--no-cache", "scripts/tool.py")
    assert [f[1] for f in r.findings()] == [7], r


# ------------------------------------------------------------------ module names, root


def _touch(root: Path, *rels: str) -> None:
    for rel in rels:
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("")


def test_module_names_follow_src_roots_and_the_package_rule(tmp_path):
    _touch(tmp_path, "src/ns/jobs/worker.py", "src/app/__init__.py", "src/app/store.py",
           "backend/app2/__init__.py", "backend/app2/x.py", "tool.py", "my-scripts/run.py",
           "src/ns/pkg/__init__.py", "src/ns/pkg/m.py")
    roots = [tmp_path, tmp_path / "src"]
    assert project.module_names(tmp_path / "src/ns/jobs/worker.py", roots) == ("ns.jobs.worker", ["worker", "src.ns.jobs.worker"])
    assert project.module_names(tmp_path / "src/app/store.py", roots)[0] == "app.store"
    assert project.module_names(tmp_path / "src/app/__init__.py", roots)[0] == "app"
    name, aliases = project.module_names(tmp_path / "backend/app2/x.py", roots)
    assert name == "app2.x" and "backend.app2.x" in aliases
    assert project.module_names(tmp_path / "tool.py", roots) == ("tool", [])
    assert project.module_names(tmp_path / "my-scripts/run.py", roots) == ("run", [])
    name, aliases = project.module_names(tmp_path / "src/ns/pkg/m.py", roots)
    assert name == "pkg.m" and "ns.pkg.m" in aliases


def test_src_config_key_and_its_default(tmp_path):
    cfg = configmod.parse({"src": ["lib", "other"]}, tmp_path / "ordercheck.toml")
    assert project.src_roots(cfg, tmp_path) == [(tmp_path / "lib").resolve(), (tmp_path / "other").resolve()]
    assert project.src_roots(configmod.parse({}, None), tmp_path) == [tmp_path.resolve(), (tmp_path / "src").resolve()]
    with pytest.raises(Exception, match="src"):
        configmod.parse({"src": "lib"}, tmp_path / "ordercheck.toml")


def test_project_root(tmp_path, monkeypatch):
    _touch(tmp_path, "repo/pyproject.toml", "repo/a/b/c.py", "loose/x.py")
    (tmp_path / "repo2" / ".git").mkdir(parents=True)
    _touch(tmp_path, "repo2/m/n.py")
    assert project.find_root(tmp_path / "repo/a/b/c.py") == (tmp_path / "repo").resolve()
    assert project.find_root(tmp_path / "repo2/m/n.py") == (tmp_path / "repo2").resolve()
    assert project.find_root(tmp_path / "repo/a/b/c.py", tmp_path / "repo/a") == (tmp_path / "repo/a").resolve()
    monkeypatch.chdir(tmp_path)  # no marker above loose/: the cwd names modules (nothing is walked)
    assert project.find_root(Path("loose/x.py")) == tmp_path.resolve()
    monkeypatch.chdir(tmp_path / "repo")  # a file outside the cwd and outside any project: its folder
    assert project.find_root(tmp_path / "loose/x.py") == (tmp_path / "loose").resolve()
    # several named paths: the search starts at their common folder
    assert project.common_start([tmp_path / "loose/x.py", tmp_path / "repo2/m/n.py"]) == tmp_path.resolve()
    assert project.common_start([tmp_path / "repo/a/b/c.py"]) == tmp_path / "repo/a/b/c.py"


def test_a_markerless_cwd_is_not_read_whole(tmp_path, monkeypatch):
    """A run from a folder with no pyproject.toml, .git or config (a home directory,
    /tmp) reads the paths named and what they import, transitively — not the
    files beside them."""
    from ordercheck import runner

    _touch(tmp_path, "pkg/__init__.py", "pkg/a.py", "pkg/b.py", "pkg/sub/__init__.py", "pkg/sub/c.py",
           "pkg/unused.py", "lib/helpers.py", "other/broken.py", "app/main.py")
    (tmp_path / "other" / "broken.py").write_text("def broken(:\n")  # an OC900 if it were read
    (tmp_path / "pkg" / "a.py").write_text("from . import b\nfrom .sub.c import thing\n")
    (tmp_path / "pkg" / "sub" / "c.py").write_text("import lib.helpers\nthing = 1\n")
    (tmp_path / "app" / "main.py").write_text("def f():\n    from pkg.a import b\n")
    monkeypatch.chdir(tmp_path)
    settings = runner.load_settings(None, tmp_path, isolated=True)

    def project_of(*named):
        plan = runner.plan_project([Path(n) for n in named], settings, {})
        return sorted(p.resolve().relative_to(tmp_path.resolve()).as_posix() for p in plan.order.values())

    assert project_of("app/main.py") == [
        "app/main.py", "lib/helpers.py", "pkg/__init__.py", "pkg/a.py", "pkg/b.py",
        "pkg/sub/__init__.py", "pkg/sub/c.py"]
    assert "other/broken.py" not in project_of("pkg") and "pkg/unused.py" in project_of("pkg")
    # "." inside a package (relative paths, the folder's own name): its imports still resolve
    monkeypatch.chdir(tmp_path / "pkg")
    plan = runner.plan_project([Path(".")], settings, {})
    got = {p.resolve().relative_to(tmp_path.resolve()).as_posix() for p in plan.order.values()}
    assert {"pkg/a.py", "pkg/sub/c.py", "lib/helpers.py"} <= got and "other/broken.py" not in got
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("")  # a marker: the whole project again
    assert "other/broken.py" in project_of("app/main.py")


NAMESPACE_WHEEL = {
    # an unpacked wheel: `cy` is a namespace package (no __init__.py), `flow` a regular
    # one, and the folder holding them is no identifier; nothing marks a project
    "src/cy_flow-1.0/cy/flow/__init__.py": "",
    "src/cy_flow-1.0/cy/flow/store.py": """
        def persist(store, run):
            store.save(run)
    """,
    "src/cy_flow-1.0/cy/flow/worker.py": """
        from cy.flow.store import persist

        def finish(store, ledger, run):
            persist(store, run)
            ledger.append("run_failed", run)
    """,
}


@pytest.mark.parametrize("how", ["config-elsewhere", "isolated"])
@pytest.mark.parametrize("named", ["src/cy_flow-1.0", "src/cy_flow-1.0/cy/flow/worker.py"])
def test_a_namespace_package_resolves_wherever_the_config_is(tmp_path, how, named):
    """`from cy.flow.store import persist` resolves to `cy/flow/store.py` with no `src`
    setting, whether the config sits in another folder (its folder is no import root) or
    there is none (the files the imports reach are read): a helper's summary crosses
    the modules of a namespace package (session 30: a held-out package lost 7 of its 19
    findings silently)."""
    for rel, text in NAMESPACE_WHEEL.items():
        write(tmp_path, rel, text)
    write(tmp_path, "configs/cy.toml", 'select = ["OC101"]\n')
    opts = ["--config", "configs/cy.toml"] if how == "config-elsewhere" else ["--isolated", "--select", "OC101"]
    r = oc(tmp_path, "--no-cache", *opts, named)
    assert r.code == 1, r.out + r.err
    assert "cy/flow/worker.py:6:5: OC101" in r.out


NAMESPACE_BASES = {
    # (held-out set 148, openlineage-python's wheel) a base class in a namespace package
    "w-1.0/nspkg/sub/__init__.py": "",
    "w-1.0/nspkg/sub/base.py": """
        class Transport:
            def emit(self, event):
                raise NotImplementedError
    """,
    "w-1.0/nspkg/sub/http.py": """
        from nspkg.sub.base import Transport

        class HttpTransport(Transport):
            def emit(self, event):
                return event

        class KafkaTransport(Transport):
            def emit(self, event):
                return event

        class FileTransport(Transport):
            def emit(self, event):
                return event
    """,
    "w-1.0/nspkg/sub/user.py": """
        from nspkg.sub.http import FileTransport, HttpTransport, KafkaTransport

        class Runner:
            def __init__(self):
                self.http = HttpTransport()
                self.kafka = KafkaTransport()
                self.file = FileTransport()

            def finish(self, store, run):
                store.save(run)
                self.http.emit(run)

            def fail(self, store, run):
                store.save(run)
                self.kafka.emit(run)

            def stop(self, store, run):
                store.save(run)
                self.file.emit(run)
    """,
}


@pytest.mark.parametrize("pattern", ["nspkg.sub.base.Transport.emit", "sub.base.Transport.emit",
                                     "nspkg.sub.http.HttpTransport.emit", "sub.http.HttpTransport.emit"])
def test_a_class_in_a_namespace_package_matches_by_each_of_its_names_and_its_bases(tmp_path, pattern):
    """A receiver's class and its bases match by every name their module is known by:
    the base matched only by the short name no code imports, the class only by the
    long one; `suggest` folds the three subclasses into the base as the code names it."""
    for rel, text in NAMESPACE_BASES.items():
        write(tmp_path, rel, text)
    write(tmp_path, "configs/c.toml", f'select = ["OC102"]\n[extend-events]\nappend = ["{pattern}"]\n')
    r = oc(tmp_path, "--no-cache", "--config", "configs/c.toml", "w-1.0")
    assert "w-1.0/nspkg/sub/user.py:12:9: OC102" in r.out, r.out + r.err
    if pattern == "nspkg.sub.base.Transport.emit":
        assert "w-1.0/nspkg/sub/user.py:16:9: OC102" in r.out, r.out + r.err
        import json
        rows = json.loads(oc(tmp_path, "suggest", "--isolated", "--format", "json", "w-1.0").out)["suggestions"]
        assert [r["pattern"] for r in rows if r["class"] == "append"] == ["nspkg.sub.base.Transport.emit"], rows


@pytest.mark.parametrize("named", ["w-1.0", "w-1.0/nspkg/log/utils.py"])
def test_a_function_in_a_namespace_package_matches_in_its_own_module_by_its_import_name(tmp_path, named):
    """Held-out set 221 (ampel-core: `ampel/` has no `__init__.py`): a function called in
    its own module has every name its module is known by, as where it is imported; the
    long name matched the importers' calls only, and the handler in its own module was
    read as silent."""
    handler = """
        try:
            ledger.append(rec)
        except Exception:
            insert_trouble({"msg": "lost"}, db)
    """
    write(tmp_path, "w-1.0/nspkg/log/__init__.py", "")
    write(tmp_path, "w-1.0/nspkg/log/utils.py", "def insert_trouble(doc, db):\n    db.insert_one(doc)\n\n\n"
          "def record(ledger, rec, db):" + textwrap.indent(textwrap.dedent(handler), "    "))
    write(tmp_path, "w-1.0/nspkg/worker.py", "from nspkg.log.utils import insert_trouble\n\n\n"
          "def work(ledger, rec, db):" + textwrap.indent(textwrap.dedent(handler), "    "))
    write(tmp_path, "configs/c.toml", 'select = ["OC202"]\n[extend-events]\nsurface = ["nspkg.log.utils.insert_trouble"]\n')
    r = oc(tmp_path, "--no-cache", "--config", "configs/c.toml", named)
    assert r.codes() == [], r.out + r.err
    # and without the pattern, both handlers are silent
    write(tmp_path, "configs/c.toml", 'select = ["OC202"]\n')
    r = oc(tmp_path, "--no-cache", "--config", "configs/c.toml", named)
    assert [c for _, _, c in r.codes()] == (["OC202", "OC202"] if named == "w-1.0" else ["OC202"]), r.out


ODOO_ADDON = {
    # an Odoo addon as its wheel ships it: `odoo/` and `odoo/addons/` are namespace
    # packages, so `pkgx/store.py` is `pkgx.store` and, longer, `odoo.addons.pkgx.store`
    "w-x/odoo/addons/pkgx/__init__.py": "",
    "w-x/odoo/addons/pkgx/store.py": "def persist(rec):\n    rec.write({'state': 'posted'})\n",
    "w-x/odoo/addons/pkgx/wiz/__init__.py": "",
    "w-x/odoo/addons/pkgx/wiz/post.py": (
        "from odoo.addons.pkgx.store import persist\n\n\n"
        "class Wizard:\n    def run(self, rec, move):\n        persist(rec)\n        move.action_post()\n"),
}


@pytest.mark.parametrize("save", ["pkgx.store.persist", "odoo.addons.pkgx.store.persist"])
@pytest.mark.parametrize("named", ["w-x", "w-x/odoo/addons/pkgx/wiz/post.py"])
def test_an_imported_function_and_a_framework_transaction_match_by_each_module_name(tmp_path, save, named):
    """Held-out set 244 (odoo-addon-account-loan): a call imported under the namespace
    package's long name matched a pattern with the module's short name in no case, and
    `transaction-functions` matched the short name only, silently."""
    for rel, text in ODOO_ADDON.items():
        write(tmp_path, rel, text)
    config = f'[extend-events]\nsave = ["{save}"]\nappend = ["*.action_post"]\n'
    write(tmp_path, "c.toml", config)
    r = oc(tmp_path, "--no-cache", "--config", "c.toml", named)
    assert r.codes() == [("w-x/odoo/addons/pkgx/wiz/post.py", 7, "OC102")], r.out + r.err
    for glob in ("pkgx.wiz.post.Wizard.run", "odoo.addons.pkgx.wiz.post.Wizard.run", "odoo.addons.*.run"):
        write(tmp_path, "c.toml", f'transaction-functions = ["{glob}"]\n' + config)
        r = oc(tmp_path, "--no-cache", "--config", "c.toml", named)
        assert r.codes() == [], (glob, r.out + r.err)


@pytest.mark.parametrize("importer", ["from ..vault import rekey_file", "from pkg.vault import rekey_file",
                                      "from pkg.cli.reexport import rekey_file"])
@pytest.mark.parametrize("named", [".", "pkg/cli/rotator.py"])
@pytest.mark.parametrize("reexport", ["from .file import rekey_file\n", "from .file import *\n"])
def test_a_function_a_package_re_exports_matches_by_its_defining_module(tmp_path, importer, named, reexport):
    """Held-out set 230 (ansible-vault-rotate): `from ..vault import rekey_file` over
    `pkg/vault/__init__.py`'s `from .file import rekey_file`; a pattern naming the
    module that defines it, `pkg.vault.file.rekey_file`, matched nothing (re-exports of
    re-exports too)."""
    write(tmp_path, "pyproject.toml", '[tool.ordercheck.extend-events]\nsave = ["pkg.vault.file.rekey_file"]\n')
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/vault/__init__.py", reexport)  # (a star import too: a review)
    write(tmp_path, "pkg/vault/file.py", "def rekey_file(path):\n    return path\n")
    write(tmp_path, "pkg/cli/__init__.py", "")
    write(tmp_path, "pkg/cli/reexport.py", "from pkg.vault import rekey_file\n")
    write(tmp_path, "pkg/cli/rotator.py", importer + "\n\n\ndef a(path):\n    try:\n        rekey_file(path)\n"
          "    except Exception:\n        pass\n")
    r = oc(tmp_path, "--no-cache", "--select", "OC203", named)
    assert r.codes() == [("pkg/cli/rotator.py", 6, "OC203")], r.out + r.err


PLAIN_TESTS_IN_PACKAGE = {
    # an unpacked sdist: `pkg` a regular package, its `tests/` a plain folder (no
    # __init__.py), as opsdroid ships its connector tests; nothing marks a project
    "proj-1.0/pkg/__init__.py": "",
    "proj-1.0/pkg/store.py": """
        class Connector:
            def listen(self):
                self.store.save(self.token)
    """,
    "proj-1.0/pkg/tests/test_store.py": """
        import contextlib

        from pkg.store import Connector


        def test_listen(connector: Connector):
            with contextlib.suppress(Exception):
                connector.listen()
    """,
}


@pytest.mark.parametrize("how", ["config-elsewhere", "isolated"])
def test_a_plain_folder_inside_a_package_resolves_alone_as_in_the_whole_run(tmp_path, how):
    """Held-out set 81: the test file alone followed `from pkg.store import Connector`
    below its own folder only, so its finding (there when the package folder is named)
    was lost; the folder holding the package it sits in is looked in too."""
    for rel, text in PLAIN_TESTS_IN_PACKAGE.items():
        write(tmp_path, rel, text)
    write(tmp_path, "configs/p.toml", 'select = ["OC203"]\n')
    opts = ["--config", "configs/p.toml"] if how == "config-elsewhere" else ["--isolated", "--select", "OC203"]
    whole = oc(tmp_path, "--no-cache", *opts, "proj-1.0/pkg")
    alone = oc(tmp_path, "--no-cache", *opts, "proj-1.0/pkg/tests/test_store.py")
    assert "proj-1.0/pkg/tests/test_store.py:9:9: OC203" in whole.out, whole.out + whole.err
    assert "proj-1.0/pkg/tests/test_store.py:9:9: OC203" in alone.out, alone.out + alone.err
    assert ([x for x in alone.out.splitlines() if FINDING_RE.match(x)]
            == [x for x in whole.out.splitlines() if FINDING_RE.match(x)]), alone.out + alone.err


def test_a_namespace_reading_needs_a_folder_that_can_only_be_an_import_root(tmp_path):
    """A longer name comes only from a folder no import can go through (a name that is
    no identifier: an unpacked wheel's `name-version/`, `site-packages/`), at most three
    namespace folders up. A folder named like an identifier might be anything, so
    `tools/http/client.py` is never `http.client`, and two services' `app/models.py` in a
    monorepo are never both `app.models` (a review found both)."""
    _touch(tmp_path, "w/cy_flow-1.0/cy/flow/__init__.py", "w/cy_flow-1.0/cy/flow/x.py",
           "w/g-1.0/google/cloud/storage/__init__.py", "w/g-1.0/google/cloud/storage/blob.py",
           "w/deep-1.0/a/b/c/d/pkg/__init__.py", "w/deep-1.0/a/b/c/d/pkg/m.py",
           "w/tools/http/client.py", "w/services/api/app/models.py", "w/services/worker/app/models.py",
           "w/x-1/class/pkg2/__init__.py", "w/x-1/class/pkg2/m.py",
           "w/y-1/top/__init__.py", "w/y-1/top/ns/pkg3/__init__.py", "w/y-1/top/ns/pkg3/m.py")
    elsewhere = [tmp_path / "elsewhere"]
    names = project.module_names
    assert names(tmp_path / "w/cy_flow-1.0/cy/flow/x.py", elsewhere) == ("flow.x", ["cy.flow.x"])
    assert names(tmp_path / "w/g-1.0/google/cloud/storage/blob.py", elsewhere) == (
        "storage.blob", ["google.cloud.storage.blob"])
    assert names(tmp_path / "w/deep-1.0/a/b/c/d/pkg/m.py", elsewhere) == ("pkg.m", [])  # four folders: too deep
    assert names(tmp_path / "w/tools/http/client.py", elsewhere) == ("client", [])
    assert names(tmp_path / "w/services/api/app/models.py", elsewhere) == ("models", [])
    assert names(tmp_path / "w/x-1/class/pkg2/m.py", elsewhere) == ("pkg2.m", [])  # a keyword is no package
    # a regular package above ends the namespace search; Python names the file through
    # it (`top.ns` a namespace portion of `top`): test_plain_folders_inside_a_package_...
    # (its name since session 66: what its relative imports are relative to)
    assert names(tmp_path / "w/y-1/top/ns/pkg3/m.py", elsewhere) == ("top.ns.pkg3.m", ["pkg3.m"])
    # below a src root the path names the file already: no other reading
    assert names(tmp_path / "w/cy_flow-1.0/cy/flow/x.py", [tmp_path / "w/cy_flow-1.0"]) == ("flow.x", ["cy.flow.x"])
    assert names(tmp_path / "w/tools/http/client.py", [tmp_path / "w"]) == ("tools.http.client", ["client"])


def test_plain_folders_inside_a_package_are_named_as_python_names_them(tmp_path):
    """Held-out set 125: `pkgx/sub/helper.py` with `pkgx/__init__.py` and no
    `sub/__init__.py` is `pkgx.sub.helper` to Python (a namespace portion inside a
    regular package), wherever the roots are; it was named `helper`, so `from
    pkgx.sub.helper import finish` resolved to nothing. At most three plain folders,
    each an identifier; the package's own aliases lead readings too."""
    _touch(tmp_path, "w/proj-x/pkgx/__init__.py", "w/proj-x/pkgx/sub/helper.py",
           "w/proj-x/pkgx/a/b/c/deep.py", "w/proj-x/pkgx/a/b/c/d/deeper.py",
           "w/proj-x/pkgx/my-scripts/run.py", "w/proj-x/plain/alone.py",
           "w/cy_flow-1.0/cy/flow/__init__.py", "w/cy_flow-1.0/cy/flow/tests/test_x.py")
    elsewhere = [tmp_path / "elsewhere"]
    names = project.module_names
    assert names(tmp_path / "w/proj-x/pkgx/sub/helper.py", elsewhere) == ("pkgx.sub.helper", ["helper"])
    assert names(tmp_path / "w/proj-x/pkgx/a/b/c/deep.py", elsewhere) == ("pkgx.a.b.c.deep", ["deep"])
    assert names(tmp_path / "w/proj-x/pkgx/a/b/c/d/deeper.py", elsewhere) == ("deeper", [])  # four: too deep
    assert names(tmp_path / "w/proj-x/pkgx/my-scripts/run.py", elsewhere) == ("run", [])  # no identifier
    # no package above: only the namespace reading below a folder no import can name
    assert names(tmp_path / "w/proj-x/plain/alone.py", elsewhere) == ("alone", ["plain.alone"])
    assert names(tmp_path / "w/cy_flow-1.0/cy/flow/tests/test_x.py", elsewhere) == (
        "flow.tests.test_x", ["test_x", "cy.flow.tests.test_x"])
    # a root's reading stays the name; Python's is an alias
    assert names(tmp_path / "w/proj-x/pkgx/sub/helper.py", [tmp_path / "w/proj-x"]) == (
        "pkgx.sub.helper", ["helper"])
    assert names(tmp_path / "w/proj-x/plain/alone.py", [tmp_path / "w/proj-x"]) == ("plain.alone", ["alone"])
    # no folder above a root is asked (a snapshot depends on the folders asked)
    assert names(tmp_path / "w/proj-x/pkgx/sub/helper.py", [tmp_path / "w/proj-x/pkgx/sub"]) == ("helper", [])


PLAIN_SUBPACKAGE = {
    # an unpacked wheel: `pkgx` a regular package, `pkgx/sub/` a plain folder (no
    # __init__.py), as prefect-aws ships `prefect_aws/observers/`; nothing marks a project
    "proj-x/pkgx/__init__.py": "",
    "proj-x/pkgx/sub/helper.py": """
        def finish(store, run):
            store.save_state(run)
    """,
    "proj-x/pkgx/main.py": """
        from pkgx.sub.helper import finish


        def complete(store, ledger, run):
            finish(store, run)
            ledger.append_record(run)
    """,
}


@pytest.mark.parametrize("named", ["proj-x", "proj-x/pkgx/main.py"])
def test_an_import_of_a_plain_folder_inside_a_package_resolves(tmp_path, named):
    """The helper's save crosses into `main.py` from a run in the folder above the
    unpacked wheel, of the folder or of the one file (held-out set 125: missed in both)."""
    for rel, text in PLAIN_SUBPACKAGE.items():
        write(tmp_path, rel, text)
    r = oc(tmp_path, "--no-cache", "--isolated", named)
    assert r.code == 1, r.out + r.err
    assert "proj-x/pkgx/main.py:7:5: OC102" in r.out
    assert "(via finish → store.save_state(run) at proj-x/pkgx/sub/helper.py:3)" in r.out


def test_a_relative_import_out_of_a_plain_folder_resolves_alone_as_in_the_whole_run(tmp_path):
    """A review, session 54: `from ..core import persist` in `pkgx/sub/helper.py`
    (`sub` a plain folder) is relative to `pkgx.sub`; the import closure of a one-file
    run named the helper `helper` and never followed it, so the cross-file finding a
    run of the folder reports was lost."""
    files = {
        "proj/wheel-1.0/pkgx/__init__.py": "",
        "proj/wheel-1.0/pkgx/core.py": "def persist(run):\n    run.save()\n",
        "proj/wheel-1.0/pkgx/sub/helper.py": "from ..core import persist\n\n\ndef finish(run):\n    persist(run)\n",
        "proj/wheel-1.0/pkgx/sub/caller.py": ("from .helper import finish\n\n\ndef go(ledger, run):\n"
                                            "    finish(run)\n    ledger.append(run)\n"),
    }
    for rel, text in files.items():
        write(tmp_path, rel, text)
    write(tmp_path, "cfg/ordercheck.toml", '[extend-events]\nsave = ["*.save"]\nappend = ["*.append"]\n')
    wheel = tmp_path / "proj" / "wheel-1.0"
    opts = ["--no-cache", "--config", "../../cfg/ordercheck.toml"]
    whole = oc(wheel, *opts, "pkgx")
    alone = oc(wheel, *opts, "pkgx/sub/caller.py")
    assert "pkgx/sub/caller.py:6:5: OC102" in whole.out, whole.out + whole.err
    assert "pkgx/sub/caller.py:6:5: OC102" in alone.out, alone.out + alone.err


def test_module_files_below_growing_roots_are_the_files_that_exist(tmp_path):
    """``project._ModuleFiles`` (the import closure's lookups, held-out set 99) lists
    each folder once and looks below new roots alone; what it answers is what a
    ``stat`` of every candidate below every root answers, in the roots' order."""
    import itertools
    import os
    import random

    rng = random.Random(7)
    names = ["a", "b", "c", "pkg", "Util"]
    folders = [tmp_path / f"r{i}" for i in range(6)]
    for r in folders:
        for _ in range(12):
            depth = rng.randint(1, 3)
            rel = [rng.choice(names) for _ in range(depth)]
            if rng.random() < 0.5:
                (r.joinpath(*rel)).mkdir(parents=True, exist_ok=True)
                (r.joinpath(*rel) / "__init__.py").write_text("")
            else:
                r.joinpath(*rel[:-1]).mkdir(parents=True, exist_ok=True)
                if not r.joinpath(*rel).is_dir():
                    r.joinpath(*rel[:-1], rel[-1] + ".py").write_text("")
    (folders[0] / "a.py").mkdir(exist_ok=True)  # a folder named like a module is no file

    def brute(pieces, upto):
        rel = os.path.join(*pieces)
        return [c for r in folders[:upto]
                for c in (os.path.join(str(r), rel, "__init__.py"), os.path.join(str(r), rel + ".py"))
                if os.path.isfile(c)]

    wanted = [list(p) for n in (1, 2, 3) for p in itertools.product(names, repeat=n)]
    below = project._ModuleFiles([str(folders[0]), str(folders[1])])
    for upto in range(2, len(folders) + 1):
        if upto > 2:
            below.add(str(folders[upto - 1]))
        for pieces in wanted:  # asked again after each new root: the new roots are seen
            assert below.files(pieces) == brute(pieces, upto), (pieces, upto)
    assert any(below.files(p) for p in wanted)


def test_a_plain_folder_inside_a_package_is_named_through_it_below_a_root_that_is_the_package(tmp_path):
    """Held-out set 178 (crawl4ai checked from inside `crawl4ai/`): the root's reading
    (`components.mon`) was the name, so `suggest` offered one method under two names,
    a local class's and the package's relative import's."""
    files = {
        "pkgx/__init__.py": "",
        "pkgx/components/mon.py": """
            class Monitor:
                def update_status(self, s):
                    self.db.save(s)


            def demo():
                m = Monitor()
                m.update_status("x")
        """,
        "pkgx/disp.py": """
            from .components.mon import Monitor


            def run():
                Monitor().update_status("P")
        """,
    }
    for rel, text in files.items():
        write(tmp_path, rel, text)
    root = tmp_path / "pkgx"
    assert project.module_names(root / "components/mon.py", [root])[0] == "pkgx.components.mon"
    r = oc(root, "--no-cache", "--isolated", "suggest", "--format", "json", ".")
    patterns = [s["pattern"] for s in json.loads(r.out)["suggestions"] if "update_status" in s["pattern"]]
    assert patterns == ["pkgx.components.mon.Monitor.update_status"], r
