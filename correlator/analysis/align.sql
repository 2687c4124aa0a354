-- Clock alignment: per-node offsets from events that happen together on every rank.
-- Input: view timeline_raw. Output: table clock_offsets(node, offset_s, keys, spread_s, applied)
-- (analyze.py then makes view events: timeline_raw with ts_aligned = ts - offset of
-- its node), and table attr_rows (the attrs of step, NCCL init and watchdog lines,
-- also for nccl_inits).
--
-- Sync points: the same training step completes at about the same moment on every
-- rank (the gradient all-reduce synchronises them), every rank of a communicator
-- finishes NCCL init together, and ranks stuck on one collective hit the watchdog
-- timeout together. Stamps estimated from neighbours are not used.
--
-- Steps are taken from the last 30 minutes of the node that stopped stepping first
-- (by its own clock), on every node: a few hundred common steps or more, enough for
-- a median, and reading them is half the cost of reading every step of a long job.
-- Each node's window holds at least its own last 30 minutes, so windows overlap in
-- real time whatever the skew.
-- (Per node and rank in one scan: deviation.sql's last_progress reads it too.)
CREATE OR REPLACE TEMP TABLE step_bounds AS
SELECT node, rank, max(ts) FILTER (WHERE NOT ts_estimated) AS last_stamped, max(ts) AS last, min(ts) AS first
FROM timeline_raw WHERE kind = 'app.step_metrics'
GROUP BY node, rank;

CREATE OR REPLACE TEMP TABLE last_steps AS
SELECT node, max(last_stamped) AS last FROM step_bounds
WHERE node IS NOT NULL AND last_stamped IS NOT NULL
GROUP BY node;
SET VARIABLE steps_since = (SELECT min(last) - INTERVAL 30 MINUTE FROM last_steps);

-- The attrs this query and the blame tables (nccl_inits: bus ids, world size) need,
-- in one table: attrs is the timeline's biggest column after message. Each kind is
-- its own scan: filters joined by OR are not pushed into the Parquet scan, and then
-- every row group's attrs were decoded (0.65 s on the 1 GB bench), where a plain
-- filter skips the row groups and vectors without a wanted row. (Ingest keeps the
-- NCCL init lines of a big part in a row group of their own for the same reason.)
CREATE OR REPLACE TEMP TABLE attr_rows AS
SELECT kind, node, rank, ts, ts_estimated, 'step:' || attrs['step'] AS sync_key,
       attrs['bus_id'] AS bus_id, TRY_CAST(attrs['nranks'] AS INTEGER) AS nranks
FROM timeline_raw
WHERE kind = 'app.step_metrics' AND ts >= getvariable('steps_since') AND node IS NOT NULL AND NOT ts_estimated
UNION ALL
SELECT kind, node, rank, ts, ts_estimated, 'comm:' || attrs['comm_id'] || ':' || attrs['phase'],
       attrs['bus_id'], TRY_CAST(attrs['nranks'] AS INTEGER)
FROM timeline_raw
WHERE kind = 'nccl.comm_init'
UNION ALL
SELECT kind, node, rank, ts, ts_estimated, 'wd:' || coalesce(attrs['pg'], '') || ':' || attrs['seq_num'],
       attrs['bus_id'], TRY_CAST(attrs['nranks'] AS INTEGER)
FROM timeline_raw
WHERE kind = 'c10d.watchdog_timeout';

CREATE OR REPLACE TEMP TABLE sync_points AS
SELECT node, sync_key AS key, median(epoch(ts)) AS t
FROM attr_rows
WHERE node IS NOT NULL AND ts IS NOT NULL AND NOT ts_estimated AND sync_key IS NOT NULL
GROUP BY node, sync_key;

-- The reference is the node with the most sync points, counting steps in its own
-- last 30 minutes only: a node whose clock runs ahead has more steps after the
-- common start of the window, and must not win by that.
CREATE OR REPLACE TEMP TABLE reference_node AS
SELECT p.node FROM sync_points p LEFT JOIN last_steps l ON l.node = p.node
GROUP BY p.node
ORDER BY count(*) FILTER (WHERE NOT starts_with(p.key, 'step:')
                            OR p.t >= epoch(l.last - INTERVAL 30 MINUTE)) DESC, p.node
LIMIT 1;

CREATE OR REPLACE TEMP TABLE clock_offsets AS
SELECT p.node,
       median(p.t - r.t) AS offset_s,
       count(*) AS keys,
       coalesce(mad(p.t - r.t), 0) AS spread_s
FROM sync_points p
JOIN sync_points r ON r.key = p.key AND r.node = (SELECT node FROM reference_node)
WHERE p.node <> r.node
GROUP BY p.node;

-- Apply an offset only when it is well supported and larger than stamp precision.
ALTER TABLE clock_offsets ADD COLUMN applied BOOLEAN;
UPDATE clock_offsets SET applied = keys >= 3 AND abs(offset_s) >= 1.0 AND spread_s < abs(offset_s) / 4;
-- What an applied offset takes off a stamp (ts_aligned = ts - shift; 0 where not applied).
ALTER TABLE clock_offsets ADD COLUMN shift INTERVAL;
UPDATE clock_offsets SET shift = to_microseconds(CASE WHEN applied THEN CAST(round(offset_s * 1e6) AS BIGINT) ELSE 0 END);
