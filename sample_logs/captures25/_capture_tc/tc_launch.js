// tc_launch.js: site launcher in Node.js. Reads a JSON job spec (ranks, port, env, command), spawns each env:// rank
// with child_process.spawn, streams each rank's stdout and stderr into logs/rank-<R>.stdout.log / .stderr.log and
// writes its own ISO-stamped lines to launcher.log. When a rank exits non-zero, the others get SIGTERM.
const { spawn } = require("child_process");
const fs = require("fs");
const spec = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
fs.mkdirSync("logs", { recursive: true });
const L = fs.createWriteStream("launcher.log", { flags: "a" });
const say = (m) => L.write(`${new Date().toISOString()} [launch.js] ${m}\n`);
const kids = new Map();
let failed = null, left = spec.ranks;
say(`job ${spec.name}: ${spec.ranks} ranks, MASTER_PORT=${spec.port}, cmd=${spec.cmd.join(" ")}`);
for (let r = 0; r < spec.ranks; r++) {
  const env = Object.assign({}, process.env, spec.env, {
    RANK: `${r}`, LOCAL_RANK: `${r}`, WORLD_SIZE: `${spec.ranks}`, MASTER_ADDR: "127.0.0.1", MASTER_PORT: `${spec.port}` });
  const p = spawn(spec.cmd[0], spec.cmd.slice(1), { env, stdio: ["ignore", "pipe", "pipe"] });
  p.stdout.pipe(fs.createWriteStream(`logs/rank-${r}.stdout.log`));
  p.stderr.pipe(fs.createWriteStream(`logs/rank-${r}.stderr.log`));
  kids.set(r, p);
  say(`rank ${r} spawned, pid ${p.pid}`);
  p.on("exit", (code, sig) => {
    say(`rank ${r} (pid ${p.pid}) exited: code=${code} signal=${sig}`);
    kids.delete(r); left -= 1;
    if ((code !== 0 || sig) && failed === null) {
      failed = r;
      say(`rank ${r} failed; terminating ${kids.size} other rank(s)`);
      for (const [q, k] of kids) { say(`SIGTERM -> rank ${q} (pid ${k.pid})`); k.kill("SIGTERM"); }
    }
    if (left === 0) {
      say(failed === null ? "job completed" : `job failed (first failure: rank ${failed})`);
      L.end(() => process.exit(failed === null ? 0 : 1));
    }
  });
}
