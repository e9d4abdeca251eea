"""A class-level alias used as a receiver (docs/decisions.md, "A class-level alias as
a receiver"; held-out set 103, sqlitecollections' ``_driver_class = Driver``).

``self._driver_class.commit_all(conn)`` runs ``Driver.commit_all``, as
``D.commit_all(conn)`` does for a module-level ``D = Driver``: the call resolves and
matches as the aliased text, through ``self`` and ``cls``. A method that stores the
name on the instance (``self._driver_class = driver``) may hide the class's binding,
so there the call stays as written.
"""
from __future__ import annotations

import pytest
from checkutil import cl

DRIVER = '''\
class Driver:
    @classmethod
    def commit_all(cls, conn):
        conn.commit()

    @classmethod
    def drop_table(cls, name, cur):
        cur.execute("DROP TABLE " + name)


'''
TABLE = {"extend-events": {"save": ["conn.commit", "Driver.drop_table"]}}


@pytest.mark.parametrize("receiver, decorator", [("self", ""), ("cls", "    @classmethod\n")])
def test_a_class_alias_as_receiver_resolves_to_the_class(receiver, decorator):
    src = DRIVER + (
        "class Dict:\n"
        "    _driver_class = Driver\n\n"
        f"{decorator}"
        f"    def keep({receiver}, journal, conn):\n"
        f"        {receiver}._driver_class.commit_all(conn)\n"
        "        journal.append(3)\n")
    line = src.splitlines().index("        journal.append(3)") + 1
    assert cl(src, table=TABLE) == [("OC102", line)]


def test_a_class_alias_as_receiver_matches_as_the_aliased_text():
    src = DRIVER + (
        "class Dict:\n"
        "    _driver_class = Driver\n\n"
        "    def __del__(self):\n"
        "        try:\n"
        "            self._driver_class.drop_table('t', self.cur)\n"
        "        except Exception:\n"
        "            pass\n")
    line = src.splitlines().index("            self._driver_class.drop_table('t', self.cur)") + 1
    assert cl(src, table=TABLE) == [("OC203", line)]


def _dict(before: str = "", keep_head: str = "    def keep(self, journal, conn):\n", bound: str = "Driver",
          local: str = "") -> str:
    """A class `Dict` whose `keep` commits through `self._driver_class` (bound to
    ``bound`` at class level), then appends; ``before``: its methods before `keep`."""
    return (DRIVER + NULL + "class Dict:\n"
            f"    _driver_class = {bound}\n\n{before}{keep_head}{local}"
            "        self._driver_class.commit_all(conn)\n"
            "        journal.append(3)\n")


NULL = '''\
class NullDriver:
    @classmethod
    def commit_all(cls, conn):
        pass


'''


@pytest.mark.parametrize("store", [
    "self._driver_class = driver",
    "self._driver_class, self.n = driver, 1",
    "self._driver_class: type = driver",
    "self.ok = [d for self._driver_class in driver for d in (1,)]",
])
def test_a_name_the_instance_stores_is_not_expanded(store):
    assert cl(_dict(f"    def __init__(self, driver):\n        {store}\n\n"), table=TABLE) == []


def test_the_alias_names_what_the_class_body_sees_not_a_methods_local():
    # (a review) Python reads `_driver_class = NullDriver` where the class body runs:
    # the method's own `NullDriver = Driver` is another binding, no commit runs
    assert cl(_dict(bound="NullDriver", local="        NullDriver = Driver\n"), table=TABLE) == []
    assert cl(_dict(), table=TABLE) != []  # (and with `Driver` bound, it commits)


def test_a_staticmethods_first_parameter_is_no_self():
    assert cl(_dict(keep_head="    @staticmethod\n    def keep(self, journal, conn):\n"), table=TABLE) == []


def test_a_class_in_a_function_reads_the_functions_names():
    # (a second review) the class body reads the function around it: `E = Driver`
    # there is what `_driver_class = E` names
    src = DRIVER + (
        "def make():\n"
        "    E = Driver\n\n"
        "    class Dict:\n"
        "        _driver_class = E\n\n"
        "        def keep(self, journal, conn):\n"
        "            self._driver_class.commit_all(conn)\n"
        "            journal.append(3)\n\n"
        "    return Dict\n")
    line = src.splitlines().index("            journal.append(3)") + 1
    assert cl(src, table=TABLE) == [("OC102", line)]


INSTANCE = '''\
class Driver:
    def commit(self, conn):
        conn.commit()

    def drop(self, cur):
        cur.execute("DROP TABLE t")


class Dict:
    _driver_class = Driver

'''


def test_an_instance_of_the_aliased_class_is_the_class():
    # (session 53) `self._driver_class().commit(conn)`: an instance of `Driver`, its
    # method's summary and its qualified name
    keep = "    def keep(self, journal, conn):\n        self._driver_class().commit(conn)\n        journal.append(3)\n"
    src = INSTANCE + keep
    assert cl(src, table=TABLE) == [("OC102", len(src.splitlines()))]
    drop = ("    def close(self):\n        try:\n            self._driver_class().drop(self.cur)\n"
            "        except Exception:\n            pass\n")
    qualified = {"extend-events": {"save": ["*.Driver.drop"]}}
    line = (INSTANCE + drop).splitlines().index("            self._driver_class().drop(self.cur)") + 1
    assert cl(INSTANCE + drop, table=qualified) == [("OC203", line)]


KEEP = "    def keep(self, journal, conn):\n        self._driver_class().commit(conn)\n        journal.append(3)\n"


@pytest.mark.parametrize("before, keep", [
    ("    def __init__(self, driver):\n        self._driver_class = driver\n\n", KEEP),  # (stored on the instance)
    ("", "    @staticmethod\n" + KEEP),  # (a @staticmethod's first parameter is no `self`)
])
def test_an_instance_of_a_name_the_instance_stores_is_unknown(before, keep):
    assert cl(INSTANCE + KEEP, table=TABLE) != []
    assert cl(INSTANCE + before + keep, table=TABLE) == []


def test_an_instance_of_the_alias_names_what_the_class_body_sees():
    # (a review, session 53) `Null = Saver` in the method is another binding: the
    # class body's `_driver_class = Null` makes a `Null`, whose commit saves nothing
    null = "class Null:\n    def commit(self, conn):\n        pass\n\n\n"
    src = INSTANCE.replace("_driver_class = Driver", "_driver_class = Null").replace("class Dict:", null + "class Dict:")
    keep = ("    def keep(self, journal, conn):\n        Null = Driver\n"
            "        self._driver_class().commit(conn)\n        journal.append(3)\n")
    assert cl(src + keep, table=TABLE) == []
    assert cl(src + keep.replace("Null = Driver", "pass"), table=TABLE) == []
    assert cl(src.replace("_driver_class = Null", "_driver_class = Driver") + keep, table=TABLE) != []
