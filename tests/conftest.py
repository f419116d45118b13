"""Settings for the whole suite."""

from __future__ import annotations

from hypothesis import settings

# Property tests judge behaviour, never speed: on a busy machine an example may take far
# longer than hypothesis's default 200 ms deadline, which would fail a correct test.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")
