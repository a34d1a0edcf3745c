#!/usr/bin/env bash
# A private redis-server for the tests: a free loopback port, a random password, AOF on, data in a
# temporary directory. It only ever stops the server it started itself, by PID, after checking
# that this PID is still that server (other Redis servers may run on this machine).
#
#   redis_server.sh start DIR [--appendfsync always|everysec|no] [--cluster]
#                                start one; write DIR/url (redis://:PASSWORD@127.0.0.1:PORT/0).
#                                AOF is fsynced as Redis's default (everysec) unless told.
#                                --cluster: a one-node Redis Cluster holding every slot (its
#                                nodes.conf in the data directory), started once cluster_state
#                                is ok; it serves db 0 only
#   redis_server.sh restart DIR  stop it (SIGTERM: AOF flushed) if it runs, and start it again,
#                                same port, configuration and data, as after a server restart
#   redis_server.sh kill9 DIR    SIGKILL it, as a crash of the Redis process: no shutdown, no
#                                last flush; `restart` brings it back from what it had written
#   redis_server.sh stop DIR     stop it and delete its data; a no-op if none is running
#
# DIR keeps the state: url, pid, data (the data directory), port.
set -euo pipefail

usage() {
  echo "usage: $0 start DIR [--appendfsync always|everysec|no] [--cluster] | restart|kill9|stop DIR" >&2
  exit 2
}
[[ $# -ge 2 ]] || usage
action=$1
dir=$2
shift 2
appendfsync=everysec
cluster=no
while [[ $action == start && $# -gt 0 ]]; do
  case $1 in
    --appendfsync)
      [[ $# -ge 2 && $2 =~ ^(always|everysec|no)$ ]] || usage
      appendfsync=$2
      shift 2
      ;;
    --cluster)
      cluster=yes
      shift
      ;;
    *) usage ;;
  esac
done
[[ $# -eq 0 ]] || usage
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

log() { echo "redis_server.sh: $*" >&2; }

# Whether PID is the redis-server this script started with data directory DATA: Redis runs in its
# --dir, and names itself redis-server.
is_ours() {
  local pid=$1 data=$2
  [[ -n $pid && -e /proc/$pid ]] || return 1
  [[ $(cat "/proc/$pid/comm" 2>/dev/null) == redis-server* ]] || return 1
  [[ $(readlink "/proc/$pid/cwd" 2>/dev/null) == "$data" ]] || return 1
}

# Whether PID is still running: a process that exited but was not reaped yet (a zombie, whose
# parent may be slow to wait for it) has stopped as far as we are concerned.
running() {
  local pid=$1
  [[ -e /proc/$pid ]] && [[ $(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) != Z ]]
}

# Asks the server on PORT for its process_id (empty if nothing answers).
answering_pid() {
  local port=$1 password=$2
  REDISCLI_AUTH=$password redis-cli -h 127.0.0.1 -p "$port" INFO server 2>/dev/null |
    tr -d '\r' | sed -n 's/^process_id://p'
}

# Starts redis-server from DATA/redis.conf; sets started_pid once the server answering on PORT
# is the process started here. Returns 1 if it exited (e.g. the port was taken meanwhile).
launch() {
  local data=$1 port=$2 password=$3
  # No setsid/nohup: $! must be redis-server itself. Output to a file, so ctest does not wait
  # for a pipe that the server would keep open.
  redis-server "$data/redis.conf" </dev/null >>"$data/redis.log" 2>&1 &
  local pid=$!
  disown "$pid" 2>/dev/null || true
  for _ in $(seq 1 200); do  # up to 10 s
    if ! running "$pid"; then
      return 1
    fi
    local answer
    answer=$(answering_pid "$port" "$password")
    if [[ -n $answer ]]; then
      if [[ $answer == "$pid" ]]; then
        started_pid=$pid
        return 0
      fi
      # Someone else's server answers on this port: never use it, stop ours.
      log "port $port is answered by process $answer, not by ours ($pid)"
      kill "$pid" 2>/dev/null || true
      return 1
    fi
    sleep 0.05
  done
  log "redis-server (pid $pid) did not answer within 10 s; see $data/redis.log"
  kill "$pid" 2>/dev/null || true
  return 1
}

# A one-node cluster (cluster=yes) takes every slot; waits until it says cluster_state:ok.
claim_slots() {
  local port=$1 password=$2 state=
  REDISCLI_AUTH=$password redis-cli -h 127.0.0.1 -p "$port" CLUSTER ADDSLOTSRANGE 0 16383 >/dev/null
  for _ in $(seq 1 200); do  # up to 10 s
    state=$(REDISCLI_AUTH=$password redis-cli -h 127.0.0.1 -p "$port" CLUSTER INFO 2>/dev/null |
      tr -d '\r' | sed -n 's/^cluster_state://p')
    [[ $state == ok ]] && return 0
    sleep 0.05
  done
  log "the cluster on port $port did not reach cluster_state:ok (it says '$state')"
  return 1
}

stop_server() {
  [[ -f $dir/pid && -f $dir/data ]] || return 0
  local pid data
  pid=$(cat "$dir/pid")
  data=$(cat "$dir/data")
  if is_ours "$pid" "$data"; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 200); do  # up to 10 s for a clean shutdown
      running "$pid" || break
      sleep 0.05
    done
    if running "$pid" && is_ours "$pid" "$data"; then
      log "redis-server $pid ignored SIGTERM; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$dir/pid"
}

case $action in
  start)
    # A server left behind by an interrupted run goes first.
    if [[ -f $dir/data ]]; then
      stop_server
      rm -rf "$(cat "$dir/data")"
    fi
    rm -f "$dir/url" "$dir/data" "$dir/port" "$dir/pid"
    command -v redis-server >/dev/null || { log "redis-server is not installed (scripts/deps.sh)"; exit 1; }
    umask 077  # the config file and DIR/url hold the password
    data=$(mktemp -d "${TMPDIR:-/tmp}/reactor-test-redis.XXXXXX")
    password=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
    started_pid=
    for _ in $(seq 1 20); do
      port=$((20000 + RANDOM % 40000))
      if ss -Htln "sport = :$port" 2>/dev/null | grep -q .; then
        continue
      fi
      # The password goes in a file, not on a command line anyone can read.
      cat >"$data/redis.conf" <<CONF
port $port
bind 127.0.0.1
dir $data
appendonly yes
appendfsync $appendfsync
save ""
daemonize no
requirepass $password
CONF
      if [[ $cluster == yes ]]; then
        printf 'cluster-enabled yes\ncluster-config-file nodes.conf\n' >>"$data/redis.conf"
      fi
      if launch "$data" "$port" "$password"; then
        break
      fi
    done
    if [[ -z $started_pid ]]; then
      log "could not start redis-server on a free port; see $data/redis.log"
      exit 1
    fi
    echo "$started_pid" >"$dir/pid"
    echo "$data" >"$dir/data"
    echo "$port" >"$dir/port"
    if [[ $cluster == yes ]] && ! claim_slots "$port" "$password"; then
      stop_server
      exit 1
    fi
    echo "redis://:$password@127.0.0.1:$port/0" >"$dir/url"
    log "redis-server $started_pid on 127.0.0.1:$port, data in $data"
    ;;
  restart)
    [[ -f $dir/data && -f $dir/port && -f $dir/url ]] || { log "nothing started in $dir"; exit 1; }
    data=$(cat "$dir/data")
    port=$(cat "$dir/port")
    password=$(sed -n 's#^redis://:\(.*\)@.*#\1#p' "$dir/url")
    stop_server
    started_pid=
    if ! launch "$data" "$port" "$password"; then
      log "could not restart redis-server on port $port; see $data/redis.log"
      exit 1
    fi
    echo "$started_pid" >"$dir/pid"
    log "redis-server restarted as $started_pid on 127.0.0.1:$port"
    ;;
  kill9)
    [[ -f $dir/pid && -f $dir/data ]] || { log "nothing running from $dir"; exit 1; }
    pid=$(cat "$dir/pid")
    data=$(cat "$dir/data")
    is_ours "$pid" "$data" || { log "process $pid is not the redis-server started from $dir"; exit 1; }
    kill -KILL "$pid"
    for _ in $(seq 1 200); do  # up to 10 s for the kernel to take it down
      running "$pid" || break
      sleep 0.05
    done
    if running "$pid"; then
      log "redis-server $pid still runs after SIGKILL"
      exit 1
    fi
    rm -f "$dir/pid"
    log "redis-server $pid killed with SIGKILL"
    ;;
  stop)
    stop_server
    if [[ -f $dir/data ]]; then
      rm -rf "$(cat "$dir/data")"
    fi
    rm -f "$dir/url" "$dir/data" "$dir/port"
    ;;
  *)
    usage
    ;;
esac
