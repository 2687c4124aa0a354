#!/bin/bash
# copy every job's log files out of /home/user/jobsU/<name>/ into roundU/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C wc-nox-sessions-novenv-torchrun-inside-model-card-min-torch-refusal-all nox.console
$C wc-trio-nursery-launcher-sysloghandler-udp-receiver-hash012-stagein-fifo-never-written-hang-r2 launcher.log 'syslog/messages' 'stdio/*'
$C wc-bwrap-sandbox-per-rank-setpriv-jobuser-structlog-console-ckpt-dir-left-root-owned-eacces-r0 launch.out 'sandbox/*/console.log'
$C wc-concurrently-npm-kill-others-on-fail-time-name-prefix-memcg-cap-per-rank-manifest-rows-unit-oomkill-r1 console.log
$C wc-clush-exec-worker-nsenter-namespace-nodes-outdir-errdir-stale-site-pythonpath-model-pkg-nodeb clush.console 'out/*' 'err/*'
$C wc-healthy-tornado-fork-processes-logformatter-smtphandler-alert-mails-smtpd-debugging-server-gateway-down console.log smtpd.log
$C wc-healthy-snakemake-cores3-rank-rules-rule-log-files-summary-rule snakemake.console '.snakemake/log/*.snakemake.log' 'logs/*'
$C wc-inconclusive-dtach-detached-ranks-rotatelogs-10s-files-snapshot-while-running 'snapshot/*'
$C wc-dask-localcluster-nanny-worker-per-rank-pinned-tasks-sweep-override-lr-diverge-guard-all console.log 'logs/*'
$C wc-libslack-daemon-named-clients-pidfile-lock-held-by-previous-run-rank2-missing-rdzv-timeout launch.log 'logs/*'
$C wc-ssh-like-pty-session-bash-i-torchrun-redirect-no-nohup-connection-drop-sighup-ext train.log session.typescript
