# Lembra web app (`lembra serve`): slim, non-root. `make docker-test` builds it and checks
# that it answers /healthz and /readyz (tests/test_docker.py; skipped where no Docker engine
# runs, as on the development machines). See docs/deploy.md.
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md requirements.lock ./
# The pinned, hash-checked runtime dependencies first (a layer that changes only with the lock),
# then the package alone without resolving anything again.
RUN pip install --no-cache-dir --prefix=/install --require-hashes -r requirements.lock
COPY agent ./agent
COPY bot ./bot
COPY config ./config
COPY storage ./storage
RUN pip install --no-cache-dir --prefix=/install --no-deps .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
RUN useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin lembra \
    && install -d -o lembra -g lembra /data
COPY --from=build /install /usr/local
USER lembra
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8080
# SIGTERM: stop accepting, finish the turns in flight, stop the embedded database.
STOPSIGNAL SIGTERM
# Healthy = ready: /readyz answers 503 (an HTTPError, exit 1) while the bot cannot receive or
# answer (database down, webhook not set to TELEGRAM_WEBHOOK_URL, model misconfigured).
# PORT is read from the environment, so a changed PORT keeps the check right.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/readyz' % os.environ.get('PORT', '8080'), timeout=4)"]
ENTRYPOINT ["lembra"]
CMD ["serve"]
