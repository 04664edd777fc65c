"""The systemd unit's command line, run under its sandbox as far as a test can.

systemd does not run here, so the unit's sandbox is built by hand in a mount namespace
of its own (`unshare -m`, root only; nothing outside it changes), from the unit's own
settings:

- `ProtectSystem=strict`: every mount read-only (bind remounts), except /dev, /proc,
  /sys and the unit's `ReadWritePaths`; `CacheDirectory=NAME`: /var/cache/NAME
  writable; `PrivateTmp=yes`: a /tmp of its own;
- `ProtectHome=yes`: /root and /home emptied (only the Python interpreter and the
  checkout this test runs from stay readable where they are; on a server they are
  in /usr and /opt);
- `WorkingDirectory=/opt/tarabish`: a folder of links to this checkout, with a phone
  site; HOME is that folder (the `tarabish` user's home); the environment is only
  the unit's `Environment=` and what `EnvironmentFile` would hold (the database);
- `ExecStart` as written (%i a free port), `/usr/local/bin/uv` being this machine's
  uv, as HOSTING.md installs it.

It runs as root (User= is not played), which write protection stops all the same.
`uv run` in ExecStart failed here as on Debian 12: "Read-only file system" in uv's
cache under the home folder.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.web.test_send_game import fake_site

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "systemd" / "tarabish@.service"
OPT = "/opt/tarabish"
SYSTEMD_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
KEPT_WRITABLE = ("/dev", "/proc", "/sys")


def settings() -> dict[str, list[str]]:
    """The unit's [Service] settings, each with every value it is given."""
    found: dict[str, list[str]] = {}
    section = ""
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            found.setdefault(key, []).append(value)
    return found


def can_unshare() -> bool:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "--propagation", "private", "true"],
                           capture_output=True, check=False)
    return probe.returncode == 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def sandbox_script(unit: dict[str, list[str]], port: int, site: Path, cache: Path,
                   private_tmp: Path, env: dict[str, str]) -> str:
    """The shell lines that build the unit's sandbox, then run its ExecStart."""
    assert unit["ProtectSystem"] == ["strict"] and unit["ProtectHome"] == ["yes"]
    assert unit["PrivateTmp"] == ["yes"] and unit["WorkingDirectory"] == [OPT]
    (cache_name,) = unit["CacheDirectory"]
    writable = [p for value in unit.get("ReadWritePaths", []) for p in value.split()]
    q = shlex.quote
    lines = ["set -e", "mount --make-rprivate /",
             # What ProtectHome and PrivateTmp hide but this test's Python needs: kept aside first.
             "mount -t tmpfs -o mode=755 tmpfs /opt", "mkdir -p /opt/.kept"]
    kept = sorted({str(Path(sys.base_prefix).resolve()), str(ROOT)})
    # Under /tmp too: PrivateTmp hides a checkout cloned there (the links to it dangle).
    kept = [k for k in kept if k.startswith(("/root", "/home", "/tmp"))]
    for n, path in enumerate(kept):
        lines += [f"mkdir /opt/.kept/{n}", f"mount --bind {q(path)} /opt/.kept/{n}"]
    # The checkout at /opt/tarabish, with its phone site.
    lines.append(f"mkdir {OPT}")
    for entry in sorted(ROOT.iterdir()):
        lines.append(f"ln -s {q(str(entry))} {OPT}/{q(entry.name)}")
    lines += [f"mkdir {OPT}/phone-site", f"mount --bind {q(str(site))} {OPT}/phone-site"]
    # CacheDirectory, then PrivateTmp (after: the sources above may be under /tmp).
    lines += ["mount -t tmpfs -o mode=755 tmpfs /var/cache",
              f"mkdir /var/cache/{cache_name}",
              f"mount --bind {q(str(cache))} /var/cache/{cache_name}",
              f"mount --bind {q(str(private_tmp))} /tmp"]
    # HOSTING.md puts uv in /usr/local/bin.
    uv = os.environ.get("UV") or shutil.which("uv")
    if uv and unit["ExecStart"][0].startswith("/usr/local/bin/uv"):
        lines += ["mount -t tmpfs -o mode=755 tmpfs /usr/local/bin",
                  "touch /usr/local/bin/uv",
                  f"mount --bind {q(str(Path(uv).resolve()))} /usr/local/bin/uv"]
    # ProtectHome=yes.
    lines += ["mount -t tmpfs -o mode=755 tmpfs /root", "mount -t tmpfs -o mode=755 tmpfs /home"]
    for n, path in enumerate(kept):
        lines += [f"mkdir -p {q(path)}", f"mount --bind /opt/.kept/{n} {q(path)}",
                  f"mount -o remount,bind,ro {q(path)}"]  # under /tmp, left writable below
    # ReadWritePaths: mounts of their own, left writable below.
    for path in writable:
        lines.append(f"mount --bind {q(path)} {q(path)}")
    # ProtectSystem=strict: every other mount read-only.
    left = [*KEPT_WRITABLE, "/tmp", f"/var/cache/{cache_name}", *writable]
    skip = " ".join(q(p) for p in left)
    lines += [
        "mount -o remount,bind,ro /",
        "findmnt -rn -o TARGET | while read -r m; do",
        f"  for w in {skip}; do case \"$m\" in \"$w\"|\"$w\"/*) continue 2;; esac; done",
        "  mount -o remount,bind,ro \"$m\" 2>/dev/null || true",
        "done",
        f"cd {OPT}",
        # The sandbox holds: the checkout and the system refuse a file, the cache takes one.
        f"for f in {q(str(ROOT / '.sandbox-probe'))} /etc/.sandbox-probe /root/.probe; do",
        "  if touch \"$f\" 2>/dev/null; then rm -f \"$f\"; echo \"sandbox leak: $f\"; exit 3; fi",
        "done",
        f"touch /var/cache/{cache_name}/.probe /tmp/.probe && rm /var/cache/{cache_name}/.probe",
    ]
    command = unit["ExecStart"][0].replace("%i", str(port))
    variables = " ".join(f"{k}={q(v)}" for k, v in env.items())
    lines.append(f"exec env -i {variables} {command}")
    return "\n".join(lines)


def unit_environment(unit: dict[str, list[str]], database: str) -> dict[str, str]:
    """What systemd gives the process: its user's HOME, a plain PATH, the unit's
    Environment= lines, and the EnvironmentFile's database."""
    assert unit["EnvironmentFile"] == ["/etc/tarabish.env"]
    env = {"HOME": OPT, "PATH": SYSTEMD_PATH, "LANG": "C.UTF-8",
           "TARABISH_DATABASE": database}
    for line in unit.get("Environment", []):
        key, _, value = line.partition("=")
        env[key] = value
    return env


def wait_for(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 90
    while True:
        if process.poll() is not None:
            raise AssertionError(f"the unit's command stopped:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/alive", timeout=2):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise AssertionError(f"no answer in 90 s:\n{log.read_text()}") from None
            time.sleep(0.2)


@pytest.mark.skipif(not can_unshare(), reason="needs root and unshare -m (a mount namespace)")
def test_the_units_command_runs_in_its_sandbox(pg_url: str, tmp_path: Path) -> None:
    unit = settings()
    site = fake_site(tmp_path / "site")
    cache = tmp_path / "cache"
    private_tmp = tmp_path / "private-tmp"
    cache.mkdir()
    private_tmp.mkdir()
    port = free_port()
    script = sandbox_script(unit, port, site, cache, private_tmp,
                            unit_environment(unit, pg_url))
    log = tmp_path / "unit.log"
    with log.open("wb") as out:
        process = subprocess.Popen(["unshare", "-m", "--propagation", "private", "sh", "-c",
                                    script], stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for(port, process, log)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as page:
            assert page.status == 200
        request = urllib.request.Request(f"http://127.0.0.1:{port}/main.dart.mjs",
                                         headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=60) as page_file:
            assert page_file.headers["Content-Encoding"] == "gzip"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/alone/", timeout=30) as alone:
            assert alone.status == 200  # the phone site at /opt/tarabish/phone-site
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)
    said = log.read_text(errors="replace")
    # Stopped by SIGTERM, as systemd stops it (which counts that as a clean stop).
    assert process.returncode in (0, -signal.SIGTERM), said
    for trouble in ("Read-only file system", "Traceback", "Permission denied"):
        assert trouble not in said, said
    # Its page files are kept where the unit lets it write: a later start reuses them.
    assert any((cache / "compressed").iterdir()), said
    assert re.search(r"listening on http://localhost:\d+/", said), said
