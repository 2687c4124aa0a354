-- Cross-rank inferences: hypotheses no single line states, as named queries.
-- Each adds rows to table inferred:
--   (inference, category, rank, node, file, line_no, line_end, message, ts_aligned, base, note)
-- Inputs: views events and timeline_raw (the same rows before clock alignment),
-- tables findings, known_ranks.

CREATE OR REPLACE TEMP TABLE inferred (
    inference VARCHAR, category VARCHAR, rank INTEGER, node VARCHAR, file VARCHAR,
    line_no BIGINT, line_end BIGINT, message VARCHAR, ts_aligned TIMESTAMPTZ, base DOUBLE, note VARCHAR
);

-- When the job as a whole completed after all: every known rank said its run
-- completed (the latest such line of each, the earliest of those), or a launcher saw
-- its workers succeed. An error before that was recovered from, in whatever file it
-- sits: torchrun's restart writes the next attempt to attempt_N+1/, a resubmitted job
-- to a new file.
CREATE OR REPLACE TEMP TABLE job_recovered_by AS
WITH per_rank AS (
    SELECT rank, max(ts_aligned) AS t FROM events
    WHERE kind = 'app.run_completed' AND rank IN (SELECT rank FROM known_ranks)
    GROUP BY rank
)
SELECT greatest(
    CASE WHEN (SELECT count(*) FROM known_ranks) > 0
              AND (SELECT count(t) FROM per_rank) = (SELECT count(*) FROM known_ranks)
         THEN (SELECT min(t) FROM per_rank) END,
    (SELECT max(ts_aligned) FROM events WHERE kind = 'torchrun.worker_group_succeeded')
) AS t;

-- The same read from torchrun's --log-dir tree, where stderr files carry no stamps: the
-- restart attempt (attempt_N/) from which on every known rank completed. A failure in an
-- earlier attempt's files was recovered from, stamped or not.
CREATE OR REPLACE TEMP TABLE job_recovered_attempt AS
WITH per_rank AS (
    SELECT rank, max(TRY_CAST(regexp_extract(file, '(?:^|/)attempt_(\d+)/', 1) AS INTEGER)) AS a FROM events
    WHERE kind = 'app.run_completed' AND rank IN (SELECT rank FROM known_ranks)
    GROUP BY rank
)
SELECT CASE WHEN (SELECT count(*) FROM known_ranks) > 0 AND count(a) = (SELECT count(*) FROM known_ranks)
            THEN min(a) END AS attempt
FROM per_rank;

-- The echoes the inferences read: collateral findings the stream that printed them
-- did not survive. One its stream trained on after, or said the run completed after
-- (a retried fetch's reset connection, logged with its traceback), or one before the
-- job completed after all, waited for nobody that mattered.
CREATE OR REPLACE TEMP TABLE echoes AS
SELECT f.* FROM findings f
WHERE f.role = 'collateral'
  AND NOT EXISTS (SELECT 1 FROM stream_progress s
                  WHERE s.file = f.file AND s.rank IS NOT DISTINCT FROM f.printed_by
                    AND s.node_key IS NOT DISTINCT FROM stream_node(f.printed_by, f.node)
                    AND s.last_line > coalesce(f.line_end, f.line_no))
  AND NOT EXISTS (SELECT 1 FROM events c
                  WHERE c.kind = 'app.run_completed' AND c.file = f.file
                    AND c.rank IS NOT DISTINCT FROM f.printed_by AND c.line_no > coalesce(f.line_end, f.line_no))
  AND NOT coalesce(f.ts_hi < (SELECT t FROM job_recovered_by), false)
  -- a lost peer or store after the run said it completed (its rank's line, or the job's own
  -- that names no rank) is the teardown, as outcome.sql's survived_findings reads it; a wait
  -- that timed out there stays (a hang at exit)
  AND NOT (f.category <> 'nccl_timeout_hang' AND EXISTS (
      SELECT 1 FROM events c
      WHERE c.kind = 'app.run_completed' AND c.file = f.file
        AND (c.rank IS NULL OR c.rank IS NOT DISTINCT FROM f.printed_by) AND c.line_no < f.line_no))
  -- a wait that is only a warning (a stall inspector's: the collective may yet complete) did
  -- complete where any rank of its file trained on after it
  AND NOT EXISTS (SELECT 1 FROM events w JOIN stream_progress s ON s.file = w.file
                  WHERE w.file = f.file AND w.line_no = f.line_no AND w.level = 'WARNING'
                    AND s.last_line > coalesce(f.line_end, f.line_no));

-- The waits the peers report (echoes of a wait category: a collective or a store
-- key that ran out), each with when the wait began: a report that prints how
-- long it waited (`ran for 1800008 milliseconds`, `Timed out waiting 20000ms`,
-- `wait timeout after 10000ms`) started waiting that long before its own stamp.
-- A rank that stopped logging before the waits began is the one they waited for;
-- a rank still logging after that was waiting too (or busy: odd_one_out).
CREATE OR REPLACE TEMP TABLE waits AS
SELECT f.rank, f.printed_by, f.category, f.file, f.line_no, f.ts_aligned,
       -- the latest the report can have been printed: its stamp, or for an estimated stamp
       -- the next stamped line of its stream (NULL: open; copies.sql's stamp_bounds)
       f.ts_hi AS latest,
       -- a printed wait is believed up to a week (a longer one is a garbled line)
       f.ts_aligned - to_milliseconds(CASE WHEN w.ms BETWEEN 0 AND 604800000 THEN w.ms ELSE 0 END) AS started
FROM echoes f
-- the reports' attrs: from the rules' candidate rows (rulebook.create_findings), which
-- hold every finding a filtered rule made; the events only for any other (a join with
-- the events' attrs costs a second on a 1 GB job)
LEFT JOIN (
    SELECT c.file, c.line_no, any_value(c.attrs) AS attrs FROM rule_candidates c
    SEMI JOIN echoes k ON k.file = c.file AND k.line_no = c.line_no
    GROUP BY ALL
    UNION ALL
    SELECT e.file, e.line_no, any_value(e.attrs) FROM events e
    SEMI JOIN (SELECT file, line_no FROM echoes
               EXCEPT SELECT file, line_no FROM rule_candidates) m ON m.file = e.file AND m.line_no = e.line_no
    GROUP BY ALL
) e ON e.file = f.file AND e.line_no = f.line_no
CROSS JOIN LATERAL (SELECT coalesce(TRY_CAST(e.attrs['ran_for_ms'] AS BIGINT),
                                    TRY_CAST(e.attrs['timeout_ms'] AS BIGINT), 0) AS ms) w
WHERE f.role = 'collateral' AND f.category IN ('nccl_timeout_hang', 'rendezvous');

-- What the culprit of these waits kept the others waiting for: a store key at
-- start-up (the process group never formed: rendezvous) or a collective.
CREATE OR REPLACE TEMP TABLE wait_kind AS
SELECT coalesce((SELECT arg_max(category, n) FROM (SELECT category, count(*) AS n FROM waits GROUP BY category)),
                'nccl_timeout_hang') AS category;

-- silent_rank: peers time out waiting while one rank logs no error of its own and
-- stopped logging before the waits began (inference from absence).
-- First the ranks it could be (cheap columns only), then their last lines.
CREATE OR REPLACE TEMP TABLE silent_candidates AS
WITH timeouts AS (
    SELECT rank, min(ts_aligned) AS t, min(started) AS started FROM waits
    WHERE rank IS NOT NULL
    GROUP BY rank
),
erring AS (
    SELECT DISTINCT printed_by AS rank FROM findings
    WHERE role IN ('root', 'collateral') AND printed_by IS NOT NULL
    -- errors of its own that no rule calls context (a rank receiving the others'
    -- flight-recorder dump signal is not failing loudly)
    UNION SELECT DISTINCT e.rank FROM events e
    WHERE e.level IN ('ERROR', 'CRITICAL') AND e.rank IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM findings f
                      WHERE f.file = e.file AND f.line_no = e.line_no AND f.role = 'context')
)
SELECT k.rank, (SELECT count(*) FROM timeouts) AS n_timeouts, (SELECT min(t) FROM timeouts) AS first_timeout,
       (SELECT min(started) FROM timeouts) AS wait_start
FROM known_ranks k
WHERE (SELECT count(*) FROM timeouts) > 0
  AND k.rank NOT IN (SELECT rank FROM erring)
  AND k.rank NOT IN (SELECT rank FROM timeouts)
  -- a rank that failed loudly before the timeouts explains them better than silence
  AND NOT EXISTS (
      SELECT 1 FROM findings f
      WHERE f.role = 'root' AND f.ts_aligned <= (SELECT min(t) FROM timeouts)
  );

INSERT INTO inferred
-- a candidate's last line, and every rank's last step line (only when there is a
-- candidate): keys first, the text joined back for these few rows
WITH last_key AS (
    SELECT rank, arg_max({'file': file, 'line_no': line_no, 'line_end': line_end, 'node': node},
                         (ts_aligned, line_no)) FILTER (WHERE ts_aligned IS NOT NULL) AS k,
           max(ts_aligned) AS last_ts
    FROM events WHERE rank IN (SELECT rank FROM silent_candidates) GROUP BY rank
),
last_line AS (
    -- min(): a line split in two events (text glued after a progress bar) has two
    SELECT l.rank, l.k.file, l.k.line_no, l.k.line_end, l.k.node, l.last_ts, min(t.message) AS message
    FROM last_key l
    JOIN timeline_raw t ON t.file = l.k.file AND t.line_no = l.k.line_no
    GROUP BY ALL
),
-- the last training step each rank completed: a rank behind all the others stalled
last_step_key AS (
    SELECT rank, arg_max({'file': file, 'line_no': line_no}, (ts_aligned, line_no))
                     FILTER (WHERE ts_aligned IS NOT NULL) AS k,
           max(ts_aligned) AS ts
    FROM events
    WHERE kind = 'app.step_metrics' AND rank IS NOT NULL AND EXISTS (SELECT 1 FROM silent_candidates)
    GROUP BY rank
),
last_step AS MATERIALIZED (
    SELECT s.rank, max(TRY_CAST(t.attrs['step'] AS BIGINT)) AS step, s.k.file, s.k.line_no,
           min(t.message) AS message, s.ts
    FROM last_step_key s
    JOIN timeline_raw t ON t.file = s.k.file AND t.line_no = s.k.line_no AND t.kind = 'app.step_metrics'
    GROUP BY s.rank, s.k.file, s.k.line_no, s.ts
),
behind AS (
    SELECT s.* FROM last_step s
    WHERE s.rank IN (SELECT rank FROM silent_candidates)
      AND s.step < (SELECT min(o.step) FROM last_step o WHERE o.rank <> s.rank)
),
-- a candidate that warned after its last step, in words no other rank printed (a loader
-- stalled, a slow read): it was not waiting in the collective with the others, it was stuck
-- on its own; the silent ones beside it were waiting like those that timed out
warned AS (
    SELECT x.rank, arg_min({'file': x.file, 'line_no': x.line_no, 'line_end': x.line_end, 'node': x.node,
                            'ts': x.ts_aligned, 'message': x.message}, x.line_no) AS k
    FROM events x JOIN last_step_key s ON s.rank = x.rank AND x.file = s.k.file AND x.line_no > s.k.line_no
    WHERE x.rank IN (SELECT rank FROM silent_candidates) AND x.template IS NOT NULL
      -- (a level word behind a rank tag, "[rank2] WARNING ...", that no stamp made a record of)
      AND (x.level = 'WARNING' OR (x.level IS NULL AND regexp_matches(x.message, '^\[[^\]\n]{1,40}\]:? WARN(?:ING)?\b')))
      AND NOT EXISTS (SELECT 1 FROM events o WHERE o.template = x.template AND o.rank IS DISTINCT FROM x.rank)
    GROUP BY x.rank
)
SELECT 'silent_rank', (SELECT category FROM wait_kind), c.rank, coalesce(w.k.node, l.node),
       coalesce(w.k.file, b.file, l.file), coalesce(w.k.line_no, b.line_no, l.line_no),
       CASE WHEN w.rank IS NOT NULL THEN w.k.line_end WHEN b.file IS NULL THEN l.line_end END,
       coalesce(w.k.message, b.message, l.message), coalesce(w.k.ts, b.ts, l.last_ts),
       -- a rank with no line here at all is known only by count (a world size, a table)
       CASE WHEN w.rank IS NOT NULL THEN 1.8 WHEN l.rank IS NULL THEN 0.7 ELSE 0.9 END,
       c.n_timeouts || ' other rank(s) timed out waiting while it logged no error; '
       || CASE WHEN w.rank IS NOT NULL THEN 'after its last step it warned (shown), in words no other rank printed'
               WHEN l.rank IS NULL THEN 'it left no line here at all (known from the job''s world size or the '
                                         || 'launcher''s table): its own log would say what it was doing'
               WHEN b.rank IS NOT NULL THEN 'its last completed step (shown) is behind every other rank''s'
               WHEN l.last_ts <= c.wait_start + INTERVAL 2 SECOND
               THEN 'its last line (shown) precedes the start of their waits (' || strftime(c.wait_start, '%H:%M:%S')
                    || ': a report''s stamp minus the wait it printed)'
               ELSE 'the line shown is its last' END
FROM silent_candidates c
LEFT JOIN last_line l ON l.rank = c.rank
LEFT JOIN behind b ON b.rank = c.rank
LEFT JOIN warned w ON w.rank = c.rank
-- stamps of unstamped tracebacks are lower bounds (their rank's previous line),
-- so "not after the first timeout" rather than "before"; or it stalled behind
-- every other rank and only echoed the others afterwards
-- A rank still logging after the waits began (their start, not their reports) was
-- not the one they waited for: busy ranks are odd_one_out's.
WHERE (l.last_ts IS NULL OR l.last_ts <= coalesce(c.wait_start, c.first_timeout) + INTERVAL 2 SECOND
       OR b.rank IS NOT NULL OR w.rank IS NOT NULL)
  AND (w.rank IS NOT NULL OR NOT EXISTS (SELECT 1 FROM warned));

-- mismatch_odd_rank: with TORCH_DISTRIBUTED_DEBUG=DETAIL a rank reports its own
-- collective's fingerprint and a peer's (c10d.collective_mismatch: peer_rank, seq,
-- op, shape, dtype and other_*). One fingerprint per rank (its own report first,
-- else what a peer says of it); the first attribute they differ on, in the order
-- seq, op, shape, dtype, decides: the ranks off the majority's value are odd (a
-- different code path). With no majority (one against one) a rank at an older
-- sequence number is behind, so it is the culprit; any other one-against-one
-- difference is a tie (collective_tie: said as such, with what would break it,
-- never a pick). The same op and seq with shapes differing only in the first
-- (batch) dimension is a data problem (an uneven or short batch), not code.
-- Without DETAIL, a wait's own traceback still says which collective the rank was
-- in (the innermost frame of torch/distributed/distributed_c10d.py: `in all_gather`
-- where its peers say `in all_reduce`): an op claim of lower priority. Op names are
-- compared upper-case without underscores (ALLREDUCE = all_reduce).
-- The ranks' own watchdog timeout reports among the echoes. A paste without launcher
-- prefixes has only the group's rank (`[Rank 3]`): enough to tell the collectives apart,
-- not to name a global rank (`who` is then the group's rank: group_only below).
CREATE OR REPLACE TEMP TABLE watchdog_reports AS
WITH r AS (
    SELECT f.printed_by, TRY_CAST(e.attrs['pg_rank'] AS INTEGER) AS pg_rank, f.category,
           e.attrs['seq_num'] AS seq, upper(replace(e.attrs['op_type'], '_', '')) AS op, e.attrs['numel_in'] AS numel,
           coalesce(e.attrs['pg'], '') AS pg, e.node, e.file, e.line_no, e.line_end, e.message, e.ts_aligned
    FROM echoes f JOIN events e ON e.file = f.file AND e.line_no = f.line_no
    WHERE e.kind IN ('c10d.watchdog_timeout', 'c10d.blocking_wait_timeout')
)
SELECT *, CASE WHEN (SELECT count(printed_by) FROM r) = 0 THEN pg_rank ELSE printed_by END AS who FROM r;

-- A wait's traceback, read with its exception line: the frames folded into the
-- event, or (a prefix the fold does not see through: syslog's, a rank label) the lines
-- of the same stream from the traceback's header down to it.
CREATE OR REPLACE TEMP TABLE timeout_tracebacks AS
WITH t AS (
    SELECT f.printed_by, e.rank, e.node, e.file, e.line_no, e.line_end, e.message, e.ts_aligned
    FROM echoes f JOIN events e ON e.file = f.file AND e.line_no = f.line_no
    -- (a wait that timed out, or one its peer's end cut short: both name the call it was in)
    WHERE f.role = 'collateral' AND f.category IN ('nccl_timeout_hang', 'nccl_network') AND f.printed_by IS NOT NULL
),
head AS (
    SELECT t.file, t.line_no, max(h.line_no) AS tb_start
    FROM t JOIN events h ON h.file = t.file AND h.rank IS NOT DISTINCT FROM t.rank
                        AND h.line_no BETWEEN t.line_no - 200 AND t.line_no
    WHERE h.message LIKE '%Traceback (most recent call last)%'
      -- a traceback that already ended (its exception, then other lines) was another
      -- failure's, caught and survived, not the wait's: a line at its margin (the column
      -- of its header, after whatever prefix the lines share) between them closed it
      AND NOT EXISTS (SELECT 1 FROM events x
                      WHERE x.file = t.file AND x.rank IS NOT DISTINCT FROM t.rank
                        AND x.line_no > h.line_end AND x.line_no < t.line_no
                        AND regexp_matches(substr(x.message, strpos(h.message, 'Traceback (most recent call last)')),
                                           '^\S')
                        AND NOT regexp_matches(substr(x.message, strpos(h.message, 'Traceback (most recent call last)')),
                                               '^(Traceback|During handling|The above exception)'))
    GROUP BY ALL
)
SELECT t.*, coalesce((SELECT string_agg(x.message, chr(10) ORDER BY x.line_no) FROM events x
                      WHERE x.file = t.file AND x.rank IS NOT DISTINCT FROM t.rank
                        AND x.line_no BETWEEN h.tb_start AND t.line_no), t.message) AS tb
FROM t LEFT JOIN head h ON h.file = t.file AND h.line_no = t.line_no;

CREATE OR REPLACE TEMP TABLE collective_claims AS
WITH claims AS (
    SELECT TRY_CAST(attrs['peer_rank'] AS INTEGER) AS rank, 0 AS prio, 0 AS sub,
           {'seq': attrs['seq'], 'op': upper(replace(attrs['op'], '_', '')), 'shape': attrs['shape'],
            'dtype': attrs['dtype']} AS f,
           node, file, line_no, line_end, message, ts_aligned, false AS group_only
    FROM events WHERE kind = 'c10d.collective_mismatch' AND attrs['peer_rank'] IS NOT NULL
    UNION ALL
    -- a timeout's traceback says the call the rank waited in: its last torch.distributed
    -- collective, else its innermost frame (DDP's all-reduce runs inside autograd's
    -- backward: `_engine_run_backward`); ranks waiting in different calls entered
    -- different collectives
    SELECT printed_by, 1, 1,
           {'seq': NULL, 'op': upper(replace(coalesce(
                list_last(regexp_extract_all(tb, 'distributed_c10d\.py", line \d+, in (\w+)', 1)),
                list_last(regexp_extract_all(tb, 'File "[^"\n]+", line \d+, in (\w+)', 1))), '_', '')),
            'shape': NULL, 'dtype': NULL},
           node, file, line_no, line_end, message, ts_aligned, false
    FROM timeout_tracebacks WHERE tb LIKE '%File "%", line %'
    UNION ALL
    -- the watchdog's own timeout line names the collective the rank waited in (SeqNum,
    -- OpType, NumelIn): comparable across ranks only within one process group, so only
    -- when every such line is of the same group and each rank names one collective.
    -- Two global ranks that are the same rank of "their" group are in two groups
    -- (`[rank13]: ... [Rank 1]` and `[rank15]: ... [Rank 1]`), whatever the lines print.
    SELECT who, 1, 0, {'seq': seq, 'op': op, 'shape': numel, 'dtype': NULL},
           node, file, line_no, line_end, message, ts_aligned, printed_by IS NULL
    FROM watchdog_reports
    WHERE who IS NOT NULL AND category = 'nccl_timeout_hang'
      AND (SELECT count(DISTINCT pg) FROM watchdog_reports) = 1
      AND NOT EXISTS (SELECT 1 FROM watchdog_reports a JOIN watchdog_reports b
                      ON a.pg_rank = b.pg_rank AND a.printed_by <> b.printed_by)
      AND who NOT IN (SELECT who FROM watchdog_reports WHERE who IS NOT NULL
                      GROUP BY who HAVING count(DISTINCT (seq, op, coalesce(numel, ''))) > 1)
    UNION ALL
    SELECT TRY_CAST(attrs['other_rank'] AS INTEGER), 2, 0,
           {'seq': attrs['other_seq'], 'op': upper(replace(attrs['other_op'], '_', '')), 'shape': attrs['other_shape'],
            'dtype': attrs['other_dtype']},
           node, file, line_no, line_end, message, ts_aligned, false
    FROM events WHERE kind = 'c10d.collective_mismatch' AND attrs['other_rank'] IS NOT NULL
)
-- (a rank's watchdog line and its traceback's reading of the same line: the line's own
-- words first; then the file, so that no tie is left to the order rows arrive in)
SELECT rank, arg_min(f, (prio, line_no, sub, file)) AS f,
       arg_min({'file': file, 'line_no': line_no, 'line_end': line_end, 'node': node, 'ts': ts_aligned,
                'message': message}, (prio, line_no, sub, file)) AS k,
       bool_and(prio = 2) AS hearsay, bool_or(group_only) AS group_only
FROM claims WHERE rank IS NOT NULL GROUP BY rank;

CREATE OR REPLACE TEMP TABLE collective_odd AS
WITH long AS (
    SELECT rank, attr, value FROM (
        SELECT rank, 'seq' AS attr, f.seq AS value, 0 AS o FROM collective_claims
        UNION ALL SELECT rank, 'op', f.op, 1 FROM collective_claims
        UNION ALL SELECT rank, 'shape', f.shape, 2 FROM collective_claims
        UNION ALL SELECT rank, 'dtype', f.dtype, 3 FROM collective_claims
    ) WHERE value IS NOT NULL AND value <> ''
),
counts AS (SELECT attr, value, count(*) AS n FROM long GROUP BY attr, value),
pick AS (
    SELECT attr FROM counts GROUP BY attr HAVING count(*) >= 2
    ORDER BY CASE attr WHEN 'seq' THEN 0 WHEN 'op' THEN 1 WHEN 'shape' THEN 2 ELSE 3 END LIMIT 1
),
top_n AS (
    SELECT max(n) AS n, count(*) FILTER (WHERE n = (SELECT max(n) FROM counts c2 WHERE c2.attr = (SELECT attr FROM pick)))
           AS n_at_max
    FROM counts WHERE attr = (SELECT attr FROM pick)
),
majority AS (
    SELECT value FROM counts
    WHERE attr = (SELECT attr FROM pick) AND n = (SELECT n FROM top_n)
      AND (SELECT n FROM top_n) >= 2 AND (SELECT n_at_max FROM top_n) = 1
)
SELECT l.rank, l.attr, l.value,
       (SELECT value FROM majority) AS majority_value,
       (SELECT n FROM top_n) AS majority_n,
       CASE WHEN EXISTS (SELECT 1 FROM majority) THEN l.value <> (SELECT value FROM majority)
            -- one against one: the rank at the older sequence number is behind
            WHEN l.attr = 'seq' THEN TRY_CAST(l.value AS BIGINT)
                                     = (SELECT min(TRY_CAST(value AS BIGINT)) FROM long WHERE attr = 'seq')
            ELSE NULL END AS odd
FROM long l WHERE l.attr = (SELECT attr FROM pick);

INSERT INTO inferred
WITH shapes AS (  -- same op and seq, same trailing dimensions, only the first (batch) one differs
    SELECT count(DISTINCT string_split(value, ', ')[1]) > 1
           AND count(DISTINCT string_split(value, ', ')[2:]) = 1
           AND min(len(string_split(value, ', '))) >= 2 AS batch_only
    FROM collective_odd WHERE attr = 'shape'
)
SELECT 'mismatch_odd_rank',
       CASE WHEN o.attr = 'shape' AND (SELECT batch_only FROM shapes) THEN 'data_error' ELSE 'collective_mismatch' END,
       -- a rank known only within its group is not named; the reports' earliest is cited
       CASE WHEN c.group_only THEN NULL ELSE o.rank END,
       e.k.node, e.k.file, e.k.line_no, e.k.line_end, e.k.message, e.k.ts, 2.0,
       CASE WHEN c.group_only THEN 'rank ' || o.rank || ' of its process group (no launcher prefix names its global rank) ' ELSE '' END
       || 'runs ' || o.attr || ' ' || o.value
       || CASE WHEN o.majority_value IS NOT NULL
               THEN ' while ' || o.majority_n || ' rank(s) run ' || o.attr || ' ' || o.majority_value
               ELSE ' against one other rank: an older sequence number, it is behind' END
FROM collective_odd o JOIN collective_claims c USING (rank)
CROSS JOIN LATERAL (
    SELECT CASE WHEN c.group_only THEN (SELECT arg_min(x.k, (x.k.ts, x.k.line_no)) FROM collective_claims x
                                        WHERE NOT x.hearsay)
                ELSE c.k END AS k
) e
WHERE o.odd
  AND (SELECT count(*) FROM collective_odd WHERE odd) = (SELECT count(*) FROM collective_odd WHERE odd AND rank = o.rank);

INSERT INTO inferred
WITH shapes AS (
    SELECT count(DISTINCT string_split(value, ', ')[1]) > 1
           AND count(DISTINCT string_split(value, ', ')[2:]) = 1
           AND min(len(string_split(value, ', '))) >= 2 AS batch_only
    FROM collective_odd WHERE attr = 'shape'
),
tie AS (SELECT * FROM collective_odd WHERE odd IS NULL),
first_claim AS (
    SELECT arg_min(k, k.line_no) AS k FROM collective_claims WHERE NOT hearsay
)
SELECT 'collective_tie',
       CASE WHEN (SELECT any_value(attr) FROM tie) = 'shape' AND (SELECT batch_only FROM shapes)
            THEN 'data_error' ELSE 'collective_mismatch' END,
       -- a tie names no rank, nor the node the cited claim was printed on
       NULL, NULL, f.k.file, f.k.line_no, f.k.line_end, f.k.message, f.k.ts, 2.0,
       (SELECT string_agg('rank ' || rank || ' runs ' || attr || ' ' || value, ' and ' ORDER BY rank) FROM tie)
       || ': one against one, no majority says which is odd; what would break the tie: the same report '
       || 'from a third rank (TORCH_DISTRIBUTED_DEBUG=DETAIL in every rank''s log) or every rank''s Flight Recorder dump'
FROM first_claim f
WHERE (SELECT count(*) FROM tie) = 2;

-- early_stops: a rank's "early stopping" line a few lines above its own completion line. Each
-- rank ran the check on its own numbers (its shard's validation loss) and left the run on its
-- own decision; where its peers then waited for it (odd_one_out, awaited_rank_finished) the
-- ranks did not agree when to stop: it left the collectives they went on to
-- (collective_mismatch, not a short shard), and the early-stopping line is where it began.
CREATE OR REPLACE TEMP TABLE early_stops AS
SELECT c.rank, arg_min({'file': e.file, 'line_no': e.line_no, 'line_end': e.line_end, 'node': e.node,
                        'ts': e.ts_aligned}, e.line_no) AS k
FROM (SELECT file, rank, line_no FROM events WHERE kind = 'app.run_completed' AND rank IS NOT NULL) c
JOIN events e ON e.file = c.file AND e.rank = c.rank AND e.line_no BETWEEN c.line_no - 3 AND c.line_no
WHERE regexp_matches(e.message, '(?i)\bearly[ _-]?stop')
GROUP BY c.rank;

-- odd_one_out: every known rank but one reports an echo of its own (a timeout, a
-- closed or reset connection, a store wait) and that one reports none: it is the
-- rank the others were waiting for, whatever it was doing meanwhile (stalled
-- silently, still busy printing, or finished early and exited cleanly). No
-- timing is needed: inherited or missing stamps do not matter. A rank with a
-- root-cause finding of its own is left to that finding.
INSERT INTO inferred
WITH echoing AS (
    SELECT DISTINCT printed_by AS rank FROM echoes
    WHERE role = 'collateral' AND printed_by IS NOT NULL
),
odd AS (
    SELECT k.rank FROM known_ranks k
    WHERE k.rank NOT IN (SELECT rank FROM echoing)
      AND NOT EXISTS (SELECT 1 FROM findings f WHERE f.role = 'root' AND f.rank = k.rank)
      -- nor one with an error of its own (an exception no rule names yet): that
      -- error, not its silence, is the hypothesis; a launcher's SIGTERM and the
      -- traceback it leaves do not count
      AND NOT EXISTS (
          SELECT 1 FROM events e
          WHERE e.rank = k.rank AND e.level IN ('ERROR', 'CRITICAL')
            AND e.message NOT LIKE '%SignalException%' AND e.message NOT LIKE '%KeyboardInterrupt%'
            AND NOT EXISTS (SELECT 1 FROM findings f WHERE f.file = e.file AND f.line_no = e.line_no
                            AND f.role IN ('context', 'collateral'))
      )
),
finished AS (  -- it said it was done while the others still waited
    SELECT rank, arg_min({'file': file, 'line_no': line_no, 'line_end': line_end, 'node': node, 'ts': ts_aligned},
                         line_no) AS k
    FROM events WHERE kind = 'app.run_completed' AND rank IN (SELECT rank FROM odd) GROUP BY rank
),
last_own AS (  -- else its last line: where it stopped, or the loop it was busy in
    SELECT rank, arg_max({'file': file, 'line_no': line_no, 'line_end': line_end, 'node': node, 'ts': ts_aligned},
                         (coalesce(ts_aligned, TIMESTAMPTZ '1970-01-01'), line_no)) AS k
    FROM events WHERE rank IN (SELECT rank FROM odd) AND source NOT IN ('torchrun', 'slurm')
    GROUP BY rank
),
-- its own stream says it crashed: a shell's or a runtime's report of a fatal signal other than
-- SIGKILL ("Segmentation fault (core dumped)", "Bus error"): it died of native code, not silently
crashed AS (
    SELECT DISTINCT rank FROM events
    WHERE kind = 'process.fatal_signal' AND rank IN (SELECT rank FROM odd)
      AND coalesce(attrs['signal_name'], '') <> 'SIGKILL'
),
picked AS (
    SELECT o.rank, coalesce(CASE WHEN f.rank IS NOT NULL THEN x.k END, f.k, l.k) AS k, f.rank IS NOT NULL AS finished,
           f.rank IS NOT NULL AND x.rank IS NOT NULL AS stopped_early,
           l.k IS NULL AND f.k IS NULL AS wordless, o.rank IN (SELECT rank FROM crashed) AS crashed
    FROM odd o
    LEFT JOIN finished f ON f.rank = o.rank LEFT JOIN last_own l ON l.rank = o.rank
    LEFT JOIN early_stops x ON x.rank = o.rank
),
-- the peers lost their connection to it (no wait ran out): it died, and without a word
lost_peer AS (
    SELECT count(*) > 0 AND bool_and(category = 'nccl_network') AS yes FROM echoes
    WHERE role = 'collateral' AND printed_by IS NOT NULL
)
SELECT 'odd_one_out',
       CASE WHEN (SELECT category FROM wait_kind) = 'rendezvous' THEN 'rendezvous'
            WHEN p.stopped_early THEN 'collective_mismatch'
            WHEN p.finished THEN 'data_error'
            WHEN p.crashed THEN 'other'
            WHEN (SELECT yes FROM lost_peer) THEN 'oom' ELSE 'nccl_timeout_hang' END,
       p.rank, p.k.node, p.k.file, p.k.line_no, p.k.line_end,
       (SELECT min(t.message) FROM timeline_raw t WHERE t.file = p.k.file AND t.line_no = p.k.line_no),
       p.k.ts, 0.85,
       (SELECT count(*) FROM echoing) || ' other rank(s) report echoes (timeouts, lost peers) and it reports none; '
       || CASE WHEN p.stopped_early THEN 'it stopped early on its own check while they went on to the next collective: '
                    || 'the ranks did not agree when to stop'
               WHEN p.finished THEN 'it finished while they still waited in a collective: its share of the data was shorter'
               WHEN p.crashed THEN 'its own stream reports a fatal signal (a segfault, a bus error): it crashed in native code'
               WHEN (SELECT yes FROM lost_peer) THEN 'they lost their connection to it and it printed no error: it died '
                    || 'without a word, the signature of a SIGKILL (the OOM killer, most often; check dmesg)'
               ELSE 'the line shown is its last' END
       || CASE WHEN p.wordless THEN '; it left no line of its own here' ELSE '' END
FROM picked p
WHERE (SELECT count(*) FROM known_ranks) >= 2
  AND (SELECT count(*) FROM odd) = 1
  AND (SELECT count(*) FROM echoing) = (SELECT count(*) FROM known_ranks) - 1
  -- a rank with no line at all is named too (its peers' reports are the evidence), where
  -- they lost it (a closed connection); a wait that ran out is silent_rank's to name
  AND (p.k IS NOT NULL OR (SELECT yes FROM lost_peer));


-- store_key_awaited: a TCPStore wait names the keys it waited for, and a rank-scoped
-- key ends in the rank that never wrote it (`keys: /default_pg/0//cpu//0/2`): when
-- every such wait names the same known rank, that rank never joined (it stalled,
-- was busy, or exited before init_process_group). Its last line is cited; decide.py
-- finds its first odd line. Not a rank that hosts the store and says it gave up waiting
-- for its clients (`Timed out after 41 seconds waiting for clients. 2/3 clients joined.`):
-- it was up, held at the store by a client that never came, before it could write its key.
INSERT INTO inferred
WITH named AS (
    SELECT TRY_CAST(regexp_extract(attrs['keys'], '/(\d+)$', 1) AS INTEGER) AS rank, file, line_no
    FROM events WHERE kind = 'c10d.store_wait_timeout' AND attrs['keys'] IS NOT NULL
),
store_host_waited AS (
    SELECT DISTINCT rank FROM events
    WHERE rank IS NOT NULL AND message LIKE '%waiting for clients%'
      AND regexp_matches(message, 'waiting for clients\. \d+/\d+ clients joined')
),
awaited AS (
    SELECT min(rank) AS rank, count(*) AS n FROM named
    HAVING count(DISTINCT rank) = 1 AND count(*) = count(rank)
       AND min(rank) IN (SELECT rank FROM known_ranks)
       AND min(rank) NOT IN (SELECT rank FROM store_host_waited)
),
last_own AS (
    SELECT rank, arg_max({'file': file, 'line_no': line_no, 'line_end': line_end, 'node': node, 'ts': ts_aligned},
                         (coalesce(ts_aligned, TIMESTAMPTZ '1970-01-01'), line_no)) AS k
    FROM events WHERE rank IN (SELECT rank FROM awaited) AND source NOT IN ('torchrun', 'slurm')
    GROUP BY rank
),
said AS (
    SELECT t.file, t.line_no, min(t.message) AS message
    FROM last_own l JOIN timeline_raw t ON t.file = l.k.file AND t.line_no = l.k.line_no GROUP BY ALL
)
SELECT 'store_key_awaited', 'rendezvous', a.rank, l.k.node, l.k.file, l.k.line_no, l.k.line_end, m.message,
       l.k.ts, 0.9,
       a.n || ' store wait(s) timed out on the key of rank ' || a.rank || ' (it never joined the process group)'
FROM awaited a LEFT JOIN last_own l ON l.rank = a.rank
LEFT JOIN said m ON m.file = l.k.file AND m.line_no = l.k.line_no;

-- missing_reporter: the watchdog reports of one collective name every rank from 0 to
-- the highest reporter but one (`[Rank 1]`, `[Rank 2]`, `[Rank 3]` time out in the same
-- ALLREDUCE, no report of rank 0): the rank that did not time out was not waiting in
-- that collective, so it is the one the others waited for. Where no line of the job
-- names its ranks (a console without prefixes) this is all a paste says of the culprit.
-- Only the default group's ranks are global ones (an old release's group-less
-- `[Rank N]` is taken as the default group's, the common case, and said so); a gap at
-- the top (ranks 0..M-1 report) is a world of M ranks as much as a missing rank M, so
-- it counts only where the job states its world size. Left to the inferences above
-- when they name someone, and to a rank's own root-cause finding.
INSERT INTO inferred
WITH r AS (
    SELECT who, min(seq) AS seq, min(op) AS op, min(pg) AS pg, count(DISTINCT (seq, op)) AS n_colls
    FROM watchdog_reports WHERE who IS NOT NULL AND category = 'nccl_timeout_hang' AND seq IS NOT NULL
    GROUP BY who
),
-- (the ranks the job shows, a launcher's label or a rank file, count as much as a stated size)
world AS (SELECT greatest((SELECT max(world_size) FROM files WHERE world_size <= 65536)::BIGINT,
                          (SELECT max(rank)::BIGINT + 1 FROM known_ranks)) AS n),
span AS (
    SELECT coalesce((SELECT n FROM world), max(who)::BIGINT + 1) AS n, count(*) AS n_reports, min(pg) AS pg FROM r
    HAVING count(*) >= 2 AND max(n_colls) = 1 AND count(DISTINCT seq) = 1 AND count(DISTINCT op) = 1
       AND count(DISTINCT pg) = 1 AND (min(pg) = '' OR regexp_matches(min(pg), '^PG (?:ID )?0(?:[^0-9]|$)'))
       AND min(who) >= 0 AND max(who)::BIGINT < coalesce((SELECT n FROM world), max(who)::BIGINT + 1)
       AND coalesce((SELECT n FROM world), max(who)::BIGINT + 1) <= 65536
),
missing AS (
    SELECT g.rank FROM (SELECT unnest(range(0, (SELECT n FROM span))) AS rank) g
    WHERE g.rank NOT IN (SELECT who FROM r)
),
gap AS (
    SELECT min(rank)::INTEGER AS rank FROM missing HAVING count(*) = 1
       AND (SELECT n_reports FROM span) = (SELECT n FROM span) - 1
),
last_own AS (
    SELECT arg_max({'file': file, 'line_no': line_no, 'line_end': line_end, 'node': node, 'ts': ts_aligned},
                   (coalesce(ts_aligned, TIMESTAMPTZ '1970-01-01'), line_no)) AS k
    FROM events WHERE rank = (SELECT rank FROM gap) AND source NOT IN ('torchrun', 'slurm')
),
first_report AS (
    SELECT arg_min({'file': file, 'line_no': line_no, 'line_end': line_end, 'node': node, 'ts': ts_aligned},
                   (coalesce(ts_aligned, TIMESTAMPTZ '1970-01-01'), line_no)) AS k
    FROM watchdog_reports WHERE category = 'nccl_timeout_hang'
),
k AS (SELECT coalesce((SELECT k FROM last_own), (SELECT k FROM first_report)) AS k,
             (SELECT k FROM last_own) IS NOT NULL AS own)
SELECT 'missing_reporter', 'nccl_timeout_hang', g.rank, k.k.node, k.k.file, k.k.line_no, k.k.line_end,
       (SELECT min(t.message) FROM timeline_raw t WHERE t.file = k.k.file AND t.line_no = k.k.line_no),
       k.k.ts, 0.7,
       (SELECT n_reports FROM span) || ' rank(s) of ' || (SELECT n FROM span) || ' report a watchdog timeout in '
       || (SELECT min(op) FROM r) || ' SeqNum ' || (SELECT min(seq) FROM r) || '; rank ' || g.rank
       || ' reports none: it was not waiting there, so it is the suspect they waited for (from absence alone: '
       || 'its own log would show where it was)'
       || CASE WHEN (SELECT pg FROM span) = ''
               THEN ' (the reports name no process group: their ranks are taken as the default group''s)' ELSE '' END
       || CASE WHEN k.own THEN '; the line shown is its last' ELSE '; it left no line of its own here' END
FROM gap g, k
WHERE NOT EXISTS (SELECT 1 FROM inferred WHERE rank IS NOT NULL
                  AND inference IN ('silent_rank', 'odd_one_out', 'mismatch_odd_rank', 'store_key_awaited'))
  -- the reports are all the failure there is: no root-cause finding, and no error line
  -- that is not itself an echo or context (an unplaced traceback may be the culprit's own)
  AND NOT EXISTS (SELECT 1 FROM findings f WHERE f.role = 'root')
  AND NOT EXISTS (
      SELECT 1 FROM events e
      WHERE e.level IN ('ERROR', 'CRITICAL')
        AND NOT EXISTS (SELECT 1 FROM findings f WHERE f.file = e.file AND f.line_no = e.line_no
                        AND f.role IN ('context', 'collateral')));

-- The ranks the others waited for: the one they name (a monitored-barrier report,
-- the store key they waited on), or the one rank among them that reports no echo.
CREATE OR REPLACE TEMP TABLE awaited_ranks AS
WITH echoing AS (
    SELECT DISTINCT printed_by AS rank FROM echoes WHERE role = 'collateral' AND printed_by IS NOT NULL
),
named_by_peers AS (
    SELECT DISTINCT rank FROM findings
    WHERE role = 'root' AND category IN ('nccl_timeout_hang', 'rendezvous')
      AND rank IS NOT NULL AND printed_by IS NOT NULL AND rank <> printed_by
    UNION SELECT rank FROM inferred WHERE inference IN ('store_key_awaited', 'missing_reporter')
),
quiet AS (
    SELECT rank FROM known_ranks WHERE rank NOT IN (SELECT rank FROM echoing)
)
SELECT rank FROM named_by_peers
UNION SELECT rank FROM quiet
WHERE (SELECT count(*) FROM quiet) = 1 AND (SELECT count(*) FROM echoing) >= 1;

-- awaited_rank_finished: a rank the others waited for said it had finished (a
-- clean early end) before they gave up: its share of the work was shorter (a short
-- shard: data_error), or, when they waited for it at the store, it never joined.
-- Where it stopped early on its own check (early_stops), the ranks disagreed on when to stop.
INSERT INTO inferred
WITH done AS (
    SELECT rank, arg_min({'file': file, 'line_no': line_no, 'line_end': line_end, 'node': node, 'ts': ts_aligned},
                         (coalesce(ts_aligned, TIMESTAMPTZ '1970-01-01'), line_no)) AS k
    FROM events
    WHERE kind = 'app.run_completed' AND rank IN (SELECT rank FROM awaited_ranks)
      AND (ts_aligned IS NULL OR (SELECT min(ts_aligned) FROM waits) IS NULL
           OR ts_aligned <= (SELECT min(ts_aligned) FROM waits) + INTERVAL 2 SECOND)
    GROUP BY rank
),
pick AS (
    SELECT d.rank, coalesce(x.k, d.k) AS k, x.rank IS NOT NULL AS stopped_early
    FROM done d LEFT JOIN early_stops x ON x.rank = d.rank
),
said AS (
    SELECT t.file, t.line_no, min(t.message) AS message
    FROM pick d JOIN timeline_raw t ON t.file = d.k.file AND t.line_no = d.k.line_no GROUP BY ALL
)
SELECT 'awaited_rank_finished',
       CASE WHEN (SELECT category FROM wait_kind) = 'rendezvous' THEN 'rendezvous'
            WHEN d.stopped_early THEN 'collective_mismatch' ELSE 'data_error' END,
       d.rank, d.k.node, d.k.file, d.k.line_no, d.k.line_end, m.message, d.k.ts, 0.95,
       CASE WHEN d.stopped_early
            THEN 'the others waited for it, and it had stopped early on its own check: the ranks did not agree when to stop'
            ELSE 'the others waited for it, and it had said it finished: its share of the work ended early' END
FROM pick d LEFT JOIN said m ON m.file = d.k.file AND m.line_no = d.k.line_no;

-- stopped_early_alone: one rank's last line is its own early-stopping decision (it left the
-- run: returned, exited 0) while the others, who did not stop, then lost it or waited for it
-- (echoes) and no rank has an error of its own: it left the collectives its peers went on to.
-- Where no completion line follows the decision (early_stops needs one) and the launcher's
-- report names a peer's closed connection rather than the rank that left, this is the only
-- trace of it.
INSERT INTO inferred
WITH last_line AS (
    SELECT rank, arg_max({'file': file, 'line_no': line_no, 'line_end': line_end, 'node': node, 'ts': ts_aligned,
                          'message': message},
                         (coalesce(ts_aligned, TIMESTAMPTZ '1970-01-01'), line_no)) AS k
    FROM events
    WHERE rank IN (SELECT rank FROM known_ranks) AND coalesce(level, 'INFO') IN ('INFO', 'DEBUG', 'WARNING')
    GROUP BY rank
),
stopped AS (
    -- (a decision, not an epoch's status line: "EarlyStopping counter: 3 out of 10")
    SELECT rank, k FROM last_line
    WHERE regexp_matches(k.message, '(?i)\bearly[ _-]?stop') AND NOT regexp_matches(k.message, '(?i)\bcounter\b')
)
SELECT 'stopped_early_alone', 'collective_mismatch', s.rank, s.k.node, s.k.file, s.k.line_no, s.k.line_end,
       s.k.message, s.k.ts, 0.85,
       'its last line is its own early-stopping decision while the other ranks went on and then lost it or '
       || 'waited for it: the ranks did not agree when to stop'
FROM stopped s
WHERE (SELECT count(*) FROM stopped) = 1
  AND (SELECT count(*) FROM known_ranks) >= 2
  AND EXISTS (SELECT 1 FROM echoes e WHERE e.printed_by IS DISTINCT FROM s.rank)
  AND NOT EXISTS (SELECT 1 FROM echoes e WHERE e.printed_by = s.rank)
  -- it stopped before they lost it: no echo stamped before its decision
  AND NOT EXISTS (SELECT 1 FROM echoes e WHERE e.ts_aligned IS NOT NULL AND s.k.ts IS NOT NULL AND e.ts_aligned < s.k.ts)
  AND NOT EXISTS (SELECT 1 FROM findings f WHERE f.role = 'root')
  AND NOT EXISTS (SELECT 1 FROM inferred i WHERE i.rank = s.rank);

-- quiet_rank_own_error: the rank the others waited for (the one they name, the
-- one silent or odd one out among them) printed an error of its own before their
-- waits: that error, not its silence, is the cause (a prefetch thread that died
-- and left the main thread waiting on an empty queue; it may even train a few
-- steps on its buffer first, so "survived" does not apply). An error no rank
-- claims counts as the awaited rank's when it sits in a stream the workers share
-- above the echoes there (an uncaught exception a worker wrote to the launcher's
-- stderr without a rank prefix), and no other rank is unaccounted for.
-- The category is left to the classifier (NULL here).
INSERT INTO inferred
WITH awaited AS (SELECT rank FROM awaited_ranks),
-- "before their waits" on intervals: an unstamped report (a traceback in the launcher's
-- stderr inherits a stamp from seconds or minutes earlier) is only known to come before
-- its stream's next stamped line, so an error is after the waits only when it is after
-- a wait's latest possible time
first_wait AS (SELECT min(latest) AS t FROM waits),
own AS (
    SELECT e.rank, e.file, e.line_no, e.line_end, e.node, e.ts_aligned, e.message
    FROM events e
    WHERE e.level IN ('ERROR', 'CRITICAL') AND e.source NOT IN ('torchrun', 'slurm')
      AND e.message NOT LIKE '%SignalException%' AND e.message NOT LIKE '%KeyboardInterrupt%'
      -- a traceback the paste cut before its exception line says nothing of its own (on a
      -- waiting rank it is as likely the same wait's raise)
      AND NOT (e.kind = 'python.traceback' AND e.attrs['exc_type'] IS NULL)
      AND NOT EXISTS (SELECT 1 FROM findings f WHERE f.file = e.file AND f.line_no = e.line_no)
      AND (e.ts_aligned IS NULL OR (SELECT t FROM first_wait) IS NULL
           OR e.ts_aligned <= (SELECT t FROM first_wait) + INTERVAL 2 SECOND)
      AND (e.rank IN (SELECT rank FROM awaited)
           OR (e.rank IS NULL AND (SELECT count(*) FROM awaited) = 1
               AND EXISTS (SELECT 1 FROM waits w WHERE w.file = e.file AND w.line_no > e.line_no)
               AND EXISTS (SELECT 1 FROM files x WHERE x.file = e.file AND len(x.ranks) > 0)))
),
picked AS (
    SELECT coalesce(rank, (SELECT min(rank) FROM awaited)) AS rank, rank IS NULL AS unclaimed,
           arg_min({'file': file, 'line_no': line_no, 'line_end': line_end, 'node': node, 'ts': ts_aligned,
                    'message': message}, (rank IS NULL, coalesce(ts_aligned, TIMESTAMPTZ '1970-01-01'), line_no)) AS k
    FROM own GROUP BY ALL
)
SELECT 'quiet_rank_own_error', NULL, p.rank, p.k.node, p.k.file, p.k.line_no, p.k.line_end, p.k.message, p.k.ts,
       0.95,
       'its peers waited for it, and it printed this error of its own first'
       || CASE WHEN p.unclaimed THEN ' (no rank prefix: the one error in the workers'' shared stream above their '
                                     || 'echoes, while it was the one rank unaccounted for)' ELSE '' END
FROM picked p
QUALIFY row_number() OVER (PARTITION BY p.rank ORDER BY p.unclaimed) = 1;

-- launch_settings_disagree: where the job failed to form (a rendezvous or store finding),
-- the processes' own statements of their launch settings (MASTER_ADDR, MASTER_PORT,
-- WORLD_SIZE as a job script's echo, an env dump or a launcher's `key=value` line prints
-- them) disagree: the one process whose value none of the others shares, against two or
-- more that agree, started with a wrong setting (a typo in one node's env file, a port
-- from another job); two processes (two pids) stating one RANK started as the same rank,
-- and the rank they left out is the one every other waits for. A process is its rank, else
-- its pid (the line's own, or a `pid N` it states), else its node, else its file.
INSERT INTO inferred
WITH stated AS (
    SELECT e.file, e.line_no, e.line_end, e.node, e.ts_aligned, e.rank, e.message,
           coalesce('rank ' || e.rank, 'pid ' || coalesce(e.pid::VARCHAR,
                    nullif(regexp_extract(e.message, '(?i)\bpid[ =:]?(\d{1,7})\b', 1), '')),
                    'node ' || e.node, 'file ' || e.file) AS process,
           coalesce('pid ' || coalesce(e.pid::VARCHAR,
                    nullif(regexp_extract(e.message, '(?i)\bpid[ =:]?(\d{1,7})\b', 1), '')),
                    'file ' || e.file) AS pid_or_file,
           unnest(regexp_extract_all(e.message,
                  -- (RANK as the environment states it: a log's "rank: 1" or a restart's "rank=1" is no claim)
                  '(?i:\b(?:master_addr\s*[=:]\s*[A-Za-z0-9][A-Za-z0-9.-]*|(?:master_port|world_size)\s*[=:]\s*\d+))\b'
                  || '|\bRANK=\d+\b')) AS kv
    FROM events e
    WHERE EXISTS (SELECT 1 FROM findings WHERE category = 'rendezvous')
      -- (a LIKE first: the regex then runs on the few lines that name a setting at all)
      AND (e.message ILIKE '%master%' OR e.message ILIKE '%world%')
      AND regexp_matches(e.message, '(?i)\b(?:master_addr\s*[=:]\s*[A-Za-z0-9]|(?:master_port|world_size)\s*[=:]\s*\d)')
),
kv AS (
    SELECT *, upper(regexp_extract(kv, '^(\w+)', 1)) AS key, regexp_extract(kv, '[=:]\s*(\S+)$', 1) AS value
    FROM stated
),
-- each process's first statement of each setting
settings AS (
    SELECT process, key, arg_min(value, line_no) AS value,
           arg_min({'file': file, 'line_no': line_no, 'line_end': line_end, 'node': node, 'ts': ts_aligned,
                    'rank': rank, 'message': message}, (coalesce(ts_aligned, TIMESTAMPTZ '1970-01-01'), line_no)) AS k
    FROM kv WHERE key IN ('MASTER_ADDR', 'MASTER_PORT', 'WORLD_SIZE') GROUP BY ALL
),
shared AS (SELECT key, value, count(*) AS n FROM settings GROUP BY ALL),
odd AS (
    SELECT s.* FROM settings s JOIN shared c USING (key, value)
    WHERE c.n = 1 AND EXISTS (SELECT 1 FROM shared o WHERE o.key = s.key AND o.value <> s.value AND o.n >= 2)
),
claims AS (
    SELECT TRY_CAST(value AS INTEGER) AS claimed, pid_or_file,
           arg_min({'file': file, 'line_no': line_no, 'line_end': line_end, 'node': node, 'ts': ts_aligned,
                    'message': message}, line_no) AS k
    FROM kv WHERE key = 'RANK' AND TRY_CAST(value AS INTEGER) IS NOT NULL GROUP BY ALL
),
twice AS (
    SELECT claimed, arg_max(k, (k.line_no, k.file)) AS k FROM claims
    GROUP BY claimed HAVING count(DISTINCT pid_or_file) >= 2 AND bool_and(pid_or_file LIKE 'pid %')
)
SELECT 'launch_settings_disagree', 'config_error', o.k.rank, o.k.node, o.k.file, o.k.line_no, o.k.line_end,
       o.k.message, o.k.ts, 1.0,
       'its ' || o.key || ' is ' || o.value || ' where the other processes state '
       || (SELECT string_agg(DISTINCT value, ', ') FROM settings x WHERE x.key = o.key AND x.value <> o.value)
FROM odd o
QUALIFY row_number() OVER (PARTITION BY o.process ORDER BY o.k.line_no) = 1
UNION ALL
SELECT 'launch_settings_disagree', 'config_error', t.claimed, t.k.node, t.k.file, t.k.line_no, t.k.line_end,
       t.k.message, t.k.ts, 1.0,
       'two processes started as rank ' || t.claimed || ' (RANK stated by two pids)'
FROM twice t;
