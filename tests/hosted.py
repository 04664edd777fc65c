"""How a community's app process is started: one command line for the tests, the
benchmark, compose.yaml and the systemd unit (tests/deploy checks they agree)."""

from __future__ import annotations


def app_options(*, host: str, port: int, trusted_proxy: str) -> list[str]:
    """The options of `tarabish` for one process behind the proxy (the database comes
    from TARABISH_DATABASE, so its password is in no process list)."""
    return ["--host", host, "--port", str(port), "--no-open", "--trusted-proxy", trusted_proxy]
