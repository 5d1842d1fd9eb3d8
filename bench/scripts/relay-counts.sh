#!/usr/bin/env bash
# Counts what a relay does per pgbench -S transaction, with a fixed number of transactions: its system calls by
# kind (perf stat on the kernel's syscall tracepoints: counters, no stop per call), its threads' context switches
# (/proc/PID/task/*/status), the bytes a Java relay's threads allocated (jcmd Thread.print -e), and its CPU time
# (/proc/PID/stat; the only figure here that other load on the machine moves much). With --strace, one more run
# per relay under `strace -f -c` for every kind of call (strace stops the relay at each call, so it batches
# differently: read its kinds, not its totals).
#
# Relays counted, all in front of one embedded PostgreSQL (the demo's, from the first checkout): Debian's PgBouncer
# (session mode, as `bench passthrough` runs it) and `bin/memogate run` of each checkout given, with the
# configuration of the passthrough benchmark's memogate-shipped target (gateways on, broker and catalogs with the
# demo's monitoring role, metrics on).
#
#   bench/scripts/relay-counts.sh [--transactions N] [--clients C] [--modes simple,prepared] [--strace] [--hold] \
#       [--variant 'NAME=YAML LINE']... CHECKOUT...
#
# Each --variant also counts each checkout with a line added to its configuration, as memogate-N-NAME: for example
# --variant 'one-loop=network: { eventLoops: 1 }' --variant 'io-uring=network: { transport: io_uring }'.
# --hold starts everything, prints the relays' pids and ports and waits (for Ctrl-C) instead of counting.
#
# Needs root (perf's tracepoints, PgBouncer run as nobody), pgbench, pgbouncer, perf; everything it starts
# listens on 127.0.0.1 and is stopped at exit.
set -euo pipefail

TX=2000 CLIENTS=16 MODES=simple,prepared STRACE=0 HOLD=0
VARIANTS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --transactions) TX="$2"; shift 2 ;;
    --clients) CLIENTS="$2"; shift 2 ;;
    --modes) MODES="$2"; shift 2 ;;
    --strace) STRACE=1; shift ;;
    --hold) HOLD=1; shift ;;
    --variant) VARIANTS+=("$2"); shift 2 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[[ $# -ge 1 ]] || { sed -n 2,24p "$0" >&2; exit 2; }
CHECKOUTS=("$@")
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
export JAVA_HOME
WORK="$(mktemp -d /tmp/relay-counts-XXXXXX)"
chmod 755 "$WORK"
PIDS=()
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
await_port() {
  local port="$1" i
  for i in $(seq 600); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
    sleep 0.5
  done
  echo "nothing listens on $port" >&2; return 1
}

# The server: the demo's embedded PostgreSQL, its roles and database (its own proxy stays idle).
PG_PORT="$(free_port)"
"${CHECKOUTS[0]}/bin/memogate" demo --port "$(free_port)" --metrics-port "$(free_port)" --postgres-port "$PG_PORT" \
  >"$WORK/demo.log" 2>&1 &
PIDS+=($!)
await_port "$PG_PORT"
export PGPASSWORD=memogate
DIRECT="postgresql://memogate@127.0.0.1:$PG_PORT/demo"
until grep -q '^proxy:' "$WORK/demo.log"; do sleep 1; done # the roles and schema exist
pgbench -q -i -s 10 "$DIRECT" >"$WORK/init.log" 2>&1

declare -A RELAY_PID RELAY_PORT
NAMES=()
start_pgbouncer() {
  local port dir="$WORK/pgbouncer"
  port="$(free_port)"
  mkdir -p "$dir"
  cat >"$dir/pgbouncer.ini" <<EOF
[databases]
demo = host=127.0.0.1 port=$PG_PORT dbname=demo
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = scram-sha-256
auth_file = $dir/userlist.txt
pool_mode = session
max_client_conn = 100
default_pool_size = $(( CLIENTS > 20 ? CLIENTS : 20 ))
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
log_connections = 0
log_disconnections = 0
EOF
  echo '"memogate" "memogate"' >"$dir/userlist.txt"
  chmod 600 "$dir/userlist.txt"
  chown -R nobody "$dir"
  runuser -u nobody -- /usr/sbin/pgbouncer "$dir/pgbouncer.ini" >"$dir/stdout.log" 2>&1 &
  PIDS+=($!)
  await_port "$port"
  RELAY_PID[pgbouncer]="$(cat "$dir/pgbouncer.pid")"
  RELAY_PORT[pgbouncer]="$port"
  NAMES+=(pgbouncer)
}

start_memogate() { # name checkout [line added to the configuration]
  local name="$1" checkout="$2" extra="${3:-}" port metrics dir="$WORK/$1"
  port="$(free_port)" metrics="$(free_port)"
  mkdir -p "$dir"
  cat >"$dir/memogate.yaml" <<EOF
$extra
listeners:
  - { host: 127.0.0.1, port: $port }
backends:
  - { name: bench, host: "127.0.0.1", port: $PG_PORT, default: true, tls: { mode: disable } }
limits:
  shutdownTimeout: 2s
admin:
  http: { host: 127.0.0.1, port: $metrics }
  users: ["memogate"]
broker:
  monitor: { user: "memogate_monitor", password: "memogate_monitor" }
  coLocated: true
EOF
  (cd "$dir" && exec "$checkout/bin/memogate" run --config "$dir/memogate.yaml" >"$dir/memogate.log" 2>&1) &
  PIDS+=($!)
  await_port "$port"
  # bin/memogate execs java: the subshell's child is the proxy's JVM.
  RELAY_PID[$name]="$(pgrep -P "${PIDS[-1]}" java || echo "${PIDS[-1]}")"
  RELAY_PORT[$name]="$port"
  NAMES+=("$name")
}

switches() { # voluntary and involuntary context switches summed over the process's threads
  cat /proc/"$1"/task/*/status 2>/dev/null | awk '/^voluntary_ctxt/ {v += $2} /^nonvoluntary_ctxt/ {n += $2} END {print v, n}'
}
cpu_ticks() { awk '{print $14 + $15}' /proc/"$1"/stat; }
minor_faults() { awk '{print $10}' /proc/"$1"/stat; }
allocated() { # bytes allocated by a JVM's live threads; "-" for a process that is not Java
  [[ "$(cat /proc/"$1"/comm)" == java ]] || { echo -; return; }
  "$JAVA_HOME/bin/jcmd" "$1" Thread.print -e 2>/dev/null | grep -o 'allocated=[0-9.]*[KMG]\?B\?' \
    | awk -F= '{v = $2; sub(/B$/, "", v); m = 1; if (v ~ /K$/) m = 1024; if (v ~ /M$/) m = 1048576;
                if (v ~ /G$/) m = 1073741824; sub(/[KMG]$/, "", v); s += v * m} END {printf "%.0f\n", s}'
}

KINDS="read recvfrom readv recvmsg write sendto writev sendmsg epoll_wait epoll_pwait epoll_pwait2 io_uring_enter epoll_ctl futex
       timerfd_settime clock_nanosleep sched_yield madvise mprotect"
EVENTS="raw_syscalls:sys_enter"
# tracefs is mounted on first access: a test with -d alone can find nothing and count no kind.
ls /sys/kernel/tracing/events/syscalls >/dev/null
for k in $KINDS; do
  [[ -d /sys/kernel/tracing/events/syscalls/sys_enter_$k ]] && EVENTS+=",syscalls:sys_enter_$k"
done

pgbench_run() { # name mode extra-args...
  local name="$1" mode="$2"; shift 2
  pgbench -n -S -M "$mode" -c "$CLIENTS" -j 2 "$@" -h 127.0.0.1 -p "${RELAY_PORT[$name]}" -U memogate demo
}

count() { # name mode: one counted run of $TX transactions per client
  local name="$1" mode="$2" pid="${RELAY_PID[$1]}" out="$WORK/$1-$2"
  local sw0 sw1 cpu0 cpu1 al0 al1 pf0 pf1 perf_pid tx
  sw0="$(switches "$pid")" cpu0="$(cpu_ticks "$pid")" al0="$(allocated "$pid")" pf0="$(minor_faults "$pid")"
  perf stat -x , -o "$out.perf" -e "$EVENTS" -p "$pid" & perf_pid=$!
  sleep 0.5
  pgbench_run "$name" "$mode" -t "$TX" >"$out.pgbench" 2>&1
  kill -INT "$perf_pid"; wait "$perf_pid" || true
  sw1="$(switches "$pid")" cpu1="$(cpu_ticks "$pid")" al1="$(allocated "$pid")" pf1="$(minor_faults "$pid")"
  tx="$(awk '/number of transactions actually processed/ {split($NF, a, "/"); print a[1]}' "$out.pgbench")"
  awk -v name="$name" -v mode="$mode" -v tx="$tx" -v sw0="$sw0" -v sw1="$sw1" -v cpu="$((cpu1 - cpu0))" \
      -v hz="$(getconf CLK_TCK)" -v al0="$al0" -v al1="$al1" -v pf="$((pf1 - pf0))" -F, '
    $3 ~ /^raw_syscalls/ {all = $1} $3 ~ /^syscalls:sys_enter_/ {k = substr($3, 20); c[k] = $1}
    END {
      split(sw0, a, " "); split(sw1, b, " ")
      r = c["read"] + c["recvfrom"] + c["readv"] + c["recvmsg"]; w = c["write"] + c["sendto"] + c["writev"] + c["sendmsg"]
      e = c["epoll_wait"] + c["epoll_pwait"] + c["epoll_pwait2"] + c["io_uring_enter"]
      other = all - r - w - e - c["epoll_ctl"] - c["futex"]
      alloc = al0 == "-" ? "-" : sprintf("%.0f", (al1 - al0) / tx)
      printf "| %s | %s | %d | %.2f | %.2f | %.2f | %.2f | %.3f | %.3f | %.3f | %.2f | %.2f | %.3f | %s | %.1f |\n", name,
        mode, tx, all / tx, r / tx, w / tx, e / tx, c["epoll_ctl"] / tx, c["futex"] / tx, other / tx,
        (b[1] - a[1]) / tx, (b[2] - a[2]) / tx, pf / tx, alloc, cpu * 1e6 / hz / tx
    }' "$out.perf"
}

strace_count() { # name mode: every kind of call, under strace
  local name="$1" mode="$2" out="$WORK/$1-$2"
  strace -f -c -o "$out.strace" -p "${RELAY_PID[$name]}" 2>/dev/null & local strace_pid=$!
  sleep 1
  pgbench_run "$name" "$mode" -t "$TX" >"$out.strace-pgbench" 2>&1
  kill -INT "$strace_pid"; wait "$strace_pid" || true
  echo "### strace -f -c, $name, $mode, $((TX * CLIENTS)) transactions"
  cat "$out.strace"
}

start_pgbouncer
i=0
for checkout in "${CHECKOUTS[@]}"; do
  i=$((i + 1))
  start_memogate "memogate-$i" "$(cd "$checkout" && pwd)"
  for variant in "${VARIANTS[@]}"; do
    start_memogate "memogate-$i-${variant%%=*}" "$(cd "$checkout" && pwd)" "${variant#*=}"
  done
done
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs;" \
  "pgbench -n -S -c $CLIENTS -j 2 -t $TX per run; work files in $WORK"
for n in $(seq "$i"); do echo "# memogate-$n: ${CHECKOUTS[$((n - 1))]}"; done
if [[ $HOLD == 1 ]]; then
  for name in "${NAMES[@]}"; do echo "$name pid ${RELAY_PID[$name]} port ${RELAY_PORT[$name]}"; done
  echo "server: $DIRECT"
  sleep infinity & wait $!
fi
echo "| relay | mode | tx | syscalls/tx | reads | writes | waits (epoll, io_uring_enter) | epoll_ctl | futex | other | voluntary switches | involuntary | page faults | alloc B/tx | CPU µs/tx |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for mode in ${MODES//,/ }; do
  for name in "${NAMES[@]}"; do pgbench_run "$name" "$mode" -T 5 >/dev/null 2>&1; done # warm-up
  for name in "${NAMES[@]}"; do count "$name" "$mode"; done
  for name in $(printf '%s\n' "${NAMES[@]}" | tac); do count "$name" "$mode"; done
done
if [[ $STRACE == 1 ]]; then
  for mode in ${MODES//,/ }; do
    for name in "${NAMES[@]}"; do strace_count "$name" "$mode"; done
  done
fi
