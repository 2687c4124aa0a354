-- Outcome: what the logs say of how the run ended, whatever the number of ranks.
-- Inputs: view events, tables event_role, stream_progress, last_progress and went_on (deviation.sql),
-- stamp_bounds (copies.sql).
-- A failure and a healthy end are both claims that need evidence; a log that
-- just stops has neither (the verdict is then "inconclusive").

-- Evidence of a healthy end: the run said it finished, its launcher saw every
-- worker exit 0 (torchrun's summary, or its per-worker torchelastic events in the
-- SUCCEEDED state), a process's exit status 0 was recorded, or the process group was
-- torn down at the interpreter's exit (or shut down, as the watchdog notes at INFO). (One process's clean exit is no recovery from
-- another's failure: only the run's own completion lines make job_completion.)
-- Where the run said it finished as a whole, per file (job_completion), a failure
-- above it in the same file was recovered from (an elastic restart's next attempt).
CREATE OR REPLACE TEMP TABLE completion_evidence AS
SELECT file, line_no, line_end, rank, node, kind, ts, ts_aligned, ts_estimated, message
FROM events
WHERE kind IN ('app.run_completed', 'torchrun.worker_group_succeeded', 'c10d.exit_without_destroy',
               'c10d.process_group_shutdown', 'app.exit_status_zero', 'deepspeed.process_exit_success',
               'colossalai.node_succeeded')
   OR (kind = 'deepspeed.launcher_exit' AND attrs['exitcode'] = '0')
   OR (kind = 'torchrun.elastic_status' AND attrs['state'] = 'SUCCEEDED')
-- A process or the job saying it is done (app.said_done: words a script prints at a phase's
-- end too) is a healthy end only where its stream trained on no further.
UNION ALL
SELECT e.file, e.line_no, e.line_end, e.rank, e.node, e.kind, e.ts, e.ts_aligned, e.ts_estimated, e.message
FROM events e
WHERE e.kind = 'app.said_done'
  AND NOT EXISTS (SELECT 1 FROM stream_progress sp
                  WHERE sp.file = e.file AND sp.rank IS NOT DISTINCT FROM e.rank
                    AND sp.last_line > coalesce(e.line_end, e.line_no));

-- (per file and the rank it names: a rank-less line is the job's own summary)
CREATE OR REPLACE TEMP TABLE job_completion AS
SELECT file, rank, max(line_no) AS last_line, max(ts_aligned) AS last_ts
FROM completion_evidence WHERE kind IN ('app.run_completed', 'torchrun.worker_group_succeeded')
GROUP BY file, rank;

-- (job_recovered_by, when the job as a whole completed after all: inferences.sql)

-- The same per stream (file and rank): what one rank printed after it said it completed
-- is its own teardown; a console holding every rank's lines has one stream per rank.
CREATE OR REPLACE TEMP TABLE stream_completion AS
SELECT file, rank, max(line_no) AS last_line
FROM completion_evidence WHERE kind IN ('app.run_completed', 'torchrun.worker_group_succeeded')
GROUP BY file, rank;

-- Failure evidence: an ERROR or CRITICAL event (a traceback, a fatal signal, a
-- launcher's non-zero exit, a runtime's FATAL) that no rule calls context,
-- benign or an echo (`collateral`: a peer timing out is evidence that something
-- failed, not of what), and that its stream did not train on after (a retried
-- read, a caught and logged exception did not end the run) nor its file say the
-- run completed after.
CREATE OR REPLACE TEMP TABLE failure_evidence AS
-- (the candidates first: every join and subquery below runs on these few rows, never on
-- every event of a large job)
WITH cand AS (
    SELECT * FROM events e
    WHERE (e.level IN ('ERROR', 'CRITICAL') OR e.kind IN ('process.fatal_signal', 'process.nonzero_exit')
           OR (e.source = 'nccl' AND e.level = 'WARNING'))
      -- (an exit status 0 is a success whatever level its reporter logs it at: forever's
      -- '"level":"error"' notice of every exit)
      AND e.kind IS DISTINCT FROM 'app.exit_status_zero'
),
-- a runtime's own warning line is its error report where the runtime has no other (NCCL
-- prints a failed verbs call or CUDA call as WARN and returns an error code): evidence,
-- ranked after every ERROR (decide.py) ... unless the same process carried on: NCCL went on
-- setting up or running after it (a missing libibverbs falls back to sockets); a fatal WARN
-- is followed only by its error's return-code trace (`net.cc:123 -> 2`), aborts and closed
-- connections. Per process, the last line that carried on:
carried_on AS (
    SELECT n.file, n.attrs['pid'] AS pid, n.attrs['host'] AS host, max(n.line_no) AS last_ok
    FROM events n
    WHERE n.source = 'nccl' AND n.level = 'INFO' AND n.attrs['nccl_result'] IS NULL
      AND n.file IN (SELECT file FROM cand WHERE source = 'nccl' AND level = 'WARNING')
      AND NOT regexp_matches(n.message, '(?i)abort|clos|fail|error|destroy| -> \d+\s*$')
    GROUP BY ALL
),
-- ... except where its error's return chain reached the communicator's set-up
-- (`init.cc:1203 -> 2`): ncclCommInitRank returned the error, whatever the same process
-- printed around it (a paste in pieces puts the WARN block above the set-up lines)
init_failed AS (
    SELECT DISTINCT n.file, n.attrs['pid'] AS pid, n.attrs['host'] AS host
    FROM events n
    WHERE n.source = 'nccl' AND n.level = 'INFO'
      AND n.file IN (SELECT file FROM cand WHERE source = 'nccl' AND level = 'WARNING')
      AND regexp_matches(n.message, ' init\.cc?u?:\d+ -> [1-9]\d*\s*$')
)
SELECT e.file, e.line_no, e.line_end, e.rank, e.node, e.kind, e.level, e.ts, e.ts_aligned, e.ts_estimated,
       e.template, e.shape, r.role AS rule_role, r.rule_id
FROM cand e
LEFT JOIN event_role r ON r.file = e.file AND r.line_no = e.line_no
LEFT JOIN stream_progress s ON s.file = e.file AND s.rank IS NOT DISTINCT FROM e.rank
                           AND s.node_key IS NOT DISTINCT FROM stream_node(e.rank, e.node)
LEFT JOIN last_progress p ON p.rank = e.rank
-- (one rank's completion in a console the ranks share is no recovery from another's failure)
LEFT JOIN (SELECT x.file, x.line_no, max(j.last_line) AS last_line
           FROM cand x JOIN job_completion j ON j.file = x.file AND (j.rank IS NULL OR j.rank IS NOT DISTINCT FROM x.rank)
           GROUP BY ALL) c ON c.file = e.file AND c.line_no = e.line_no
LEFT JOIN stamp_bounds sb ON sb.file = e.file AND sb.line_no = e.line_no
LEFT JOIN carried_on co ON co.file = e.file AND co.pid = e.attrs['pid']
                       AND co.host IS NOT DISTINCT FROM e.attrs['host']
LEFT JOIN init_failed fi ON fi.file = e.file AND fi.pid = e.attrs['pid']
                        AND fi.host IS NOT DISTINCT FROM e.attrs['host']
WHERE (e.level IN ('ERROR', 'CRITICAL') OR e.kind IN ('process.fatal_signal', 'process.nonzero_exit')
       OR (e.source = 'nccl' AND e.level = 'WARNING'
           AND (fi.pid IS NOT NULL OR NOT coalesce(co.last_ok > e.line_no, false))))
  AND NOT coalesce(r.benign, false)
  -- a program's word, a few lines below its error, that it went on (deviation.sql's went_on)
  AND NOT went_on_below(e.file, e.rank, coalesce(e.line_end, e.line_no))
  -- (a launcher's record of a worker's non-zero exit is a pointer, its rule's role context, but
  -- a failure all the same: a paste of mpirun's or horovodrun's report alone is a failed job;
  -- beside other evidence it is dropped below)
  AND (coalesce(r.role, '') NOT IN ('context', 'collateral')
       OR (r.role = 'context' AND e.kind IN ($LAUNCHER_SAW_A_FAILURE)))
  AND NOT coalesce(s.last_line > coalesce(e.line_end, e.line_no), false)
  -- an estimated stamp is a lower bound (a stderr.log traceback inherits its file's
  -- last stamp, minutes early): trained on after its interval's end (copies.sql)
  AND NOT coalesce(p.t > CASE WHEN e.ts_estimated THEN sb.ts_hi ELSE e.ts_aligned END + INTERVAL 5 SECOND, false)
  AND NOT coalesce(c.last_line > coalesce(e.line_end, e.line_no), false)
  -- (an estimated stamp at its stream's end has no upper bound but the stamp it inherits)
  AND NOT coalesce(CASE WHEN e.ts_estimated THEN coalesce(sb.ts_hi, e.ts_aligned) ELSE e.ts_aligned END
                   < (SELECT t FROM job_recovered_by), false)
  -- a warning after its stream said the run completed is the teardown's (NCCL's proxy
  -- thread and the network plugin complain as the process exits)
  AND NOT (e.level = 'WARNING' AND EXISTS (
      SELECT 1 FROM stream_completion sc
      WHERE sc.file = e.file AND sc.rank IS NOT DISTINCT FROM e.rank AND sc.last_line < e.line_no));

-- A launcher's pointer is the evidence only where nothing else is: beside the failure it
-- points at, it is no rival of it
DELETE FROM failure_evidence
WHERE rule_role = 'context' AND kind IN ($LAUNCHER_SAW_A_FAILURE)
  AND EXISTS (SELECT 1 FROM failure_evidence o
              WHERE NOT (coalesce(o.rule_role, '') = 'context' AND o.kind IN ($LAUNCHER_SAW_A_FAILURE)));

-- Echoes a stream trained on after (a retried connection that then worked), or
-- that its stream said the run completed after, are no echo of a failure.
CREATE OR REPLACE TEMP TABLE survived_findings AS
-- (a wait that is only a warning is survived where any rank of its file trained on after it)
SELECT DISTINCT f.file, f.line_no
FROM findings f
JOIN events w ON w.file = f.file AND w.line_no = f.line_no AND w.level = 'WARNING'
JOIN stream_progress s ON s.file = f.file
WHERE f.role = 'collateral' AND s.last_line > coalesce(f.line_end, f.line_no)
UNION
SELECT DISTINCT f.file, f.line_no
FROM findings f
JOIN stream_progress s ON s.file = f.file AND s.rank IS NOT DISTINCT FROM f.printed_by
                      AND s.node_key IS NOT DISTINCT FROM stream_node(f.printed_by, f.node)
WHERE f.role = 'collateral' AND s.last_line > coalesce(f.line_end, f.line_no)
UNION
SELECT DISTINCT f.file, f.line_no
FROM findings f
JOIN stream_completion c ON c.file = f.file AND c.rank IS NOT DISTINCT FROM f.printed_by
WHERE f.role = 'collateral' AND c.last_line > coalesce(f.line_end, f.line_no)
UNION
SELECT f.file, f.line_no FROM findings f
WHERE f.role = 'collateral' AND f.ts_hi < (SELECT t FROM job_recovered_by)
UNION
-- a lost peer after its stream said the run completed is the teardown (a transport
-- closing as the processes exit), not a failure; a wait that timed out there is a hang
-- (a save after training, a barrier at exit) and stays. A completion line that names no
-- rank is the job's own (Megatron's rank 0 says it for every rank of a shared console)
SELECT DISTINCT f.file, f.line_no
FROM findings f
JOIN stream_completion c ON c.file = f.file AND (c.rank IS NULL OR c.rank IS NOT DISTINCT FROM f.printed_by)
WHERE f.role = 'collateral' AND f.category <> 'nccl_timeout_hang' AND f.line_no > c.last_line;
