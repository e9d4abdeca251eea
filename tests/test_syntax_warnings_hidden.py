"""CPython's SyntaxWarnings about the checked code (`0x1for`, `x is 1`, `"\\d"`) are
not ordercheck's to print: they named no file ("<ordercheck: source>:1:"), came once
per parse, and reached stderr under `-q`, in json and in the language server
(a review, session 41)."""
from cliutil import oc, write

SRC = '''
    x = [0x1for x in y]
    z = 1if 1 else 2
    y = x is 1
    s = "\\d"


    def f(store, ledger, run):
        store.save(run)
        ledger.append(run)
'''


def test_the_checked_codes_syntax_warnings_are_not_printed(tmp_path):
    write(tmp_path, "w.py", SRC)
    r = oc(tmp_path, "--isolated", "--no-cache", "--jobs", "1", "--format", "json", "w.py", proc=True)
    assert r.code == 1, r
    assert "Warning" not in r.err, r.err
    assert '"OC102"' in r.out
