"""``ordercheck lsp``: a language server on stdio (semantics §Surfaces), a thin layer over ``runner``.

It publishes what ``--format json`` prints (the diagnostics come from
``reporters.lsp_json.document``) for every open Python document, with the witness
added as related information:

* ``didOpen``/``didSave`` check at once, ``didChange`` after a pause (``DEBOUNCE``),
  on the buffer's text; ``didClose`` clears the document's diagnostics.
* Summaries are cross-file, so any change (another document, or a file on disk through
  ``workspace/didChangeWatchedFiles``) re-checks every open document: one analysis
  covers them all, the whole project summarised, open buffers replacing their files.
* A change to ``ordercheck.toml``/``.ordercheck.toml``/``pyproject.toml`` reloads the
  settings; a bad config is shown with ``window/showMessage`` and the last good
  settings stay in force.
* A quick fix appends ``  # ordercheck: ignore[CODE] -- `` to the finding's line.
* Positions are UTF-16 code units, always (the server never negotiates another).

The analysis part (``Project``, ``suppression_edit``) does not import pygls; the
server part does, only when ``serve`` runs.
"""
from __future__ import annotations

import io
import os
import sys
import threading
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Set, Tuple

from . import __version__, runner
from . import config as configmod
from . import project as projectmod
from . import snapshot as snapshotmod
from .config import CONFIG_NAMES
from .errors import UsageError
from .filepaths import location, root_relative
from .frontend.comments import codes_slot
from .memos import GraphMemo
from .reporters import lsp_json

if TYPE_CHECKING:  # (pygls is an optional extra, imported when the server starts)
    import asyncio

    from pygls.lsp.server import LanguageServer

DEBOUNCE = 0.3  # seconds of quiet after a didChange before the buffer is checked
INSTALL_HINT = ("the LSP server needs pygls 2.x: `pip install 'pygls>=2,<3'` into the environment ordercheck "
                "runs in (or, from a clone of ordercheck, `pip install '.[lsp]'`)")
CONFIG_FILES = frozenset(CONFIG_NAMES)


# --------------------------------------------------------------------------- analysis


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def encode_buffer(text: str) -> bytes:
    """An editor buffer's text as the bytes the file would hold: UTF-8, unless the
    buffer declares another encoding (PEP 263) that can represent it."""
    data = text.encode("utf-8", "surrogatepass")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        return data
    if encoding in ("utf-8", "utf-8-sig"):
        return data
    try:
        return text.encode(encoding)
    except (LookupError, UnicodeError):
        return data


def with_witness(diagnostic: dict, uri: str, lines: List[str]) -> dict:
    """The witness path (``data.witness``) appended to ``relatedInformation``, one
    location per step, so an editor shows the path without knowing ordercheck."""
    steps = diagnostic.get("data", {}).get("witness", [])
    if not steps:
        return diagnostic
    related = diagnostic.setdefault("relatedInformation", [])
    for i, step in enumerate(steps, 1):
        line, char = step["line"], step["character"]
        text = step.get("text", "")
        end = char + utf16_len(text.rstrip("…"))
        if 0 <= line < len(lines):
            end = min(end, utf16_len(lines[line].rstrip("\r\n")))
        message = f"witness {i}/{len(steps)}: {step.get('event', '')} {text}".rstrip()
        if step.get("via"):
            message += f" (via {step['via']})"
        related.append({
            "location": {"uri": uri, "range": {"start": {"line": line, "character": char},
                                               "end": {"line": line, "character": max(end, char)}}},
            "message": message,
        })
    return diagnostic


def suppression_edit(line: str, code: str, comment_at: Optional[int] = None) -> Optional[Tuple[int, int, str]]:
    """Where and what to write on ``line`` to suppress ``code``: (start, end, text),
    columns in UTF-16 code units. Adds the code to a directive of ours already on the
    line (``ignore[...]``, ``noqa: OC202 -- why``: one appended after a reason would
    be words of it), else appends ``  # ordercheck: ignore[CODE] -- `` (the reason is for
    the user to type). None where a comment cannot go (a backslash continuation).
    ``comment_at``: where the line's comment begins (``comment_column``; -1: it has
    none), so that an ``ignore[...]`` inside a string is never taken for one."""
    line = line.rstrip("\r\n")
    stripped = line.rstrip()
    if stripped.endswith("\\"):
        return None
    if comment_at != -1:
        start = comment_at or 0
        hash_at = line.find("#", start)
        slot = codes_slot(line[hash_at:]) if hash_at >= 0 else None
        if slot is not None:
            end, codes = slot
            if end < 0 or code.upper() in codes:
                return None  # (it suppresses the code already)
            at = utf16_len(line[: hash_at + end])
            return (at, at, f", {code}" if codes else code)
    return (utf16_len(stripped), utf16_len(line), f"  # ordercheck: ignore[{code}] -- ")


def comment_column(lines: Sequence[str], line: int) -> Optional[int]:
    """Where the comment of ``line`` (0-based) begins, in characters; -1 when the line
    has none; None when the buffer does not tokenize (then the whole line is read)."""
    try:
        tokens = tokenize.generate_tokens(io.StringIO("".join(lines)).readline)
        for tok in tokens:
            if tok.start[0] > line + 1:
                break
            if tok.type == tokenize.COMMENT and tok.start[0] == line + 1:
                return tok.start[1]
    except (tokenize.TokenError, SyntaxError, ValueError):
        return None
    return -1


def comment_line(lines: Sequence[str], line: int, statement: Optional[Sequence[int]] = None) -> int:
    """The line (0-based) where a suppression comment for a finding on ``line`` can
    go: ``line`` itself, unless its end lies inside a token (a triple-quoted string,
    an f-string) or it ends in a backslash continuation; then the last line of its
    logical line, where a comment is read as the statement's (docs/configuration.md,
    Suppressions). A buffer that does not tokenize keeps ``line``.

    ``statement`` (0-based first and last line of the statement holding the finding,
    the diagnostic's ``data.statement``) is where a comment is read: a logical line
    that ends on neither (a decorator's, of a ``def`` whose header holds the finding)
    gives way to the statement's last line, the header's end, or where a comment cannot
    end that line (it ends inside a triple-quoted string of a one-line body), to its first."""
    at = _logical_end(lines, line)
    if isinstance(statement, (list, tuple)) and len(statement) == 2 \
            and all(isinstance(n, int) for n in statement) and at not in (line, *statement) \
            and all(0 <= n < len(lines) for n in statement):
        for candidate in (statement[-1], statement[0]):
            if _logical_end(lines, candidate) == candidate:
                return candidate
        return _logical_end(lines, statement[-1])
    return at


def _logical_end(lines: Sequence[str], line: int) -> int:
    text = "".join(lines)
    first_row = line + 1  # (tokenize counts rows from 1)
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, ValueError):
        return line
    inside = lines[line].rstrip("\r\n").rstrip().endswith("\\") if 0 <= line < len(lines) else False
    for tok in tokens:
        if tok.type in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
            continue
        if tok.start[0] <= first_row < tok.end[0]:
            inside = True
            break
    if not inside:
        return line
    for tok in tokens:
        if tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER) and tok.start[0] >= first_row:
            return tok.start[0] - 1
    return line


def project_root(settings: runner.Settings, workspace_root: Path) -> Path:
    """The project the open documents belong to: the folder of the config file, else
    the editor's workspace folder. (semantics §Surfaces's fallback to the nearest ancestor holding
    ``pyproject.toml`` or ``.git`` belongs to the runner; the editor's workspace folder
    is the better answer here.)"""
    config = settings.config
    return config.path.parent.resolve() if config.path is not None else workspace_root


def guess_root(document: Path) -> Path:
    """Without a workspace folder (an editor opened one file): the nearest folder above
    the document holding a config file, ``pyproject.toml`` or ``.git``, else its folder."""
    folder = location(document).parent  # (a symlinked document is where it was opened)
    for candidate in (folder, *folder.parents):
        if any((candidate / name).exists() for name in (*CONFIG_NAMES, ".git")):
            return candidate
    return folder


def document_root(document: Path, folders: Sequence[Path]) -> Path:
    """The project an open document belongs to, as ``ordercheck`` run on it would find
    it: the folder of the config file discovered from the document's folder upward,
    if that lies inside the document's workspace folder (a nested project keeps its own
    settings); else that workspace folder (the deepest of ``folders`` holding the
    document); else, outside every workspace folder, ``guess_root``. One server may so
    hold several projects (several workspace folders, nested configs), each checked
    with its own settings and imports."""
    resolved = location(document)  # (named as opened: a symlinked file's own folder, docs/decisions.md)
    holding = [f for f in (Path(x).resolve() for x in folders) if f == resolved.parent or f in resolved.parents]
    workspace = max(holding, key=lambda f: len(f.parts)) if holding else None
    if workspace is None:
        return guess_root(document)
    try:
        found = configmod.discover(resolved.parent)
    except Exception:  # (a broken config: the workspace's project reports it)
        found = None
    if found is not None:
        folder = found[0].parent.resolve()
        if folder == workspace or workspace in folder.parents:
            return folder
    return workspace


class Project:
    """The analysis state of one workspace: its last good settings and the cache.
    Every method runs on the server's single analysis thread, one at a time."""

    def __init__(self, workspace_root: Path, cached: bool = True, guessed: bool = False):
        self.workspace_root = workspace_root.resolve()
        self.cached = cached  # (a file opened outside every workspace folder: no cache folder written there)
        # (a root guessed from a document, ``guess_root``, with no config and no marker
        # there: the project is the documents and what they import, as for the CLI)
        self.guessed = guessed
        self.settings: Optional[runner.Settings] = None
        self.root = self.workspace_root
        self.memo: dict = {}  # runner.run_buffers' memory of unchanged files, for these settings
        self.parsed: dict = {}  # and of unchanged buffers
        self.graph = GraphMemo({})  # and of their resolved calls (the pre-pass's call graph)
        self.imports = snapshotmod.ImportsMemo(None)  # the closure's files' imports, by stat (in memory)

    def reload(self) -> Optional[str]:
        """Load the settings again. On error the last good settings stay (the first
        time: the defaults) and the error's one-line message is returned."""
        error = None
        try:
            settings = runner.load_settings(None, self.workspace_root)
        except UsageError as exc:
            error = f"ordercheck: configuration error: {exc}; keeping the previous settings"
        except Exception as exc:  # a config must never take the server down
            error = f"ordercheck: cannot load the configuration: {type(exc).__name__}: {exc}; keeping the previous settings"
        if error is not None:
            if self.settings is None:
                self.settings = runner.load_settings(None, self.workspace_root, isolated=True)
            return error
        self.settings = settings
        self.memo = {}
        self.parsed = {}
        self.graph = GraphMemo({})
        self.root = project_root(settings, self.workspace_root)
        try:
            os.chdir(self.root)  # paths shown (and fingerprinted) as the CLI run from the root shows them
        except OSError:
            pass
        return None

    def current(self) -> runner.Settings:
        """The settings in force, loading them the first time."""
        if self.settings is None:
            self.reload()
        assert self.settings is not None  # reload() falls back to the defaults
        return self.settings

    def paths(self, documents: Sequence[Path] = (), texts: Optional[Dict[Path, bytes]] = None) -> List[Path]:
        """What the project reads: its configured or walked paths; for a root guessed
        with no config and no marker (an editor that opened one file from a home
        directory or ``/tmp``), the documents and the files their imports name
        (``project.import_closure``), never the rest of the folder, as the CLI reads
        such a project (docs/configuration.md)."""
        if self.unmarked():
            self.imports.renew()
            read = projectmod.import_closure(list(documents), projectmod.src_roots(self.current().config, self.root),
                                             admit=lambda p: not self.excluded(p), sources=texts,
                                             memo=self.imports)
            return [p for p in read if p.is_file()]  # (a document not yet saved is its buffer alone)
        return runner.default_paths(self.current().config, self.root)

    def unmarked(self) -> bool:
        return self.guessed and self.current().config.path is None and not projectmod.is_marked(self.root)

    def excluded(self, path: Path) -> bool:
        config = self.current().config
        if not config.exclude:
            return False
        rel = root_relative(path, config.root)  # (a symlinked file by its own name, as the CLI)
        return rel is not None and runner.path_matches(rel, config.exclude)

    def cache_dir(self) -> Optional[Path]:
        """None where the user has no trustworthy cache secret (``cache.secret_problem``)."""
        from . import cache as cachemod

        if not self.cached or self.unmarked() or cachemod.secret_problem() is not None:
            return None
        config = self.current().config
        return runner.cache_folder(config, config.root if config.path is not None else self.root)

    def check(self, documents: Dict[str, Tuple[Path, str]]) -> Dict[str, List[dict]]:
        """Diagnostics (LSP JSON) of each document (uri → (path, text)), every document
        of the project checked in one analysis."""
        settings = self.current()
        try:
            os.chdir(self.root)  # (shown paths are the root's; several projects take turns)
        except OSError:
            pass
        out: Dict[str, List[dict]] = {uri: [] for uri in documents}
        buffers: Dict[str, bytes] = {}
        shown_uri: Dict[Path, str] = {}
        lines: Dict[str, List[str]] = {}
        for uri, (path, text) in documents.items():
            if self.excluded(path):
                continue
            shown = runner.display_path(path)
            buffers[shown] = encode_buffer(text)
            shown_uri[Path(shown).resolve()] = uri
            lines[uri] = text.splitlines()
        if not buffers:
            return out
        # One process: a process pool forked from a threaded server could deadlock.
        texts = {path: encode_buffer(text) for path, text in documents.values()}
        result = runner.run_buffers(self.paths(list(texts), texts), settings, buffers, jobs=1,
                                    cache_dir=self.cache_dir(), memo=self.memo,
                                    graph=self.graph, parsed=self.parsed)
        doc = lsp_json.document(result.findings, result.files, settings.rules, always=list(buffers))
        for entry in doc["files"]:
            owner = shown_uri.get(Path(entry["path"]).resolve())
            if owner is not None:
                out[owner] = [with_witness(d, owner, lines[owner]) for d in entry["diagnostics"]]
        return out


# --------------------------------------------------------------------------- server


def _is_python(path: Optional[Path], language: str = "") -> bool:
    return path is not None and (path.suffix == ".py" or (language == "python" and path.suffix != ".pyi"))


@dataclass
class _ServerState:
    """What the server keeps between messages (projects by root, and each open
    document's root, until a configuration changes)."""

    project: Optional[Project] = None  # the workspace's (first) folder's, else the first document's
    projects: Dict[Path, Project] = field(default_factory=dict)  # by root
    roots: Dict[Path, Path] = field(default_factory=dict)  # an open document's path -> its root
    generation: int = 0  # the newest check asked for (an older one that wakes up does nothing)
    reload: bool = True  # read every project's settings again at the next check
    tasks: Set["asyncio.Task[None]"] = field(default_factory=set)  # the checks waiting (kept alive)
    open: Dict[str, Path] = field(default_factory=dict)  # an open document's uri -> its path


def build_server() -> "LanguageServer":  # noqa: C901 - one closure per LSP method
    import asyncio
    import logging
    from urllib.parse import unquote

    from lsprotocol import types
    from lsprotocol.converters import get_converter
    from pygls.lsp.server import LanguageServer
    from pygls.protocol import LanguageServerProtocol, lsp_method
    from pygls.uris import to_fs_path

    logging.getLogger("pygls").setLevel(logging.WARNING)
    converter = get_converter()

    class Protocol(LanguageServerProtocol):
        @lsp_method(types.INITIALIZE)
        def lsp_initialize(self, params: types.InitializeParams):
            # Our columns are UTF-16 code units: never let pygls pick UTF-8 or UTF-32.
            general = params.capabilities.general
            if general is not None and general.position_encodings:
                general.position_encodings = [types.PositionEncodingKind.Utf16]
            return (yield from super().lsp_initialize(params))

        @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
        def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
            # A change to a document the client never opened has nothing to apply to: a
            # client's slip, ignored (pygls showed the user "Error in server: KeyError").
            if unquote(params.text_document.uri) not in self.workspace.text_documents:
                logging.getLogger("ordercheck.lsp").info("didChange for a document not open: %s",
                                                         params.text_document.uri)
                return None
            return (yield from super().lsp_text_document__did_change(params))

    server = LanguageServer("ordercheck", __version__, protocol_cls=Protocol,
                            text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
    # (projects by root, and each open document's root, until a configuration changes)
    state = _ServerState()
    lock = asyncio.Lock()

    def fs_path(uri: str) -> Optional[Path]:
        path = to_fs_path(uri) if uri.startswith("file:") else None
        return Path(path) if path else None

    def message(text: str, kind=types.MessageType.Error) -> None:
        server.window_show_message(types.ShowMessageParams(type=kind, message=text))

    def publish(uri: str, diagnostics: List[dict], version: Optional[int] = None) -> None:
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=version,
            diagnostics=[converter.structure(d, types.Diagnostic) for d in diagnostics]))

    def schedule(delay: float) -> None:
        state.generation += 1
        task = asyncio.get_running_loop().create_task(check_later(state.generation, delay))
        state.tasks.add(task)
        task.add_done_callback(state.tasks.discard)

    async def check_later(generation: int, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        if generation != state.generation:
            return  # a later change asked for a newer check
        async with lock:
            if generation != state.generation:
                return
            documents, versions = {}, {}
            for uri in list(state.open):
                doc = server.workspace.get_text_document(uri)
                documents[uri] = (state.open[uri], doc.source)
                versions[uri] = doc.version
            project = get_project()
            if project is None:
                return  # no workspace folder and no document yet
            reload, state.reload = state.reload, False
            if reload:
                state.projects, state.roots = {}, {}  # (every project's settings are read again)
            groups = group_documents(project, documents)
            for owner, docs in groups:
                try:
                    error, results = await in_daemon_thread(analyse, owner, reload and owner is project, docs)
                except Exception as exc:  # never crash: say so and keep serving
                    message(f"ordercheck: internal error: {type(exc).__name__}: {exc}"[:500])
                    continue
                if error:
                    message(error)
                for uri, diagnostics in results.items():
                    if uri in state.open:
                        publish(uri, diagnostics, versions.get(uri))

    async def in_daemon_thread(fn, *args):
        """``fn(*args)`` in a thread of its own that does not hold the process at its
        end (``asyncio.to_thread``'s executor is joined on the way out: a client that
        went away left a server analysing for minutes; a review, session 41)."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()

        def settle(ok: bool, value) -> None:
            if not future.done():
                future.set_result(value) if ok else future.set_exception(value)

        def run() -> None:
            try:
                outcome = (True, fn(*args))
            except BaseException as exc:  # (handed to the awaiting task, which reports it)
                outcome = (False, exc)
            try:
                loop.call_soon_threadsafe(settle, *outcome)
            except RuntimeError:  # the loop has closed: nobody waits any more
                pass

        threading.Thread(target=run, name="ordercheck-analysis", daemon=True).start()
        return await future

    def analyse(project: Project, reload: bool, documents) -> Tuple[Optional[str], Dict[str, List[dict]]]:
        error = project.reload() if reload or project.settings is None else None
        return error, project.check(documents) if documents else {}

    def group_documents(project: Project, documents) -> List[Tuple[Project, dict]]:
        """The open documents by the project each belongs to (``document_root``): the
        workspace's project first (it is checked, and reports a bad config, even with
        no document of its own)."""
        folders = [Path(p) for p in (to_fs_path(f.uri) for f in server.workspace.folders.values()) if p]
        if not folders:
            folders = [project.workspace_root]
        by_root: Dict[Path, dict] = {project.workspace_root: {}}
        for uri, (path, text) in documents.items():
            root = state.roots.get(path)
            if root is None:
                root = state.roots[path] = document_root(path, folders)
            by_root.setdefault(root if root != project.root else project.workspace_root, {})[uri] = (path, text)
        out = []
        for root, docs in by_root.items():
            if root == project.workspace_root:
                out.append((project, docs))
                continue
            owner = state.projects.get(root)
            if owner is None:
                inside = any(root == f.resolve() or f.resolve() in root.parents for f in folders)
                owner = state.projects[root] = Project(root, cached=inside, guessed=not inside)
            out.append((owner, docs))
        return out

    def get_project() -> Optional[Project]:
        if state.project is None:  # the workspace's (first) folder, else the first document's project
            root = server.workspace.root_path
            folders = list(server.workspace.folders.values())
            if not root and folders:
                root = to_fs_path(folders[0].uri)
            if root:
                state.project = Project(Path(root))
            elif state.open:
                state.project = Project(guess_root(next(iter(state.open.values()))), guessed=True)
        return state.project

    @server.feature(types.INITIALIZED)
    async def initialized(ls: LanguageServer, params: types.InitializedParams) -> None:
        schedule(0)  # loads the settings (and reports a bad config) right away
        caps = ls.client_capabilities.workspace
        watched = caps.did_change_watched_files if caps is not None else None
        if watched is not None and watched.dynamic_registration:
            watchers = [types.FileSystemWatcher(glob_pattern=g)
                        for g in ["**/*.py"] + [f"**/{name}" for name in CONFIG_NAMES]]
            try:
                await ls.client_register_capability_async(types.RegistrationParams(registrations=[
                    types.Registration(id="ordercheck-watched-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                                       register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers))]))
            except Exception:  # the client said no: didSave still works
                pass

    @server.feature(types.EXIT)
    def on_exit(ls: LanguageServer, params) -> None:
        # An analysis still running in its thread would hold the process (the event
        # loop's executor is joined on the way out) for as long as it takes: minutes on
        # a large project, a server its client left behind using a core. "exit" means
        # now; the cache's entries are written whole or not at all (a review, session 41).
        if lock.locked():
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(0 if getattr(ls.protocol, "_shutdown", False) else 1)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: LanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        doc = params.text_document
        path = fs_path(doc.uri)
        if path is not None and _is_python(path, doc.language_id):
            state.open[doc.uri] = path
            schedule(0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: LanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        path = fs_path(params.text_document.uri)
        if params.text_document.uri in state.open or _is_python(path):
            schedule(DEBOUNCE)  # another document's buffer feeds the summaries too

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: LanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        path = fs_path(params.text_document.uri)
        if path is not None and path.name in CONFIG_FILES:
            state.reload = True
            schedule(0)
        elif params.text_document.uri in state.open or _is_python(path):
            schedule(0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: LanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        if state.open.pop(uri, None) is not None:
            publish(uri, [])
            if state.open:
                schedule(0)  # the file on disk replaces the buffer for the others

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: LanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
        for change in params.changes:
            path = fs_path(change.uri)
            if path is not None and path.name in CONFIG_FILES:
                state.reload = True
        schedule(0)

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    def code_action(ls: LanguageServer, params: types.CodeActionParams) -> List[types.CodeAction]:
        uri = params.text_document.uri
        try:
            lines = ls.workspace.get_text_document(uri).lines
        except Exception:
            return []
        actions, seen = [], set()
        for d in params.context.diagnostics:
            code = str(d.code) if d.code is not None else ""
            line = d.range.start.line
            if d.source != "ordercheck" or not code or code == "OC900" or (line, code) in seen:
                continue
            seen.add((line, code))
            data = d.data if isinstance(d.data, dict) else {}
            line = comment_line(lines, line, data.get("statement")) if 0 <= line < len(lines) else line
            edit = (suppression_edit(lines[line], code, comment_column(lines, line))
                    if 0 <= line < len(lines) else None)
            if edit is None:
                continue
            start, end, text = edit
            change = types.TextEdit(range=types.Range(start=types.Position(line=line, character=start),
                                                      end=types.Position(line=line, character=end)), new_text=text)
            actions.append(types.CodeAction(
                title=f"Ignore {code} on this line (ordercheck)", kind=types.CodeActionKind.QuickFix,
                diagnostics=[d], edit=types.WorkspaceEdit(changes={uri: [change]})))
        return actions

    return server


def serve() -> int:
    """Run the server on stdio until the client says exit. Without pygls: exit 2."""
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
        from pygls.lsp.server import LanguageServer  # noqa: F401  (pygls 2)
    except ImportError:
        raise UsageError(INSTALL_HINT, key="lsp") from None
    server = build_server()
    server.start_io(sys.stdin.buffer, sys.stdout.buffer)
    # the protocol: "exit" after "shutdown" is status 0, without it 1 (pygls decides
    # so, but its `sys.exit` ends the event loop, not the process)
    return 0 if getattr(server.protocol, "_shutdown", True) else 1
