# The bot as a small image: python -m bot, long polling (or a webhook), its SQLite file on a
# volume, or PostgreSQL by DATABASE_URL (compose.yaml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    BRIDGE_DB=/data/bridge.sqlite3 NUMBA_CACHE_DIR=/home/bridge/.cache/numba

RUN useradd --create-home --uid 10001 bridge && mkdir /data && chown 10001:10001 /data
WORKDIR /app

# The dependencies in a layer of their own, at the versions CI tested (constraints.txt): a
# change of code or of the README rebuilds only what follows.
COPY pyproject.toml constraints.txt LICENSE ./
RUN mkdir -p bot games storage && touch README.md bot/__init__.py games/__init__.py \
    storage/__init__.py && pip install -c constraints.txt . \
    && pip uninstall --yes bridge-table-bot && rm -rf bot games storage README.md

COPY games ./games
COPY storage ./storage
COPY bot ./bot
COPY README.md ./
RUN pip install --no-deps .

USER 10001:10001
# The Preferans solver's search compiled here, once (numba keeps it in NUMBA_CACHE_DIR), not
# by each robot's worker as it starts.
RUN python -c "import games.preferans.kernel"
VOLUME ["/data"]
# Healthy while the bot beats (every HEARTBEAT_SECONDS, from its event loop, after a question
# to its database) and the database is at this bot's schema: a hung or stopped bot is not.
HEALTHCHECK --interval=60s --timeout=10s --start-period=30s --retries=3 \
    CMD ["python", "-m", "bot", "health"]
EXPOSE 8080
# BOT_TOKEN and the other settings come from the environment (docker run --env-file .env).
CMD ["python", "-m", "bot"]
