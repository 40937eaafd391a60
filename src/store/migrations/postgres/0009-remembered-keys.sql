-- Keys the rate limit remembers for a time: the live talks each address opened, which a block
-- for guessing codes leaves open to it on every instance (live/join-guard).
CREATE TABLE remembered_keys (
  key   text PRIMARY KEY,
  until bigint NOT NULL
);
CREATE INDEX remembered_keys_until ON remembered_keys (until);
