"""The SQLite schema as an ordered list of migrations; ``PRAGMA user_version`` says how many ran.

Never edit a migration that has shipped: add the next one. Each runs in its own transaction.
"""

from __future__ import annotations

# "BRDG": marks a file as ours, so a stranger's database is refused rather than altered.
APPLICATION_ID = 0x42524447

MIGRATIONS: tuple[str, ...] = (
    # 1: chats, players, tables, seats, deals and their events, rubbers, the ledger
    """
    CREATE TABLE chats (
        id          INTEGER PRIMARY KEY,
        tg_chat_id  INTEGER NOT NULL UNIQUE,
        title       TEXT NOT NULL DEFAULT '',
        language    TEXT NOT NULL DEFAULT 'ru',
        created_at  TEXT NOT NULL
    );
    CREATE TABLE players (
        id          INTEGER PRIMARY KEY,
        tg_user_id  INTEGER UNIQUE,
        name        TEXT NOT NULL,
        language    TEXT NOT NULL DEFAULT '',
        chat_id     INTEGER REFERENCES chats(id),
        created_at  TEXT NOT NULL
    );
    CREATE UNIQUE INDEX guests_by_name ON players(chat_id, name) WHERE tg_user_id IS NULL;
    CREATE TABLE tables (
        id          INTEGER PRIMARY KEY,
        chat_id     INTEGER NOT NULL REFERENCES chats(id),
        topic_id    INTEGER,
        status      TEXT NOT NULL CHECK (status IN ('open', 'playing', 'closed')),
        rules       TEXT NOT NULL DEFAULT 'modern',
        unfinished_part_score INTEGER NOT NULL DEFAULT 100,
        stake       INTEGER NOT NULL DEFAULT 0,
        currency    TEXT NOT NULL DEFAULT '',
        language    TEXT NOT NULL DEFAULT 'ru',
        turn_timer  INTEGER NOT NULL DEFAULT 0,
        scorekeeper INTEGER NOT NULL DEFAULT 0,
        rubber_id   INTEGER,
        created_at  TEXT NOT NULL
    );
    CREATE INDEX tables_by_chat ON tables(chat_id, status);
    CREATE TABLE seats (
        table_id    INTEGER NOT NULL REFERENCES tables(id),
        seat        TEXT NOT NULL CHECK (seat IN ('N', 'E', 'S', 'W')),
        player_id   INTEGER NOT NULL REFERENCES players(id),
        PRIMARY KEY (table_id, seat),
        UNIQUE (table_id, player_id)
    );
    CREATE TABLE rubbers (
        id          INTEGER PRIMARY KEY,
        table_id    INTEGER NOT NULL REFERENCES tables(id),
        chat_id     INTEGER NOT NULL REFERENCES chats(id),
        rules       TEXT NOT NULL,
        seats       TEXT NOT NULL,
        started_at  TEXT NOT NULL,
        finished_at TEXT,
        winner      TEXT,
        points      INTEGER,
        unfinished  INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX rubbers_by_chat ON rubbers(chat_id, finished_at);
    CREATE TABLE deals (
        table_id    INTEGER NOT NULL REFERENCES tables(id),
        deal_no     INTEGER NOT NULL,
        rubber_id   INTEGER REFERENCES rubbers(id),
        result      TEXT,
        PRIMARY KEY (table_id, deal_no)
    );
    CREATE INDEX deals_by_rubber ON deals(rubber_id);
    CREATE TABLE events (
        table_id    INTEGER NOT NULL,
        deal_no     INTEGER NOT NULL,
        seq         INTEGER NOT NULL,
        kind        TEXT NOT NULL,
        payload     TEXT NOT NULL,
        player_id   INTEGER REFERENCES players(id),
        at          TEXT NOT NULL,
        PRIMARY KEY (table_id, deal_no, seq),
        FOREIGN KEY (table_id, deal_no) REFERENCES deals(table_id, deal_no)
    ) WITHOUT ROWID;
    CREATE TABLE ledger (
        id          INTEGER PRIMARY KEY,
        chat_id     INTEGER NOT NULL REFERENCES chats(id),
        player_id   INTEGER NOT NULL REFERENCES players(id),
        points      INTEGER NOT NULL,
        kind        TEXT NOT NULL CHECK (kind IN ('rubber', 'payment')),
        rubber_id   INTEGER REFERENCES rubbers(id),
        txn         TEXT NOT NULL,
        note        TEXT NOT NULL DEFAULT '',
        at          TEXT NOT NULL
    );
    CREATE INDEX ledger_by_chat ON ledger(chat_id, player_id);
    CREATE UNIQUE INDEX one_row_per_player_per_rubber ON ledger(rubber_id, player_id)
        WHERE kind = 'rubber';
    CREATE TRIGGER events_append_only_u BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    CREATE TRIGGER events_append_only_d BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    CREATE TRIGGER ledger_append_only_u BEFORE UPDATE ON ledger
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    CREATE TRIGGER ledger_append_only_d BEFORE DELETE ON ledger
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    """,
    # 2: messages the bot keeps editing, and per-player flags (can the bot write to them)
    """
    CREATE TABLE kept_messages (
        table_id    INTEGER NOT NULL REFERENCES tables(id),
        key         TEXT NOT NULL,
        tg_chat_id  INTEGER NOT NULL,
        message_id  INTEGER NOT NULL,
        PRIMARY KEY (table_id, key)
    );
    CREATE TABLE player_flags (
        player_id   INTEGER NOT NULL REFERENCES players(id),
        flag        TEXT NOT NULL,
        PRIMARY KEY (player_id, flag)
    );
    """,
    # 3: money and payments are the group's (one ledger per chat), not a table's; usernames, so
    # a scorekeeper can name players by @mention; the old per-table stake moves to its chat.
    """
    ALTER TABLE chats ADD COLUMN stake INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE chats ADD COLUMN currency TEXT NOT NULL DEFAULT '';
    ALTER TABLE chats ADD COLUMN rounding TEXT NOT NULL DEFAULT 'hundreds';
    ALTER TABLE chats ADD COLUMN payments TEXT NOT NULL DEFAULT 'payee';
    UPDATE chats SET
        stake = coalesce((SELECT t.stake FROM tables t WHERE t.chat_id = chats.id
                          ORDER BY t.stake DESC LIMIT 1), 0),
        currency = coalesce((SELECT t.currency FROM tables t WHERE t.chat_id = chats.id
                             ORDER BY t.stake DESC LIMIT 1), '');
    ALTER TABLE players ADD COLUMN username TEXT;
    CREATE INDEX players_by_username ON players(username COLLATE NOCASE);
    CREATE INDEX ledger_by_rubber ON ledger(rubber_id);
    """,
    # 4: an unguessable token per table for its deep links (table ids are sequential, and a
    # link must not seat a stranger at any group's table); Telegram updates already applied,
    # so one delivered again after a crash is not applied twice.
    """
    ALTER TABLE tables ADD COLUMN token TEXT;
    UPDATE tables SET token = lower(hex(randomblob(8))) WHERE token IS NULL;
    CREATE UNIQUE INDEX tables_by_token ON tables(token);
    CREATE TABLE applied_updates (
        update_key  TEXT PRIMARY KEY,
        table_id    INTEGER,
        deal_no     INTEGER,
        at          TEXT NOT NULL
    );
    CREATE INDEX applied_updates_by_time ON applied_updates(at);
    """,
    # 5: game-neutral. A table names its game and keeps that game's settings as JSON options;
    # seats are indices 0.. (bridge: N E S W = 0 1 2 3); rubbers become matches (a rubber, a
    # pulka) whose result is the game's own JSON; the ledger's rows come from any match.
    """
    ALTER TABLE tables ADD COLUMN game TEXT NOT NULL DEFAULT 'bridge';
    ALTER TABLE tables ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
    UPDATE tables SET options = json_object(
        'rules', rules, 'unfinished_part_score', unfinished_part_score);
    ALTER TABLE tables DROP COLUMN rules;
    ALTER TABLE tables DROP COLUMN unfinished_part_score;
    ALTER TABLE tables DROP COLUMN stake;
    ALTER TABLE tables DROP COLUMN currency;
    ALTER TABLE tables RENAME COLUMN rubber_id TO match_id;

    CREATE TABLE seats_new (
        table_id    INTEGER NOT NULL REFERENCES tables(id),
        seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 9),
        player_id   INTEGER NOT NULL REFERENCES players(id),
        PRIMARY KEY (table_id, seat),
        UNIQUE (table_id, player_id)
    );
    INSERT INTO seats_new (table_id, seat, player_id)
        SELECT table_id, instr('NESW', seat) - 1, player_id FROM seats;
    DROP TABLE seats;
    ALTER TABLE seats_new RENAME TO seats;

    ALTER TABLE rubbers RENAME TO matches;
    ALTER TABLE matches ADD COLUMN game TEXT NOT NULL DEFAULT 'bridge';
    ALTER TABLE matches ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE matches ADD COLUMN result TEXT;
    UPDATE matches SET
        options = json_object('rules', rules),
        seats = json_object('0', json_extract(seats, '$.N'), '1', json_extract(seats, '$.E'),
                            '2', json_extract(seats, '$.S'), '3', json_extract(seats, '$.W')),
        result = CASE WHEN finished_at IS NULL THEN NULL
                      ELSE json_object('winner', winner, 'points', points) END;
    ALTER TABLE matches DROP COLUMN rules;
    ALTER TABLE matches DROP COLUMN winner;
    ALTER TABLE matches DROP COLUMN points;
    DROP INDEX rubbers_by_chat;
    CREATE INDEX matches_by_chat ON matches(chat_id, finished_at);
    ALTER TABLE deals RENAME COLUMN rubber_id TO match_id;
    DROP INDEX deals_by_rubber;
    CREATE INDEX deals_by_match ON deals(match_id);

    CREATE TABLE ledger_new (
        id          INTEGER PRIMARY KEY,
        chat_id     INTEGER NOT NULL REFERENCES chats(id),
        player_id   INTEGER NOT NULL REFERENCES players(id),
        points      INTEGER NOT NULL,
        kind        TEXT NOT NULL CHECK (kind IN ('match', 'payment')),
        match_id    INTEGER REFERENCES matches(id),
        txn         TEXT NOT NULL,
        note        TEXT NOT NULL DEFAULT '',
        at          TEXT NOT NULL
    );
    INSERT INTO ledger_new (id, chat_id, player_id, points, kind, match_id, txn, note, at)
        SELECT id, chat_id, player_id, points,
               CASE kind WHEN 'rubber' THEN 'match' ELSE kind END,
               rubber_id, txn, note, at
        FROM ledger ORDER BY id;
    DROP TABLE ledger;
    ALTER TABLE ledger_new RENAME TO ledger;
    CREATE INDEX ledger_by_chat ON ledger(chat_id, player_id);
    CREATE INDEX ledger_by_match ON ledger(match_id);
    CREATE UNIQUE INDEX one_row_per_player_per_match ON ledger(match_id, player_id)
        WHERE kind = 'match';
    CREATE TRIGGER ledger_append_only_u BEFORE UPDATE ON ledger
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    CREATE TRIGGER ledger_append_only_d BEFORE DELETE ON ledger
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    """,
    # 6: a digest of what each kept message last showed, so that after a restart the bot does
    # not spend a call re-editing a message to the content it already has.
    """
    ALTER TABLE kept_messages ADD COLUMN digest TEXT NOT NULL DEFAULT '';
    """,
    # 7: Preferans in the same ledger. A row says what it counts (bridge points, whists, or
    # money for payments on a plan that priced both games together); a group prices a whist.
    """
    ALTER TABLE ledger ADD COLUMN unit TEXT NOT NULL DEFAULT 'points'
        CHECK (unit IN ('points', 'whists', 'cents'));
    ALTER TABLE chats ADD COLUMN whist_price INTEGER NOT NULL DEFAULT 0;
    """,
    # 8: robots. A match a robot sat in is written in practice points: statistics, not money.
    # SQLite cannot widen a CHECK in place, so the ledger is copied (ids, order and the
    # append-only triggers kept).
    """
    CREATE TABLE ledger_new (
        id          INTEGER PRIMARY KEY,
        chat_id     INTEGER NOT NULL REFERENCES chats(id),
        player_id   INTEGER NOT NULL REFERENCES players(id),
        points      INTEGER NOT NULL,
        kind        TEXT NOT NULL CHECK (kind IN ('match', 'payment')),
        match_id    INTEGER REFERENCES matches(id),
        txn         TEXT NOT NULL,
        note        TEXT NOT NULL DEFAULT '',
        at          TEXT NOT NULL,
        unit        TEXT NOT NULL DEFAULT 'points'
            CHECK (unit IN ('points', 'whists', 'cents', 'practice'))
    );
    INSERT INTO ledger_new (id, chat_id, player_id, points, kind, match_id, txn, note, at, unit)
        SELECT id, chat_id, player_id, points, kind, match_id, txn, note, at, unit
        FROM ledger ORDER BY id;
    DROP TABLE ledger;
    ALTER TABLE ledger_new RENAME TO ledger;
    CREATE INDEX ledger_by_chat ON ledger(chat_id, player_id);
    CREATE INDEX ledger_by_match ON ledger(match_id);
    CREATE UNIQUE INDEX one_row_per_player_per_match ON ledger(match_id, player_id)
        WHERE kind = 'match';
    CREATE TRIGGER ledger_append_only_u BEFORE UPDATE ON ledger
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    CREATE TRIGGER ledger_append_only_d BEFORE DELETE ON ledger
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    """,
    # 9: @usernames are matched by lower() (the SQL PostgreSQL shares), not COLLATE NOCASE.
    """
    DROP INDEX players_by_username;
    CREATE INDEX players_by_username ON players(lower(username));
    """,
    # 10: units and prices as data. A group's prices are one map (unit -> hundredths of the
    # currency per unit), no longer a column per game's unit; a ledger row may count any
    # game's unit (its name's shape is checked, not a list of games). The ledger is copied
    # again to widen its CHECK (ids, order and the append-only triggers kept).
    """
    ALTER TABLE chats ADD COLUMN prices TEXT NOT NULL DEFAULT '{}';
    UPDATE chats SET prices = CASE
        WHEN stake > 0 AND whist_price > 0
            THEN '{"points": ' || stake || ', "whists": ' || whist_price || '}'
        WHEN stake > 0 THEN '{"points": ' || stake || '}'
        WHEN whist_price > 0 THEN '{"whists": ' || whist_price || '}'
        ELSE '{}' END;
    ALTER TABLE chats DROP COLUMN stake;
    ALTER TABLE chats DROP COLUMN whist_price;
    CREATE TABLE ledger_new (
        id          INTEGER PRIMARY KEY,
        chat_id     INTEGER NOT NULL REFERENCES chats(id),
        player_id   INTEGER NOT NULL REFERENCES players(id),
        points      INTEGER NOT NULL,
        kind        TEXT NOT NULL CHECK (kind IN ('match', 'payment')),
        match_id    INTEGER REFERENCES matches(id),
        txn         TEXT NOT NULL,
        note        TEXT NOT NULL DEFAULT '',
        at          TEXT NOT NULL,
        unit        TEXT NOT NULL DEFAULT 'points'
            CHECK (length(unit) BETWEEN 1 AND 24 AND unit NOT GLOB '*[^a-z_]*')
    );
    INSERT INTO ledger_new (id, chat_id, player_id, points, kind, match_id, txn, note, at, unit)
        SELECT id, chat_id, player_id, points, kind, match_id, txn, note, at, unit
        FROM ledger ORDER BY id;
    DROP TABLE ledger;
    ALTER TABLE ledger_new RENAME TO ledger;
    CREATE INDEX ledger_by_chat ON ledger(chat_id, player_id);
    CREATE INDEX ledger_by_match ON ledger(match_id);
    CREATE UNIQUE INDEX one_row_per_player_per_match ON ledger(match_id, player_id)
        WHERE kind = 'match';
    CREATE TRIGGER ledger_append_only_u BEFORE UPDATE ON ledger
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    CREATE TRIGGER ledger_append_only_d BEFORE DELETE ON ledger
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
    """,
    # 11: each finished deal's double-dummy review (#32), once, and each player's counts from
    # it (by group and day, for /stats); whether a group shows everyone's statistics. Derived
    # from the deals' logs: an export leaves them out and the bot reviews the deals again.
    """
    CREATE TABLE deal_reviews (
        table_id    INTEGER NOT NULL,
        deal_no     INTEGER NOT NULL,
        chat_id     INTEGER NOT NULL REFERENCES chats(id),
        game        TEXT NOT NULL,
        day         TEXT NOT NULL,
        review      TEXT NOT NULL,
        PRIMARY KEY (table_id, deal_no),
        FOREIGN KEY (table_id, deal_no) REFERENCES deals(table_id, deal_no)
    );
    CREATE TABLE player_deals (
        table_id    INTEGER NOT NULL,
        deal_no     INTEGER NOT NULL,
        player_id   INTEGER NOT NULL REFERENCES players(id),
        chat_id     INTEGER NOT NULL REFERENCES chats(id),
        game        TEXT NOT NULL,
        day         TEXT NOT NULL,
        robot       INTEGER NOT NULL DEFAULT 0,
        stats       TEXT NOT NULL,
        PRIMARY KEY (table_id, deal_no, player_id),
        FOREIGN KEY (table_id, deal_no) REFERENCES deal_reviews(table_id, deal_no)
    );
    CREATE INDEX player_deals_by_chat ON player_deals(chat_id, day);
    CREATE INDEX player_deals_by_player ON player_deals(player_id, day);
    CREATE INDEX deals_finished ON deals(table_id, deal_no) WHERE result IS NOT NULL;
    ALTER TABLE chats ADD COLUMN stats_public INTEGER NOT NULL DEFAULT 0;
    """,
    # 12: where a table's players see their screens (#47): the group's choice ('group',
    # 'private', '' by the bot's rights) and the players who chose their private chat.
    """
    ALTER TABLE tables ADD COLUMN hands TEXT NOT NULL DEFAULT '';
    ALTER TABLE tables ADD COLUMN private_hands TEXT NOT NULL DEFAULT '';
    """,
)

LATEST = len(MIGRATIONS)
