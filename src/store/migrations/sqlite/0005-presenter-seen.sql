-- When the presenter of a live talk was last connected, so the sweep can end talks nobody
-- returns to after --live-presenter-grace. Open talks count from the upgrade.
ALTER TABLE live_sessions ADD COLUMN presenter_seen_at INTEGER NOT NULL DEFAULT 0;
UPDATE live_sessions SET presenter_seen_at = CAST(strftime('%s', 'now') AS INTEGER) * 1000;
CREATE INDEX live_sessions_open_presenter_seen ON live_sessions (presenter_seen_at) WHERE ended_at IS NULL;
