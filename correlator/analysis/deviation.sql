-- Deviation: what only some ranks (or nodes) print, or what a healthy baseline never printed.
-- Inputs: view events, tables findings, baseline_templates and nccl_inits (rulebook.BLAME_TABLES_SQL).

-- Every rank the job is known to have: ranks that printed, ranks a launcher
-- table names, and the world size of the largest NCCL communicator.
CREATE OR REPLACE TEMP TABLE known_ranks AS
SELECT DISTINCT rank FROM (
    SELECT rank FROM events WHERE rank IS NOT NULL
    UNION ALL
    SELECT TRY_CAST(attrs['failed_rank'] AS INTEGER) FROM events WHERE kind = 'torchrun.failure_entry'
    UNION ALL
    -- A world size is believed only up to 65,536 ranks (2^16: four times the largest
    -- jobs run, 256 KB to expand); a larger claim is one bad line (`nranks 2147483647`
    -- made this expansion allocate ~18 GB) and is ignored, not clamped (that would list
    -- 65k ranks as missing). Not max(observed rank) + 1: the point here is to name the
    -- ranks whose logs are missing, which the logs by definition do not show.
    SELECT unnest(range(CAST(max(nranks) FILTER (WHERE nranks BETWEEN 1 AND 65536) AS BIGINT)))::INTEGER
    FROM nccl_inits
    UNION ALL
    -- the world size the job's own lines state (`world_size=4`, `rank 3 of 4`; ingest's
    -- files.world_size, bounded the same way), so a rank whose log is missing is known
    SELECT unnest(range(CAST(max(world_size) FILTER (WHERE world_size BETWEEN 1 AND 65536) AS BIGINT)))::INTEGER
    FROM files
) WHERE rank IS NOT NULL;

CREATE OR REPLACE TEMP TABLE ranks_without_logs AS
SELECT rank FROM known_ranks
WHERE rank NOT IN (SELECT DISTINCT rank FROM events WHERE rank IS NOT NULL);

-- Only for the templates looked up (here and in analyze.py): those of WARNING-or-worse
-- events and of findings; the distinct counts cost per row (0.11 -> 0.04 s on the bench).
CREATE OR REPLACE TEMP TABLE template_spread AS
SELECT template,
       count(DISTINCT rank) AS n_ranks,
       count(DISTINCT node) AS n_nodes
FROM events
WHERE template IN (SELECT template FROM events WHERE level IN ('WARNING', 'ERROR', 'CRITICAL')
                   UNION SELECT template FROM findings)
GROUP BY template;

-- The most telling finding per event: root before collateral before context.
CREATE OR REPLACE TEMP TABLE event_role AS
SELECT file, line_no, arg_min(role, CASE role WHEN 'root' THEN 0 WHEN 'collateral' THEN 2 ELSE 3 END) AS role,
       arg_min(rule_id, CASE role WHEN 'root' THEN 0 WHEN 'collateral' THEN 2 ELSE 3 END) AS rule_id,
       arg_min(rank, CASE role WHEN 'root' THEN 0 WHEN 'collateral' THEN 2 ELSE 3 END) AS blamed,
       bool_or(benign) AS benign,
       min(ts_bound) AS ts_bound  -- no stamp of its own: no later than this (bounds.sql)
FROM findings GROUP BY file, line_no;

-- Deviating events that may be a first deviating line: WARNING or worse, or a
-- root-cause finding. (Picked first by level and by the findings' keys, so the
-- millions of INFO lines are never read in full.)
CREATE OR REPLACE TEMP TABLE deviating AS
WITH sizes AS (
    SELECT (SELECT count(*) FROM known_ranks) AS n_ranks_total,
           (SELECT count(DISTINCT node) FROM events WHERE node IS NOT NULL) AS n_nodes_total
),
telling AS (
    -- attrs and message left out: attrs nothing downstream reads, the message only
    -- of the lines a verdict cites (analyze.py fetches those); reading either for
    -- every WARNING of a long job costs more than the rest of this query
    SELECT * EXCLUDE (attrs, message) FROM events WHERE level IN ('WARNING', 'ERROR', 'CRITICAL')
    UNION ALL
    SELECT e.* EXCLUDE (attrs, message) FROM events e
    JOIN (SELECT DISTINCT file, line_no FROM event_role WHERE role = 'root') r
      ON r.file = e.file AND r.line_no = e.line_no
    WHERE e.level IS NULL OR e.level NOT IN ('WARNING', 'ERROR', 'CRITICAL')
)
SELECT e.*, s.n_ranks, s.n_nodes, r.role AS rule_role, r.rule_id, coalesce(r.benign, false) AS benign,
       r.ts_bound,
       coalesce(r.blamed, e.rank) AS subject_rank,
       CASE
         WHEN $USE_BASELINE THEN 'its template never appears in the healthy baseline'
         -- of the ranks compared (known_ranks), which can be fewer than the job's
         WHEN e.rank IS NOT NULL THEN 'printed by ' || s.n_ranks || ' of the ' || z.n_ranks_total || ' ranks compared'
         WHEN e.node IS NOT NULL AND z.n_nodes_total >= 2 THEN 'printed on ' || s.n_nodes || ' of ' || z.n_nodes_total || ' nodes'
         ELSE 'a root-cause signature with no peer to compare against'
       END AS why
FROM telling e
JOIN template_spread s ON s.template = e.template
CROSS JOIN sizes z
LEFT JOIN event_role r ON r.file = e.file AND r.line_no = e.line_no
WHERE CASE
        WHEN $USE_BASELINE THEN e.template NOT IN (SELECT template FROM baseline_templates)
        WHEN e.rank IS NOT NULL THEN z.n_ranks_total >= 2 AND s.n_ranks * 2 <= z.n_ranks_total
        -- a line of no rank and no node (a launcher's, unattributed) is on no node: it
        -- deviates across nodes no more than across ranks ("printed on 0 of 3 nodes")
        WHEN e.node IS NOT NULL AND z.n_nodes_total >= 2 THEN s.n_nodes * 2 <= z.n_nodes_total
        ELSE r.role = 'root'
      END;

-- When each rank last made training progress: an error its rank kept training
-- after (a retried read, a caught exception) did not stop the job. (`first`: the
-- job's first step is min(first), for analyze.py; a NULL rank row holds steps of
-- no known rank and joins nothing.)
-- (From align.sql's step_bounds: a node's shift moves all of its stamps alike.)
CREATE OR REPLACE TEMP TABLE last_progress AS
SELECT b.rank, max(b.last - coalesce(o.shift, INTERVAL 0 SECOND)) AS t,
       min(b.first - coalesce(o.shift, INTERVAL 0 SECOND)) AS first
FROM step_bounds b LEFT JOIN clock_offsets o ON o.node = b.node
GROUP BY b.rank;

-- Training progress per stream (file, rank and, for lines of no rank, node): its
-- last line and time. An error its own stream trained on after (in line order:
-- pastes have no stamps, and a retried read takes less than a second) did not stop
-- the run. Progress bars do not count: tqdm redraws its bar as the exception unwinds.
-- A console of services with no rank (docker compose's `trainer-1  | `, a pod's
-- prefix) is one stream per service: one service's steps are not another's training
-- on after its error. Progress of no known node counts for every node of its file,
-- and a line of no known node is survived by any progress of its file and rank.
CREATE OR REPLACE TEMP MACRO stream_node(rank, node) AS CASE WHEN rank IS NULL THEN node END;

CREATE OR REPLACE TEMP TABLE stream_progress AS
WITH p AS (
    SELECT file, rank, stream_node(rank, node) AS node_key, max(line_no) AS last_line, max(ts_aligned) AS last_ts
    FROM events
    WHERE kind IN ($STREAM_WENT_ON)
    GROUP BY ALL
),
keys AS (
    SELECT file, rank, node_key FROM p
    UNION SELECT file, rank, NULL FROM p
    UNION SELECT f.file, NULL, unnest(f.nodes)
          FROM files f WHERE f.file IN (SELECT file FROM p WHERE rank IS NULL)
)
SELECT k.file, k.rank, k.node_key, max(p.last_line) AS last_line, max(p.last_ts) AS last_ts
FROM keys k
JOIN p ON p.file = k.file AND p.rank IS NOT DISTINCT FROM k.rank
      AND (k.node_key IS NULL OR p.node_key IS NULL OR p.node_key = k.node_key)
GROUP BY ALL;

-- Candidates for the first deviating line, in the order they are preferred:
-- the earliest second first; within a second, root-cause signatures before
-- unexplained errors before echoes; then the rarest template. A line without a
-- wall-clock stamp sorts at its upper bound, ahead of lines stamped at that time.
-- A program's word that it went on past the error just above it ("Continuing to launch.",
-- "falling back to sockets"): parser kind app.went_on. An error with one within a few lines
-- below it, in its own stream, did not stop the run (here and in outcome.sql).
CREATE OR REPLACE TEMP TABLE went_on AS
SELECT file, rank, line_no FROM events WHERE kind = 'app.went_on';
CREATE OR REPLACE TEMP MACRO went_on_below(f, r, last_line) AS EXISTS (
    SELECT 1 FROM went_on w
    WHERE w.file = f AND w.rank IS NOT DISTINCT FROM r AND w.line_no BETWEEN last_line + 1 AND last_line + 3);

CREATE OR REPLACE TEMP TABLE first_deviating_candidates AS
SELECT d.*,
       -- an estimated stamp is a lower bound: trained on after its interval's end
       -- (copies.sql's stamp_bounds; open: never known to)
       coalesce(p.t > CASE WHEN d.ts_estimated THEN sb.ts_hi ELSE d.ts_aligned END + INTERVAL 5 SECOND, false)
         OR coalesce(sp.last_line > coalesce(d.line_end, d.line_no), false)
         -- or its file said the run completed after it (whatever rank that line names: a
         -- trainer's summary is printed without the rank field its error record has)
         OR coalesce(dc.last_line > coalesce(d.line_end, d.line_no), false)
         -- or it said, a few lines below, that it went on
         OR went_on_below(d.file, d.rank, coalesce(d.line_end, d.line_no)) AS survived,
       row_number() OVER (ORDER BY date_trunc('second', coalesce(d.ts_aligned, ts_bound)) NULLS LAST,
                                   CASE rule_role WHEN 'root' THEN 0 WHEN 'collateral' THEN 2 WHEN 'context' THEN 3 ELSE 1 END,
                                   -- a line the rules call the consequence of another line of the same process
                                   -- in the same second (c10d's "Some NCCL operations have failed or timed out"
                                   -- after its watchdog's timeout report, whichever of the two it printed first)
                                   -- comes after that line: the cause's is the line to read
                                   d.rule_id IS NOT NULL AND EXISTS (SELECT 1 FROM deviating c JOIN rule_edges g ON g.cause = c.rule_id
                                           WHERE g.effect = d.rule_id AND c.file = d.file
                                             AND c.rank IS NOT DISTINCT FROM d.rank AND c.line_no <> d.line_no
                                             AND NOT c.benign
                                             AND date_trunc('second', coalesce(c.ts_aligned, c.ts_bound))
                                                 IS NOT DISTINCT FROM date_trunc('second', coalesce(d.ts_aligned, d.ts_bound))),
                                   n_ranks,
                                   -- a whole-second stamp means "some time in that second"
                                   coalesce(d.ts_aligned, ts_bound)
                                     + CASE WHEN epoch_us(coalesce(d.ts_aligned, ts_bound)) % 1000000 = 0
                                            THEN INTERVAL 999 MILLISECOND ELSE INTERVAL 0 SECOND END,
                                   d.ts_aligned IS NOT NULL,
                                   d.file, d.line_no) AS sort_key
FROM deviating d
LEFT JOIN last_progress p ON p.rank = d.subject_rank
LEFT JOIN stream_progress sp ON sp.file = d.file AND sp.rank IS NOT DISTINCT FROM d.rank
                          AND sp.node_key IS NOT DISTINCT FROM stream_node(d.rank, d.node)
LEFT JOIN stamp_bounds sb ON sb.file = d.file AND sb.line_no = d.line_no
LEFT JOIN (SELECT file, max(line_no) AS last_line FROM events WHERE kind = 'app.run_completed' GROUP BY file) dc
  ON dc.file = d.file
WHERE NOT benign
  AND (level IN ('WARNING', 'ERROR', 'CRITICAL') OR rule_role = 'root')
  AND coalesce(rule_role, '') <> 'context';
