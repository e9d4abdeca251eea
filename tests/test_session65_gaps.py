"""Faults and gaps the held-out sets of session 65 found (docs/evaluation.md), and
the earlier notes' leftovers closed in that session."""
from __future__ import annotations

import pytest
from checkutil import check_source

NON_ATOMIC_VIEW = '''
    from django.db import transaction
    from django.utils.decorators import method_decorator
    from django.views import View

    {class_decorator}
    class Signup(View):
        {method_decorator}
        def {method}(self, request, ledger):
            request.user.save()
            ledger.append("signed_up")
'''


@pytest.mark.parametrize("class_decorator, method_decorator, method, outside", [
    ("", "", "post", False),    # ATOMIC_REQUESTS: the save commits after the append
    ('@method_decorator(transaction.non_atomic_requests, name="dispatch")', "", "post", True),
    ("", "@method_decorator(transaction.non_atomic_requests)", "dispatch", True),
    # Django reads the mark on the view `as_view()` returns, which copies `dispatch`'s
    # attributes only: on `post` it does nothing
    ("", "@method_decorator(transaction.non_atomic_requests)", "post", False),
    ('@method_decorator(transaction.non_atomic_requests, name="post")', "", "post", False),
])
def test_non_atomic_requests_takes_effect_on_dispatch_only(class_decorator, method_decorator, method, outside):
    # session 64's note: `@method_decorator(non_atomic_requests)` on `post` was read as
    # taking the view out of the request's transaction, which made an OC102 of a save
    # the request's commit still orders after the append
    src = NON_ATOMIC_VIEW.format(class_decorator=class_decorator, method_decorator=method_decorator,
                                 method=method)
    table = {"events": {"save": ["*.user.save"], "append": ["*ledger.append"]},
             "transaction-functions": ["views.*"]}
    got = [f.code for f in check_source(src, table=table, select=["OC102"], path="views.py")]
    assert got == (["OC102"] if outside else [])
