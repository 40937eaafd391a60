-- Handoff sessions and access tokens. Times are ms since the epoch, as in SQLite, so both
-- stores speak the same rows.
CREATE TABLE sessions (
  id            text PRIMARY KEY,
  token_hash    text NOT NULL,
  filename      text NOT NULL,
  total_slides  integer NOT NULL,
  bytes         bigint NOT NULL,
  sha256        text NOT NULL,
  state         text NOT NULL CHECK (state IN ('staged', 'claimed', 'expired')),
  authenticated boolean NOT NULL,
  created_at    bigint NOT NULL,
  expires_at    bigint NOT NULL,
  ended_at      bigint
);
CREATE INDEX sessions_state_expires ON sessions (state, expires_at);
CREATE INDEX sessions_ended ON sessions (ended_at) WHERE ended_at IS NOT NULL;
CREATE TABLE access_tokens (
  id           text PRIMARY KEY,
  label        text,
  token_hash   text NOT NULL UNIQUE,
  created_at   bigint NOT NULL,
  revoked_at   bigint,
  last_used_at bigint
);
