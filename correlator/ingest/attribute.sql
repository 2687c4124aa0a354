-- Stage 2 of ingest: decide, from facts learned anywhere in the job, what changes
-- in which events. Inputs (stage-1 output): view fact_events (the events of
-- ingest.FACT_KINDS, the only kinds read here), view part_summary (per part file,
-- one row per distinct file, rank, local_rank, pid, node, host_attr, source,
-- year-less stamp or not and full-stamp year, with its count n), table file_paths
-- (per input file: the node its path names, node-level or not, its family of
-- numbered siblings and its number in it; ingest.attribute). Outputs: the
-- tiny mapping tables combo_final, child_rank_lines, file_hosts, file_world_size and
-- job_year, and stale_parts, the parts they change. No event is read here.

CREATE MACRO attr(a, k) AS a[k];
-- A number read from a log (a pid, a rank, a count) as an INTEGER, or NULL when it is
-- not one: more than 10 ASCII digits or past 2^31-1 (two pids glued together), Unicode
-- digits (the parsers' \d matches `٣` and `３`), a sign or anything else. A strict CAST
-- aborted the whole ingest on one such line; pipeline.py reports each (bad_numbers).
CREATE MACRO int_attr(a, k) AS
    CASE WHEN regexp_full_match(a[k], '[0-9]{1,10}') THEN TRY_CAST(a[k] AS INTEGER) END;
-- NCCL cuts host names at the first dot, torchrun prints the FQDN (docs/formats/nccl.md §1)
CREATE MACRO short_host(h) AS nullif(split_part(h, '.', 1), '');
-- A host name that names a machine: `localhost` (and the loopback) is every machine's.
CREATE MACRO own_host(h) AS
    CASE WHEN lower(short_host(h)) IN ('localhost', 'ip6-localhost') OR h LIKE '127.%' OR h = '::1'
         THEN NULL ELSE short_host(h) END;

-- A torchrun --log-dir tree's worker file (`<log dir>/<run id>/attempt_N/<local rank>/stdout.log`,
-- or stderr.log): its process's directory, else NULL.
CREATE MACRO worker_dir(f) AS
    CASE WHEN regexp_matches(f, '(?:^|/)attempt_\d+/\d+/(?:stdout|stderr)\.log$')
         THEN regexp_replace(f, '/[^/]*$', '') END;

-- Year-less stamps (glog, c10, syslog) took their file's year in stage 1 (column
-- ts_year): they belong in the year most full stamps of the job carry.
CREATE TEMP TABLE job_year AS
SELECT coalesce(
    (SELECT year FROM part_summary WHERE year IS NOT NULL
     GROUP BY year ORDER BY sum(n) DESC, year LIMIT 1),
    year(current_date)) AS y;

-- NCCL init lines name the global rank of a (host, pid): the communicator with
-- the most ranks is the default process group.
CREATE TEMP TABLE nccl_pid_rank AS
SELECT short_host(attr(attrs, 'host')) AS host, pid,
       arg_max(int_attr(attrs, 'comm_rank'),
               int_attr(attrs, 'nranks')) AS rank
FROM fact_events
WHERE kind = 'nccl.comm_init' AND pid IS NOT NULL
GROUP BY ALL;

-- torchrun ChildFailedError entries: rank, local rank, child pid and host.
CREATE TEMP TABLE torchrun_failures AS
SELECT DISTINCT
       int_attr(attrs, 'failed_rank') AS rank,
       int_attr(attrs, 'failed_local_rank') AS local_rank,
       int_attr(attrs, 'child_pid') AS pid,
       coalesce(short_host(attr(attrs, 'host')), node) AS host
FROM fact_events
WHERE kind = 'torchrun.failure_entry' AND attr(attrs, 'failed_rank') IS NOT NULL;

-- DeepSpeed's per-node launcher (deepspeed/launcher/launch.py; docs/formats/deepspeed.md §5)
-- prints the job's node -> global ranks table, the same on every node
--   global_rank_mapping=defaultdict(<class 'list'>, {'gpu-node-01': [0, 1, 2, 3], ...})
-- (the nodes in hostfile order, each node's global ranks in its local order), its own
-- index in that table (`nnodes=2, num_local_procs=4, node_rank=1`) and every child it
-- starts, in local order: `process 38861 spawned with command: [..., '--local_rank=1', ...]`.
-- The child with --local_rank=L of table entry N is global rank mapping[N][L]. (Newer
-- launchers pass L = rank % num_local_procs rather than the index; the two agree when
-- every node runs as many processes, and only children where they agree are kept.)
CREATE TEMP TABLE ds_mapping AS
WITH texts AS (
    SELECT DISTINCT attr(attrs, 'global_rank_mapping') AS m FROM fact_events
    WHERE kind = 'deepspeed.world_info' AND attr(attrs, 'global_rank_mapping') IS NOT NULL
),
one AS (SELECT m FROM texts WHERE (SELECT count(*) FROM texts) = 1),  -- one launch, one table
entries AS (
    SELECT unnest(regexp_extract_all(m, '''([^'']*)'': \[', 1)) AS host,
           unnest(regexp_extract_all(m, ': \[([0-9, ]*)\]', 1)) AS ranks,
           unnest(range(len(regexp_extract_all(m, '''([^'']*)'': \[', 1)))) AS node_index
    FROM one
)
SELECT CAST(node_index AS INTEGER) AS node_index, host,
       list_transform(string_split(ranks, ','), lambda x: TRY_CAST(trim(x) AS INTEGER)) AS ranks,
       count(*) OVER () AS n_nodes
FROM entries WHERE trim(ranks) <> '';

-- which table entry each launcher's output stream (file, pdsh host prefix) is
CREATE TEMP TABLE ds_launcher AS
SELECT file, coalesce(attr(attrs, 'host'), node) AS stream,
       any_value(int_attr(attrs, 'node_rank')) AS node_rank
FROM fact_events
WHERE kind = 'deepspeed.world_info' AND attr(attrs, 'node_rank') IS NOT NULL
GROUP BY ALL HAVING count(DISTINCT attr(attrs, 'node_rank')) = 1;

CREATE TEMP TABLE ds_children AS
WITH spawned AS (
    SELECT file, coalesce(attr(attrs, 'host'), node) AS stream,
           int_attr(attrs, 'child_pid') AS pid,
           int_attr(attrs, 'child_local_rank') AS local_rank
    FROM fact_events
    WHERE kind = 'deepspeed.launcher_spawn' AND attr(attrs, 'child_local_rank') IS NOT NULL
),
placed AS (
    SELECT s.*, coalesce(
        (SELECT any_value(m.ranks) FROM ds_launcher l JOIN ds_mapping m ON m.node_index = l.node_rank
         WHERE l.file = s.file AND l.stream IS NOT DISTINCT FROM s.stream),
        (SELECT any_value(m.ranks) FROM ds_mapping m WHERE short_host(m.host) = short_host(s.stream)),
        (SELECT any_value(m.ranks) FROM ds_mapping m WHERE m.n_nodes = 1)) AS ranks
    FROM spawned s
)
SELECT short_host(stream) AS host, pid, local_rank, ranks[local_rank::BIGINT + 1] AS rank
FROM placed
WHERE ranks[local_rank::BIGINT + 1] IS NOT NULL AND ranks[local_rank::BIGINT + 1] % len(ranks) = local_rank;

-- torchrun names most of its children only by pid: `Sending process P closing signal
-- SIGTERM`. The agent starts its workers in local-rank order, one Popen after the
-- other (SubprocessContext._start), and global rank = base + local rank
-- (_assign_worker_ranks); so in one agent's output the k-th smallest child pid is
-- local rank k, as long as the kernel handed out increasing pids. That is checked,
-- not assumed: every pid whose local rank the agent prints (`failed (exitcode: N)
-- local_rank: L (pid: P)`, the ChildFailedError table) must sit at position L, the
-- signal lines (sent in local-rank order, SubprocessContext._close) must come in pid
-- order, and the table must give one base. (An agent that restarted its workers in the
-- same file fails the position check; a worker that had exited cleanly before the
-- failure is in neither list and would shift the ones after it.)
CREATE TEMP TABLE torchrun_children AS
WITH lines AS (
    SELECT file, node, line_no, kind,
           int_attr(attrs, 'child_pid') AS pid,
           int_attr(attrs, 'failed_local_rank') AS local_rank,
           int_attr(attrs, 'failed_rank') AS rank
    FROM fact_events
    WHERE kind IN ('torchrun.closing_signal', 'torchrun.worker_failed', 'torchrun.failure_entry')
      AND attr(attrs, 'child_pid') IS NOT NULL
),
children AS (
    SELECT file, node, pid,
           min(local_rank) AS local_rank, count(DISTINCT local_rank) AS n_local,
           min(rank - local_rank) AS base, count(DISTINCT rank - local_rank) AS n_base,
           min(line_no) FILTER (WHERE kind = 'torchrun.closing_signal') AS signal_line
    FROM lines GROUP BY ALL
),
ordered AS (
    SELECT *, row_number() OVER (PARTITION BY file, node ORDER BY pid) - 1 AS pos,
           row_number() OVER (PARTITION BY file, node, signal_line IS NULL ORDER BY pid) AS by_pid,
           row_number() OVER (PARTITION BY file, node, signal_line IS NULL ORDER BY signal_line) AS by_line
    FROM children
),
agents AS (
    SELECT file, node, min(base) AS base FROM ordered GROUP BY ALL
    HAVING bool_and(n_local <= 1 AND n_base <= 1)
       AND bool_and(local_rank IS NULL OR local_rank = pos)
       AND bool_and(signal_line IS NULL OR by_pid = by_line)
       AND count(DISTINCT base) = 1
)
SELECT o.file, o.node, o.pid, CAST(o.pos AS INTEGER) AS local_rank, TRY_CAST(a.base + o.pos AS INTEGER) AS rank
FROM ordered o JOIN agents a ON a.file = o.file AND a.node IS NOT DISTINCT FROM o.node;

-- A process's rank from what its own lines say: a record that names its pid (logging's
-- `[%(process)d]`, a syslog header's `tag[pid]`) and states `rank 1 of 2` / `rank 1/2`
-- (stage 1 made that the line's rank), or a line of that pid whose prefix names its rank
-- (`[rank1]: ...` sent through `logger`). Not a launcher's own lines (torchrun, Slurm), nor a
-- console that reports a child's error (Ray Train's `[Rank 1 Error Snippet]:` under the
-- driver's pid): they speak of other processes.
CREATE TEMP TABLE own_pid_rank AS
SELECT short_host(node) AS host, pid, int_attr(attrs, 'app_rank') AS rank
FROM fact_events
WHERE kind = 'app.world_size' AND pid IS NOT NULL
  AND int_attr(attrs, 'app_rank') < int_attr(attrs, 'app_world_size')
UNION ALL
SELECT short_host(coalesce(host_attr, node)) AS host, pid, rank
FROM part_summary
WHERE pid IS NOT NULL AND rank IS NOT NULL AND source NOT IN ('torchrun', 'slurm')
  AND file NOT IN (SELECT file FROM fact_events WHERE attr(attrs, 'child_report') IS NOT NULL);

CREATE TEMP TABLE pid_rank AS
SELECT host, pid, any_value(rank) AS rank FROM (
    SELECT host, pid, rank FROM nccl_pid_rank
    UNION ALL
    SELECT host, pid, rank FROM torchrun_failures WHERE pid IS NOT NULL
    UNION ALL
    SELECT host, pid, rank FROM ds_children
    UNION ALL
    SELECT host, pid, rank FROM own_pid_rank
    UNION ALL
    -- a test harness's parent naming the pid of each child it starts (MultiProcessTestCase)
    SELECT short_host(node) AS host, int_attr(attrs, 'child_pid') AS pid, int_attr(attrs, 'child_rank') AS rank
    FROM fact_events WHERE kind = 'python.test_process_started')
GROUP BY ALL HAVING count(DISTINCT rank) = 1;

-- A launcher line about a child (attr child_pid) gets the child's global rank as attr
-- child_rank where the launcher's own lines tell it (above); rules blame through it.
CREATE TEMP TABLE child_rank_lines AS
SELECT e.file, e.line_no, e.kind, any_value(coalesce(t.rank, d.rank)) AS rank
FROM fact_events e
LEFT JOIN torchrun_children t
  ON t.file = e.file AND t.node IS NOT DISTINCT FROM e.node AND t.pid = int_attr(e.attrs, 'child_pid')
LEFT JOIN ds_children d
  ON d.pid = int_attr(e.attrs, 'child_pid')
 AND d.host IS NOT DISTINCT FROM short_host(coalesce(attr(e.attrs, 'host'), e.node))
WHERE e.kind IN ('torchrun.closing_signal', 'torchrun.worker_failed', 'torchrun.failure_entry',
                 'torchrun.forced_kill', 'deepspeed.launcher_spawn', 'deepspeed.killing_subprocess')
  AND coalesce(t.rank, d.rank) IS NOT NULL
GROUP BY ALL HAVING count(DISTINCT coalesce(t.rank, d.rank)) = 1 AND count(*) = 1;

-- A directory named after its machine (`trn-b/`, `a100-07/`: a name no node pattern knows)
-- is that machine where the lines of files under it name it as their host (NCCL's header,
-- torchrun's failure table, a kernel line's host): its files whose path names no node are
-- that node's (a torchrun --log-dir tree under it: its ranks' own files name no host).
-- The deepest such directory of a file wins.
CREATE TEMP TABLE dir_node AS
WITH named AS (
    SELECT DISTINCT file, lower(own_host(host_attr)) AS host FROM part_summary
    WHERE host_attr IS NOT NULL AND source IN ('nccl', 'torchrun', 'kernel') AND own_host(host_attr) IS NOT NULL
),
unplaced AS (
    SELECT DISTINCT s.file, string_split(s.file, '/') AS parts
    FROM part_summary s JOIN file_paths p ON p.file = s.file
    WHERE p.path_node IS NULL AND s.file LIKE '%/%'
),
dirs AS (
    SELECT file, parts[i] AS name, array_to_string(parts[1:i], '/') AS dir
    FROM (SELECT file, parts, unnest(range(1, len(parts))) AS i FROM unplaced)
)
SELECT d.file, arg_max(d.name, length(d.dir)) AS node
FROM dirs d
WHERE EXISTS (SELECT 1 FROM named n WHERE n.host = lower(d.name) AND starts_with(n.file, d.dir || '/'))
GROUP BY d.file;

-- So is each of two torchrun --log-dir trees collected side by side, whose --log-dir paths
-- differ in one directory alone (`trn-a/logs/` and `trn-b/logs/`) and whose workers' local
-- ranks overlap (each has an `attempt_0/0/`): two agents, each of its machine, even where no
-- line names a host. (Two trees under one --log-dir differ in their run ids only: those
-- could be two runs on one machine, and are left alone.)
INSERT INTO dir_node
WITH tree AS (
    -- (the --log-dir is the worker's directory less its run id, attempt and local rank)
    SELECT DISTINCT s.file, regexp_extract(worker_dir(s.file), '^(.*)/[^/]+/attempt_\d+/(\d+)$', ['log_dir', 'local_dir']) AS w
    FROM part_summary s JOIN file_paths p ON p.file = s.file
    WHERE p.path_node IS NULL AND worker_dir(s.file) IS NOT NULL
),
tree_parts AS (SELECT file, w.log_dir AS log_dir, w.local_dir AS local_dir FROM tree),
dirs AS (
    SELECT log_dir, string_split(log_dir, '/') AS parts, list(DISTINCT local_dir) AS locals
    FROM tree_parts WHERE log_dir <> '' GROUP BY log_dir
),
pairs AS (
    SELECT a.log_dir, a.parts, b.parts AS other,
           [i FOR i IN range(1, len(a.parts) + 1) IF a.parts[i] <> b.parts[i]] AS differ
    FROM dirs a JOIN dirs b ON a.log_dir <> b.log_dir AND len(a.parts) = len(b.parts)
     AND len(list_intersect(a.locals, b.locals)) > 0
),
named AS (
    SELECT log_dir, any_value(parts[differ[1]]) AS node FROM pairs WHERE len(differ) = 1
    GROUP BY log_dir HAVING count(DISTINCT differ[1]) = 1
)
SELECT t.file, n.node FROM tree_parts t JOIN named n ON n.log_dir = t.log_dir
WHERE t.file NOT IN (SELECT file FROM dir_node);

-- (a node named by its directory is one of the job's nodes too)
CREATE TEMP TABLE single_node AS
SELECT count(DISTINCT n) <= 1 AS yes FROM (
    SELECT node AS n FROM part_summary WHERE node IS NOT NULL
    UNION SELECT node FROM dir_node);

CREATE TEMP TABLE local_rank_map AS
SELECT host, local_rank, any_value(rank) AS rank FROM (
    SELECT host, local_rank, rank FROM torchrun_failures
    UNION ALL
    SELECT host, local_rank, rank FROM ds_children)
GROUP BY ALL HAVING count(DISTINCT rank) = 1;

-- (`localhost` in torchrun's failure table is every machine's name: no node)
CREATE TEMP TABLE rank_host AS
SELECT rank, any_value(host) AS host FROM (
    SELECT rank, own_host(host) AS host FROM nccl_pid_rank WHERE own_host(host) IS NOT NULL
    UNION ALL
    SELECT rank, own_host(host) FROM torchrun_failures WHERE own_host(host) IS NOT NULL
    UNION ALL
    SELECT rank, own_host(host) FROM ds_children WHERE own_host(host) IS NOT NULL
    UNION ALL
    -- a line whose prefix names its global rank (mpirun's [1,3]<stderr>:, [rank3]:) and
    -- whose NCCL header names its host: a rank that failed before its init line says where
    SELECT rank, own_host(host_attr) FROM part_summary
    WHERE source = 'nccl' AND rank IS NOT NULL AND own_host(host_attr) IS NOT NULL)
GROUP BY ALL HAVING count(DISTINCT host) = 1;

-- A job with one node and no torchrun table: torchrun's local rank is the global
-- rank (nproc-per-node ranks, numbered from 0 on the only node).
CREATE TEMP TABLE local_is_global AS
SELECT (SELECT yes FROM single_node)
   AND NOT EXISTS (SELECT 1 FROM torchrun_failures WHERE rank <> local_rank)
   AS yes;

-- One rank per file (or per tee'd local-rank stream of a file): a per-rank file
-- whose traceback says [rank2]: is rank 2's file. Launcher consoles are exempt:
-- a child's traceback in them does not make the agent's lines that child's.
-- So is a console that reports a child's error (mp.spawn's `-- Process 1 terminated with
-- the following error:`, Ray Train's `[Rank 1 Error Snippet]:`): the parent's, the driver's.
CREATE TEMP TABLE launcher_files AS
SELECT DISTINCT file FROM part_summary WHERE source IN ('torchrun', 'slurm')
UNION
SELECT DISTINCT file FROM fact_events WHERE attr(attrs, 'child_report') IS NOT NULL;

-- Everything below decides an event's rank and node from six columns, and a job
-- has only a few hundred distinct combinations of them: decide per combination,
-- then join the events to the answer once.
CREATE TEMP TABLE combos AS
SELECT DISTINCT file, rank, local_rank, pid, node, host_attr FROM part_summary;

-- A torchrun --log-dir tree's `attempt_N/<local rank>/` holds one process's stdout.log and
-- stderr.log: the rank one of them states (its lines' prefix, or their own words: `rank 2
-- of 4`) is the other's too, where it states none (a bare traceback). It beats the guesses
-- below (a local rank is the global one only on a single node, and a node the paths do not
-- name may hide a second one).
CREATE TEMP TABLE tree_dir_rank AS
WITH stated AS (
    SELECT file, rank AS r FROM combos WHERE rank IS NOT NULL
    UNION ALL
    SELECT file, coalesce(int_attr(attrs, 'app_rank'), int_attr(attrs, 'lightning_rank')) FROM fact_events
    WHERE kind = 'app.world_size'
)
SELECT worker_dir(file) AS dir, min(r) AS rank
FROM stated
WHERE r IS NOT NULL AND worker_dir(file) IS NOT NULL
GROUP BY ALL HAVING count(DISTINCT r) = 1;

-- The rank from the line itself, else its process (pid_rank), what its --log-dir sibling
-- states (tree_dir_rank), its local rank on its host (local_rank_map), or on a single-node
-- job its local rank.
CREATE TEMP TABLE combo_a AS
WITH by_pid AS (
    SELECT c.file, c.rank, c.local_rank, c.pid, c.node, c.host_attr, min(p.rank) AS pid_rank
    FROM combos c
    LEFT JOIN pid_rank p
      ON c.rank IS NULL AND p.pid = c.pid
     AND (p.host IS NULL OR p.host = short_host(coalesce(c.host_attr, c.node)))
    GROUP BY ALL
)
SELECT b.* EXCLUDE (pid_rank),
       coalesce(b.rank, b.pid_rank,
                (SELECT t.rank FROM tree_dir_rank t WHERE t.dir = worker_dir(b.file)),
                CASE WHEN b.local_rank IS NOT NULL THEN
                    (SELECT min(l.rank) FROM local_rank_map l
                     WHERE l.local_rank = b.local_rank
                       AND (lower(l.host) = lower(short_host(coalesce(b.node, (SELECT d.node FROM dir_node d
                                                                                WHERE d.file = b.file))))
                            OR (SELECT yes FROM single_node)))
                END,
                CASE WHEN (SELECT yes FROM local_is_global) THEN b.local_rank END) AS rank_a
FROM by_pid b;

-- (not a file whose lines state several ranks of their own: `[mpi rank 1/3] ...` and
-- `[mpi rank 2/3] ...` in mpirun's merged console are several processes' output)
CREATE TEMP TABLE stream_rank AS
SELECT file, local_rank, any_value(rank_a) AS rank
FROM combo_a WHERE rank_a IS NOT NULL
  AND file NOT IN (SELECT file FROM fact_events WHERE kind = 'app.world_size'
                   GROUP BY file HAVING count(DISTINCT int_attr(attrs, 'app_rank')) > 1)
GROUP BY ALL HAVING count(DISTINCT rank_a) = 1;

-- Nodes are hosts. What the logs say of the host a line was printed on: NCCL's
-- `host:pid:tid` header, torchrun's failure table (`host : ...`, printed by the agent
-- of the failed worker's host), a syslog kernel line's host, and a pdsh-style prefix
-- (stage 1 made it the line's node already). Not Slurm's `srun: error: HOST: task N`
-- or OpenMPI's `on node HOST`: those name another machine from the launcher's.
CREATE TEMP TABLE host_lines AS
SELECT s.file, s.node, p.path_node,
       CASE WHEN s.node IS DISTINCT FROM p.path_node THEN own_host(s.node)
            ELSE own_host(s.host_attr) END AS host
FROM part_summary s LEFT JOIN file_paths p ON p.file = s.file
WHERE (s.host_attr IS NOT NULL AND s.source IN ('nccl', 'torchrun', 'kernel'))
   OR (s.node IS NOT NULL AND s.node IS DISTINCT FROM p.path_node);

-- the hosts each file's own lines name (the files table's `hosts`)
CREATE TEMP TABLE file_hosts AS
SELECT file, list(DISTINCT host ORDER BY host) AS hosts FROM host_lines WHERE host IS NOT NULL GROUP BY ALL;

-- A node named by a path (node-1/, worker-1.log) is the host its files' lines name,
-- where they name one. Where two such nodes of one job name the same host, they are
-- two agents on one machine (two torchrun agents in node-0/ and node-1/ of one test
-- box): their path names stay their names, since a host would merge them.
CREATE TEMP TABLE path_node_host AS
WITH one AS (
    SELECT path_node, any_value(host) AS host FROM host_lines
    WHERE path_node IS NOT NULL AND node IS NOT DISTINCT FROM path_node AND host IS NOT NULL
    GROUP BY ALL HAVING count(DISTINCT host) = 1
)
SELECT path_node, host FROM one
WHERE host NOT IN (SELECT host FROM one GROUP BY host HAVING count(*) > 1);

-- A file without a node in its path takes the one host its lines name.
CREATE TEMP TABLE file_node AS
SELECT file, any_value(host) AS node FROM host_lines
WHERE path_node IS NULL AND node IS NULL AND host IS NOT NULL
GROUP BY ALL HAVING count(DISTINCT host) = 1;

-- The world size each file's lines state: the largest NCCL communicator's nranks, the
-- job's own `world_size=4` / `rank 3 of 4` (the files table's world_size), so that a
-- rank no file shows can be named.
CREATE TEMP TABLE file_world_size AS
SELECT file, CAST(max(n) AS INTEGER) AS world_size FROM (
    SELECT file, int_attr(attrs, 'nranks') AS n FROM fact_events WHERE kind = 'nccl.comm_init'
    UNION ALL
    SELECT file, coalesce(int_attr(attrs, 'world_size'), int_attr(attrs, 'app_world_size'),
                          int_attr(attrs, 'lightning_world_size'), CASE WHEN attr(attrs, 'not_distributed') IS NOT NULL THEN 1 END) AS n
    FROM fact_events WHERE kind = 'app.world_size')
WHERE n BETWEEN 1 AND 65536
GROUP BY file;

-- `rank 3 of 4`, as the job's own code prints it, is the rank of a file that names no
-- rank otherwise (no prefix, path, pid or stream rank) and states only this one;
-- never in a launcher console or a node-level file, which speak of other processes.
CREATE TEMP TABLE file_app_rank AS
SELECT file, any_value(r) AS rank FROM (
    SELECT file, coalesce(int_attr(attrs, 'app_rank'), int_attr(attrs, 'lightning_rank')) AS r FROM fact_events
    WHERE kind = 'app.world_size'
      AND (attr(attrs, 'app_rank') IS NOT NULL OR attr(attrs, 'lightning_rank') IS NOT NULL))
WHERE r IS NOT NULL
  AND file NOT IN (SELECT file FROM launcher_files)
  AND file NOT IN (SELECT file FROM file_paths WHERE node_level)
  AND file NOT IN (SELECT file FROM combo_a WHERE rank_a IS NOT NULL)
GROUP BY file HAVING count(DISTINCT r) = 1;

-- A job whose lines state a world size of 1, and none larger, is one process: rank 0.
-- Its files that name no rank otherwise are rank 0's (never a launcher console or a
-- node-level file, which speak of other processes or of none).
CREATE TEMP TABLE file_world_one AS
SELECT file FROM file_world_size
WHERE world_size = 1 AND (SELECT max(world_size) FROM file_world_size) = 1
  AND file NOT IN (SELECT file FROM launcher_files)
  AND file NOT IN (SELECT file FROM file_paths WHERE node_level)
  AND file NOT IN (SELECT file FROM combo_a WHERE rank_a IS NOT NULL);

CREATE TEMP TABLE combo_pre AS
WITH filled AS (
    SELECT a.*,
           coalesce(a.rank_a,
                    CASE WHEN a.file NOT IN (SELECT file FROM launcher_files) OR a.local_rank IS NOT NULL
                         THEN s.rank END,
                    ar.rank,
                    CASE WHEN w1.file IS NOT NULL THEN 0 END) AS final_rank
    FROM combo_a a
    LEFT JOIN stream_rank s
      ON s.file = a.file AND s.local_rank IS NOT DISTINCT FROM a.local_rank
    LEFT JOIN file_app_rank ar ON ar.file = a.file
    LEFT JOIN file_world_one w1 ON w1.file = a.file
)
SELECT f.*, p.path_node, p.family, p.member, coalesce(p.node_level, false) AS node_level
FROM filled f LEFT JOIN file_paths p ON p.file = f.file;

-- Numbered siblings (worker-0..3.log, rank0..7.log, 0..3.log): where the members whose
-- lines show a rank each show one, equal to their number, and at least two do, a
-- member that shows none (a rank that stalled before its first prefixed line) is the
-- rank its number says. The agreement is what decides: `worker-N` pods that are
-- nodes of several ranks, or numbered from another base, show ranks that disagree, and
-- the family is left alone. A number some file already shows as its rank is not
-- given again; launcher consoles and node-level files are never members.
-- A family where no member shows a rank at all (every rank failed before its first
-- ranked line: a config check or a store wait before init_process_group) is read as
-- ranks only when the members' own lines say so by their count: every member states
-- the same world size W, the members are numbered exactly 0..W-1, and each member is
-- one process (no member shows two local ranks or pids). Pods that are nodes of
-- several ranks fail this (W is their ranks, not their count); one-rank pods numbered
-- 0..W-1 pass it, and their number is then the rank the launcher most often gave.
CREATE TEMP TABLE family_rank AS
WITH shown AS (
    SELECT c.file, any_value(c.family) AS family, any_value(c.member) AS member,
           count(DISTINCT c.final_rank) AS n_ranks, min(c.final_rank) AS rank,
           count(DISTINCT c.local_rank) <= 1 AND count(DISTINCT c.pid) <= 1 AS one_process,
           any_value(w.world_size) AS world_size
    FROM combo_pre c LEFT JOIN file_world_size w ON w.file = c.file
    WHERE c.family IS NOT NULL AND NOT c.node_level AND c.file NOT IN (SELECT file FROM launcher_files)
    GROUP BY c.file
),
families AS (
    SELECT family,
           count(*) FILTER (WHERE n_ranks = 1 AND rank = member) AS agree,
           count(*) FILTER (WHERE n_ranks > 1 OR (n_ranks = 1 AND rank <> member)) AS disagree,
           count(DISTINCT member) = count(*) AS distinct_members,
           count(*) = count(world_size) AND count(DISTINCT world_size) = 1
               AND min(member) = 0 AND max(member) = any_value(world_size) - 1
               AND count(*) = any_value(world_size) AND bool_and(one_process) AS counted_world
    FROM shown GROUP BY family
)
SELECT s.file, s.member AS rank
FROM shown s JOIN families f ON f.family = s.family
WHERE s.n_ranks = 0 AND f.disagree = 0 AND f.distinct_members
  AND (f.agree >= 2 OR (f.agree = 0 AND f.counted_world))
  AND s.member NOT IN (SELECT final_rank FROM combo_pre WHERE final_rank IS NOT NULL);

-- The node: a line's own host prefix, else the host the logs name for its path's node
-- (path_node_host), else the path's name, else the one host the file's lines name,
-- else the host of its rank.
CREATE TEMP TABLE combo_final AS
WITH ranked AS (
    SELECT f.* EXCLUDE (final_rank), coalesce(f.final_rank, fr.rank) AS final_rank
    FROM combo_pre f LEFT JOIN family_rank fr ON fr.file = f.file
)
SELECT f.file, f.rank, f.local_rank, f.pid, f.node, f.host_attr, f.final_rank,
       coalesce(CASE WHEN f.node IS DISTINCT FROM f.path_node THEN f.node END,
                ph.host, f.node, dn.node, fn.node, rh.host) AS final_node
FROM ranked f
LEFT JOIN path_node_host ph ON ph.path_node = f.path_node AND f.node IS NOT DISTINCT FROM f.path_node
LEFT JOIN dir_node dn ON dn.file = f.file
LEFT JOIN file_node fn ON fn.file = f.file
LEFT JOIN rank_host rh ON rh.rank = f.final_rank;

-- The parts (stage-1 files) whose events this changes: a rank or node decided here,
-- a year-less stamp moved to the job's year, a launcher line given its child's rank.
-- ingest.py rewrites those with combo_final, job_year and child_rank_lines; every
-- other part is final as written. A part stage 1 already wrote with the node this
-- decides (filled_node: a file whose own lines name one host) is not stale for it.
CREATE TEMP TABLE stale_parts AS
SELECT DISTINCT s.part_index
FROM part_summary s
JOIN combo_final c
  ON c.file = s.file AND c.rank IS NOT DISTINCT FROM s.rank
 AND c.local_rank IS NOT DISTINCT FROM s.local_rank AND c.pid IS NOT DISTINCT FROM s.pid
 AND c.node IS NOT DISTINCT FROM s.node AND c.host_attr IS NOT DISTINCT FROM s.host_attr
WHERE c.final_rank IS DISTINCT FROM s.rank OR c.final_node IS DISTINCT FROM coalesce(s.filled_node, s.node)
   OR s.ts_year <> (SELECT y FROM job_year)
UNION
SELECT DISTINCT s.part_index FROM part_summary s WHERE s.file IN (SELECT file FROM child_rank_lines);

-- The numbers above that are not numbers (int_attr gave NULL): one problem per file and
-- attr, with its first line and an example, so a dropped pid or rank is never silent.
CREATE TEMP TABLE bad_numbers AS
SELECT file, key, min(line_no) AS line_no, count(*) AS n, arg_min(value, line_no) AS example
FROM (
    SELECT file, line_no, unnest(map_keys(attrs)) AS key, unnest(map_values(attrs)) AS value
    FROM fact_events)
WHERE key IN ('pid', 'comm_rank', 'nranks', 'failed_rank', 'failed_local_rank', 'child_pid',
              'child_local_rank', 'node_rank')
  AND value IS NOT NULL AND int_attr(map([key], [value]), key) IS NULL
GROUP BY ALL;
