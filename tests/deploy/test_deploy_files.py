"""The shipped deployment files start what the tests start. Docker does not run on
the CI machine, so compose.yaml, the Dockerfile and the systemd unit are read and
checked against the command line the tests run as plain processes (tests/hosted.py)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from scorer.cli import build_parser
from tests.hosted import app_options

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_compose_runs_postgresql_two_apps_and_the_proxy() -> None:
    services = compose()["services"]
    assert set(services) == {"db", "app1", "app2", "proxy"}
    assert services["db"]["image"].startswith("postgres:15")
    assert services["proxy"]["image"].startswith("caddy:2")
    for name in ("app1", "app2"):
        app = services[name]
        assert app["build"] == "."
        assert app["depends_on"]["db"]["condition"] == "service_healthy"
        url = app["environment"]["TARABISH_DATABASE"]
        assert url.startswith("postgresql://tarabish:") and url.endswith("@db:5432/tarabish")
        # Every address the apps give out is on the proxy's domain.
        public = app["environment"]["TARABISH_PUBLIC_URL"]
        assert public.startswith("https://${TARABISH_DOMAIN")
        assert services["proxy"]["environment"]["TARABISH_DOMAIN"].startswith(
            "${TARABISH_DOMAIN")
    upstreams = services["proxy"]["environment"]["TARABISH_UPSTREAMS"].split()
    assert upstreams == ["app1:8550", "app2:8550"]


def test_the_apps_run_the_tests_command_line_and_trust_only_the_proxy() -> None:
    data = compose()
    services = data["services"]
    proxy_address = services["proxy"]["networks"]["inside"]["ipv4_address"]
    for name in ("app1", "app2"):
        command = services[name]["command"]
        assert command == ["tarabish", *app_options(host="0.0.0.0", port=8550,
                                                    trusted_proxy=proxy_address,
                                                    phone_site="/app/phone-site")]
        args = build_parser().parse_args(command[1:])
        assert args.port == 8550 and args.open_browser is False
    # Other containers are given addresses that can never be the proxy's.
    pool = data["networks"]["inside"]["ipam"]["config"][0]
    assert proxy_address.startswith(pool["subnet"].rsplit(".", 1)[0] + ".")
    low = int(pool["ip_range"].split("/")[0].rsplit(".", 1)[1])
    assert int(proxy_address.rsplit(".", 1)[1]) < low


def test_the_caddyfile_compose_mounts_is_the_one_shipped() -> None:
    volumes = compose()["services"]["proxy"]["volumes"]
    mounted = [v.split(":")[0] for v in volumes if v.startswith("./")]
    assert mounted == ["./deploy/Caddyfile"]
    assert (ROOT / "deploy" / "Caddyfile").is_file()


def test_the_image_starts_a_server_without_a_browser_and_checks_its_health() -> None:
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    cmd = json.loads(re.search(r"^CMD (\[.*\])$", text, re.M).group(1))  # type: ignore[union-attr]
    assert cmd[0] == "tarabish"
    args = build_parser().parse_args(cmd[1:])
    assert args.host == "0.0.0.0" and args.port == 8550 and args.open_browser is False
    assert args.phone_site == "/app/phone-site"
    assert "RUN tarabish build-web /app/phone-site" in text
    assert "uv sync --locked --no-dev" in text
    assert re.search(r"^USER tarabish$", text, re.M), "the server must not run as root"
    assert "/alive" in text


@pytest.mark.parametrize("unit", ["tarabish@.service"])
def test_the_systemd_unit_runs_the_same_options(unit: str) -> None:
    text = (ROOT / "deploy" / "systemd" / unit).read_text(encoding="utf-8")
    line = re.search(r"^ExecStart=(.*)$", text, re.M).group(1)  # type: ignore[union-attr]
    words = shlex.split(line)
    # The command `uv sync` installed in the checkout (HOSTING.md), not `uv run`.
    assert words[0] == "/opt/tarabish/.venv/bin/tarabish"
    options = words[1:]
    assert options == app_options(host="127.0.0.1", port="%i",  # type: ignore[arg-type]
                                  trusted_proxy="127.0.0.1",
                                  phone_site="/opt/tarabish/phone-site")
    build_parser().parse_args([w.replace("%i", "8551") for w in options])


def test_the_debian_path_installs_what_the_unit_runs() -> None:
    """HOSTING.md's steps make /opt/tarabish/.venv/bin/tarabish (the unit's command) as
    the unit's user, with commands Debian has (runuser; sudo may be missing), and put
    uv where they run it; the settings file names the database and the public address."""
    guide = (ROOT / "docs" / "HOSTING.md").read_text(encoding="utf-8")
    debian = guide[guide.index("## Without Docker"):guide.index("## The address phones")]
    assert "sudo -u" not in debian.replace("(`sudo -u USER` does the same", "")
    assert "runuser -u tarabish -- uv sync --locked --no-dev" in debian
    assert "git clone <the project's address> /opt/tarabish" in debian
    assert "chown -R tarabish:tarabish /opt/tarabish" in debian
    assert "UV_INSTALL_DIR=/usr/local/bin" in debian
    assert "TARABISH_DATABASE=" in debian and "TARABISH_PUBLIC_URL=https://" in debian
    unit = (ROOT / "deploy" / "systemd" / "tarabish@.service").read_text(encoding="utf-8")
    assert "WorkingDirectory=/opt/tarabish" in unit and "User=tarabish" in unit
    assert "adduser --system --group --home /opt/tarabish" in debian
    assert "uv run" not in unit.split("ExecStart=")[1].splitlines()[0]


def test_every_file_the_hosting_guide_names_is_shipped() -> None:
    guide = (ROOT / "docs" / "HOSTING.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:deploy/[\w@./-]+)|compose\.yaml|Dockerfile)`", guide))
    assert {"compose.yaml", "Dockerfile", "deploy/Caddyfile"} <= named
    for path in named:
        assert (ROOT / path).exists(), f"docs/HOSTING.md names {path}, which is not shipped"
