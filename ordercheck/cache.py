"""The per-file cache (docs/performance.md, §10): a file's facts, keyed by what they depend on.

Facts depend only on the file's bytes, the name it is shown under, its module name
and ordercheck's own code — not on the configuration — so a changed config never
needs a re-parse, and findings (graphs, contracts) are always recomputed from facts:
the cache cannot hide a finding.

An entry is JSON of plain data: it cannot run code when read (a pickle can, and a
cache folder committed by a stranger's pull request would then run in CI). The codec
is driven by the dataclasses of ``ordercheck.ir`` and their type annotations: each
object carries its class name as a tag (``"@"``), only the dataclasses defined in
``ir`` may be named, and every value is checked against its field's annotation
while it is read. An entry that does not parse or validate — truncated, garbage, a
pickle, an unknown class or field, a wrong type, nested too deep — is ignored and the
file is analysed again. Entries are written to a temporary file, fsynced and renamed
into place, so an interrupted run never leaves half an entry.
"""
from __future__ import annotations

import copy
import dataclasses
import errno
import hashlib
import json
import os
import stat
import sys
import typing
from enum import Enum
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import __version__
from . import ir as irmod
from .atomic import atomic_write
from .ir import Call, FileFacts, share_calls
from .kinds import StmtKind
from .resources import rules_dir

TAG = "@"
ENTRY_FORMAT = 2  # bump when the entry layout (not the facts) changes


class Invalid(Exception):
    """An entry that does not match the facts dataclasses."""


# --------------------------------------------------------------------------- the codec


def allowed_classes() -> Dict[str, type]:
    """The allow-list: every dataclass defined in ``ordercheck.ir``."""
    return {
        name: obj for name, obj in vars(irmod).items()
        if isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj.__module__ == irmod.__name__
    }


def encode(value: Any) -> Any:
    """Facts → JSON-ready plain data (dataclasses tagged with their class name)."""
    if isinstance(value, Enum):
        return value.value  # a kind (``kinds``): its string
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {TAG: type(value).__name__}
        for f, default in _defaults(type(value)):
            v = getattr(value, f)
            if default is not _REQUIRED and v == default:
                continue  # a field at its default is left out: the decoder fills it in
            out[f] = encode(v)
        return out
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return [encode(v) for v in sorted(value, key=repr)]
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {k: encode(v) for k, v in value.items()}
        return [[encode(k), encode(v)] for k, v in value.items()]
    raise TypeError(f"cannot cache a {type(value).__name__}")


_REQUIRED = object()
_DEFAULTS: Dict[type, List[Tuple[str, Any]]] = {}


def _defaults(cls: type) -> List[Tuple[str, Any]]:
    """A facts class's fields and their defaults (``_REQUIRED`` for none), once per class.
    Leaving defaulted fields out makes entries smaller and quicker to read back: most
    statements and calls hold mostly empty lists, ``None`` and ``False``."""
    found = _DEFAULTS.get(cls)
    if found is None:
        found = []
        for f in dataclasses.fields(cls):
            if not f.init:  # set by a later phase for one run (``Call.typed``): never stored
                continue
            if f.default is not dataclasses.MISSING:
                found.append((f.name, f.default))
            elif f.default_factory is not dataclasses.MISSING:
                found.append((f.name, f.default_factory()))
            else:
                found.append((f.name, _REQUIRED))
        _DEFAULTS[cls] = found
    return found


def _fail(why: str) -> Any:
    raise Invalid(why)


def _check_str(v: Any) -> str:
    return v if type(v) is str else _fail("expected a string")


def _check_int(v: Any) -> int:
    return v if type(v) is int else _fail("expected an int")


def _check_bool(v: Any) -> bool:
    return v if type(v) is bool else _fail("expected a bool")


def _check_float(v: Any) -> float:
    return float(v) if type(v) in (int, float) else _fail("expected a number")


def _check_none(v: Any) -> None:
    if v is not None:
        _fail("expected null")


class Codec:
    """Reads plain data back into facts, checking every value against the
    annotations of the facts dataclasses.

    Each allowed dataclass gets one decoder function, generated from its fields'
    annotations when the codec is made (a warm run decodes every file's light facts,
    and a closure per field cost a third of an editor's run). A field of a common
    shape — ``str``, ``int``, ``bool``, a kind, a facts class, ``Optional`` or a
    sequence of those — is checked inline; any other annotation goes through a
    decoder closure built once per annotation (``decoder``). The generated code
    names other classes through the table ``CL`` at call time, so recursive types
    (a ``Stmt`` holds ``List[Stmt]``) need no special case."""

    def __init__(self, classes: Optional[Dict[str, type]] = None, namespace: Optional[Dict[str, Any]] = None) -> None:
        self.classes = allowed_classes() if classes is None else classes
        self.namespace = vars(irmod) if namespace is None else namespace  # where annotations are resolved
        self._decoders: Dict[Any, Callable[[Any], Any]] = {}
        self._compiled: Dict[str, Callable[[Any], Any]] = {}
        for name, cls in self.classes.items():
            self._compiled[name] = _compile_class(self, name, cls)

    def decode(self, data: Any, hint: Any) -> Any:
        return self.decoder(hint)(data)

    def decoder(self, hint: Any) -> Callable[[Any], Any]:
        try:
            found = self._decoders.get(hint)
        except TypeError:  # an unhashable annotation
            return self._build(hint)
        if found is None:
            found = self._decoders[hint] = self._build(hint)
        return found

    def _build(self, hint: Any) -> Callable[[Any], Any]:
        if hint is Any:
            return self._plain
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            expected = (hint,)
            return lambda data: self._object(data, expected)
        if isinstance(hint, type) and issubclass(hint, Enum):  # a kind: one of its values, read back as the member
            members = {m.value: m for m in hint}
            return lambda data: members[data] if type(data) is str and data in members else _fail(f"not a {hint.__name__}")
        simple = {type(None): _check_none, None: _check_none, bool: _check_bool, int: _check_int,
                  float: _check_float, str: _check_str}
        if hint in simple:
            return simple[hint]
        if hint in (tuple, list):  # a bare annotation: plain JSON items
            make = hint
            return lambda data: make(self._plain(v) for v in data) if type(data) is list else _fail("expected a list")
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if origin is typing.Union:
            optional = type(None) in args
            classes = tuple(a for a in args if isinstance(a, type) and dataclasses.is_dataclass(a))
            others = [self.decoder(a) for a in args if a is not type(None) and a not in classes]

            def union(data: Any) -> Any:
                if data is None:
                    return None if optional else _fail("unexpected null")
                if classes and type(data) is dict and TAG in data:
                    return self._object(data, classes)
                for dec in others:
                    try:
                        return dec(data)
                    except Invalid:
                        continue
                return _fail("no alternative of a union matches")

            return union
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                item = self.decoder(args[0])
                return lambda data: tuple(item(v) for v in data) if type(data) is list else _fail("expected a list")
            decs = [self.decoder(a) for a in args if a != ()]

            def fixed(data: Any) -> Any:
                if type(data) is not list or (decs and len(data) != len(decs)):
                    return _fail("expected a list of the tuple's length")
                return tuple(d(v) for d, v in zip(decs, data)) if decs else tuple(self._plain(v) for v in data)

            return fixed
        if origin in (list, set, frozenset, typing.Sequence) or (origin is not None and getattr(origin, "__name__", "") == "Sequence"):
            item = self.decoder(args[0] if args else Any)
            make = origin if origin in (set, frozenset) else list

            def sequence(data: Any) -> Any:
                if type(data) is not list:
                    return _fail("expected a list")
                out = [item(v) for v in data]
                return out if make is list else make(out)

            return sequence
        if origin is dict or (origin is not None and getattr(origin, "__name__", "") == "Mapping"):
            kt, vt = args if args else (Any, Any)
            key, value = self.decoder(kt), self.decoder(vt)
            if kt is str:
                def mapping(data: Any) -> Any:
                    if type(data) is not dict:
                        return _fail("expected an object")
                    return {_check_str(k): value(v) for k, v in data.items()}
                return mapping

            def pairs(data: Any) -> Any:
                if type(data) is not list:
                    return _fail("expected a list of pairs")
                out = {}
                for pair in data:
                    if type(pair) is not list or len(pair) != 2:
                        return _fail("expected a pair")
                    out[key(pair[0])] = value(pair[1])
                return out

            return pairs
        if origin is typing.Literal:
            return lambda data: data if data in args else _fail("not one of the allowed values")
        return lambda data: _fail(f"cannot read a value of type {hint!r}")

    def _object(self, data: Any, expected: Tuple[type, ...]) -> Any:
        if type(data) is not dict:
            return _fail("expected an object")
        name = data.get(TAG)
        cls = self.classes.get(name) if type(name) is str else None
        if cls is None or cls not in expected:
            return _fail(f"class {name!r} is not allowed here")
        return self._compiled[cls.__name__](data)

    def _plain(self, data: Any) -> Any:
        """An ``Any`` field: plain JSON only, never an object of a class."""
        if isinstance(data, list):
            return [self._plain(v) for v in data]
        if isinstance(data, dict):
            if TAG in data:
                return _fail("a tagged object in an untyped field")
            return {k: self._plain(v) for k, v in data.items()}
        return data


_MISSING = object()


def _compile_class(codec: "Codec", name: str, cls: type) -> Callable[[Any], Any]:
    """The decoder of one facts dataclass, as generated Python: the tag, each field
    (its own check inline where the annotation has a common shape), no unknown
    field, the required ones present; then the constructor, positionally."""
    hints = typing.get_type_hints(cls, codec.namespace)
    fields = [f for f in dataclasses.fields(cls) if f.init]
    env: Dict[str, Any] = {"_fail": _fail, "_M": _MISSING, "CL": codec._compiled, "cls": cls}
    lines = [
        "def decode(data):",
        "    if type(data) is not dict:",
        "        return _fail('expected an object')",
        f"    if data.get({TAG!r}) != {name!r}:",
        f"        return _fail('expected a {name}')",
        "    n = 1",
    ]
    for i, f in enumerate(fields):
        a = f"a{i}"
        lines.append(f"    v = data.get({f.name!r}, _M)")
        lines.append("    if v is _M:")
        if f.default is not dataclasses.MISSING:
            env[f"D{i}"] = f.default
            lines.append(f"        {a} = D{i}")
        elif f.default_factory is not dataclasses.MISSING:
            env[f"F{i}"] = f.default_factory
            lines.append(f"        {a} = F{i}()")
        else:
            lines.append(f"        return _fail('missing fields of {name}')")
        lines.append("    else:")
        lines.append("        n += 1")
        lines.extend("        " + ln for ln in _emit(codec, hints.get(f.name, Any), "v", a, env, f"{i}"))
    lines.append("    if n != len(data):")
    lines.append(f"        return _fail('unknown field of {name}')")
    lines.append(f"    return cls({', '.join(f'a{i}' for i in range(len(fields)))})")
    code = compile("\n".join(lines) + "\n", f"<ordercheck codec: {name}>", "exec")
    exec(code, env)  # our own generated text, from our own dataclasses: no data flows into it
    return env["decode"]


_SIMPLE = {str: "str", int: "int", bool: "bool"}


def _emit(codec: "Codec", hint: Any, src: str, dst: str, env: Dict[str, Any], tag: str) -> List[str]:
    """Lines that check ``src`` against ``hint`` and bind the value read to ``dst``."""
    if hint in _SIMPLE:
        t = _SIMPLE[hint]
        return [f"if type({src}) is not {t}:", f"    _fail('expected a {t}')", f"{dst} = {src}"]
    if isinstance(hint, type) and issubclass(hint, Enum):
        env[f"E{tag}"] = {m.value: m for m in hint}
        return [f"{dst} = E{tag}.get({src}) if type({src}) is str else None",
                f"if {dst} is None:", f"    _fail('not a {hint.__name__}')"]
    if isinstance(hint, type) and dataclasses.is_dataclass(hint) and codec.classes.get(hint.__name__) is hint:
        return [f"{dst} = CL[{hint.__name__!r}]({src})"]
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Union and len(args) == 2 and type(None) in args:
        inner = args[0] if args[1] is type(None) else args[1]
        return [f"if {src} is None:", f"    {dst} = None", "else:",
                *("    " + ln for ln in _emit(codec, inner, src, dst, env, tag + "o"))]
    item = None
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item, make = args[0], "tuple"
    elif origin is list and len(args) == 1:
        item, make = args[0], "list"
    if item is not None:
        head = [f"if type({src}) is not list:", "    _fail('expected a list')"]
        if item in _SIMPLE:
            t = _SIMPLE[item]
            return [*head, f"for x in {src}:", f"    if type(x) is not {t}:", f"        _fail('expected a {t}')",
                    f"{dst} = {make}({src})"]
        if isinstance(item, type) and dataclasses.is_dataclass(item) and codec.classes.get(item.__name__) is item:
            return [*head, f"d = CL[{item.__name__!r}]", f"{dst} = {make}([d(x) for x in {src}])"]
        sub_origin, sub_args = typing.get_origin(item), typing.get_args(item)
        if sub_origin is tuple and len(sub_args) == 2 and sub_args[1] is Ellipsis and sub_args[0] in _SIMPLE:
            t = _SIMPLE[sub_args[0]]  # e.g. marker runs, Tuple[Tuple[str, ...], ...]
            return [*head, f"for x in {src}:", "    if type(x) is not list:", "        _fail('expected a list')",
                    "    for y in x:", f"        if type(y) is not {t}:", f"            _fail('expected a {t}')",
                    f"{dst} = {make}([tuple(x) for x in {src}])"]
        env[f"I{tag}"] = codec.decoder(item)
        return [*head, f"{dst} = {make}([I{tag}(x) for x in {src}])"]
    if origin is tuple and args and all(a in _SIMPLE for a in args):  # a fixed tuple of simple values
        checks = " or ".join(f"type({src}[{k}]) is not {_SIMPLE[a]}" for k, a in enumerate(args))
        return [f"if type({src}) is not list or len({src}) != {len(args)} or {checks}:",
                "    _fail('expected a fixed-length list')",
                f"{dst} = tuple({src})"]
    env[f"G{tag}"] = codec.decoder(hint)
    return [f"{dst} = G{tag}({src})"]


_CODEC: Optional[Codec] = None


def codec() -> Codec:
    global _CODEC
    if _CODEC is None:
        _CODEC = Codec()
    return _CODEC


def to_json(facts: FileFacts) -> str:
    return json.dumps(encode(facts), separators=(",", ":"), check_circular=False)


def from_json(text: str) -> FileFacts:
    """Parse and validate; raises ``Invalid`` for anything that is not facts."""
    try:
        data = json.loads(text)
        facts = codec().decode(data, FileFacts)
        for fn in facts.functions:  # one object per call, as the front end made them
            share_calls(fn)
        return facts
    except Invalid:
        raise
    except (ValueError, TypeError, RecursionError, MemoryError) as exc:
        raise Invalid(f"{type(exc).__name__}") from None


# --------------------------------------------------------------------------- the key


def _schema() -> str:
    """The shape of the facts: every dataclass, its fields and their annotations."""
    shapes = sorted(
        (name, tuple((f.name, str(f.type)) for f in dataclasses.fields(cls)))
        for name, cls in allowed_classes().items()
    )
    return hashlib.sha256(repr(shapes).encode()).hexdigest()[:16]


def _engine_files() -> list:
    """ordercheck's own source files and shipped rules/vocabulary, in a stable order."""
    here = Path(__file__).resolve().parent
    files = sorted(here.rglob("*.py"))
    try:
        rules = rules_dir()
        files += sorted(rules.rglob("*.toml"))
    except FileNotFoundError:
        pass
    return files


def _engine() -> str:
    """A hash of the engine's code, so an edited checkout (same version string) never
    reads facts an older extractor wrote."""
    h = hashlib.sha256(__version__.encode())
    here = Path(__file__).resolve().parent
    for p in _engine_files():
        try:
            data = p.read_bytes()
        except OSError:
            data = b"?"
        h.update(os.path.relpath(p, here).encode("utf-8", "surrogatepass") + b"\0")
        h.update(hashlib.sha256(data).digest())
    return h.hexdigest()[:16]


#: a secret shared by the machines whose caches may be read on each other (CI runners
#: restoring one cache folder); without it, a secret of this user on this machine
SECRET_ENV = "ORDERCHECK_CACHE_SECRET"


def user_cache_home() -> Path:
    """Where ordercheck keeps what belongs to the user, not to a project (the cache
    secret): ``$XDG_CACHE_HOME/ordercheck`` (``~/.cache/ordercheck``), on macOS
    ``~/Library/Caches/ordercheck``, on Windows ``%LOCALAPPDATA%\\ordercheck``."""
    if os.name == "nt":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = str(Path.home() / "Library" / "Caches")
    else:
        xdg = os.environ.get("XDG_CACHE_HOME", "")
        base = xdg if os.path.isabs(xdg) else str(Path.home() / ".cache")
    return Path(base) / "ordercheck"


def _read_secret(path: Path) -> Tuple[Optional[bytes], Optional[str]]:
    """(the secret, None), (None, None) when there is none yet, or (None, what is wrong
    with the file there). It must be a regular file (not a link: a pull request can
    ship one into a cache home inside the checkout; not a FIFO, which would hang),
    owned by this user and private to them (mode 0600: git never checks out a file
    so), and long enough."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(str(path), flags)
    except (FileNotFoundError, NotADirectoryError):
        return None, None  # (none yet: made where it can be)
    except OSError as exc:
        return None, f"cannot read the cache secret {path} ({exc.strerror or type(exc).__name__})"
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None, f"the cache secret {path} is not a regular file"
        if hasattr(os, "getuid") and (st.st_uid != os.getuid() or st.st_mode & 0o077):
            return None, f"the cache secret {path} is not private to you (owned by you, mode 0600)"
        data = os.read(fd, 4096)
    except OSError as exc:
        return None, f"cannot read the cache secret {path} ({exc.strerror or type(exc).__name__})"
    finally:
        os.close(fd)
    if len(data.strip()) < 32:
        return None, f"the cache secret {path} is too short"
    return data.strip(), None


def _make_secret(path: Path) -> None:
    """A new secret, whole or not at all, and never over another process's: written
    to a temporary file and linked into place (the first link wins). The folders
    below the user's home are made, never the home itself (`HOME=/nonexistent`, a
    service account's: a review, session 41)."""
    home = Path(os.path.expanduser("~"))
    if home in path.parents and not home.is_dir():
        raise OSError(errno.ENOENT, f"no home folder {home}")
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_name(f".secret.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    fd = os.open(str(tmp), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(os.urandom(32).hex().encode())
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.link(str(tmp), str(path))
        except FileExistsError:
            pass  # another process made it first: its secret is the one
        except OSError:
            if not path.exists():  # (no hard links on this file system)
                os.replace(str(tmp), str(path))
    finally:
        try:
            os.unlink(str(tmp))
        except OSError:
            pass


def _digest_of(given: str) -> str:
    return hashlib.sha256(given.encode("utf-8", "surrogatepass")).hexdigest()[:32]


_SECRET: Optional[Tuple[str, Optional[str]]] = None


def _load_secret() -> Tuple[str, Optional[str]]:
    global _SECRET
    if _SECRET is not None:
        return _SECRET
    given = os.environ.get(SECRET_ENV)
    if given:
        _SECRET = (_digest_of(given), None)
        return _SECRET
    path = user_cache_home() / "secret"
    data, problem = _read_secret(path)
    if data is None and problem is None:
        try:
            _make_secret(path)
        except OSError as exc:
            problem = f"cannot keep a cache secret in {path} ({exc.strerror or type(exc).__name__})"
        else:
            data, problem = _read_secret(path)
    if data is not None:
        _SECRET = (hashlib.sha256(b"file|" + data).hexdigest()[:32], None)
        return _SECRET
    # nowhere to keep one: a secret of this run, handed to its workers
    given = "run-" + os.urandom(16).hex()
    os.environ[SECRET_ENV] = given
    _SECRET = (_digest_of(given), problem or f"no cache secret in {path}")
    return _SECRET


def secret() -> str:
    """What makes this machine's cache keys its own: a cache folder that came from
    elsewhere (committed to the repository, planted by a pull request, copied from
    another user) never matches, so none of its entries or run records is read
    (docs/architecture.md, "The cache"). ``ORDERCHECK_CACHE_SECRET`` names one to share
    between machines (CI runners restoring one cache); else a random one kept in
    ``user_cache_home()/secret``, made on first use. Where none can be kept or the
    one there is not trustworthy (``secret_problem``), a random one for this run,
    handed to its workers through the environment: nothing earlier is read, and the
    command line runs without a cache rather than fill one nobody can read."""
    return _load_secret()[0]


def secret_problem() -> Optional[str]:
    """Why this run has no lasting secret (and so no cache worth reading or
    writing), or None."""
    return _load_secret()[1]


_SALT: Optional[str] = None


def salt() -> str:
    """Everything a key depends on besides the file: engine code, Python, schema, and
    the user's secret (``secret``)."""
    global _SALT
    if _SALT is None:
        _SALT = "|".join((str(ENTRY_FORMAT), _engine(), sys.version.split()[0], sys.implementation.name, _schema(),
                          secret()))
    return _SALT


def key(shown: str, module: str, data: bytes) -> str:
    h = hashlib.sha256()
    for part in (salt(), shown, module):
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    h.update(data)
    return h.hexdigest()


# --------------------------------------------------------------------------- the store


def write_atomically(path: Path, data: bytes) -> None:
    """A cache entry written whole or not at all (``atomic.atomic_write``), readable
    by its owner only; never through a folder that is a symbolic link (``prepare``)."""
    if path.parent.is_symlink():
        raise OSError(errno.ELOOP, f"{path.parent} is a symbolic link")
    atomic_write(path, data, private=True)


def _read_entry(p: Path) -> Optional[bytes]:
    """An entry's bytes, or None. Our entries are regular files: a planted FIFO,
    device or symlink in their place is not opened for reading (non-blocking, no
    symlinks followed, checked again once open)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(p, flags)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            return None
        return fh.read()


def prepare(folder: Path) -> None:
    """The cache folder, marked as a cache (CACHEDIR.TAG) and ignored by git.

    Only a folder made here (or found empty) is marked: an existing one keeps its files
    as they are (``--cache-dir .`` must not turn the project's ``.gitignore`` into
    ``*``). A cache folder that is a symbolic link, or holds one, is refused with an
    ``OSError`` (the callers then run without a cache): one committed by a stranger's
    pull request could send the run's writes anywhere (semantics §Surfaces, "Never").
    Asked again before every write (a few entries to list: a folder replaced while a
    language server runs is seen), and ``write_atomically`` refuses a linked folder
    one level down (``facts/e3``)."""
    if folder.is_symlink():
        raise OSError(errno.ELOOP, "it is a symbolic link")
    try:
        folder.mkdir(parents=True)
        fresh = True
    except FileExistsError:
        if not folder.is_dir():
            raise
        fresh = True
        with os.scandir(folder) as top:
            for entry in top:
                fresh = False
                if entry.is_symlink():
                    raise OSError(errno.ELOOP, f"{entry.name} in it is a symbolic link")
    if fresh:
        tag = folder / "CACHEDIR.TAG"
        write_atomically(tag, b"Signature: 8a477f597d28d172789f06886806bc55\n# ordercheck cache\n")
        write_atomically(folder / ".gitignore", b"*\n")


def lighten(facts: FileFacts) -> FileFacts:
    """The facts without what only graphs and reporters read — each function's
    statement tree and the source lines — but with everything the project index,
    call resolution and the incremental keys read (functions, their calls, classes,
    imports, suppressions). A warm run reads these for every file and the whole
    facts only of the files it checks again.

    Of a function's statements only its ``with`` statements stay, flattened in
    source order with nothing inside them: call resolution reads their items (which
    ``with`` enters a project context manager, ``summaries.with_managers``). Whole
    bodies were a fifth of every light entry."""
    if facts.error is not None:
        return facts  # an OC900 needs its lines; there is nothing else to save
    functions = [dataclasses.replace(fn, body=_with_skeleton(fn.body), calls=[_light_call(c) for c in fn.calls])
                 for fn in facts.functions]
    for fn in functions:  # the skeleton's manager calls are the light calls too
        share_calls(fn)
    return dataclasses.replace(facts, functions=functions, lines=[])


def _light_call(call: Call) -> Call:
    """A call as resolution and a remembered summary's origins read it (callee, names,
    receiver, position, text): without what only classifying it on a graph reads (its
    marker runs, the names it reads, where a caught exception flows, whether it builds a
    record), which graphs take from the whole facts."""
    if not (call.marker_runs or call.own_run or call.reads or call.hands_on or call.builds):
        return call
    return dataclasses.replace(call, marker_runs=(), own_run=(), reads=(), hands_on=(), builds=False)


def _with_skeleton(stmts, out=None) -> list:
    """The ``with`` statements of a tree in preorder (``with_managers``' order), each
    with its items and without the statements it holds."""
    out = [] if out is None else out
    for st in stmts:
        if st.kind == StmtKind.WITH:
            # (its own copy of the items: ``share_calls`` puts the light calls in them)
            out.append(dataclasses.replace(st, events=[], body=[], orelse=[], handlers=[], finalbody=[], cases=[],
                                           items=copy.deepcopy(st.items)))
        _with_skeleton(st.body, out)
        _with_skeleton(st.orelse, out)
        _with_skeleton(st.finalbody, out)
        for h in st.handlers:
            _with_skeleton(h.body, out)
        for c in st.cases:
            _with_skeleton(c.body, out)
    return out


class Cache:
    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.hits = 0

    def _path(self, k: str, kind: str = "facts") -> Path:
        return self.folder / kind / k[:2] / f"{k}.json"

    def get_light(self, k: str) -> Optional[FileFacts]:
        """The facts of ``lighten`` (``None``: no valid entry)."""
        return self.get(k, "light")

    def get_outline(self, k: str) -> Optional[FileFacts]:
        """A file's outline (``frontend.outline``), kept apart from its facts: an
        outline never stands for them."""
        return self.get(k, "outline")

    def put_outline(self, k: str, facts: FileFacts) -> None:
        self._write(k, "outline", facts)

    def get(self, k: str, kind: str = "facts") -> Optional[FileFacts]:
        p = self._path(k, kind)
        facts = None
        try:
            raw = _read_entry(p)
            facts = self._read(raw, k) if raw is not None else None
        except OSError:
            facts = None
        if facts is None:
            return None
        self.hits += 1
        return facts

    @staticmethod
    def _read(raw: bytes, k: str) -> Optional[FileFacts]:
        try:
            text = raw.decode("utf-8")
            head, sep, body = text.partition("\n")
            if not sep or head != json.dumps({"key": k}):
                return None
            return from_json(body)
        except (Invalid, UnicodeDecodeError):
            return None

    def put(self, k: str, facts: FileFacts) -> None:
        """The facts, then their light form (written last: a light entry exists only
        beside its whole facts)."""
        try:
            light = lighten(facts)
        except RecursionError:
            return  # facts too deep to lighten: recomputed next time (as too deep to encode)
        for kind, value in (("facts", facts), ("light", light)):
            if not self._write(k, kind, value):
                return

    def _write(self, k: str, kind: str, value: FileFacts) -> bool:
        p = self._path(k, kind)
        try:
            body = to_json(value)
        except (TypeError, ValueError, RecursionError):
            return False  # facts too deep to encode: they are recomputed next time
        data = (json.dumps({"key": k}) + "\n" + body).encode("ascii")
        try:
            prepare(self.folder)
            p.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(p, data)
        except OSError:
            return False  # a cache that cannot be written only costs time
        return True

