"""Production serving: gunicorn with deploy/gunicorn.conf.py and the production settings,
static files collected and served by WhiteNoise."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.config.test_settings import _KNOBS, PRODUCTION, ROOT


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def get(url: str) -> tuple[int, dict[str, str], bytes]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, dict(response.headers), response.read()


def test_gunicorn_serves_the_site_and_its_static_files(tmp_path: Path) -> None:
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if k not in _KNOBS},
        **PRODUCTION,
        "ALLOWED_HOSTS": "127.0.0.1",
        "HTTPS_ONLY": "False",  # no TLS proxy in front here
        "STATIC_ROOT": str(tmp_path / "static"),
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": "1",
    }
    collect = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert collect.returncode == 0, collect.stderr
    gunicorn = Path(sys.executable).with_name("gunicorn")
    server = subprocess.Popen(
        [str(gunicorn), "-c", "deploy/gunicorn.conf.py"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                status, headers, body = get(f"http://127.0.0.1:{port}/healthz")
                break
            except OSError:
                assert time.monotonic() < deadline, "gunicorn did not start"
                time.sleep(0.2)
        assert status == 200 and body == b'{"status": "ok"}'
        assert headers["X-Request-ID"]
        status, headers, body = get(f"http://127.0.0.1:{port}/static/admin/css/base.css")
        assert status == 200 and b"body" in body
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        output = server.communicate(timeout=30)[0].decode()
    assert '"logger": "gunicorn.access"' in output and '"path": "/healthz"' in output
