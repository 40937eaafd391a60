-- The staged-bytes quota as a running total kept by a trigger: admitting an upload reads and
-- locks one row instead of summing every staged session, so instances cannot overshoot it together.
CREATE TABLE quota (
  id           integer PRIMARY KEY CHECK (id = 1),
  staged_bytes bigint NOT NULL
);
INSERT INTO quota (id, staged_bytes) SELECT 1, COALESCE(SUM(bytes), 0) FROM sessions WHERE state = 'staged';
CREATE FUNCTION quota_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.state = 'staged' THEN UPDATE quota SET staged_bytes = staged_bytes + NEW.bytes WHERE id = 1; END IF;
    RETURN NEW;
  ELSIF TG_OP = 'UPDATE' THEN
    IF OLD.state = 'staged' AND NEW.state <> 'staged' THEN UPDATE quota SET staged_bytes = staged_bytes - OLD.bytes WHERE id = 1; END IF;
    RETURN NEW;
  ELSE
    IF OLD.state = 'staged' THEN UPDATE quota SET staged_bytes = staged_bytes - OLD.bytes WHERE id = 1; END IF;
    RETURN OLD;
  END IF;
END $$;
CREATE TRIGGER sessions_quota AFTER INSERT OR DELETE OR UPDATE OF state ON sessions
  FOR EACH ROW EXECUTE FUNCTION quota_track();
