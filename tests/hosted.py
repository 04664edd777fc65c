"""How a community's app process is started: one command line for the tests, the
benchmark, compose.yaml and the systemd unit (tests/deploy checks they agree)."""

from __future__ import annotations


def app_options(*, host: str, port: int, trusted_proxy: str,
                phone_site: str | None = None) -> list[str]:
    """The options of `tarabish` for one process behind the proxy (the database comes
    from TARABISH_DATABASE, so its password is in no process list); `phone_site`: the
    built phone-alone site it also serves at /alone/."""
    site = [] if phone_site is None else ["--phone-site", phone_site]
    return ["--host", host, "--port", str(port), "--no-open", "--trusted-proxy", trusted_proxy,
            *site]
