-- Handoff sessions and access tokens.
CREATE TABLE sessions (
  id            TEXT PRIMARY KEY,
  token_hash    TEXT NOT NULL,
  filename      TEXT NOT NULL,
  total_slides  INTEGER NOT NULL,
  bytes         INTEGER NOT NULL,
  sha256        TEXT NOT NULL,
  state         TEXT NOT NULL CHECK (state IN ('staged', 'claimed', 'expired')),
  authenticated INTEGER NOT NULL,
  created_at    INTEGER NOT NULL,
  expires_at    INTEGER NOT NULL,
  ended_at      INTEGER
);
CREATE INDEX sessions_state_expires ON sessions (state, expires_at);
CREATE INDEX sessions_ended ON sessions (ended_at) WHERE ended_at IS NOT NULL;
CREATE TABLE access_tokens (
  id           TEXT PRIMARY KEY,
  label        TEXT,
  token_hash   TEXT NOT NULL UNIQUE,
  created_at   INTEGER NOT NULL,
  revoked_at   INTEGER,
  last_used_at INTEGER
);
