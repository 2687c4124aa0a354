-- One failure, many copies (see copies.py).
-- Three parts, run after the findings, the deviation and the outcome steps.
-- Inputs: view events, table findings; then first_deviating_candidates; then failure_evidence.
-- Outputs: tables stamp_bounds, copy_reports, copies; findings.ts_lo / ts_hi; the
-- copies that are not their event's primary leave the scoring (findings.role = 'copy',
-- out of first_deviating_candidates and, in the second part, failure_evidence).

-- Stamp intervals. Ingest gives a line without a stamp the previous stamp of its
-- stream (else of its file): a lower bound only, and in a stderr.log that ends in a
-- traceback possibly minutes earlier than the traceback. The interval is
-- [previous stamped line, next stamped line] of the same stream (the file's where the
-- stream has none, as ingest does), in aligned time; NULL hi: open, nothing stamped
-- after it. A stamped event's interval is its stamp. Only the lines the later steps ask
-- about get one: findings and WARNING-or-worse events with an estimated stamp.
-- A launcher console's echo of a worker stream (torchrun --tee, `[defaultN]:`) is the
-- order in which torchrun's two tail threads read the worker's stdout.log and stderr.log,
-- and a Python worker's stdout to a file is block-buffered: its stderr traceback can come
-- before stdout lines it wrote seconds earlier (sample_logs/hangs/*-both). There, a
-- stamped line after an unstamped one is no upper bound on its time; the stamped line
-- before it still bounds a stderr traceback from below (it was read, so written, first).
-- The launcher consoles: files where torchrun's agent speaks with no rank of its own.
CREATE OR REPLACE TEMP TABLE console_files AS
SELECT DISTINCT file FROM events WHERE source = 'torchrun' AND rank IS NULL;

CREATE OR REPLACE TEMP TABLE stamp_bounds AS
WITH wanted AS (
    SELECT DISTINCT file, line_no FROM findings WHERE ts_estimated
    -- the lines deviation.sql and outcome.sql may ask about (WARNING or worse)
    UNION SELECT file, line_no FROM events
    WHERE ts_estimated
      AND (level IN ('WARNING', 'ERROR', 'CRITICAL') OR kind IN ('process.fatal_signal', 'process.nonzero_exit'))
),
w AS MATERIALIZED (
    SELECT e.file, e.line_no, coalesce(e.rank, -1) AS r, coalesce(e.local_rank, -1) AS lr,
           e.local_rank IS NOT NULL
             AND e.file IN (SELECT file FROM console_files) AS tee_echo
    FROM events e SEMI JOIN wanted k ON k.file = e.file AND k.line_no = e.line_no
    WHERE e.ts_estimated
),
-- The latest stamp before and the earliest after each line asked about, in its stream
-- (s_) and in its file (f_). A job has a few hundred such lines and millions of stamped
-- ones: look within 5,000 lines first (a hash join on the file); only where nothing
-- stamped is that near, the nearest stamped line further off, over the few files
-- concerned, with ASOF joins.
near AS MATERIALIZED (
    SELECT w.file, w.line_no,
           -- (a stamped part of the same line, split in two events, is this line's time)
           max(s.ts_aligned) FILTER (WHERE s.r = w.r AND s.lr = w.lr AND s.line_no <= w.line_no) AS s_lo,
           min(s.ts_aligned) FILTER (WHERE s.r = w.r AND s.lr = w.lr AND s.line_no >= w.line_no) AS s_hi,
           max(s.ts_aligned) FILTER (WHERE s.line_no <= w.line_no) AS f_lo,
           min(s.ts_aligned) FILTER (WHERE s.line_no >= w.line_no) AS f_hi
    FROM w LEFT JOIN (
        SELECT file, line_no, coalesce(rank, -1) AS r, coalesce(local_rank, -1) AS lr, ts_aligned FROM events
        WHERE NOT ts_estimated AND ts_aligned IS NOT NULL AND file IN (SELECT file FROM w)) s
      ON s.file = w.file AND s.line_no BETWEEN w.line_no - 5000 AND w.line_no + 5000
    GROUP BY w.file, w.line_no
),
-- where the stamped lines of each stream of those files begin and end: a bound not found
-- near a line and past the end of its stream (a traceback that ends a file) is no bound
extent AS MATERIALIZED (
    SELECT file, coalesce(rank, -1) AS r, coalesce(local_rank, -1) AS lr, min(line_no) AS first, max(line_no) AS last
    FROM events
    WHERE NOT ts_estimated AND ts_aligned IS NOT NULL AND file IN (SELECT file FROM w)
    GROUP BY ALL
),
open_w AS MATERIALIZED (
    SELECT w.* FROM w
    JOIN near n ON n.file = w.file AND n.line_no = w.line_no
    LEFT JOIN extent x ON x.file = w.file AND x.r = w.r AND x.lr = w.lr
    LEFT JOIN (SELECT file, min(first) AS first, max(last) AS last FROM extent GROUP BY file) y ON y.file = w.file
    WHERE (n.s_lo IS NULL AND x.first < w.line_no) OR (n.s_hi IS NULL AND x.last > w.line_no)
       OR (n.f_lo IS NULL AND y.first < w.line_no) OR (n.f_hi IS NULL AND y.last > w.line_no)
),
far AS MATERIALIZED (
    SELECT file, coalesce(rank, -1) AS r, coalesce(local_rank, -1) AS lr, line_no, ts_aligned FROM events
    WHERE NOT ts_estimated AND ts_aligned IS NOT NULL AND file IN (SELECT DISTINCT file FROM open_w)
),
far_s_lo AS (SELECT o.file, o.line_no, s.ts_aligned AS t FROM open_w o ASOF JOIN far s
             ON s.file = o.file AND s.r = o.r AND s.lr = o.lr AND o.line_no > s.line_no),
far_s_hi AS (SELECT o.file, o.line_no, s.ts_aligned AS t FROM open_w o ASOF JOIN far s
             ON s.file = o.file AND s.r = o.r AND s.lr = o.lr AND o.line_no < s.line_no),
far_f_lo AS (SELECT o.file, o.line_no, s.ts_aligned AS t FROM open_w o ASOF JOIN far s
             ON s.file = o.file AND o.line_no > s.line_no),
far_f_hi AS (SELECT o.file, o.line_no, s.ts_aligned AS t FROM open_w o ASOF JOIN far s
             ON s.file = o.file AND o.line_no < s.line_no)
-- (a line split in two events is asked about twice: its widest interval)
SELECT w.file, w.line_no,
       min(coalesce(n.s_lo, a.t, n.f_lo, c.t)) AS ts_lo,
       CASE WHEN bool_or(w.tee_echo) THEN NULL ELSE max(coalesce(n.s_hi, b.t, n.f_hi, d.t)) END AS ts_hi
FROM w
JOIN near n ON n.file = w.file AND n.line_no = w.line_no
LEFT JOIN far_s_lo a ON a.file = w.file AND a.line_no = w.line_no
LEFT JOIN far_s_hi b ON b.file = w.file AND b.line_no = w.line_no
LEFT JOIN far_f_lo c ON c.file = w.file AND c.line_no = w.line_no
LEFT JOIN far_f_hi d ON d.file = w.file AND d.line_no = w.line_no
GROUP BY w.file, w.line_no;

-- The reports a copy can be one of. A rank's own: what it printed of its failure
-- (ERROR or worse, a fatal signal, an exit status) that no rule calls context or
-- benign, ranked by the copy it is in: its own stream's file, its error.json
-- (@record), the echo of its stream in a launcher's console (--tee). The launcher's:
-- its summaries of a child's death (the ChildFailedError table, "failed (exitcode)"),
-- printed after the child died, so the child's report precedes them. A SIGKILL
-- summary is no copy: nothing in the killed process could report it.
CREATE OR REPLACE TEMP TABLE copy_reports AS
WITH launcher_files AS (SELECT file FROM console_files),
roles AS (
    -- event_role's reading (deviation.sql), from the findings: a context line is one
    -- that no rule calls root or an echo
    SELECT file, line_no, bool_or(benign) AS benign,
           bool_or(role = 'context') AND NOT bool_or(role IN ('root', 'collateral')) AS context
    FROM findings GROUP BY file, line_no
),
own AS (
    SELECT e.file, e.line_no, e.rank, e.node,
           CASE WHEN e.ts_estimated THEN b.ts_lo ELSE e.ts_aligned END AS lo,
           CASE WHEN e.ts_estimated THEN b.ts_hi ELSE e.ts_aligned END AS hi,
           CASE WHEN e.file LIKE '%error.json' THEN 1
                WHEN e.file IN (SELECT file FROM launcher_files) THEN 2 ELSE 0 END AS copy_order,
           -- the exception as the rank printed it: the last line of the event, digits masked
           trim(regexp_extract(rtrim(e.shape, E' \n\t'), '[^\n]*$')) AS signature
    FROM events e
    LEFT JOIN roles r ON r.file = e.file AND r.line_no = e.line_no
    LEFT JOIN stamp_bounds b ON b.file = e.file AND b.line_no = e.line_no
    WHERE e.rank IS NOT NULL AND e.source <> 'torchrun'
      AND (e.level IN ('ERROR', 'CRITICAL') OR e.kind IN ('process.fatal_signal', 'process.nonzero_exit'))
      AND NOT coalesce(r.benign, false) AND NOT coalesce(r.context, false)
)
SELECT file, line_no, rank, node, lo, hi, copy_order, signature, false AS launcher FROM own
UNION ALL
SELECT file, line_no,
       coalesce(TRY_CAST(attrs['failed_rank'] AS INTEGER), TRY_CAST(attrs['child_rank'] AS INTEGER)) AS rank,
       node, ts_aligned AS lo,
       -- the table's time is cut to the second
       ts_aligned + INTERVAL 1 SECOND AS hi, 3 AS copy_order, NULL AS signature, true AS launcher
FROM events
WHERE kind IN ('torchrun.failure_entry', 'torchrun.worker_failed')
  AND coalesce(attrs['exitcode'], '') <> '-9' AND coalesce(attrs['signal'], '') <> 'SIGKILL'
  AND coalesce(TRY_CAST(attrs['failed_rank'] AS INTEGER), TRY_CAST(attrs['child_rank'] AS INTEGER)) IS NOT NULL;

-- Copies of one logical event: a rank's own reports of the same exception (the same
-- signature) whose intervals overlap, within SIMULTANEOUS_S for stamping and tee lag;
-- and a launcher's summary of the rank's death with the rank's own report that
-- precedes it (by up to $LAUNCHER_LAG_S: a worker may take that long to exit after it
-- printed its error). Each copy joins its primary: the rank's own file before its
-- error.json before a console's echo, the earliest line first; a launcher summary
-- joins the rank's last own report before it, and is never a primary while one exists.
CREATE OR REPLACE TEMP TABLE copies AS
WITH own AS (SELECT * FROM copy_reports WHERE NOT launcher),
primary_of_own AS (
    SELECT a.file, a.line_no,
           arg_min({'file': b.file, 'line_no': b.line_no}, (b.copy_order, b.file, b.line_no)) AS p
    FROM own a JOIN own b
      ON b.rank = a.rank AND b.signature IS NOT DISTINCT FROM a.signature AND (a.node IS NULL OR b.node IS NULL OR a.node = b.node)
     AND (b.lo IS NULL OR a.hi IS NULL OR b.lo <= a.hi + INTERVAL $SIMULTANEOUS_S SECOND)
     AND (a.lo IS NULL OR b.hi IS NULL OR a.lo <= b.hi + INTERVAL $SIMULTANEOUS_S SECOND)
    GROUP BY a.file, a.line_no
),
primary_of_launcher AS (
    SELECT l.file, l.line_no,
           arg_max({'file': o.file, 'line_no': o.line_no},
                   (coalesce(o.lo, TIMESTAMPTZ '1970-01-01'), -o.copy_order, o.line_no)) AS p
    FROM copy_reports l JOIN own o
      ON l.launcher AND o.rank = l.rank AND (l.node IS NULL OR o.node IS NULL OR l.node = o.node)
     AND (o.lo IS NULL OR l.hi IS NULL OR o.lo <= l.hi + INTERVAL $SIMULTANEOUS_S SECOND)
     AND (o.hi IS NULL OR l.lo IS NULL OR o.hi >= l.lo - INTERVAL $LAUNCHER_LAG_S SECOND)
    GROUP BY l.file, l.line_no
),
linked AS (
    SELECT file, line_no, p.file AS p_file, p.line_no AS p_line FROM primary_of_own
    UNION ALL
    -- a launcher summary's primary is its own report's primary
    SELECT l.file, l.line_no, coalesce(po.p.file, l.p.file), coalesce(po.p.line_no, l.p.line_no)
    FROM primary_of_launcher l
    LEFT JOIN primary_of_own po ON po.file = l.p.file AND po.line_no = l.p.line_no
)
SELECT DISTINCT k.file, k.line_no, k.p_file AS primary_file, k.p_line AS primary_line,
       k.file = k.p_file AND k.line_no = k.p_line AS is_primary,
       c.copy_order
FROM linked k JOIN copy_reports c ON c.file = k.file AND c.line_no = k.line_no
-- an event that is its own only copy is no copy of anything
WHERE EXISTS (SELECT 1 FROM linked o WHERE o.p_file = k.p_file AND o.p_line = k.p_line
              AND (o.file <> o.p_file OR o.line_no <> o.p_line));

-- The launcher's summary bounds its child's report from above: the child printed it
-- before the launcher saw it die.
UPDATE stamp_bounds SET ts_hi = least(stamp_bounds.ts_hi, b.t)
FROM (SELECT c.primary_file AS file, c.primary_line AS line_no, min(r.hi) AS t
      FROM copies c JOIN copy_reports r ON r.file = c.file AND r.line_no = c.line_no AND r.launcher
      GROUP BY ALL) b
WHERE stamp_bounds.file = b.file AND stamp_bounds.line_no = b.line_no;

-- The findings' intervals, for the steps after this one.
ALTER TABLE findings ADD COLUMN ts_lo TIMESTAMPTZ;
ALTER TABLE findings ADD COLUMN ts_hi TIMESTAMPTZ;
UPDATE findings SET ts_lo = ts_aligned, ts_hi = ts_aligned WHERE NOT coalesce(ts_estimated, false);
UPDATE findings SET ts_lo = b.ts_lo, ts_hi = b.ts_hi
FROM stamp_bounds b WHERE findings.ts_estimated AND b.file = findings.file AND b.line_no = findings.line_no;

UPDATE findings SET role = 'copy'
FROM copies c
WHERE NOT c.is_primary AND c.file = findings.file AND c.line_no = findings.line_no
  AND findings.role IN ('root', 'collateral');

-- @after_deviation

DELETE FROM first_deviating_candidates d
USING copies c WHERE NOT c.is_primary AND c.file = d.file AND c.line_no = d.line_no;

-- @after_outcome

DELETE FROM failure_evidence d
USING copies c WHERE NOT c.is_primary AND c.file = d.file AND c.line_no = d.line_no;
