// UcLaunch.java: site launcher in Java (run as a single source file: `java UcLaunch.java ...`). One ProcessBuilder per
// env:// rank, stdout+stderr of rank R appended to <outdir>/rank-R.log (Redirect.appendTo, the JVM never reads them),
// its own records through java.util.logging: a FileHandler (default XMLFormatter) into <outdir>/launcher.log.xml and
// the default ConsoleHandler (SimpleFormatter) on stderr. Polls the ranks; when one fails, the others are destroyed
// (SIGTERM) after a grace period.
// usage: java UcLaunch.java --nproc N --port P --outdir DIR --grace S -- cmd [arg ...]
import java.io.File;
import java.util.*;
import java.util.logging.*;

public class UcLaunch {
    static final Logger LOG = Logger.getLogger("site.launcher.UcLaunch");

    public static void main(String[] args) throws Exception {
        int nproc = 2, port = 29500, grace = 10; String outdir = "out";
        int i = 0;
        for (; i < args.length && !args[i].equals("--"); i += 2) {
            switch (args[i]) {
                case "--nproc": nproc = Integer.parseInt(args[i + 1]); break;
                case "--port": port = Integer.parseInt(args[i + 1]); break;
                case "--outdir": outdir = args[i + 1]; break;
                case "--grace": grace = Integer.parseInt(args[i + 1]); break;
                default: throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        List<String> cmd = Arrays.asList(args).subList(i + 1, args.length);
        new File(outdir).mkdirs();
        FileHandler fh = new FileHandler(outdir + "/launcher.log.xml", true);
        LOG.addHandler(fh);

        LOG.info("launching " + nproc + " ranks, MASTER_PORT " + port + ": " + String.join(" ", cmd));
        Process[] procs = new Process[nproc];
        for (int r = 0; r < nproc; r++) {
            ProcessBuilder pb = new ProcessBuilder(cmd);
            Map<String, String> env = pb.environment();
            env.put("MASTER_ADDR", "127.0.0.1"); env.put("MASTER_PORT", Integer.toString(port));
            env.put("WORLD_SIZE", Integer.toString(nproc)); env.put("RANK", Integer.toString(r));
            env.put("LOCAL_RANK", Integer.toString(r));
            File log = new File(outdir, "rank-" + r + ".log");
            pb.redirectErrorStream(true);
            pb.redirectOutput(ProcessBuilder.Redirect.appendTo(log));
            procs[r] = pb.start();
            LOG.info("rank " + r + " started: pid " + procs[r].pid() + ", output appended to " + log);
        }
        boolean[] reported = new boolean[nproc];
        long stopAt = -1; int firstFailed = -1, left = nproc;
        while (left > 0) {
            Thread.sleep(500);
            for (int r = 0; r < nproc; r++) {
                if (reported[r] || procs[r].isAlive()) continue;
                reported[r] = true; left--;
                int code = procs[r].exitValue();
                if (code == 0) {
                    LOG.info("rank " + r + " (pid " + procs[r].pid() + ") finished with exit code 0");
                } else {
                    LOG.severe("rank " + r + " (pid " + procs[r].pid() + ") failed with exit code " + code);
                    if (firstFailed < 0) {
                        firstFailed = r; stopAt = System.currentTimeMillis() + grace * 1000L;
                        LOG.warning("stopping the remaining ranks in " + grace + " s");
                    }
                }
            }
            if (stopAt > 0 && System.currentTimeMillis() >= stopAt && left > 0) {
                for (int r = 0; r < nproc; r++) {
                    if (!reported[r] && procs[r].isAlive()) {
                        LOG.warning("destroying rank " + r + " (pid " + procs[r].pid() + ")");
                        procs[r].destroy();
                    }
                }
                stopAt = Long.MAX_VALUE;
            }
        }
        if (firstFailed >= 0) {
            LOG.severe("job FAILED, first failed rank: " + firstFailed);
            System.exit(1);
        }
        LOG.info("job completed: all " + nproc + " ranks exited 0");
    }
}
