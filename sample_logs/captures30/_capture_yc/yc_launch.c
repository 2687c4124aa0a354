/* yc_launch.c: a C launcher (fork + execvp per rank, env:// variables, stdin from /dev/null, each rank's stdout and
 * stderr appended to stdio/rank<R>.txt), reaping with waitpid and logging every event to launch.log with
 * gettimeofday stamps; when a rank fails it waits GRACE s and then SIGTERMs the rest.
 * usage: yc_launch NPROC PORT -- CMD... */
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#define GRACE 15
static FILE *lg;
static void say(const char *f, ...) {
    struct timeval tv; gettimeofday(&tv, NULL); struct tm tm; localtime_r(&tv.tv_sec, &tm); char b[32];
    strftime(b, sizeof b, "%b %d %H:%M:%S", &tm);
    fprintf(lg, "%s.%06ld yc_launch[%d]: ", b, (long)tv.tv_usec, getpid());
    va_list ap; va_start(ap, f); vfprintf(lg, f, ap); va_end(ap); fputc('\n', lg); fflush(lg);
}
int main(int argc, char **argv) {
    int n = atoi(argv[1]); char *port = argv[2]; char **cmd = argv + 4; pid_t pids[64]; int alive = 0, worst = 0;
    lg = fopen("launch.log", "a");
    say("starting %d ranks of '%s' (master 127.0.0.1:%s)", n, cmd[1] ? cmd[1] : cmd[0], port);
    for (int r = 0; r < n; r++) {
        char path[64]; snprintf(path, sizeof path, "stdio/rank%d.txt", r);
        pid_t p = fork();
        if (p == 0) {
            char v[32]; int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644), nul = open("/dev/null", O_RDONLY);
            dup2(nul, 0); dup2(fd, 1); dup2(fd, 2);
            snprintf(v, sizeof v, "%d", r); setenv("RANK", v, 1); setenv("LOCAL_RANK", v, 1);
            snprintf(v, sizeof v, "%d", n); setenv("WORLD_SIZE", v, 1);
            setenv("MASTER_ADDR", "127.0.0.1", 1); setenv("MASTER_PORT", port, 1);
            execvp(cmd[0], cmd); perror("execvp"); _exit(127);
        }
        pids[r] = p; alive++; say("rank %d: pid %d, output %s", r, p, path);
    }
    time_t first_fail = 0; int termed = 0;
    while (alive) {
        int st; pid_t p = waitpid(-1, &st, WNOHANG);
        if (p > 0) {
            int r = -1; for (int i = 0; i < n; i++) if (pids[i] == p) { r = i; pids[i] = 0; }
            alive--;
            if (WIFEXITED(st)) say("rank %d (pid %d) exited with status %d", r, p, WEXITSTATUS(st));
            else say("rank %d (pid %d) killed by signal %d (%s)", r, p, WTERMSIG(st), strsignal(WTERMSIG(st)));
            int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            if (code && !first_fail) { first_fail = time(NULL); worst = code; say("rank %d failed; %d rank(s) still running", r, alive); }
            continue;
        }
        if (first_fail && !termed && time(NULL) - first_fail >= GRACE) {
            for (int i = 0; i < n; i++) if (pids[i]) { say("sending SIGTERM to rank %d (pid %d)", i, pids[i]); kill(pids[i], SIGTERM); }
            termed = 1;
        }
        usleep(100000);
    }
    say("all ranks done, exit %d", worst);
    return worst;
}
