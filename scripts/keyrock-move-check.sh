#!/usr/bin/env bash
# Moves a real Keyrock to Gatehouse and checks that nothing breaks on the day: a Keyrock 8 on
# MariaDB gets users, organizations, applications, roles, permissions, grants, PEP proxies, IoT
# agents, a trust and a logo through its own API and pages; `npx idm import keyrock` moves its
# database into a fresh Gatehouse; then the same requests are put to both and compared.
#
#   scripts/keyrock-move-check.sh --keyrock /tmp/keyrock [--cpu] [--keep]
#
# --keyrock: a checkout of ging/fiware-idm with its dependencies installed (`npm install` there).
# --cpu: afterwards, the CPU per request of both servers and their databases on the same data
# (keyrock-move/side-by-side.mjs: alternating runs, CPU read from /proc; about two minutes per
# connection level; one connection unless CONNECTIONS=1,10 in the environment names others).
# Nothing of Keyrock's is copied into this repository; its database and server run from a
# temporary directory, on free ports on 127.0.0.1, and are stopped at the end with Gatehouse.
# Needs mariadb-server (mariadb-install-db, mariadbd), Java, curl and jq.
#
# What it prints: the import's summary, then compare.mjs's report (every difference, and a
# verdict). Exit 0 only when every sign-in, client secret, PEP proxy and IoT agent password that
# Keyrock accepted works in Gatehouse and every Permit/Deny decision is the same.
set -euo pipefail

KEYROCK=''
KEEP=0
CPU=0
REPO="$(cd "$(dirname "$0")/.." && pwd)"
HERE="$REPO/scripts/keyrock-move"
# shellcheck source=lib/servers.sh
. "$REPO/scripts/lib/servers.sh"

usage() { sed -n '7,7p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --keyrock) KEYROCK="$2"; shift 2 ;;
    --keep) KEEP=1; shift ;;
    --cpu) CPU=1; shift ;;
    -h|--help) usage ;;
    *) echo "Unknown argument: $1" >&2; usage ;;
  esac
done
[ -n "$KEYROCK" ] || usage
if [ ! -f "$KEYROCK/bin/www" ] || [ ! -d "$KEYROCK/node_modules" ]; then
  echo "$KEYROCK is not a Keyrock checkout with its dependencies installed (bin/www, node_modules)." >&2
  exit 2
fi
for tool in mariadb-install-db mariadbd mariadb curl jq java ss; do
  command -v "$tool" >/dev/null || { echo "$tool is needed and not installed." >&2; exit 2; }
done

WORK="$(mktemp -d "${TMPDIR:-/tmp}/keyrock-move-check.XXXXXX")"
cleanup() {
  stop_servers
  if [ "$KEEP" = 1 ]; then echo "Kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

# 1. MariaDB, only on 127.0.0.1, without grant tables (a throwaway database nobody else reaches).
DB_PORT="$(free_port)"
mariadb-install-db --no-defaults --datadir="$WORK/db" --auth-root-authentication-method=normal \
  --skip-test-db --user="$(id -un)" >"$WORK/mariadb-install.log" 2>&1
start_server "$WORK/mariadb.log" mariadbd --no-defaults --datadir="$WORK/db" --socket="$WORK/mysqld.sock" \
  --pid-file="$WORK/mysqld.pid" --port="$DB_PORT" --bind-address=127.0.0.1 --user="$(id -un)" \
  --skip-grant-tables --skip-log-bin --innodb-buffer-pool-size=32M
for _ in $(seq 1 60); do [ -S "$WORK/mysqld.sock" ] && break; sleep 0.5; done
[ -S "$WORK/mysqld.sock" ] || { echo "MariaDB did not start:" >&2; tail -20 "$WORK/mariadb.log" >&2; exit 1; }

# 2. Keyrock on that database: its own schema (sequelize migrations), seed (admin@test.com / 1234)
# and server. Its configuration comes from its IDM_* variables; a preload binds its listener to
# 127.0.0.1, and --unhandled-rejections=warn keeps it up when its i4Trust participant-registry
# client, unconfigured here, fails at start.
KR_PORT="$(free_port)"
KR_ENV=(IDM_DB_HOST=127.0.0.1 "IDM_DB_PORT=$DB_PORT" IDM_DB_USER=root IDM_DB_PASS=unused IDM_DB_NAME=idm
  "IDM_PORT=$KR_PORT" "IDM_HOST=http://127.0.0.1:$KR_PORT" IDM_PDP_LEVEL=basic IDM_EMAIL_PORT=1)
sequelize() {
  (cd "$KEYROCK" && env "${KR_ENV[@]}" node_modules/.bin/sequelize --env database "$@") >>"$WORK/keyrock-schema.log" 2>&1 ||
    { echo "Keyrock's sequelize $* failed:" >&2; tail -20 "$WORK/keyrock-schema.log" >&2; exit 1; }
}
sql() { mariadb --no-defaults --socket="$WORK/mysqld.sock" -u root idm -e "$1"; }
sequelize db:create
# Keyrock 8.3's last migration (202309190008-IncreaseClientId, client ids up to 255 characters)
# fails on MariaDB 10.11 ("Multiple primary key defined": it declares the primary key again), and
# the column cannot be widened by hand while foreign keys use it. It is recorded as done: the ids
# Keyrock makes itself, which are all this deployment has, are 36-character UUIDs.
sequelize db:migrate --to 20210707102154-CreatePermissionFiwarePayload.js
sql "INSERT INTO SequelizeMeta (name) VALUES ('202309190008-IncreaseClientId.js');"
sequelize db:migrate
sequelize db:seed:all
start_server "$WORK/keyrock.log" env -C "$KEYROCK" "${KR_ENV[@]}" \
  node --unhandled-rejections=warn -r "$LOOPBACK_PRELOAD" bin/www
wait_http "http://127.0.0.1:$KR_PORT/version" "$SERVER_PID" "$WORK/keyrock.log"
echo "Keyrock at http://127.0.0.1:$KR_PORT, MariaDB on port $DB_PORT" >&2

# 3. The deployment, made through Keyrock; then Keyrock's answers.
node -e '
  require(process.argv[1])({ create: { width: 256, height: 256, channels: 4, background: "#2a6f97" } })
    .png().toFile(process.argv[2]).catch((e) => { console.error(e.message); process.exit(1); });
' "$REPO/node_modules/sharp" "$WORK/logo.png"
KR="http://127.0.0.1:$KR_PORT" OUT="$WORK/out" LOGO="$WORK/logo.png" bash "$HERE/dataset.sh"
node "$HERE/probe.mjs" "http://127.0.0.1:$KR_PORT" "$WORK/out/dataset.json" "$WORK/out/keyrock.json" >&2

# 4. A fresh Gatehouse, and the move.
GH_PORT="$(free_port)"
DYNAMODB_PORT="$(free_port)"
export DATA_DIR="$WORK/gatehouse"
start_server "$WORK/gatehouse.log" env PORT="$GH_PORT" DYNAMODB_PORT="$DYNAMODB_PORT" S3_PORT="$(free_port)" \
  MAIL_PORT="$(free_port)" MAIL_WEB_PORT="$(free_port)" bash -c 'cd "$1" && exec npm start' _ "$REPO"
wait_http "http://127.0.0.1:$GH_PORT/version" "$SERVER_PID" "$WORK/gatehouse.log"
echo "Gatehouse at http://127.0.0.1:$GH_PORT" >&2
(cd "$REPO" && npx idm import keyrock --from "mysql://root@127.0.0.1:$DB_PORT/idm" \
  --images "$KEYROCK/public/img/applications") >"$WORK/out/import.json"
jq -c 'del(.skipped, .notes, .notCarriedOver)' "$WORK/out/import.json"
jq -c '.notes[]' "$WORK/out/import.json"

# 5. The account Keyrock had disabled moved disabled: refused, until an administrator enables it
# (Keyrock 8.3 itself still issues tokens to it, so its answers are compared after that).
DAVE=$(jq -r .users.dave.email "$WORK/out/dataset.json")
DAVE_PASS=$(jq -r .users.dave.password "$WORK/out/dataset.json")
APP_A=$(jq -r .apps.A.id "$WORK/out/dataset.json")
APP_A_SECRET=$(jq -r .apps.A.secret "$WORK/out/dataset.json")
GH="http://127.0.0.1:$GH_PORT"
disabled=$(curl -s -o /dev/null -w '%{http_code}' -u "$APP_A:$APP_A_SECRET" \
  --data-urlencode grant_type=password --data-urlencode "username=$DAVE" --data-urlencode "password=$DAVE_PASS" \
  "$GH/oauth2/token")
echo "disabled account's password grant at Gatehouse: $disabled (400 expected)"
[ "$disabled" = 400 ] || { echo "FAILED: a disabled account got a token" >&2; exit 1; }
ADMIN_TOKEN=$(curl -s -D - -o /dev/null -H 'content-type: application/json' \
  -d '{"name":"admin@test.com","password":"1234"}' "$GH/v1/auth/tokens" |
  awk 'tolower($1)=="x-subject-token:"{print $2}' | tr -d '\r')
curl -fsS -o /dev/null -X PATCH -H 'content-type: application/json' -H "x-auth-token: $ADMIN_TOKEN" \
  -d '{"user":{"enabled":true}}' "$GH/v1/users/$(jq -r .users.dave.id "$WORK/out/dataset.json")"

# 6. The same requests to Gatehouse, and the comparison.
node "$HERE/probe.mjs" "$GH" "$WORK/out/dataset.json" "$WORK/out/gatehouse.json" >&2
node "$HERE/compare.mjs" "$WORK/out/keyrock.json" "$WORK/out/gatehouse.json" "$WORK/out/dataset.json"

# 7. Optionally, CPU per request side by side. The pids are the processes listening on each port.
if [ "$CPU" = 1 ]; then
  listener() { ss -ltnpH "sport = :$1" | sed -E 's/.*pid=([0-9]+).*/\1/' | head -1; }
  node "$HERE/side-by-side.mjs" "$WORK/out/dataset.json" \
    "http://127.0.0.1:$KR_PORT" "$(listener "$KR_PORT")" "$(listener "$DB_PORT")" \
    "$GH" "$(listener "$GH_PORT")" "$(listener "$DYNAMODB_PORT")"
fi
