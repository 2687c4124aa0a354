-- Flight Recorder inferences: the ranks' recorded collectives compared, per process
-- group and sequence number. Adds rows to table inferred (inferences.sql's columns:
-- inference, category, rank, node, file, line_no, line_end, message, ts_aligned,
-- base, note); each cites the culprit's own dump entry (file:line = entry index + 1).
-- Inputs: view events (kind fr.entry, from parsers/flight_recorder.py), tables
-- findings and inferred.

-- One row per rank, group and collective sequence number (a rank dumped twice: its
-- later file). Point-to-point ops have their own numbering and are left out.
CREATE OR REPLACE TEMP TABLE fr_entries AS
SELECT rank, node, file, line_no, line_end, message, ts_aligned,
       attrs['pg_id'] AS pg,
       TRY_CAST(attrs['seq'] AS BIGINT) AS seq,
       attrs['op'] AS op,
       coalesce(attrs['input_sizes'], '') AS sizes,
       coalesce(attrs['input_dtypes'], '') AS dtypes,
       TRY_CAST(attrs['numel'] AS BIGINT) AS numel,
       attrs['retired'] = 'true' AS retired,
       TRY_CAST(attrs['pg_ranks'] AS INTEGER[]) AS pg_ranks
FROM events
WHERE kind = 'fr.entry' AND rank IS NOT NULL AND coalesce(attrs['is_p2p'], 'false') = 'false'
  AND TRY_CAST(attrs['seq'] AS BIGINT) > 0
QUALIFY row_number() OVER (PARTITION BY rank, attrs['pg_id'], TRY_CAST(attrs['seq'] AS BIGINT)
                           ORDER BY file DESC, line_no DESC) = 1;

-- @@ the rest runs only where there are entries (flight_recorder.py): a job without
-- dumps never has its messages scanned for gloo's size report
-- each dumped rank's last recorded collective per group
CREATE OR REPLACE TEMP TABLE fr_last AS
SELECT pg, rank, max(seq) AS last_seq,
       arg_max({'file': file, 'line_no': line_no, 'line_end': line_end, 'node': node,
                'ts': ts_aligned, 'message': message}, seq) AS k
FROM fr_entries GROUP BY pg, rank;

-- (a) fr_behind: others wait in a collective (not retired when they dumped) that this
-- rank never reached: it is the rank they wait for. The sequence numbers are the
-- asymmetry, so two ranks (1 against 1) are no tie here: the one behind is named.
-- Only while those behind are not the majority (then the one ahead is the odd one,
-- and what it ran that the others never called is for the logs to say).
INSERT INTO inferred
WITH waiting AS (
    SELECT pg, seq, op, list(rank ORDER BY rank) AS ranks
    FROM fr_entries WHERE NOT retired GROUP BY pg, seq, op
),
behind AS (
    SELECT l.pg, l.rank, l.last_seq, l.k, w.seq AS wait_seq, w.op AS wait_op, w.ranks AS waiting
    FROM fr_last l JOIN waiting w ON w.pg = l.pg AND w.seq > l.last_seq
    QUALIFY row_number() OVER (PARTITION BY l.pg, l.rank ORDER BY w.seq) = 1
),
tally AS (
    SELECT l.pg, count(b.rank) AS n_behind, count(*) - count(b.rank) AS n_ahead
    FROM fr_last l LEFT JOIN behind b ON b.pg = l.pg AND b.rank = l.rank GROUP BY l.pg
)
SELECT 'fr_behind', 'nccl_timeout_hang', b.rank, b.k.node, b.k.file, b.k.line_no, b.k.line_end,
       b.k.message, b.k.ts, 1.5,
       'Flight Recorder, process group ' || b.pg || ': its last recorded collective is seq ' || b.last_seq
       || ' (shown) while rank(s) ' || array_to_string(b.waiting, ', ') || ' wait in seq ' || b.wait_seq
       || ' ' || b.wait_op || ' (not retired when they dumped), which it never reached'
FROM behind b JOIN tally t USING (pg)
WHERE t.n_behind <= t.n_ahead;

-- (b)/(c) the first sequence number of a group at which the dumped ranks disagree:
-- on the op (collective_mismatch), else on the input sizes or dtypes. Later
-- disagreements are consequences of the first.
CREATE OR REPLACE TEMP TABLE fr_odd_seq AS
WITH per_seq AS (
    SELECT pg, seq, count(DISTINCT op) AS n_ops, count(DISTINCT sizes || ' ' || dtypes) AS n_sigs,
           count(DISTINCT dtypes) AS n_dtypes,
           -- the shapes with every tensor's first (batch) dimension left out
           count(DISTINCT regexp_replace(sizes, '\[\d+', '[', 'g')) AS n_tails,
           bool_and(regexp_matches(regexp_replace(sizes, '\[\d+', '[', 'g'), '\d')) AS multi_dim,
           count(*) AS n_ranks
    FROM fr_entries GROUP BY pg, seq
    HAVING count(DISTINCT op) > 1 OR count(DISTINCT sizes || ' ' || dtypes) > 1
)
SELECT * FROM per_seq QUALIFY row_number() OVER (PARTITION BY pg ORDER BY seq) = 1;

-- the ranks' sides at that sequence number: by op where the ops differ, else by
-- sizes and dtypes
CREATE OR REPLACE TEMP TABLE fr_sides AS
SELECT o.pg, o.seq, o.n_ops > 1 AS by_op,
       CASE WHEN o.n_ops > 1 THEN e.op ELSE e.sizes || ' ' || e.dtypes END AS side,
       any_value(e.op) AS op, any_value(e.sizes) AS sizes, any_value(e.numel) AS numel,
       list(e.rank ORDER BY e.rank) AS ranks, count(*) AS n
FROM fr_odd_seq o JOIN fr_entries e ON e.pg = o.pg AND e.seq = o.seq
GROUP BY ALL;

-- A rank of the group with no dump (it aborted) may still say which side it was on:
-- gloo's enforce `op.preamble.length <= op.nbytes. R vs E. Received data size
-- doesn't match expected size` means it received R bytes where its own buffer held
-- E: received more, its own tensor is the smaller one (and the other way round).
-- The enforce is a C++ abort (SIGABRT: no Python handler, hence no dump), often
-- printed without a rank prefix: an unattributed one is taken as the absent rank's
-- when only one rank of the group is absent.
CREATE OR REPLACE TEMP TABLE fr_absent_side AS
WITH absent AS (
    SELECT DISTINCT o.pg, r.rank
    FROM fr_odd_seq o,
         (SELECT DISTINCT pg, unnest(pg_ranks) AS rank FROM fr_entries) r
    WHERE r.pg = o.pg AND r.rank NOT IN (SELECT rank FROM fr_last l WHERE l.pg = o.pg)
),
said AS (
    SELECT a.pg, a.rank,
           TRY_CAST(regexp_extract(e.message, '(\d+) vs (\d+)\. Received data size', 1) AS BIGINT) AS got,
           TRY_CAST(regexp_extract(e.message, '(\d+) vs (\d+)\. Received data size', 2) AS BIGINT) AS own,
           e.file, e.line_no, e.rank IS NULL AS unattributed
    FROM absent a JOIN events e
      ON e.rank = a.rank OR (e.rank IS NULL AND (SELECT count(*) FROM absent b WHERE b.pg = a.pg) = 1)
    WHERE e.message LIKE '%Received data size doesn''t match expected size%'
    QUALIFY row_number() OVER (PARTITION BY a.pg, a.rank ORDER BY e.rank IS NULL, e.file, e.line_no) = 1
)
SELECT pg, rank, got > own AS own_smaller, got, own, file, line_no, unattributed FROM said
WHERE got IS NOT NULL AND got <> own;

-- each side counted with the absent ranks that said they were on it (only between
-- sizes: the element count orders them)
CREATE OR REPLACE TEMP TABLE fr_votes AS
SELECT s.*,
       s.n + (SELECT count(*) FROM fr_absent_side a
              WHERE a.pg = s.pg AND NOT s.by_op AND s.numel IS NOT NULL
                AND s.numel = (SELECT CASE WHEN a.own_smaller THEN min(t.numel) ELSE max(t.numel) END
                               FROM fr_sides t WHERE t.pg = s.pg)) AS votes,
       (SELECT list(CASE WHEN a.unattributed
                         THEN 'a gloo size abort with no rank prefix (taken as rank ' || a.rank
                              || '''s, the only rank of the group without a dump)'
                         ELSE 'rank ' || a.rank || ' (no dump)' END
                    || ' reports receiving ' || a.got || ' bytes where it expected ' || a.own
                    || ' at ' || a.file || ':' || a.line_no)
        FROM fr_absent_side a WHERE a.pg = s.pg AND NOT s.by_op) AS absent_said
FROM fr_sides s;

-- the minority side's ranks are the culprits when one side has the most votes
INSERT INTO inferred
WITH top AS (
    SELECT pg, max(votes) AS best, count(*) FILTER (WHERE votes = max_votes) AS n_best
    FROM (SELECT *, max(votes) OVER (PARTITION BY pg) AS max_votes FROM fr_votes) GROUP BY pg
),
majority AS (
    SELECT v.pg, arg_max(v.side, v.votes) AS side, arg_max(v.ranks, v.votes) AS ranks
    FROM fr_votes v GROUP BY v.pg
),
culprit AS (
    SELECT v.*, unnest(v.ranks) AS rank FROM fr_votes v JOIN top t USING (pg)
    WHERE t.n_best = 1 AND v.votes < t.best
)
SELECT CASE WHEN c.by_op THEN 'fr_op_mismatch' ELSE 'fr_size_mismatch' END,
       CASE WHEN NOT c.by_op AND o.n_dtypes = 1 AND o.n_tails = 1 AND o.multi_dim THEN 'data_error'
            ELSE 'collective_mismatch' END,
       c.rank, e.node, e.file, e.line_no, e.line_end, e.message, e.ts_aligned,
       2.0,
       'Flight Recorder, process group ' || c.pg || ' seq ' || c.seq || ': it runs '
       || CASE WHEN c.by_op THEN c.op ELSE c.op || ' on ' || c.side END
       || ' while rank(s) ' || array_to_string(m.ranks, ', ') || ' run '
       || CASE WHEN c.by_op THEN m.side ELSE c.op || ' on ' || m.side END
       || CASE WHEN NOT c.by_op AND o.n_dtypes = 1 AND o.n_tails = 1 AND o.multi_dim
               THEN '; only the first (batch) dimension differs: uneven per-rank batches, not a code path'
               ELSE '' END
       || CASE WHEN len(coalesce(c.absent_said, [])) > 0
               THEN '; ' || array_to_string(c.absent_said, '; ') ELSE '' END
FROM culprit c
JOIN fr_odd_seq o USING (pg)
JOIN majority m USING (pg)
JOIN fr_entries e ON e.pg = c.pg AND e.seq = c.seq AND e.rank = c.rank;

-- a tie (1 against 1, 2 against 2): said as a tie, no rank picked, with what would
-- break it
INSERT INTO inferred
WITH top AS (
    SELECT pg, count(*) AS n_best, any_value(by_op) AS by_op, any_value(seq) AS seq,
           string_agg('rank(s) ' || array_to_string(ranks, ', ') || ' run '
                      || CASE WHEN by_op THEN op ELSE op || ' on ' || side END, ' and ' ORDER BY ranks) AS sides
    FROM (SELECT *, max(votes) OVER (PARTITION BY pg) AS max_votes FROM fr_votes) WHERE votes = max_votes
    GROUP BY pg
),
first_entry AS (
    SELECT e.* FROM fr_entries e JOIN top t ON e.pg = t.pg AND e.seq = t.seq
    QUALIFY row_number() OVER (PARTITION BY e.pg ORDER BY e.rank) = 1
)
SELECT 'fr_tie', 'collective_mismatch', NULL, NULL, f.file, f.line_no, f.line_end, f.message, f.ts_aligned,
       0.5,
       'Flight Recorder, process group ' || t.pg || ' seq ' || t.seq || ': ' || t.sides
       || ': a tie, no rank is picked; it would be broken by the dump of another rank of the group, '
       || CASE WHEN t.by_op THEN 'or by which side''s code path (a traceback frame, a DETAIL mismatch report) is not the intended one'
               ELSE 'or by an aborted rank''s gloo size report (received vs expected bytes)' END
FROM top t JOIN first_entry f ON f.pg = t.pg
WHERE t.n_best > 1;

-- (d) fr_missing: a rank of a dumped group that left no dump in a failing job: named,
-- weakly, beside the others; its own logs (a kill, an abort) say why.
INSERT INTO inferred
WITH members AS (SELECT DISTINCT pg, unnest(pg_ranks) AS rank FROM fr_entries),
absent AS (
    SELECT m.pg, m.rank FROM members m
    WHERE NOT EXISTS (SELECT 1 FROM fr_last l WHERE l.pg = m.pg AND l.rank = m.rank)
)
SELECT 'fr_missing', 'other', a.rank, NULL, NULL, NULL, NULL, NULL, NULL, 0.15,
       'Flight Recorder: rank ' || a.rank || ' of process group ' || a.pg || ' left no dump while rank(s) '
       || (SELECT array_to_string(list(l.rank ORDER BY l.rank), ', ') FROM fr_last l WHERE l.pg = a.pg)
       || ' did; its own logs say why (killed, aborted, hung in C++)'
FROM absent a
WHERE EXISTS (SELECT 1 FROM findings WHERE role IN ('root', 'collateral'));
