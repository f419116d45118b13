"""Settings for the whole suite."""

from __future__ import annotations

import pytest
from hypothesis import settings

from jokeapp import compiled

# Property tests judge behaviour, never speed: on a busy machine an example may take far
# longer than hypothesis's default 200 ms deadline, which would fail a correct test.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With JOKEAPP_ENGINES=compiled, the tests marked ``pure_engines`` are skipped: they
    replace an engine module's function (compiled callers never look it up), subclass a
    compiled class or delete an attribute of its instances, which compiled code does not
    allow. What they check is the same source, which the pure run (``make test``) tests."""
    if compiled.STATE != "compiled":
        return
    skip = pytest.mark.skip(
        reason="looks inside the engines by patching or subclassing them: pure engines only"
    )
    for item in items:
        if item.get_closest_marker("pure_engines"):
            item.add_marker(skip)
