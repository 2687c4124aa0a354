-- Upper bounds for findings without a wall-clock time.
-- Inputs: table findings (ts_aligned set), table rule_edges (cause, effect) from the
-- rules' leads_to / preceded_by. Output: column findings.ts_bound.
--
-- Some evidence carries no wall-clock stamp: raw dmesg prints seconds since boot. Such
-- a finding that names a rank happened no later than a stamped finding it causes on
-- the same node, for that rank or for no rank in particular (the kernel's OOM kill of
-- rank 5 came before gpu-node-02's launcher reported a child dead with -9). Scoring
-- and the order of first deviating lines use that bound; the evidence itself keeps no
-- time, since the bound is not when it happened.
ALTER TABLE findings ADD COLUMN ts_bound TIMESTAMPTZ;

UPDATE findings SET ts_bound = b.t
FROM (
    SELECT f.rule_id, f.file, f.line_no, f.rank, min(c.ts_aligned) AS t
    FROM findings f
    JOIN rule_edges g ON g.cause = f.rule_id
    JOIN findings c ON c.rule_id = g.effect AND c.ts_aligned IS NOT NULL
     AND c.node IS NOT DISTINCT FROM f.node AND (c.rank IS NULL OR c.rank = f.rank)
    WHERE f.ts_aligned IS NULL AND f.rank IS NOT NULL
    GROUP BY ALL
) b
WHERE findings.rule_id = b.rule_id AND findings.file = b.file AND findings.line_no = b.line_no
  AND findings.rank = b.rank;
