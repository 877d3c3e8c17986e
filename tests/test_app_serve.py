"""`playtest dashboard` and `playtest demo` follow Streamlit's port conventions.

The port comes from --port, else STREAMLIT_SERVER_PORT, else server.port in a Streamlit config
file, else Streamlit's 8501; --address (or STREAMLIT_SERVER_ADDRESS) lets a tablet on the same
network connect. A taken port is a one-line error, not a traceback or a random port.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import dashboards
from cli.main import main


@pytest.fixture()
def no_port_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(dashboards.PORT_ENV, raising=False)
    monkeypatch.delenv(dashboards.ADDRESS_ENV, raising=False)


def test_port_follows_streamlits_order(no_port_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    assert dashboards.resolve_port() == (8501, "Streamlit's default")
    monkeypatch.setenv(dashboards.PORT_ENV, "8766")
    assert dashboards.resolve_port() == (8766, "STREAMLIT_SERVER_PORT")
    assert dashboards.resolve_port(9000) == (9000, "--port")
    for bad in ("http", "-1", "70000", "\u0663"):
        monkeypatch.setenv(dashboards.PORT_ENV, bad)
        with pytest.raises(dashboards.ServeError):
            dashboards.resolve_port()


def test_address_option(no_port_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    assert dashboards.resolve_address() == "127.0.0.1"
    monkeypatch.setenv(dashboards.ADDRESS_ENV, "0.0.0.0")
    assert dashboards.resolve_address() == "0.0.0.0"
    assert dashboards.resolve_address("192.168.1.5") == "192.168.1.5"
    assert dashboards.urls("0.0.0.0", 8501)[0] == "http://localhost:8501"
    cmd = dashboards.streamlit_command(8501, address="0.0.0.0")
    assert cmd[cmd.index("--server.address") + 1] == "0.0.0.0"


def test_a_taken_port_is_a_clear_error(tmp_path: Path, no_port_env: None,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        status = main(["dashboard", "--port", str(port), "--db", str(tmp_path / "p.duckdb")])
    err = capsys.readouterr().err
    assert status != 0 and f"port {port}" in err and "Traceback" not in err, err


def test_streamlit_server_port_is_served(tmp_path: Path) -> None:
    """STREAMLIT_SERVER_PORT=N playtest dashboard answers on N."""
    port = dashboards.free_port()
    env = {**os.environ, dashboards.PORT_ENV: str(port)}
    env.pop(dashboards.ADDRESS_ENV, None)
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from cli.main import main; sys.exit(main(sys.argv[1:]))",
         "dashboard", "--db", str(tmp_path / "playtest.duckdb")],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True)
    try:
        deadline, ok = time.monotonic() + 60, False
        while time.monotonic() < deadline and proc.poll() is None and not ok:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health",
                                            timeout=2) as r:
                    ok = r.status == 200
            except OSError:
                time.sleep(0.3)
        assert ok, f"nothing answered on {port}"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            out, _ = proc.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate()
    assert f"http://127.0.0.1:{port}" in out, out


def test_a_port_left_in_time_wait_is_free(no_port_env: None) -> None:
    """Right after a dashboard stops, its port is in TIME_WAIT (the server closed a connection
    first): nothing listens there, so a restart on it is not refused."""
    with socket.socket() as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as Tornado's server
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        client = socket.create_connection(("127.0.0.1", port))
        conn, _ = server.accept()
        conn.close()  # the server side closes first: its end stays in TIME_WAIT
        time.sleep(0.2)
        client.close()
    dashboards._check_free("127.0.0.1", port, "--port")  # nothing listens: no error
    with socket.socket() as held:
        held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        held.bind(("127.0.0.1", port))
        held.listen()
        with pytest.raises(dashboards.ServeError, match=f"port {port}"):
            dashboards._check_free("127.0.0.1", port, "--port")
