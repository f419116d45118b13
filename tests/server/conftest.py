from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.server.harness import Api, ServerProcess


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with ServerProcess(str(tmp_path / "joke.sqlite3")) as proc:
        yield proc


@pytest.fixture
async def api(server: ServerProcess) -> AsyncIterator[Api]:
    client = Api(server)
    yield client
    await client.close()
