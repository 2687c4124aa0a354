-- Stage 2 of ingest: apply facts learned anywhere in the job to every event.
-- Input: view raw_events (stage-1 parts). Output: view events (final schema).
-- Mapping tables are tiny (one row per process or file); the big table is only
-- ever scanned, joined against them and written once.

CREATE MACRO attr(a, k) AS list_extract(list_filter(a, lambda x: x.key = k), 1).value;
-- NCCL cuts host names at the first dot, torchrun prints the FQDN (01-nccl.md §1)
CREATE MACRO short_host(h) AS nullif(split_part(h, '.', 1), '');

-- Year-less stamps (glog, c10, syslog) were read in year $PROVISIONAL_YEAR: move
-- them to the year most full stamps of the job carry.
CREATE TEMP TABLE job_year AS
SELECT coalesce(
    (SELECT mode(year(ts)) FROM raw_events
     WHERE ts IS NOT NULL AND NOT ts_needs_year AND NOT ts_estimated),
    year(current_date)) AS y;

-- NCCL init lines name the global rank of a (host, pid): the communicator with
-- the most ranks is the default process group.
CREATE TEMP TABLE nccl_pid_rank AS
SELECT short_host(attr(attrs, 'host')) AS host, pid,
       arg_max(CAST(attr(attrs, 'comm_rank') AS INTEGER),
               CAST(attr(attrs, 'nranks') AS INTEGER)) AS rank
FROM raw_events
WHERE kind = 'nccl.comm_init' AND pid IS NOT NULL
GROUP BY ALL;

-- torchrun ChildFailedError entries: rank, local rank, child pid and host.
CREATE TEMP TABLE torchrun_failures AS
SELECT DISTINCT
       CAST(attr(attrs, 'failed_rank') AS INTEGER) AS rank,
       CAST(attr(attrs, 'failed_local_rank') AS INTEGER) AS local_rank,
       CAST(attr(attrs, 'child_pid') AS INTEGER) AS pid,
       coalesce(short_host(attr(attrs, 'host')), node) AS host
FROM raw_events
WHERE kind = 'torchrun.failure_entry' AND attr(attrs, 'failed_rank') IS NOT NULL;

CREATE TEMP TABLE pid_rank AS
SELECT host, pid, any_value(rank) AS rank FROM (
    SELECT host, pid, rank FROM nccl_pid_rank
    UNION ALL
    SELECT host, pid, rank FROM torchrun_failures WHERE pid IS NOT NULL)
GROUP BY ALL HAVING count(DISTINCT rank) = 1;

CREATE TEMP TABLE single_node AS
SELECT count(DISTINCT node) <= 1 AS yes FROM raw_events WHERE node IS NOT NULL;

CREATE TEMP TABLE local_rank_map AS
SELECT host, local_rank, any_value(rank) AS rank
FROM torchrun_failures GROUP BY ALL HAVING count(DISTINCT rank) = 1;

CREATE TEMP TABLE rank_host AS
SELECT rank, any_value(host) AS host FROM (
    SELECT rank, host FROM nccl_pid_rank WHERE host IS NOT NULL
    UNION ALL
    SELECT rank, host FROM torchrun_failures WHERE host IS NOT NULL)
GROUP BY ALL HAVING count(DISTINCT host) = 1;

-- A job with one node and no torchrun table: torchrun's local rank is the global
-- rank (nproc-per-node ranks, numbered from 0 on the only node).
CREATE TEMP TABLE local_is_global AS
SELECT (SELECT yes FROM single_node)
   AND NOT EXISTS (SELECT 1 FROM torchrun_failures WHERE rank <> local_rank)
   AS yes;

CREATE VIEW stage_a AS
SELECT e.* REPLACE (
    coalesce(e.rank, p.rank,
             CASE WHEN e.local_rank IS NOT NULL THEN
                 (SELECT l.rank FROM local_rank_map l
                  WHERE l.local_rank = e.local_rank
                    AND (l.host = short_host(e.node) OR (SELECT yes FROM single_node))
                  LIMIT 1)
             END,
             CASE WHEN (SELECT yes FROM local_is_global) THEN e.local_rank END) AS rank)
FROM raw_events e
LEFT JOIN pid_rank p
  ON e.rank IS NULL AND p.pid = e.pid
 AND (p.host IS NULL OR p.host = short_host(coalesce(attr(e.attrs, 'host'), e.node)));

-- One rank per file (or per tee'd local-rank stream of a file): a per-rank file
-- whose traceback says [rank2]: is rank 2's file. Launcher consoles are exempt:
-- a child's traceback in them does not make the agent's lines that child's.
CREATE TEMP TABLE launcher_files AS
SELECT DISTINCT file FROM raw_events WHERE source IN ('torchrun', 'slurm');

CREATE TEMP TABLE stream_rank AS
SELECT file, local_rank, any_value(rank) AS rank
FROM stage_a WHERE rank IS NOT NULL
GROUP BY ALL HAVING count(DISTINCT rank) = 1;

-- A file without a node in its path takes the one NCCL host its lines name.
CREATE TEMP TABLE file_node AS
SELECT file, any_value(h) AS node FROM (
    SELECT file, short_host(attr(attrs, 'host')) AS h FROM raw_events
    WHERE source = 'nccl' AND attr(attrs, 'host') IS NOT NULL)
GROUP BY ALL HAVING count(DISTINCT h) = 1;

CREATE VIEW events AS
WITH filled AS (
    SELECT a.* REPLACE (
        coalesce(a.rank,
                 CASE WHEN a.file NOT IN (SELECT file FROM launcher_files) OR a.local_rank IS NOT NULL
                      THEN s.rank END) AS rank)
    FROM stage_a a
    LEFT JOIN stream_rank s
      ON s.file = a.file AND s.local_rank IS NOT DISTINCT FROM a.local_rank
)
SELECT
    f.job,
    coalesce(f.node, fn.node, rh.host) AS node,
    f.rank, f.local_rank, f.pid, f.source, f.file, f.line_no,
    CASE WHEN f.ts_needs_year
         THEN f.ts + to_years(CAST((SELECT y FROM job_year) - $PROVISIONAL_YEAR AS INTEGER))
         ELSE f.ts END AS ts,
    f.ts_estimated,
    CASE WHEN f.ts_needs_year
         THEN f.ts + to_years(CAST((SELECT y FROM job_year) - $PROVISIONAL_YEAR AS INTEGER))
         ELSE f.ts END AS ts_aligned,
    f.level, f.template, f.message,
    map_from_entries(f.attrs) AS attrs,
    f.line_end, f.kind
FROM filled f
LEFT JOIN file_node fn ON fn.file = f.file
LEFT JOIN rank_host rh ON rh.rank = f.rank;
