"""A path made from a path (`tmp = path.with_suffix(".tmp")`) is a `pathlib.Path`:
only a path has `with_suffix`, `with_name`, `with_stem`, `with_segments`, so its
`replace` is a rename (held-out set 145: rosbags writes `metadata.yaml` so, unsynced;
docs/decisions.md "A path derived from a path")."""
import pytest
from checkutil import cl

SRC = """\
def save(dst, data):
    tmp = {made}
    tmp.write_bytes(data)
    tmp.replace(dst)
"""


@pytest.mark.parametrize("made", ['dst.with_suffix(".tmp")', 'dst.with_name(dst.name + ".tmp")',
                                  'dst.with_stem("x")', 'self_path.parent.with_name("x")'])
def test_a_derived_paths_replace_is_a_rename(made):
    assert cl(SRC.format(made=made), ["OC301"]) == [("OC301", 4)]


@pytest.mark.parametrize("made", ['dst + ".tmp"', 'dst.replace(".txt", ".tmp")', 'make_tmp(dst)'])
def test_anything_else_is_not_known_to_be_a_path(made):
    assert cl(SRC.format(made=made), ["OC301"]) == []


def test_an_attribute_bound_to_a_derived_path_is_one_too():
    src = """\
class Writer:
    def __init__(self, path):
        self.tmp = path.with_suffix(".tmp")

    def close(self, path, text):
        self.tmp.write_text(text)
        self.tmp.replace(path)
"""
    assert cl(src, ["OC301"]) == [("OC301", 7)]


def test_a_synced_derived_path_is_no_finding():
    src = """\
import os


def save(dst, data):
    tmp = dst.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    tmp.replace(dst)
"""
    assert cl(src, ["OC301"]) == []


def test_a_receiver_of_another_known_class_makes_no_path():
    """(A review.) A project class's own `with_name` returns that class: its `replace`
    is a text substitution; a receiver annotated as a path still makes a path."""
    src = """\
from pathlib import Path


class Template:
    def with_name(self, name):
        return Template()

    def replace(self, old, new):
        return Template()


def render(base: Template, out):
    tpl = base.with_name("report")
    with open(out, "w") as f:
        f.write("x")
    tpl.replace("{{date}}", "today")


def save(dst: Path, data):
    tmp = dst.with_suffix(".tmp")
    tmp.write_bytes(data)
    tmp.replace(dst)
"""
    assert cl(src, ["OC301"]) == [("OC301", 22)]


def test_a_receiver_constructed_as_another_class_or_typed_as_a_path_alias():
    """(A second review.) A local or an attribute constructed as another class makes no
    path; a path-like annotation (`os.PathLike`, `PathOrStr`) still does."""
    src = """\
import os
from typing import Union
from pathlib import Path

PathOrStr = Union[str, Path]


class Template:
    def with_name(self, name):
        return Template()

    def replace(self, old, new):
        return Template()


class Report:
    def __init__(self):
        self.base = Template()

    def render(self, data):
        tpl = self.base.with_name("report")
        tpl.write_text(data)
        tpl.replace("{{date}}", "today")


def render_local(data):
    base = Template()
    tpl = base.with_name("report")
    tpl.write_text(data)
    tpl.replace("{{date}}", "today")


def save(path: os.PathLike, data):
    tmp = path.with_suffix(".tmp")
    tmp.write_text(data)
    tmp.replace(path)


def save_alias(path: PathOrStr, data):
    tmp = path.with_suffix(".tmp")
    tmp.write_text(data)
    tmp.replace(path)
"""
    assert cl(src, ["OC301"]) == [("OC301", 36), ("OC301", 42)]


def test_a_class_from_a_module_named_for_paths_or_an_alias_of_a_path():
    """(A third review.) The class's own name decides, not its module's
    (`xpathtpl.Template` is no path); an alias or a type variable that may stand for a
    path (`Location = Union[str, Path]`, `TypeVar("P", bound=Path)`) is not known to be
    another class."""
    src = """\
import xpathtpl
from pathlib import Path
from typing import TypeVar, Union

Location = Union[str, Path]
P = TypeVar("P", bound=Path)


def render_param(base: xpathtpl.Template, data):
    tpl = base.with_name("report")
    tpl.write_text(data)
    tpl.replace("{{date}}", "today")


def render_local(data):
    base = xpathtpl.Template("{{date}}")
    tpl = base.with_name("report")
    tpl.write_text(data)
    tpl.replace("{{date}}", "today")


def save(dest: Location, data):
    tmp = dest.with_suffix(".tmp")
    tmp.write_text(data)
    tmp.replace(dest)


def save_var(dest: P, data):
    tmp = dest.with_suffix(".tmp")
    tmp.write_text(data)
    tmp.replace(dest)
"""
    assert cl(src, ["OC301"]) == [("OC301", 25), ("OC301", 31)]


def test_an_imported_path_under_another_name_and_a_constructed_receiver():
    """(A fourth review.) `P` of `from pathlib import Path as P` and an imported name
    that may be an alias of a path still make a path; a receiver constructed as a class
    whose name says no path, inline or not, makes none."""
    src = """\
from pathlib import Path as P
from mytypes import Location
from tpl import Template


def save_alias(dest: P, data):
    tmp = dest.with_suffix(".tmp")
    tmp.write_text(data)
    tmp.replace(dest)


def save_imported_alias(dest: Location, data):
    tmp = dest.with_suffix(".tmp")
    tmp.write_text(data)
    tmp.replace(dest)


def save_constructed_alias(name, data):
    dest = P(name)
    tmp = dest.with_suffix(".tmp")
    tmp.write_text(data)
    tmp.replace(dest)


def render(data):
    tpl = Template("{{date}}").with_name("report")
    tpl.write_text(data)
    tpl.replace("{{date}}", "today")
"""
    assert cl(src, ["OC301"]) == [("OC301", 9), ("OC301", 15), ("OC301", 22)]


JOINED = """\
from pathlib import Path


def atomic_write_text({params}):
    {bind}
    tmp = {made}
    tmp.write_text(content, encoding="utf-8")
    tmp.replace(path)
"""


@pytest.mark.parametrize("params, bind, made", [
    ("path, content", "path = Path(path)", 'path.parent / f".{path.name}.tmp"'),
    ("path: Path, content", "pass", 'path.parent / "tmp" / path.name'),
    ("path: Path, content", "pass", 'path / "x"'),
    ("path: Path, content", "base = path.parent / 'tmp'", 'base / "x"'),
])
def test_a_path_joined_onto_a_path_is_one(params, bind, made):
    # (held-out set 181, bengal's `atomic_write_text`)
    assert cl(JOINED.format(params=params, bind=bind, made=made), ["OC301"]) == [("OC301", 8)]


@pytest.mark.parametrize("params, bind, made", [
    ("path, content", "pass", 'path.parent / "x"'),          # nothing types `path`
    ("path: int, content", "pass", 'path / 2'),              # a number divides too
    ("path: str, content", "pass", 'path / "x"'),
])
def test_a_join_onto_anything_else_is_not(params, bind, made):
    assert cl(JOINED.format(params=params, bind=bind, made=made), ["OC301"]) == []


def test_a_join_onto_a_module_path_or_an_enclosing_functions_is_one():
    # (a second review): `ROOT = Path(...)` at the top of the module, a `base` bound in
    # the enclosing function
    src = """\
from pathlib import Path

ROOT = Path("/var/lib/app")


def joined(data):
    tmp = ROOT / "state.tmp"
    tmp.write_text(data)
    tmp.replace(ROOT / "state")


def outer(p):
    base = Path(p)

    def inner(data):
        tmp = base / "state.tmp"
        tmp.write_text(data)
        tmp.replace(base / "state")
    return inner
"""
    assert cl(src, ["OC301"]) == [("OC301", 9), ("OC301", 18)]


def test_a_join_onto_the_modules_own_path_class_is_not_pathlibs():
    src = """\
class Path:
    def __init__(self, text):
        self.text = text

    def __truediv__(self, part):
        return Path(self.text + "/" + str(part))

    def replace(self, old, new):
        return Path(self.text.replace(old, new))


def joined(out, data):
    root = Path("/runs")
    ptr = root / "items"
    out.write(data)
    return ptr.replace("items", "jobs")
"""
    assert cl(src, ["OC301"]) == []


def test_a_join_onto_a_path_class_of_another_module_imported_whole_is_not_pathlibs():
    # (a fourth review): `pp.Path` of `import pkg.pointer as pp`; and a function's own
    # `from pkg.pointer import Path` decides nothing for the module's pathlib joins
    src = """\\
import pkg.pointer as pp
from pathlib import Path


def joined(out, data):
    root = pp.Path("/runs")
    ptr = root / "items"
    out.write(data)
    return ptr.replace("items", "jobs")


def pointer_of(x):
    from pkg.pointer import Path
    return Path(x)


def real(p, data):
    base = Path(p)
    tmp = base / "x.tmp"
    tmp.write_text(data)
    tmp.replace(base / "x")
"""
    assert cl(src, ["OC301"]) == [("OC301", 22)]
