"""An alias and a ``def`` of one name (docs/decisions.md "An alias and a ``def`` of one
name"; held-out set 70, hatch's ``hatch/utils/fs.py``): ``disk_sync = os.fsync``, and
``def disk_sync(fd)`` on one platform. The name is bound twice, so it is no alias, but a
call of it may run either, as a call of a name two ``def``s bind may run either."""
from __future__ import annotations

import pytest
from checkutil import cl

WRITE = """\
    def write_atomic(path, data):
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(data)
            f.flush()
            disk_sync(f.fileno())
        os.replace(tmp, path)
"""

SHAPES = {
    # hatch: the `def` on macOS, the alias elsewhere
    "def-then-alias": """\
    import os
    import sys
    if sys.platform == "darwin":
        def disk_sync(fd):
            fcntl.fcntl(fd, 51)
    else:
        disk_sync = os.fsync
    """,
    "alias-then-def": """\
    import os
    disk_sync = os.fsync
    if os.name == "nt":
        def disk_sync(fd):
            pass
    """,
    "imported-alias": """\
    import os
    from os import fsync
    if os.name == "nt":
        def disk_sync(fd):
            pass
    else:
        disk_sync = fsync
    """,
}


@pytest.mark.parametrize("head", SHAPES.values(), ids=SHAPES.keys())
def test_an_alias_beside_a_def_may_run_the_aliased_call(head):
    assert cl(head + "\n\n" + WRITE, select=["OC301"]) == []


NOT_FSYNC = {
    # the engine before: the `def` alone, which makes no fsync call
    "def-alone": """\
    import os
    def disk_sync(fd):
        pass
    """,
    # a second plain binding besides the alias: the name is no alias at all
    "two-assignments": """\
    import os
    import sys
    disk_sync = os.fsync
    if sys.platform == "darwin":
        disk_sync = print
    if os.name == "nt":
        def disk_sync(fd):
            pass
    """,
    # a parameter of the same name hides the module's bindings
    "local-name": """\
    import os
    disk_sync = os.fsync
    if os.name == "nt":
        def disk_sync(fd):
            pass
    """,
}


@pytest.mark.parametrize("name", NOT_FSYNC, ids=NOT_FSYNC.keys())
def test_other_bindings_still_are_no_fsync(name):
    write = WRITE.replace("def write_atomic(path, data):", "def write_atomic(path, data, disk_sync=None):") \
        if name == "local-name" else WRITE
    src = NOT_FSYNC[name] + "\n\n" + write
    rename = 1 + src.splitlines().index("    os.replace(tmp, path)".rjust(len("    os.replace(tmp, path)") + 4))
    assert cl(src, select=["OC301"]) == [("OC301", rename)]


def test_a_function_level_alias_beside_a_nested_def():
    src = """\
    import os
    def write_atomic(path, data, fast):
        if fast:
            def disk_sync(fd):
                pass
        else:
            disk_sync = os.fsync
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(data)
            disk_sync(f.fileno())
        os.replace(tmp, path)
    """
    assert cl(src, select=["OC301"]) == []


@pytest.mark.parametrize("imp, call", [("from pk.fs import disk_sync", "disk_sync"),
                                       ("from pk import fs", "fs.disk_sync")], ids=["name", "module"])
def test_a_module_that_imports_the_name_matches_it_too(tmp_path, imp, call):
    # (a review) the modules that import such a name match its calls as the aliased
    # text as well, and still resolve them to the `def`
    from checkutil import run_tree, write_tree

    write_tree(tmp_path, {
        "pk/__init__.py": "",
        "pk/fs.py": SHAPES["def-then-alias"],
        "pk/other.py": f"""\
            import os
            {imp}


            def write_atomic(path, data):
                with open(path + ".tmp", "w") as f:
                    f.write(data)
                    {call}(f.fileno())
                os.replace(path + ".tmp", path)
            """,
    })
    assert run_tree(tmp_path, select=["OC301"]) == []
