-- Live sessions and the live grants a claim hands out. Secrets only as hashes.
CREATE TABLE live_sessions (
  code               TEXT PRIMARY KEY,
  blob_id            TEXT NOT NULL,
  filename           TEXT NOT NULL,
  total_slides       INTEGER NOT NULL,
  bytes              INTEGER NOT NULL,
  sha256             TEXT NOT NULL,
  presenter_hash     TEXT NOT NULL,
  control_hash       TEXT NOT NULL,
  control_generation INTEGER NOT NULL,
  allow_download     INTEGER NOT NULL,
  created_at         INTEGER NOT NULL,
  expires_at         INTEGER NOT NULL,
  ended_at           INTEGER,
  end_reason         TEXT,
  state_json         TEXT
);
CREATE INDEX live_sessions_open_expires ON live_sessions (expires_at) WHERE ended_at IS NULL;
CREATE TABLE live_grants (
  hash       TEXT PRIMARY KEY,
  sha256     TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
