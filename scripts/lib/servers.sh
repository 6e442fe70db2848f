# Sourced by the scripts that run Gatehouse beside other servers (pep-proxy-check.sh,
# keyrock-move-check.sh, keyrock-api-tests.sh). Everything they start listens on 127.0.0.1 only.
#
#   free_port                    a free TCP port on 127.0.0.1
#   start_server LOG CMD...      runs CMD in its own process group (setsid), output to LOG; its pid
#                                is kept for stop_servers and left in SERVER_PID
#   wait_http URL PID LOG        until URL gives any HTTP answer; when PID stops first, or after
#                                60 s, prints LOG and exits 1
#   stop_servers                 stops every group start_server began (TERM, then KILL)
#   LOOPBACK_PRELOAD             a `node -r` preload that binds a server given no host to
#                                127.0.0.1, for servers (Keyrock, the PEP proxy) that listen on
#                                every interface

LOOPBACK_PRELOAD="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/loopback.cjs"
SERVER_GROUPS=()

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

start_server() {
  local log=$1
  shift
  setsid "$@" >"$log" 2>&1 &
  SERVER_PID=$!
  SERVER_GROUPS+=("$SERVER_PID")
}

wait_http() {
  for _ in $(seq 1 120); do
    if curl -s -o /dev/null "$1"; then return 0; fi
    if ! kill -0 "$2" 2>/dev/null; then echo "Stopped before answering $1:" >&2; tail -40 "$3" >&2; exit 1; fi
    sleep 0.5
  done
  echo "No answer from $1:" >&2
  tail -40 "$3" >&2
  exit 1
}

stop_servers() {
  local pid
  for pid in "${SERVER_GROUPS[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  for pid in "${SERVER_GROUPS[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL -- "-$pid" 2>/dev/null || true
  done
}
