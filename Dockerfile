# The bot as a small image: python -m bot, long polling, its SQLite file on a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    BRIDGE_DB=/data/bridge.sqlite3

RUN useradd --create-home --uid 10001 bridge && mkdir /data && chown bridge:bridge /data
WORKDIR /app
COPY pyproject.toml README.md ./
COPY games ./games
COPY storage ./storage
COPY bot ./bot
RUN pip install .

USER bridge
VOLUME ["/data"]
# BOT_TOKEN and the other settings come from the environment (docker run --env-file .env).
CMD ["python", "-m", "bot"]
