-- What the audience of a live talk asked, voted and tapped, so a restart keeps it; bounded by
-- src/live/audience.ts, cleared when the talk ends.
ALTER TABLE live_sessions ADD COLUMN audience_json TEXT;
