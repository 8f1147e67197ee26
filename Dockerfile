# Lembra web app (`lembra serve`): slim, non-root. Not built on the development
# machines (no Docker engine there); reviewed by hand, see docs/deploy.md.
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
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8080/healthz', timeout=4).status != 200)"]
ENTRYPOINT ["lembra"]
CMD ["serve"]
