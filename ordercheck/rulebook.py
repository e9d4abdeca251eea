"""Rules: the ordering contracts of ``rules/*.toml`` (semantics §Contracts), loaded and checked.

A rule file is data: id, name, severity, kind, the event classes it relates, a
message template, a Markdown explanation and examples. Its ``kind`` picks the class
the rule becomes (``contracts.KINDS``: one module per kind in ``ordercheck/contracts/``),
which also checks the roles the kind needs. The same file feeds the engine,
``--explain``, ``--list-rules``, ``docs/rules.md``, SARIF's rule list and the example
tests, so the documentation cannot drift from the behaviour.
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from .contracts import KINDS, ROLE_KEYS, SEVERITIES, ClassExpr, Rule, expr_matches, expr_text
from .errors import UsageError, read_toml
from .resources import rules_dir

__all__ = ["KINDS", "ROLE_KEYS", "RULE_KEYS", "SEVERITIES", "ClassExpr", "Rule", "builtin_rules", "expr_matches",
           "expr_text", "load_rule_file", "load_rules", "parse_rule"]

RULE_KEYS = {"id", "name", "severity", "default", "kind", "message", "help", "explanation", "examples", *ROLE_KEYS}


def _roles(data: dict, key: str, path: str) -> ClassExpr:
    value = data.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip("!") for v in value):
        raise UsageError("must be a list of event-class names", path, key)
    return tuple(value)


def parse_rule(data: dict, path: str, examples_later: Optional[Sequence[dict]] = None) -> Rule:
    """The rule of one TOML file's ``data``; ``examples_later``: its examples, read
    when first asked for (``load_rule_file``), instead of ``data``'s."""
    unknown = set(data) - RULE_KEYS
    if unknown:
        import difflib

        key = sorted(unknown)[0]
        close = difflib.get_close_matches(key, sorted(RULE_KEYS), n=1)
        hint = f" (did you mean `{close[0]}`?)" if close else ""
        raise UsageError(f"unknown rule key{hint}", path, key)
    for key in ("id", "name", "severity", "kind", "message"):
        if not isinstance(data.get(key), str) or not data.get(key):
            raise UsageError("is required and must be a string", path, key)
    kind = KINDS.get(data["kind"])
    if kind is None:
        raise UsageError(f"unknown kind {data['kind']!r} (one of {', '.join(KINDS)})", path, "kind")
    if data["severity"] not in SEVERITIES:
        raise UsageError(f"unknown severity {data['severity']!r} (error, warning, info)", path, "severity")
    if not isinstance(data.get("default", True), bool):
        raise UsageError("must be true or false", path, "default")
    roles = {k: _roles(data, k, path) for k in ROLE_KEYS}
    kind.validate(roles, path)
    if not isinstance(data.get("help", ""), str):
        raise UsageError("must be a string", path, "help")
    examples = data.get("examples", [])
    if not isinstance(examples, list) or not all(isinstance(e, dict) for e in examples):
        raise UsageError("must be an array of tables ([[examples]])", path, "examples")
    _check_placeholders(data["message"], kind.fields, path)
    rid = data["id"]
    if not rid[:1].isalpha() or not rid.isalnum():
        raise UsageError("must look like OC101: letters then digits", path, "id")
    return kind(
        id=rid,
        name=data["name"],
        severity=data["severity"],
        default=data.get("default", True),
        kind=data["kind"],
        # (one line, as every format shows it: a TOML string written over several
        # lines is read as one; a review, session 41)
        message=re.sub(r"\s*[\r\n]+\s*", " ", data["message"]).strip(),
        explanation=data.get("explanation", "").strip(),
        first=roles["first"],
        then=roles["then"],
        barrier=roles["barrier"],
        unless_after=roles["unless-after"],
        event=roles["event"],
        examples=tuple(examples) if examples_later is None else examples_later,
        source=path,
        help=data.get("help", "").strip(),
    )


def load_rule_file(path: Path) -> Rule:
    return parse_rule(read_toml(path, "rule file"), str(path))


#: the first ``[[examples]]`` header of a rule file, on a line of its own
_EXAMPLES = re.compile(r"^\[\[examples\]\][ \t]*(?:#.*)?$", re.MULTILINE)


class ExamplesLater(Sequence):
    """A shipped rule's examples, parsed from its file when first asked for (the
    example tests, ``--explain``, docs/rules.md): they are two thirds of the rule
    files' text, and a run, an editor's keystroke included, never reads them."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._got: Optional[tuple] = None

    def _examples(self) -> tuple:
        if self._got is None:
            self._got = tuple(load_rule_file(self._path).examples)  # (checked as any rule file is)
        return self._got

    def __getitem__(self, i):  # type: ignore[override]
        return self._examples()[i]

    def __len__(self) -> int:
        return len(self._examples())

    def __iter__(self) -> Iterator[dict]:
        return iter(self._examples())


def _shipped_rule(path: Path) -> Rule:
    """A rule file shipped with ordercheck, its examples read later (``ExamplesLater``):
    the text before the first ``[[examples]]`` header is parsed alone. Should that
    text not parse by itself (a header inside a multi-line string), the whole file is
    read. The test suite reads every shipped file whole and compares."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return load_rule_file(path)
    m = _EXAMPLES.search(text)
    if m is None:
        return load_rule_file(path)
    try:
        heads = tomllib.loads(text[:m.start()])
    except tomllib.TOMLDecodeError:
        return load_rule_file(path)
    if "examples" in heads:
        return load_rule_file(path)
    return parse_rule(heads, str(path), examples_later=ExamplesLater(path))


def builtin_rules() -> List[Rule]:
    return [_shipped_rule(p) for p in sorted(rules_dir().glob("*.toml"))]


def load_rules(extra: Iterable[Path] = ()) -> Dict[str, Rule]:
    """Built-in rules plus users' rule files; a user file may not reuse an id."""
    rules: Dict[str, Rule] = {}
    for rule in builtin_rules():
        rules[rule.id] = rule
    for path in extra:
        rule = load_rule_file(Path(path))
        if rule.id in rules:
            raise UsageError(f"rule id {rule.id} is already defined by {rules[rule.id].source}", str(path), "id")
        rules[rule.id] = rule
    return dict(sorted(rules.items()))


MAX_WIDTH = 200  # a message's format spec: a column, not a page


def _check_placeholders(message: str, fields: Tuple[str, ...], path: str) -> None:
    """A message may name only its kind's fields (``Rule.fields``), also inside a format
    spec (``{then_text:>{width}}``): an unknown `{placeholder}` stops the run naming
    the rule file and ``message`` (it was printed as written). So does a template that
    ``str.format`` cannot render with values of the fields' types (``{then_line}`` is a
    number, every other field text): ``{then_text:d}``, an unpaired brace."""
    import string

    def names(template: str, depth: int = 0) -> List[Tuple[str, int]]:
        out: List[Tuple[str, int]] = []
        for _, name, spec, _ in string.Formatter().parse(template):
            if name is not None:
                out.append((name, depth))
            if spec and (any(int(n) > MAX_WIDTH for n in re.findall(r"\d+", spec))
                         or (spec.count("{") > 1 or re.search(r"\d\{|\}\d", spec))):
                # (also a width built of fields, `{then_line}{then_line}`: one `_line`
                # field alone may stand as a width, as before)
                # (`{then_line:>999999999}` made a gigabyte per finding: a rule file in a
                # pull request is data, and may not cost that; a review, session 41)
                raise UsageError(f"a format spec's width or precision is at most {MAX_WIDTH}, from one `_line` field at most (`{spec}`)",
                                 path, "message")
            if spec and depth < 2:
                out += names(spec, depth + 1)
        return out

    try:
        found = names(message)
    except ValueError as exc:
        raise UsageError(f"bad template: {exc} (write `{{{{` and `}}}}` for literal braces)", path, "message") from None
    for name, depth in found:
        if name not in fields:
            listed = ", ".join("{" + f + "}" for f in fields) or "no placeholder"
            raise UsageError(f"unknown placeholder {{{name}}} (this kind fills {listed})", path, "message")
        if depth and not name.endswith("_line"):
            # a text (`ledger.append(run)`) is no format spec, whatever a sample text
            # would let pass (a review, session 31: `{then_line:>{then_text}}`)
            raise UsageError(f"{{{name}}} is text and cannot be part of a format spec "
                             "(only a `_line` number can, as a width)", path, "message")
    sample = {f: (1 if f.endswith("_line") else "x") for f in fields}
    try:
        message.format_map(sample)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise UsageError(f"bad template: {type(exc).__name__}: {exc}", path, "message") from None
