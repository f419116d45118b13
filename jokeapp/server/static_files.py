"""The built web client: index.html for the client's own paths, files under /assets."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

APP_DIR = Path(__file__).with_name("static") / "app"

NOT_BUILT = """<!doctype html><html lang="ko"><meta charset="utf-8">
<title>joke-app</title><body style="font-family:sans-serif;padding:2em">
<h1>웹 클라이언트가 아직 빌드되지 않았어요</h1>
<p><code>make run</code>을 실행하면 클라이언트를 빌드하고 서버를 시작해요.
API는 <a href="/api/games">/api/games</a>에서 확인할 수 있어요.</p></body></html>"""


async def index(request: Request) -> Response:
    page = APP_DIR / "index.html"
    if page.is_file():
        return FileResponse(page, media_type="text/html")
    return HTMLResponse(NOT_BUILT)


def routes() -> list[BaseRoute]:
    spa = [
        Route(path, index, methods=["GET"])
        for path in ("/", "/r/{code}", "/replay/{room_id}", "/games/{rest:path}")
    ]
    assets = APP_DIR / "assets"
    return [
        *spa,
        Mount("/assets", app=StaticFiles(directory=str(assets), check_dir=False), name="assets"),
    ]
