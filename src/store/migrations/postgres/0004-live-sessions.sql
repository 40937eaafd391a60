-- Live sessions and the live grants a claim hands out. Secrets only as hashes.
CREATE TABLE live_sessions (
  code               text PRIMARY KEY,
  blob_id            text NOT NULL,
  filename           text NOT NULL,
  total_slides       integer NOT NULL,
  bytes              bigint NOT NULL,
  sha256             text NOT NULL,
  presenter_hash     text NOT NULL,
  control_hash       text NOT NULL,
  control_generation integer NOT NULL,
  allow_download     boolean NOT NULL,
  created_at         bigint NOT NULL,
  expires_at         bigint NOT NULL,
  ended_at           bigint,
  end_reason         text,
  state_json         text
);
CREATE INDEX live_sessions_open_expires ON live_sessions (expires_at) WHERE ended_at IS NULL;
CREATE TABLE live_grants (
  hash       text PRIMARY KEY,
  sha256     text NOT NULL,
  expires_at bigint NOT NULL
);
