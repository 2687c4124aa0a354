// pm2 ecosystem file: one pm2 app per env:// rank (fork mode), pm2's own per-app log files with pm2's timestamp
// prefix (`time: true`), restart policy from the team's template (memory guard 700M, no restart on crash).
const PY = process.env.TC_PY, ARGS = process.env.TC_ARGS, WORLD = 3;
module.exports = {
  apps: [0, 1, 2].map((r) => ({
    name: `train-r${r}`,
    script: "tc_train.py",
    interpreter: PY,
    args: ARGS,
    exec_mode: "fork",
    autorestart: false,
    max_memory_restart: "700M",
    kill_timeout: 3000,
    time: true,
    out_file: `pm2logs/train-r${r}.out.log`,
    error_file: `pm2logs/train-r${r}.err.log`,
    env: { RANK: `${r}`, LOCAL_RANK: `${r}`, WORLD_SIZE: `${WORLD}`, MASTER_ADDR: "127.0.0.1", MASTER_PORT: "29797",
           PYTHONUNBUFFERED: "1", OMP_NUM_THREADS: "1" },
  })),
};
