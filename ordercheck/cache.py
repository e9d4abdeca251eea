"""The per-file cache (SPEC §9, §10): a file's facts, keyed by what they depend on.

Facts depend only on the file's bytes, the name it is shown under, its module name
and ordercheck's own code — not on the configuration — so a changed config never
needs a re-parse, and findings (graphs, contracts) are always recomputed from facts:
the cache cannot hide a finding.

An entry is JSON of plain data: it cannot run code when read (a pickle can, and a
cache folder committed by a stranger's pull request would then run in CI). The codec
is driven by the dataclasses of ``ordercheck.facts`` and their type annotations: each
object carries its class name as a tag (``"@"``), only the dataclasses defined in
``facts`` may be named, and every value is checked against its field's annotation
while it is read. An entry that does not parse or validate — truncated, garbage, a
pickle, an unknown class or field, a wrong type, nested too deep — is ignored and the
file is analysed again. Entries are written to a temporary file, fsynced and renamed
into place, so an interrupted run never leaves half an entry.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import sys
import tempfile
import typing
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

from . import __version__
from . import facts as factsmod
from .facts import FileFacts
from .resources import rules_dir

TAG = "@"
ENTRY_FORMAT = 2  # bump when the entry layout (not the facts) changes


class Invalid(Exception):
    """An entry that does not match the facts dataclasses."""


# --------------------------------------------------------------------------- the codec


def allowed_classes() -> Dict[str, type]:
    """The allow-list: every dataclass defined in ``ordercheck.facts``."""
    return {
        name: obj for name, obj in vars(factsmod).items()
        if isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj.__module__ == factsmod.__name__
    }


def encode(value: Any) -> Any:
    """Facts → JSON-ready plain data (dataclasses tagged with their class name)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {TAG: type(value).__name__}
        for f in dataclasses.fields(value):
            out[f.name] = encode(getattr(value, f.name))
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


class Codec:
    """Reads plain data back into facts, checking every value against the
    annotations of the facts dataclasses (resolved once, lazily)."""

    def __init__(self) -> None:
        self.classes = allowed_classes()
        self._fields: Dict[type, Tuple[Dict[str, Any], frozenset]] = {}

    def _shape(self, cls: type) -> Tuple[Dict[str, Any], frozenset]:
        shape = self._fields.get(cls)
        if shape is None:
            hints = typing.get_type_hints(cls, vars(factsmod))
            fs = dataclasses.fields(cls)
            names = {f.name: hints.get(f.name, Any) for f in fs if f.init}
            required = frozenset(
                f.name for f in fs
                if f.init and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING  # type: ignore[misc]
            )
            shape = self._fields[cls] = (names, required)
        return shape

    def decode(self, data: Any, hint: Any) -> Any:
        if hint is Any:
            return self._plain(data)
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            return self._object(data, (hint,))
        if hint is type(None) or hint is None:
            if data is not None:
                raise Invalid("expected null")
            return None
        if hint is bool:
            if not isinstance(data, bool):
                raise Invalid("expected a bool")
            return data
        if hint is int:
            if isinstance(data, bool) or not isinstance(data, int):
                raise Invalid("expected an int")
            return data
        if hint is float:
            if isinstance(data, bool) or not isinstance(data, (int, float)):
                raise Invalid("expected a number")
            return float(data)
        if hint is str:
            if not isinstance(data, str):
                raise Invalid("expected a string")
            return data
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if origin is typing.Union:
            if data is None:
                if type(None) in args:
                    return None
                raise Invalid("unexpected null")
            classes = tuple(a for a in args if isinstance(a, type) and dataclasses.is_dataclass(a))
            if isinstance(data, dict) and TAG in data and classes:
                return self._object(data, classes)
            for a in args:
                if a is type(None) or a in classes:
                    continue
                try:
                    return self.decode(data, a)
                except Invalid:
                    continue
            raise Invalid("no alternative of a union matches")
        if origin in (list, tuple, set, frozenset) or origin in (typing.Sequence, typing.List):
            if not isinstance(data, list):
                raise Invalid("expected a list")
            if origin is tuple:
                if len(args) == 2 and args[1] is Ellipsis:
                    return tuple(self.decode(v, args[0]) for v in data)
                if args == ((),):
                    args = ()
                if args and len(args) != len(data):
                    raise Invalid("a tuple of the wrong length")
                return tuple(self.decode(v, a) for v, a in zip(data, args)) if args else tuple(self._plain(v) for v in data)
            item = args[0] if args else Any
            items = [self.decode(v, item) for v in data]
            return items if origin not in (set, frozenset) else origin(items)
        if origin in (dict, typing.Mapping) or (origin is not None and origin.__name__ in ("Mapping", "dict")):
            kt, vt = args if args else (Any, Any)
            if kt is str:
                if not isinstance(data, dict):
                    raise Invalid("expected an object")
                return {self.decode(k, str): self.decode(v, vt) for k, v in data.items()}
            if not isinstance(data, list):
                raise Invalid("expected a list of pairs")
            out = {}
            for pair in data:
                if not isinstance(pair, list) or len(pair) != 2:
                    raise Invalid("expected a pair")
                out[self.decode(pair[0], kt)] = self.decode(pair[1], vt)
            return out
        if origin is typing.Literal:
            if data not in args:
                raise Invalid("not one of the allowed values")
            return data
        raise Invalid(f"cannot read a value of type {hint!r}")

    def _object(self, data: Any, expected: Tuple[type, ...]) -> Any:
        if not isinstance(data, dict):
            raise Invalid("expected an object")
        name = data.get(TAG)
        cls = self.classes.get(name) if isinstance(name, str) else None
        if cls is None or cls not in expected:
            raise Invalid(f"class {name!r} is not allowed here")
        names, required = self._shape(cls)
        kwargs = {}
        for k, v in data.items():
            if k == TAG:
                continue
            if k not in names:
                raise Invalid(f"unknown field {k!r} of {name}")
            kwargs[k] = self.decode(v, names[k])
        if not required <= kwargs.keys():
            raise Invalid(f"missing fields of {name}")
        return cls(**kwargs)

    def _plain(self, data: Any) -> Any:
        """An ``Any`` field: plain JSON only, never an object of a class."""
        if isinstance(data, list):
            return [self._plain(v) for v in data]
        if isinstance(data, dict):
            if TAG in data:
                raise Invalid("a tagged object in an untyped field")
            return {k: self._plain(v) for k, v in data.items()}
        return data


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
        return codec().decode(data, FileFacts)
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


_SALT: Optional[str] = None


def salt() -> str:
    """Everything a key depends on besides the file: engine code, Python, schema."""
    global _SALT
    if _SALT is None:
        _SALT = "|".join((str(ENTRY_FORMAT), _engine(), sys.version.split()[0], sys.implementation.name, _schema()))
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
    """Temporary file beside ``path``, fsync, rename; the temporary file is removed
    on any failure or interrupt."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class Cache:
    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.hits = 0
        self.misses = 0

    def _path(self, k: str) -> Path:
        return self.folder / "facts" / k[:2] / f"{k}.json"

    def get(self, k: str) -> Optional[FileFacts]:
        p = self._path(k)
        facts = None
        try:
            if p.is_file():
                with open(p, "rb") as fh:
                    raw = fh.read()
                facts = self._read(raw, k)
        except OSError:
            facts = None
        if facts is None:
            self.misses += 1
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
        p = self._path(k)
        try:
            body = to_json(facts)
        except (TypeError, ValueError, RecursionError):
            return  # facts too deep to encode: they are recomputed next time
        data = (json.dumps({"key": k}) + "\n" + body).encode("ascii")
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            tag = self.folder / "CACHEDIR.TAG"
            if not tag.exists():
                write_atomically(tag, b"Signature: 8a477f597d28d172789f06886806bc55\n# ordercheck cache\n")
                write_atomically(self.folder / ".gitignore", b"*\n")
            write_atomically(p, data)
        except OSError:
            return  # a cache that cannot be written only costs time

