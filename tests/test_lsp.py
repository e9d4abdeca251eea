"""`ordercheck lsp` end to end: a pytest-lsp client drives a real `ordercheck lsp`
subprocess over stdio (semantics §Surfaces). Plus the pure pieces of ordercheck.lsp and the
exit-2 message when pygls is missing."""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.protocol import default_converter  # pygls and pytest-lsp are in the `test` extra
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from ordercheck import lsp

SERVER = [sys.executable, "-m", "ordercheck", "lsp"]
TIMEOUT = 20.0

# 🎉 is two UTF-16 code units (one code point): the call after it starts at UTF-16
# column 4 + 5 + 2 + 3 = 14 on its line (code point column 13).
INVERTED = (
    "def complete(store, ledger, run):\n"
    "    store.save(run)\n"
    "    x = '🎉'; ledger.append_terminal(run.id)\n"
)
FIXED = (
    "def complete(store, ledger, run):\n"
    "    x = '🎉'; ledger.append_terminal(run.id)\n"
    "    store.save(run)\n"
)
HELPER_SAVES = "def finish(store, run):\n    store.save(run)\n"
HELPER_LOGS = "def finish(store, run):\n    store.log(run)\n"
CALLER = (
    "from helper import finish\n"
    "\n"
    "def complete(store, ledger, run):\n"
    "    finish(store, run)\n"
    "    ledger.append_terminal(run.id)\n"
)


# --------------------------------------------------------------------------- helpers


def recording_client():
    """pytest-lsp's client, which also keeps every publishDiagnostics (uri, version,
    count) in order and accepts the server's dynamic registrations."""
    client = LanguageClient(converter_factory=default_converter)
    features = dict(DEFAULT_CLIENT_FEATURES)
    client.published = []
    client.registrations = []

    def publish(client: LanguageClient, params: types.PublishDiagnosticsParams):
        client.published.append((params.uri, params.version, len(params.diagnostics)))
        client.diagnostics[params.uri] = params.diagnostics

    def register(client: LanguageClient, params: types.RegistrationParams):
        client.registrations.extend(params.registrations)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish
    features[types.CLIENT_REGISTER_CAPABILITY] = register
    register_lsp_features(client, features)
    return client


@contextlib.asynccontextmanager
async def session(root: Path, encodings=("utf-8", "utf-16")):
    """A client connected to a fresh server whose workspace is ``root``; the client
    prefers UTF-8 positions, which the server must decline."""
    client = await ClientServerConfig(server_command=SERVER, client_factory=recording_client).start()
    caps = client_capabilities("visual-studio-code")
    caps.general = types.GeneralClientCapabilities(position_encodings=list(encodings))
    result = await client.initialize_session(types.InitializeParams(
        capabilities=caps, root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="project")]))
    client.init_result = result
    try:
        yield client
    finally:
        await client.shutdown_session()
        await client.stop()


async def diagnostics_for(client, uri: str, predicate, timeout: float = TIMEOUT):
    """Wait until the diagnostics published for ``uri`` satisfy ``predicate``."""
    deadline = time.monotonic() + timeout
    while True:
        if uri in client.diagnostics and predicate(client.diagnostics[uri]):
            return client.diagnostics[uri]
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no matching diagnostics for {uri}; last: {client.diagnostics.get(uri)}")
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), left)


def codes(diags):
    return sorted(str(d.code) for d in diags)


def open_doc(client, path: Path, text: str, version: int = 1):
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=path.as_uri(), language_id="python", version=version, text=text)))


def replace_all(client, path: Path, text: str, version: int):
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


def changed_on_disk(client, *paths: Path):
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=p.as_uri(), type=types.FileChangeType.Changed) for p in paths]))


def cli_json(root: Path, path: Path) -> dict:
    out = subprocess.run([sys.executable, "-m", "ordercheck", "--no-cache", "--format", "json", path.name],
                         cwd=root, capture_output=True)
    return json.loads(out.stdout)


# --------------------------------------------------------------------------- end to end


@pytest.mark.asyncio
async def test_open_change_fix_close_and_code_action(tmp_path):
    (tmp_path / "ordercheck.toml").write_text("")
    run = tmp_path / "run.py"
    run.write_text(FIXED)  # the file on disk is clean: the server must read the buffer
    async with session(tmp_path) as client:
        assert client.init_result.capabilities.position_encoding == types.PositionEncodingKind.Utf16
        sync = client.init_result.capabilities.text_document_sync
        assert sync.open_close and sync.save is not None and client.init_result.capabilities.code_action_provider
        uri = run.as_uri()
        open_doc(client, run, INVERTED)
        diags = await diagnostics_for(client, uri, lambda d: len(d) > 0)
        assert codes(diags) == ["OC101"]
        d = diags[0]
        assert d.source == "ordercheck" and d.severity == types.DiagnosticSeverity.Error
        # the range in UTF-16 code units: `ledger.append_terminal(run.id)` after the emoji
        assert (d.range.start.line, d.range.start.character) == (2, 14)
        assert (d.range.end.line, d.range.end.character) == (2, 14 + len("ledger.append_terminal(run.id)"))
        related = [(r.location.uri, r.location.range.start.line, r.message) for r in d.related_information]
        assert (uri, 1, "state saved here: store.save(run)") in related
        witness = [r for r in related if r[2].startswith("witness")]
        assert [w[1] for w in witness] == [1, 2] and "save" in witness[0][2]
        # the same diagnostic as `--format json` for the same text
        run.write_text(INVERTED)
        cli = cli_json(tmp_path, run)["files"][0]["diagnostics"][0]
        assert (cli["code"], cli["message"], cli["range"]) == (d.code, d.message, {
            "start": {"line": 2, "character": 14}, "end": {"line": 2, "character": 44}})
        assert cli["data"]["fingerprint"] == d.data["fingerprint"]
        run.write_text(FIXED)

        # the quick fix appends the suppression comment at the end of the finding's line
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=d.range,
            context=types.CodeActionContext(diagnostics=[d])))
        assert len(actions) == 1 and actions[0].kind == types.CodeActionKind.QuickFix
        (edit,) = actions[0].edit.changes[uri]
        line2 = INVERTED.splitlines()[2]
        end16 = len(line2.encode("utf-16-le")) // 2
        assert (edit.range.start.line, edit.range.start.character, edit.range.end.character) == (2, end16, end16)
        assert edit.new_text == "  # ordercheck: ignore[OC101] -- "
        # applying it (with a reason) silences the finding
        lines = INVERTED.splitlines(keepends=True)
        lines[2] = line2 + edit.new_text + "replay re-appends\n"
        replace_all(client, run, "".join(lines), 2)
        await diagnostics_for(client, uri, lambda d: len(d) == 0)

        # a burst of changes is checked once, after the pause, on the last buffer
        before = len(client.published)
        started = time.monotonic()
        for version in range(10, 16):
            replace_all(client, run, FIXED if version % 2 else INVERTED, version)
            await asyncio.sleep(0.01)
        burst = time.monotonic() - started
        await diagnostics_for(client, uri, lambda d: len(d) == 0)
        await asyncio.sleep(lsp.DEBOUNCE + 0.3)
        if burst < lsp.DEBOUNCE / 2:
            assert client.published[before:] == [(uri, 15, 0)]
        else:  # (a loaded machine: the burst outlasted the pause, so more than one check ran)
            assert client.published[-1] == (uri, 15, 0)

        # a change to the fixed form: cleared; back to the inverted form: published again
        replace_all(client, run, INVERTED, 23)
        await diagnostics_for(client, uri, lambda d: codes(d) == ["OC101"])
        replace_all(client, run, FIXED, 24)
        await diagnostics_for(client, uri, lambda d: len(d) == 0)
        replace_all(client, run, INVERTED, 25)
        await diagnostics_for(client, uri, lambda d: codes(d) == ["OC101"])

        # a syntax error in the buffer is an OC900, not a crash; then it recovers
        replace_all(client, run, "def broken(:\n", 26)
        diags = await diagnostics_for(client, uri, lambda d: codes(d) == ["OC900"])
        replace_all(client, run, INVERTED, 27)
        await diagnostics_for(client, uri, lambda d: codes(d) == ["OC101"])
        replace_all(client, run, "x = 1\0\n", 28)  # CPython refuses a NUL byte
        await diagnostics_for(client, uri, lambda d: codes(d) == ["OC900"])
        replace_all(client, run, INVERTED, 29)
        await diagnostics_for(client, uri, lambda d: codes(d) == ["OC101"])

        # close: cleared
        client.text_document_did_close(types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))
        await diagnostics_for(client, uri, lambda d: len(d) == 0)


@pytest.mark.asyncio
async def test_a_helper_in_another_file_changes_the_callers_diagnostics(tmp_path):
    (tmp_path / "ordercheck.toml").write_text("")
    helper, caller = tmp_path / "helper.py", tmp_path / "caller.py"
    helper.write_text(HELPER_SAVES)
    caller.write_text(CALLER)
    async with session(tmp_path) as client:
        uri = caller.as_uri()
        open_doc(client, caller, CALLER)
        diags = await diagnostics_for(client, uri, lambda d: codes(d) == ["OC101"])
        # the server asked to be told about Python and config files changing on disk
        globs = [w["globPattern"] for r in client.registrations
                 if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for w in r.register_options["watchers"]]
        assert "**/*.py" in globs and "**/ordercheck.toml" in globs and "**/pyproject.toml" in globs
        via = [r for r in diags[0].related_information if r.location.uri == helper.as_uri()]
        assert via and via[0].location.range.start.line == 1  # `store.save(run)` in helper.py

        # the helper changes on disk (another tool, a git checkout): the caller is re-checked
        helper.write_text(HELPER_LOGS)
        changed_on_disk(client, helper)
        await diagnostics_for(client, uri, lambda d: len(d) == 0)

        # the helper is opened and edited: its buffer, not the disk, feeds the caller
        open_doc(client, helper, HELPER_LOGS)
        replace_all(client, helper, HELPER_SAVES, 2)
        await diagnostics_for(client, uri, lambda d: codes(d) == ["OC101"])
        assert helper.read_text() == HELPER_LOGS  # nothing written
        # closing the helper's buffer: the disk's version counts again
        client.text_document_did_close(types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=helper.as_uri())))
        await diagnostics_for(client, uri, lambda d: len(d) == 0)


@pytest.mark.asyncio
async def test_config_changes_reload_and_a_bad_config_keeps_the_last_good_one(tmp_path):
    config = tmp_path / "ordercheck.toml"
    config.write_text("")
    run = tmp_path / "run.py"
    run.write_text(INVERTED)
    async with session(tmp_path) as client:
        uri = run.as_uri()
        open_doc(client, run, INVERTED)
        await diagnostics_for(client, uri, lambda d: codes(d) == ["OC101"])

        config.write_text('ignore = ["OC101"]\n')
        changed_on_disk(client, config)
        await diagnostics_for(client, uri, lambda d: len(d) == 0)

        # a broken config: shown, and the last good settings (OC101 ignored) stay
        config.write_text('ignore = ["OC101"]\nselekt = ["OC1"]\n')
        changed_on_disk(client, config)
        deadline = time.monotonic() + TIMEOUT
        while not client.messages and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert client.messages, "the bad config was not reported"
        msg = client.messages[-1]
        assert msg.type == types.MessageType.Error and "selekt" in msg.message and "ordercheck.toml" in msg.message
        replace_all(client, run, INVERTED + "\n", 2)  # a fresh check under the kept settings
        await asyncio.sleep(lsp.DEBOUNCE + 1.0)
        assert len(client.diagnostics[uri]) == 0

        # fixed again, saved in the editor this time: OC101 is back
        config.write_text("")
        client.text_document_did_save(types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=config.as_uri())))
        await diagnostics_for(client, uri, lambda d: codes(d) == ["OC101"])


@pytest.mark.asyncio
async def test_a_change_to_a_document_never_opened_is_ignored_quietly(tmp_path):
    run = tmp_path / "run.py"
    run.write_text(INVERTED)
    other = tmp_path / "other.py"
    other.write_text(FIXED)
    async with session(tmp_path) as client:
        replace_all(client, other, INVERTED, 2)  # (no didOpen: a client's slip)
        open_doc(client, run, INVERTED)
        await diagnostics_for(client, run.as_uri(), lambda d: codes(d) == ["OC101"])
        assert not client.messages, [m.message for m in client.messages]
        assert other.as_uri() not in client.diagnostics


@pytest.mark.asyncio
async def test_a_bad_config_at_start_is_shown_and_the_defaults_apply(tmp_path):
    (tmp_path / "ordercheck.toml").write_text("select = [\n")  # not TOML
    run = tmp_path / "run.py"
    run.write_text(INVERTED)
    async with session(tmp_path, encodings=("utf-16",)) as client:
        open_doc(client, run, INVERTED)
        await diagnostics_for(client, run.as_uri(), lambda d: codes(d) == ["OC101"])
        assert any("ordercheck.toml" in m.message for m in client.messages)
        # still bad (an event class no rule uses is an unknown key): shown as an error, the defaults stay
        (tmp_path / "ordercheck.toml").write_text('ignore = ["OC101"]\n[extend-events]\nsavee = ["*.keep"]\n')
        changed_on_disk(client, tmp_path / "ordercheck.toml")
        deadline = time.monotonic() + TIMEOUT
        while not any("savee" in m.message for m in client.messages) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        bad = [m for m in client.messages if "savee" in m.message]
        assert bad and bad[-1].type == types.MessageType.Error
        await diagnostics_for(client, run.as_uri(), lambda d: codes(d) == ["OC101"])
        # fixed: the config's ignore applies
        (tmp_path / "ordercheck.toml").write_text('ignore = ["OC101"]\n')
        changed_on_disk(client, tmp_path / "ordercheck.toml")
        await diagnostics_for(client, run.as_uri(), lambda d: len(d) == 0)


# --------------------------------------------------------------------------- without pygls


def test_without_pygls_lsp_exits_2_saying_what_to_install(tmp_path):
    shadow = tmp_path / "shadow" / "pygls"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('pygls is not installed')\n")
    run = subprocess.run(SERVER, cwd=tmp_path, capture_output=True, text=True, timeout=60,
                         env={"PYTHONPATH": str(tmp_path / "shadow"), "PATH": ""})
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install 'pygls>=2,<3'" in lines[0] and "[lsp]" in lines[0] and "Traceback" not in run.stderr


def _frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


@pytest.mark.parametrize("shut_down, status", [(True, 0), (False, 1)])
def test_exit_status_says_whether_shutdown_came_first(tmp_path, shut_down, status):
    # the protocol's `exit`: "The server should exit with success code 0 if the shutdown
    # request has been received before; otherwise with error code 1"
    data = _frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}})
    data += _frame({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    if shut_down:
        data += _frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    data += _frame({"jsonrpc": "2.0", "method": "exit"})
    run = subprocess.run(SERVER, cwd=tmp_path, input=data, capture_output=True, timeout=60)
    assert run.returncode == status, run.stderr[-500:]
    assert b"Traceback" not in run.stderr


# --------------------------------------------------------------------------- pieces


@pytest.mark.parametrize("line, expected", [
    ("    ledger.append(x)\n", (20, 20, "  # ordercheck: ignore[OC101] -- ")),
    ("    ledger.append(x)   \n", (20, 23, "  # ordercheck: ignore[OC101] -- ")),
    ("    x = '🎉'; f()", (17, 17, "  # ordercheck: ignore[OC101] -- ")),
    ("    f()  # ordercheck: ignore[OC102] -- why", (35, 35, ", OC101")),
    ("    f()  # ordercheck: ignore[] -- why", (30, 30, "OC101")),
    ("    f()  # ordercheck: ignore[oc101]", None),
    ("    f(a, \\\n", None),
])
def test_suppression_edit(line, expected):
    assert lsp.suppression_edit(line, "OC101") == expected


def test_the_suppression_the_quick_fix_writes_is_one_ordercheck_reads():
    from ordercheck.frontend.comments import find_suppressions

    for line in ("    f()", "    f()  # type: ignore", "    f()  # ordercheck: ignore[OC102] -- why"):
        start, end, text = lsp.suppression_edit(line, "OC101")
        # columns are UTF-16, and these lines are ASCII
        fixed = line[:start] + text + line[end:]
        found = find_suppressions(fixed + "\n")
        assert any("OC101" in s.codes for s in found), (fixed, found)


def test_buffers_keep_their_declared_encoding():
    text = "# -*- coding: latin-1 -*-\nname = 'café'\n"
    assert lsp.encode_buffer(text) == text.encode("latin-1")
    assert lsp.encode_buffer("x = '🎉'\n") == "x = '🎉'\n".encode("utf-8")
    # a declared encoding that cannot hold the text: UTF-8, which ordercheck then reports
    assert lsp.encode_buffer("# coding: ascii\nx = 'é'\n") == "# coding: ascii\nx = 'é'\n".encode("utf-8")


def test_run_buffers_reuses_unchanged_files_and_sees_changed_ones(tmp_path, monkeypatch):
    from ordercheck import runner

    monkeypatch.chdir(tmp_path)
    (tmp_path / "ordercheck.toml").write_text("")
    helper = tmp_path / "helper.py"
    helper.write_text(HELPER_SAVES)
    (tmp_path / "other.py").write_text("def g():\n    pass\n")
    _later(monkeypatch)  # (a file changed this very moment is read again at the next call)
    settings = runner.load_settings(None, tmp_path)
    memo, buffers = {}, {"caller.py": CALLER.encode()}  # caller.py exists only as a buffer

    first = runner.run_buffers([tmp_path], settings, buffers, memo=memo)
    assert [f.code for f in first.findings] == ["OC101"] and first.files == ["caller.py"]
    assert {p.name for p in memo} == {"helper.py", "other.py"}
    again = runner.run_buffers([tmp_path], settings, buffers, memo=memo)
    assert [f.code for f in again.findings] == ["OC101"] and again.cache_hits == 2  # both from the memo

    helper.write_text(HELPER_LOGS + "\n")  # changed on disk: read again
    assert runner.run_buffers([tmp_path], settings, buffers, memo=memo).findings == []
    (tmp_path / "other.py").unlink()
    runner.run_buffers([tmp_path], settings, buffers, memo=memo)
    assert {p.name for p in memo} == {"helper.py"}
    # a buffer shadows its file on disk, however the path is spelled
    helper.write_text(HELPER_SAVES)
    shadowed = runner.run_buffers([tmp_path], settings, dict(buffers, **{str(helper): HELPER_LOGS.encode()}), memo=memo)
    assert shadowed.findings == [] and sorted(shadowed.files) == sorted(["caller.py", str(helper)])


def test_run_buffers_parses_a_buffer_again_only_when_it_changed(tmp_path, monkeypatch):
    """An editor re-checks every open document at each pause in typing: the documents
    not edited are not parsed again, the edited one is, and a closed one is forgotten."""
    from ordercheck import runner

    monkeypatch.chdir(tmp_path)
    (tmp_path / "ordercheck.toml").write_text("")
    (tmp_path / "helper.py").write_text(HELPER_SAVES)
    _later(monkeypatch)
    settings = runner.load_settings(None, tmp_path)
    seen = []
    real = runner.read_facts

    def counting(path, data, shown, *args, **kwargs):
        seen.append(shown)
        return real(path, data, shown, *args, **kwargs)

    monkeypatch.setattr(runner, "read_facts", counting)
    memo: dict = {}
    parsed: dict = {}
    buffers = {"caller.py": CALLER.encode(), "run.py": INVERTED.encode()}
    first = runner.run_buffers([tmp_path], settings, buffers, memo=memo, parsed=parsed)
    assert sorted(seen) == ["caller.py", "run.py"]
    seen.clear()
    again = runner.run_buffers([tmp_path], settings, buffers, memo=memo, parsed=parsed)
    assert seen == []
    assert [(f.path, f.code, f.span.line) for f in again.findings] == [(f.path, f.code, f.span.line) for f in first.findings]
    assert sorted(f.path for f in again.findings) == ["caller.py", "run.py"]
    buffers["run.py"] = FIXED.encode()  # one edit: that buffer alone is parsed again
    edited = runner.run_buffers([tmp_path], settings, buffers, memo=memo, parsed=parsed)
    assert seen == ["run.py"] and [f.path for f in edited.findings] == ["caller.py"]
    del buffers["run.py"]  # closed: forgotten
    runner.run_buffers([tmp_path], settings, buffers, memo=memo, parsed=parsed)
    assert set(parsed) == {"caller.py"}
    # without a `parsed` dict (the CLI's callers): every buffer is parsed
    seen.clear()
    runner.run_buffers([tmp_path], settings, buffers, memo=memo)
    runner.run_buffers([tmp_path], settings, buffers, memo=memo)
    assert seen == ["caller.py", "caller.py"]


def test_a_buffer_that_failed_to_parse_once_is_parsed_again(tmp_path, monkeypatch):
    """(A review of the buffers' memo.) Memory running out, or a deep-stack thread that
    cannot start, is reported as the buffer's parse error (OC900): a passing failure,
    so the buffer is not remembered and the next check reads it again."""
    from ordercheck import frontend, runner

    monkeypatch.chdir(tmp_path)
    (tmp_path / "ordercheck.toml").write_text("")
    _later(monkeypatch)
    settings = runner.load_settings(None, tmp_path)
    real = frontend.Extractor.module
    fired = []

    def flaky(self, *args, **kwargs):
        if not fired:
            fired.append(1)
            raise MemoryError()
        return real(self, *args, **kwargs)

    monkeypatch.setattr(frontend.Extractor, "module", flaky)
    memo: dict = {}
    parsed: dict = {}
    buffers = {"run.py": INVERTED.encode()}
    first = runner.run_buffers([tmp_path], settings, buffers, memo=memo, parsed=parsed)
    assert [f.code for f in first.findings] == ["OC900"] and parsed == {}
    again = runner.run_buffers([tmp_path], settings, buffers, memo=memo, parsed=parsed)
    assert [f.code for f in again.findings] == ["OC101"] and set(parsed) == {"run.py"}


def test_typed_names_of_an_earlier_run_do_not_outlive_a_failing_one(tmp_path):
    """(A review.) Facts the server keeps between checks are typed afresh at each
    check; should the typing fail midway (an engine bug, its OC901), no call keeps
    the names an earlier check gave it."""
    from ordercheck import runner, summaries

    (tmp_path / "m.py").write_text("def f(store, ledger):\n    store.save()\n    ledger.add()\n    g()\n\ndef g():\n    pass\n")
    facts = runner.read_facts(tmp_path / "m.py", (tmp_path / "m.py").read_bytes(), "m.py")
    calls = [c for fn in facts.functions for c in fn.calls]
    assert len(calls) >= 3
    for c in calls:
        c.typed = ("stale.name",)
    index = summaries.resolve([facts]).index
    seen = []

    def failing(*args, **kwargs):
        seen.append(1)
        if len(seen) == 2:
            raise KeyError("injected")
        return ()

    index.own_names = failing
    with pytest.raises(KeyError):
        index.with_typed_names(facts)
    assert all(c.typed == () for c in calls), [c.typed for c in calls]


CALLER_PKG = ("from pkg.helper import finish\n\n\ndef complete(store, ledger, run):\n"
              "    finish(store, run)\n    ledger.append_terminal(run.id)\n")


def test_run_buffers_names_modules_by_the_src_roots_as_the_cli_does(tmp_path, monkeypatch):
    """(A review.) A buffer in a folder without `__init__.py` imports its sibling by
    the name a CLI run gives it (`pkg.helper`, below the project root): the server
    read buffers by the package rule alone, and missed the OC101 the CLI found."""
    from ordercheck import runner

    monkeypatch.chdir(tmp_path)
    (tmp_path / "ordercheck.toml").write_text("")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "helper.py").write_text(HELPER_SAVES)
    (tmp_path / "pkg" / "other.py").write_text(CALLER_PKG)
    _later(monkeypatch)
    settings = runner.load_settings(None, tmp_path)
    cli = runner.run([Path("pkg/other.py")], settings)
    server = runner.run_buffers([tmp_path], settings, {"pkg/other.py": CALLER_PKG.encode()}, memo={}, parsed={})
    assert [(f.code, f.span.line) for f in server.findings] == [(f.code, f.span.line) for f in cli.findings] == [("OC101", 6)]


def test_run_buffers_sees_a_module_renamed_by_a_new_init_file(tmp_path, monkeypatch):
    """(A review.) `lib/pkg/helper.py` is `lib.pkg.helper` until `lib/pkg/__init__.py`
    makes `pkg` a package: its stat does not change, its module name does, and the
    server kept the old name (and missed the caller's OC101) until the file changed."""
    from ordercheck import runner
    from ordercheck.memos import GraphMemo

    monkeypatch.chdir(tmp_path)
    (tmp_path / "ordercheck.toml").write_text("")
    (tmp_path / "lib" / "pkg").mkdir(parents=True)
    (tmp_path / "lib" / "pkg" / "helper.py").write_text(HELPER_SAVES)
    _later(monkeypatch)
    settings = runner.load_settings(None, tmp_path)
    memo, graph, parsed = {}, GraphMemo({}), {}
    buffers = {"lib/caller.py": CALLER_PKG.encode()}
    assert runner.run_buffers([tmp_path], settings, buffers, memo=memo, graph=graph, parsed=parsed).findings == []
    (tmp_path / "lib" / "pkg" / "__init__.py").write_text("")
    kept = runner.run_buffers([tmp_path], settings, buffers, memo=memo, graph=graph, parsed=parsed)
    fresh = runner.run_buffers([tmp_path], settings, buffers, memo={}, graph=GraphMemo({}), parsed={})
    assert [(f.code, f.span.line) for f in kept.findings] == [(f.code, f.span.line) for f in fresh.findings] == [("OC101", 6)]


def _later(monkeypatch, seconds=3600):
    """The server's checks run ``seconds`` from now: every change made before is out of
    the racy window (``snapshot.settled`` reads the ctime, which a test cannot set)."""
    from ordercheck import snapshot

    monkeypatch.setattr(snapshot, "clock_ns", lambda: time.time_ns() + seconds * 10**9)


def test_run_buffers_sees_an_edit_that_keeps_the_size_and_the_mtime(tmp_path, monkeypatch):
    """(A session-38 fuzz of the language server.) A helper rewritten on disk with its
    size and mtime kept (`cp -p`, `rsync -t`, `tar x`) changes its ctime: the memo,
    keyed by (size, mtime) alone, kept the old facts and the caller's OC101."""
    from ordercheck import runner

    monkeypatch.chdir(tmp_path)
    (tmp_path / "ordercheck.toml").write_text("")
    helper = tmp_path / "helper.py"
    helper.write_text("def finish(store, run):\n    store.save(run)\n")
    _later(monkeypatch)
    settings = runner.load_settings(None, tmp_path)
    caller = "from helper import finish\n\n\ndef f(store, ledger, run):\n    finish(store, run)\n    ledger.append(Record(run, 'completed'))\n"
    memo: dict = {}
    buffers = {"caller.py": caller.encode()}
    assert [f.code for f in runner.run_buffers([tmp_path], settings, buffers, memo=memo).findings] == ["OC101"]
    assert {p.name for p in memo} == {"helper.py"}
    before = os.stat(helper)
    helper.write_text("def finish(store, run):\n    store.xave(run)\n")
    os.utime(helper, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(helper).st_size == before.st_size
    assert runner.run_buffers([tmp_path], settings, buffers, memo=memo).findings == []


def test_run_buffers_reads_a_file_changed_just_now_again(tmp_path, monkeypatch):
    """A file changed within the racy window may change again within the same clock
    step with the same stat: it is not remembered, so the next call reads it again."""
    from ordercheck import runner

    monkeypatch.chdir(tmp_path)
    (tmp_path / "ordercheck.toml").write_text("")
    (tmp_path / "helper.py").write_text(HELPER_SAVES)
    settings = runner.load_settings(None, tmp_path)
    memo: dict = {}
    runner.run_buffers([tmp_path], settings, {"caller.py": CALLER.encode()}, memo=memo)
    assert memo == {}
    _later(monkeypatch)
    runner.run_buffers([tmp_path], settings, {"caller.py": CALLER.encode()}, memo=memo)
    assert {p.name for p in memo} == {"helper.py"}


def test_run_buffers_does_not_take_a_future_mtime_for_an_old_file(tmp_path, monkeypatch):
    """(A second review of session 38.) A file just copied with `cp -p` (a mtime an
    hour ahead) was taken as settled and remembered; a second copy in the same second,
    on a filesystem with one-second stamps, keeps the whole stat, and the memo kept the
    first copy's facts. The racy rule reads the ctime: a file written just now is not
    remembered, whatever its mtime."""
    from ordercheck import runner

    monkeypatch.chdir(tmp_path)
    (tmp_path / "ordercheck.toml").write_text("")
    helper = tmp_path / "helper.py"
    helper.write_text(HELPER_SAVES)
    st = os.stat(helper)
    os.utime(helper, ns=(st.st_atime_ns, st.st_mtime_ns + 3600 * 10**9))
    settings = runner.load_settings(None, tmp_path)
    memo: dict = {}
    runner.run_buffers([tmp_path], settings, {"caller.py": CALLER.encode()}, memo=memo)
    assert memo == {}
    _later(monkeypatch)  # (its ctime out of the window)
    runner.run_buffers([tmp_path], settings, {"caller.py": CALLER.encode()}, memo=memo)
    assert {p.name for p in memo} == {"helper.py"}


def test_run_buffers_with_a_cache_recomputes_only_what_an_edit_can_change(tmp_path, monkeypatch):
    """The language server's runs keep summaries in the cache folder as CLI runs do:
    an edit of the buffer builds the graphs of the buffer's functions only, never
    those of unchanged files (before, every edit recomputed the whole project's
    summaries), and the findings are always those of a run without any memory."""
    from ordercheck import effects, runner

    monkeypatch.chdir(tmp_path)
    (tmp_path / "ordercheck.toml").write_text("")
    helper = tmp_path / "helper.py"
    helper.write_text(HELPER_SAVES)
    for i in range(3):
        (tmp_path / f"other{i}.py").write_text(f"def g{i}(store, run):\n    store.save(run)\n")
    settings = runner.load_settings(None, tmp_path)
    cache = tmp_path / ".ordercheck_cache"
    graphs = []
    real_graph = effects.summary_graph
    monkeypatch.setattr(effects, "summary_graph",
                        lambda fn, *a, **k: (graphs.append(fn.qualname), real_graph(fn, *a, **k))[1])

    def both(text):
        graphs.clear()
        buffers = {"caller.py": text.encode()}
        warm = runner.run_buffers([tmp_path], settings, buffers, cache_dir=cache, memo=memo)
        built = list(graphs)
        cold = runner.run_buffers([tmp_path], settings, buffers)
        assert warm.findings == cold.findings
        return warm, built

    memo: dict = {}
    first, built = both(CALLER)
    assert [f.code for f in first.findings] == ["OC101"] and {"finish", "g0", "g1", "g2"} <= set(built)
    edited, built = both(CALLER + "\n# an edit\n")
    assert [f.code for f in edited.findings] == ["OC101"]
    assert built and set(built) <= {"complete", "<module>"}, built  # the buffer's functions only
    helper.write_text(HELPER_LOGS)  # a helper changes on disk: its summary, and the finding, go
    gone, built = both(CALLER + "\n# another edit\n")
    assert gone.findings == [] and "finish" in built and not {"g0", "g1", "g2"} & set(built)


def test_without_a_workspace_folder_the_documents_project_is_used(tmp_path):
    (tmp_path / "proj" / "src" / "pkg").mkdir(parents=True)
    (tmp_path / "proj" / "pyproject.toml").write_text("")
    doc = tmp_path / "proj" / "src" / "pkg" / "run.py"
    assert lsp.guess_root(doc) == (tmp_path / "proj").resolve()
    (tmp_path / "loose").mkdir()
    assert lsp.guess_root(tmp_path / "loose" / "x.py") == (tmp_path / "loose").resolve()


def test_a_documents_project_is_its_nearest_config_inside_its_workspace_folder(tmp_path):
    (tmp_path / "ws" / "sub" / "pkg").mkdir(parents=True)
    (tmp_path / "ws" / "ordercheck.toml").write_text("")
    (tmp_path / "ws" / "sub" / "ordercheck.toml").write_text("")
    (tmp_path / "other").mkdir()
    ws, other = tmp_path / "ws", tmp_path / "other"
    assert lsp.document_root(ws / "a.py", [ws]) == ws.resolve()
    assert lsp.document_root(ws / "sub" / "pkg" / "b.py", [ws]) == (ws / "sub").resolve()
    assert lsp.document_root(other / "c.py", [ws, other]) == other.resolve()  # (no config: its folder)
    # a config above the workspace folder: the workspace folder's project, as before
    assert lsp.document_root(ws / "sub" / "pkg" / "b.py", [ws / "sub" / "pkg"]) == (ws / "sub" / "pkg").resolve()
    # outside every workspace folder: as an editor that opened one file finds it
    (tmp_path / "loose").mkdir()
    assert lsp.document_root(tmp_path / "loose" / "x.py", [ws]) == (tmp_path / "loose").resolve()


@pytest.mark.asyncio
async def test_each_document_is_checked_with_its_own_projects_settings(tmp_path):
    """(A probe of the server, session 38.) One server held one project: a second
    workspace folder and a project nested in the workspace with its own configuration
    were checked with the first project's settings and imports (a false OC101 through
    the first project's `helper.py`; a nested `ignore` not applied)."""
    a, b = tmp_path / "A", tmp_path / "B"
    for folder in (a, b):
        folder.mkdir()
        (folder / "ordercheck.toml").write_text("")
    (a / "helper.py").write_text(HELPER_SAVES)  # A's helper saves; B's only logs
    (b / "helper.py").write_text(HELPER_LOGS)
    nested = a / "nested"
    nested.mkdir()
    (nested / "ordercheck.toml").write_text('ignore = ["OC101"]\n')
    client = await ClientServerConfig(server_command=SERVER, client_factory=recording_client).start()
    try:
        await client.initialize_session(types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"), root_uri=a.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=a.as_uri(), name="A"),
                               types.WorkspaceFolder(uri=b.as_uri(), name="B")]))
        docs = {a / "caller.py": CALLER, b / "caller.py": CALLER, nested / "run.py": INVERTED}
        for path, text in docs.items():
            path.write_text(text)
            open_doc(client, path, text)
        assert codes(await diagnostics_for(client, (a / "caller.py").as_uri(), lambda d: bool(d))) == ["OC101"]
        await diagnostics_for(client, (nested / "run.py").as_uri(), lambda d: True)
        await asyncio.sleep(1.0)  # (every check of the three has run)
        assert codes(client.diagnostics[(b / "caller.py").as_uri()]) == []
        assert codes(client.diagnostics[(nested / "run.py").as_uri()]) == []
        assert codes(client.diagnostics[(a / "caller.py").as_uri()]) == ["OC101"]
    finally:
        await client.shutdown_session()
        await client.stop()


def test_a_document_whose_guessed_root_is_unmarked_reads_its_imports_not_the_folder(tmp_path, monkeypatch):
    """(A review, session 41.) An editor that opened one file from a folder with no
    config and no marker (a home directory, /tmp) read every Python file under that
    folder (179 s beside a 20 MB file), and wrote a cache folder there. Now the project
    is the documents and what they import, as for the CLI, and no cache is written."""
    loose = tmp_path / "loose"
    loose.mkdir()
    (loose / "helper.py").write_text(HELPER_SAVES)
    (loose / "unrelated.py").write_text("def other(store, ledger, r):\n    store.save(r)\n    ledger.append(r)\n")
    doc = loose / "caller.py"
    doc.write_text(CALLER)
    monkeypatch.chdir(tmp_path)
    project = lsp.Project(lsp.guess_root(doc), guessed=True)
    assert sorted(p.name for p in project.paths([doc])) == ["caller.py", "helper.py"]
    assert project.cache_dir() is None
    found = project.check({doc.as_uri(): (doc, CALLER)})
    assert [d["code"] for d in found[doc.as_uri()]] == ["OC101"]  # (through helper.py)
    assert not (loose / ".ordercheck_cache").exists()
    # a marked folder is a project: the whole of it, cached, as before
    (loose / "pyproject.toml").write_text("")
    marked = lsp.Project(lsp.guess_root(doc), guessed=True)
    assert "unrelated.py" in {p.name for f in marked.paths([doc]) for p in ([f] if f.is_file() else f.rglob("*.py"))}
    assert marked.cache_dir() is not None


STUCK = """\
import time
import ordercheck.lsp

def _stuck(self, documents):
    time.sleep(3600)  # an analysis that outlasts the client

ordercheck.lsp.Project.check = _stuck
"""


@pytest.mark.parametrize("how", ["exit", "eof"])
def test_the_server_ends_while_an_analysis_is_running(tmp_path, how):
    """(A review, session 41.) `exit`, or the client going away (its end of stdin
    closed), ended the event loop, but the interpreter then joined the analysis
    thread: minutes on a large project, a server left behind using a core. An
    analysis that never ends here stands for a long one."""
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    (shadow / "sitecustomize.py").write_text(STUCK)
    (tmp_path / "doc.py").write_text(CALLER)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(shadow), *sys.path])}
    proc = subprocess.Popen(SERVER, cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=env)
    try:
        proc.stdin.write(_frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                 "params": {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}}))
        proc.stdin.write(_frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        proc.stdin.write(_frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": (tmp_path / "doc.py").as_uri(), "languageId": "python", "version": 1, "text": CALLER}}}))
        proc.stdin.flush()
        time.sleep(2.0)  # (the analysis has started: it never ends)
        if how == "exit":
            proc.stdin.write(_frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
            proc.stdin.write(_frame({"jsonrpc": "2.0", "method": "exit"}))
            proc.stdin.flush()
        proc.stdin.close()
        status = proc.wait(timeout=90)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert status == (0 if how == "exit" else 1), proc.stderr.read()[-500:]


def test_an_unmarked_folders_closure_reads_only_changed_files_again(tmp_path, monkeypatch):
    """(Session 53.) Each analysis of a document in a folder with no marker read the
    imports of every file of its closure again; the server now keeps them in memory by
    each file's stat (``snapshot.ImportsMemo``), and reads a changed file again."""
    from ordercheck import project as projectmod
    from ordercheck import snapshot
    loose = tmp_path / "loose"
    loose.mkdir()
    (loose / "helper.py").write_text("from deeper import note\n\ndef finish(store, run):\n    note(run)\n")
    (loose / "deeper.py").write_text("def note(run):\n    pass\n")
    (loose / "store.py").write_text("def put(store, run):\n    store.save(run)\n")
    doc = loose / "caller.py"
    doc.write_text(CALLER)
    monkeypatch.chdir(tmp_path)
    clock = [time.time_ns() + 3600 * 10**9]  # (every file older than the racy window)
    monkeypatch.setattr(snapshot, "clock_ns", lambda: clock[0])
    parsed: list = []
    real = projectmod._imported
    monkeypatch.setattr(projectmod, "_imported", lambda path, *a, **k: parsed.append(path.name) or real(path, *a, **k))
    project = lsp.Project(lsp.guess_root(doc), guessed=True)
    assert project.check({doc.as_uri(): (doc, CALLER)})[doc.as_uri()] == []
    assert sorted(parsed) == ["caller.py", "deeper.py", "helper.py"]
    parsed.clear()
    assert project.check({doc.as_uri(): (doc, CALLER)})[doc.as_uri()] == []
    assert parsed == ["caller.py"]  # (the buffer's text; the files on disk from memory)
    parsed.clear()
    (loose / "deeper.py").write_text("from store import put\n\ndef note(run):\n    put(run.store, run)\n")
    clock[0] += 3600 * 10**9
    found = project.check({doc.as_uri(): (doc, CALLER)})
    assert [d["code"] for d in found[doc.as_uri()]] == ["OC101"]  # (through helper, deeper and store)
    assert sorted(parsed) == ["caller.py", "deeper.py", "store.py"]


def test_an_unsaved_import_in_a_buffer_of_an_unmarked_folder_is_followed(tmp_path, monkeypatch):
    """(A review, session 41.) The import closure was read from the disk: a buffer
    that gained `from helper import finish` before it was saved, or a new document
    never saved, lost its finding while typing."""
    loose = tmp_path / "loose"
    loose.mkdir()
    (loose / "helper.py").write_text(HELPER_SAVES)
    doc = loose / "caller.py"
    doc.write_text("def complete(store, ledger, run):\n    pass\n")
    new = loose / "new.py"  # (never saved)
    monkeypatch.chdir(tmp_path)
    for path in (doc, new):
        project = lsp.Project(lsp.guess_root(path), guessed=True)
        found = project.check({path.as_uri(): (path, CALLER)})
        assert [d["code"] for d in found[path.as_uri()]] == ["OC101"], path
