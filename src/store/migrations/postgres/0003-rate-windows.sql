-- The anonymous rate-limit windows, shared by every instance (store/postgres/rate-limit).
CREATE TABLE rate_windows (
  key          text PRIMARY KEY,
  window_start bigint NOT NULL,
  hits         integer NOT NULL
);
