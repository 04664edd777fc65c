# One process of a community's Tarabish server (docs/HOSTING.md). compose.yaml
# runs two of these behind Caddy, on one PostgreSQL.
FROM python:3.11-slim

# uv, pinned (the version that wrote uv.lock), from its own image; it installs
# exactly what uv.lock says.
COPY --from=ghcr.io/astral-sh/uv:0.13.9 /uv /uvx /bin/

WORKDIR /app
ENV UV_LINK_MODE=copy \
    UV_COMPILE_BYTECODE=1 \
    UV_PYTHON_DOWNLOADS=never \
    PATH=/app/.venv/bin:$PATH \
    TARABISH_CACHE=/var/cache/tarabish

# Dependencies first (a layer kept while only the code changes), then the code.
COPY pyproject.toml uv.lock README.md ./
RUN uv sync --locked --no-dev --no-install-project
COPY rules ./rules
COPY scorer ./scorer
COPY assets ./assets
RUN uv sync --locked --no-dev
# The phone-alone site, served at /alone/ of the same address (built once, here:
# it takes a few minutes and downloads Python for the browser).
RUN tarabish build-web /app/phone-site

# Never root: the server needs no privilege, only its cache folder.
RUN useradd --system --no-create-home tarabish \
    && mkdir -p /var/cache/tarabish && chown tarabish /var/cache/tarabish
USER tarabish

EXPOSE 8550
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s \
    CMD python -c "import urllib.request as u; u.urlopen('http://127.0.0.1:8550/alive', timeout=2)"
# TARABISH_DATABASE names the community's database (compose.yaml sets it).
CMD ["tarabish", "--host", "0.0.0.0", "--port", "8550", "--no-open", "--phone-site", "/app/phone-site"]
