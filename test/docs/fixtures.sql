-- Data for the docs test (test/docs/run.sh): the tables that the short
-- examples of README.md and docs/*.md query as "your" tables. A block that
-- needs one says so right before its fence:
--
--   <!-- docs-test: needs clicks events -->
--
-- and the fixture runs once, before the first block of that page that needs
-- it, in the page's database. Each fixture starts at a `-- fixture: NAME`
-- line and runs up to the next one. The data is small and made by formulas,
-- not random(); rows are relative to now() where the examples ask for "the
-- last 7 days", so those queries find something.

-- fixture: clicks
-- Raw click events (README's quick start builds a visible one like it):
-- a week of clicks, one a minute, on 97 links by 5,000 visitors.
CREATE TABLE clicks (
  ts         timestamptz NOT NULL,
  link_id    bigint      NOT NULL,
  visitor_id bigint      NOT NULL
);
INSERT INTO clicks
SELECT date_trunc('minute', now()) - g * interval '1 minute', 1 + (g * g) % 97, (g * 7919) % 5000
FROM generate_series(0, 10079) g;

-- fixture: links_hourly
-- Hourly count-min sketches of link ids, the last two days.
CREATE TABLE links_hourly (hour timestamptz PRIMARY KEY, links cms NOT NULL);
INSERT INTO links_hourly
SELECT date_trunc('hour', now()) - h * interval '1 hour', cms_agg(1 + (g * g + h) % 50)
FROM generate_series(0, 47) h, generate_series(1, 200) g
GROUP BY h;

-- fixture: links_daily
-- Daily count-min sketches of link ids, the last 10 days.
CREATE TABLE links_daily (day date PRIMARY KEY, links cms NOT NULL);
INSERT INTO links_daily
SELECT current_date - d, cms_agg(1 + (g * g + d) % 50)
FROM generate_series(0, 9) d, generate_series(1, 1000) g
GROUP BY d;

-- fixture: link_counts_daily
-- Pre-counted clicks per day and link.
CREATE TABLE link_counts_daily (day date, link_id bigint, clicks bigint);
INSERT INTO link_counts_daily
SELECT current_date - d, l, 1 + (l * 37 + d) % 100
FROM generate_series(0, 6) d, generate_series(1, 50) l;

-- fixture: late
-- Late click events, to be merged into hourly rows that already exist.
CREATE TABLE late (ts timestamptz NOT NULL, link_id bigint NOT NULL);
INSERT INTO late
SELECT date_trunc('minute', now()) - g * interval '7 minutes', 1 + g % 20
FROM generate_series(1, 100) g;

-- fixture: crawled
-- URLs a crawler has fetched.
CREATE TABLE crawled (url text PRIMARY KEY);
INSERT INTO crawled SELECT 'https://example.org/' || g FROM generate_series(1, 1000) g;

-- fixture: frontier
-- URLs waiting to be fetched, some of them already crawled.
CREATE TABLE frontier (url text PRIMARY KEY);
INSERT INTO frontier SELECT 'https://example.org/' || g FROM generate_series(990, 1010) g;

-- fixture: crawl_state
-- One Bloom filter of the crawled URLs.
CREATE TABLE crawl_state AS
SELECT bloom_agg('https://example.org/' || g, 1000000, 0.001) AS seen
FROM generate_series(1, 1000) g;

-- fixture: events
-- Events to check against a filter of known visitors.
CREATE TABLE events (ts timestamptz NOT NULL, visitor_id bigint NOT NULL);
INSERT INTO events
SELECT timestamptz '2024-06-01' + g * interval '1 minute', (g * 13) % 8000
FROM generate_series(1, 2000) g;

-- fixture: seen_daily
-- One Bloom filter of visitor ids per day, the last 10 days.
CREATE TABLE seen_daily (day date PRIMARY KEY, visitors bloom NOT NULL);
INSERT INTO seen_daily
SELECT current_date - d, bloom_agg((g * 7919 + d) % 5000, 1000000, 0.01)
FROM generate_series(0, 9) d, generate_series(1, 1000) g
GROUP BY d;

-- fixture: filters
-- Bloom filters of visitor ids by day, one large enough to be stored out of
-- line (TOAST).
CREATE TABLE filters (day date PRIMARY KEY, f bloom NOT NULL);
INSERT INTO filters
SELECT date '2024-06-01', bloom_agg(g, 20000, 0.01) FROM generate_series(1, 5000) g;
