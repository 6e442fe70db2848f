#!/usr/bin/env bash
# Runs Keyrock's own /v1 API tests (test/integration/api/*.js of a Keyrock checkout, mocha +
# should + request) unmodified against Gatehouse, and prints mocha's pass/fail line per test.
#
#   scripts/keyrock-api-tests.sh --keyrock /tmp/keyrock [--url http://localhost:3000]
#                                [--files "000 001 002 003 004 005 006 007 008 009 010 011 012"]
#                                [--deps DIR] [--keep]
#                                [--keyrock-passwords]
#
# What is and is not changed (README "Keyrock's own API tests", docs/decisions.md):
# - The test files and their assertions: untouched, run from a copy in a temporary directory;
#   nothing of Keyrock's goes into this repository.
# - The base URL: Keyrock's tests read `config.host` through its lib/configService.js, which takes
#   it from IDM_HOST; this script sets IDM_HOST, so config-test.js is not edited either. 012 reads
#   Keyrock's root config.js instead, whose host is written in the file: the copy gets a config.js
#   that loads Keyrock's and sets only `host` from IDM_HOST.
# - Set-up: Keyrock's test/config/config_database.js is a mocha root hook that loads its MySQL
#   dump with docker and starts Keyrock in-process; in the copy it is replaced by a no-op, and the
#   fixture users and organizations of that dump are made with `npx idm` instead.
# - Fixture data: Keyrock's fixture password "test" is shorter than Gatehouse's minimum (8), so
#   `idm user create` and POST /v1/users refuse it; in the copy's templates (the logins of
#   000-authenticate.json, the new users of 003 and 011) it becomes FIXTURE_PASSWORD.
#   --keyrock-passwords changes only the logins, to see that difference (tests that create users
#   with "test" then fail with Gatehouse's 400).
#
# Without --url it starts its own `npm start` on free ports with its own DATA_DIR in the
# temporary directory, and stops it (by its process group) at the end. With --url it uses the
# server there, and `npx idm` acts on the DATA_DIR in the environment (default .data), which must
# be that server's.
set -euo pipefail

KEYROCK=''
URL=''
FILES='000 001 002 003 004 005 006 007 008 009 010 011 012'
DEPS=''
KEEP=0
KEYROCK_PASSWORDS=0
FIXTURE_PASSWORD='keyrock-fixture-pass'
REPO="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=lib/servers.sh
. "$REPO/scripts/lib/servers.sh"

usage() { sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --keyrock) KEYROCK="$2"; shift 2 ;;
    --url) URL="$2"; shift 2 ;;
    --files) FILES="$2"; shift 2 ;;
    --deps) DEPS="$2"; shift 2 ;;
    --keep) KEEP=1; shift ;;
    --keyrock-passwords) KEYROCK_PASSWORDS=1; shift ;;
    -h|--help) usage ;;
    *) echo "Unknown argument: $1" >&2; usage ;;
  esac
done
[ -n "$KEYROCK" ] || usage
if [ ! -d "$KEYROCK/test/integration/api" ] || [ ! -f "$KEYROCK/lib/configService.js" ]; then
  echo "$KEYROCK is not a Keyrock checkout (no test/integration/api or lib/configService.js)." >&2
  exit 2
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/keyrock-api-tests.XXXXXX")"
cleanup() {
  # npm start runs DynamoDB Local (Java) and s3rver as children: stop_servers stops its group.
  stop_servers
  if [ "$KEEP" = 1 ]; then echo "Kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

# 1. A copy of Keyrock's tests, with the two set-up pieces replaced (see above).
mkdir -p "$WORK/lib"
cp -R "$KEYROCK/test" "$WORK/test"
cp "$KEYROCK/lib/configService.js" "$WORK/lib/configService.js"
if [ -f "$KEYROCK/config.js" ]; then cp "$KEYROCK/config.js" "$WORK/keyrock-config.js"; else cp "$KEYROCK/config.js.template" "$WORK/keyrock-config.js"; fi
cat >"$WORK/config.js" <<'EOF'
// Written by Gatehouse's scripts/keyrock-api-tests.sh: Keyrock's own config.js with the base URL.
const config = require('./keyrock-config.js');
config.host = process.env.IDM_HOST;
module.exports = config;
EOF
cat >"$WORK/test/config/config_database.js" <<'EOF'
// Replaced by Gatehouse's scripts/keyrock-api-tests.sh: the server and its fixtures are set up
// before mocha starts, through `npx idm`, not from Keyrock's MySQL dump.
EOF
TEMPLATES=("$WORK/test/templates/api/000-authenticate.json")
[ "$KEYROCK_PASSWORDS" = 1 ] || TEMPLATES=("$WORK"/test/templates/api/*.json)
# Only values of a "password" key equal to "test" change; every other byte of the data stays.
FIXTURE_PASSWORD="$FIXTURE_PASSWORD" node -e '
  const fs = require("fs");
  for (const file of process.argv.slice(1)) {
    const swap = (value) => {
      if (Array.isArray(value)) return value.map(swap);
      if (value === null || typeof value !== "object") return value;
      return Object.fromEntries(Object.entries(value).map(([k, v]) =>
        [k, k === "password" && v === "test" ? process.env.FIXTURE_PASSWORD : swap(v)]));
    };
    fs.writeFileSync(file, JSON.stringify(swap(JSON.parse(fs.readFileSync(file, "utf8"))), null, 2));
  }
' "${TEMPLATES[@]}"

# 2. The tests' own dependencies, at the versions Keyrock's package.json names.
if [ -n "$DEPS" ] && [ -d "$DEPS/node_modules" ]; then
  ln -s "$(cd "$DEPS" && pwd)/node_modules" "$WORK/node_modules"
else
  echo '{"name":"keyrock-api-tests","private":true}' >"$WORK/package.json"
  (cd "$WORK" && npm install --no-audit --no-fund --silent mocha@8 should@13.2.3 request@2 debug@4 >/dev/null)
fi

# 3. The server: the one at --url, or our own.
if [ -z "$URL" ]; then
  export DATA_DIR="$WORK/data"
  PORT="$(free_port)"
  URL="http://localhost:$PORT"
  start_server "$WORK/server.log" env PORT="$PORT" DYNAMODB_PORT="$(free_port)" S3_PORT="$(free_port)" \
    bash -c 'cd "$1" && exec npm start' _ "$REPO"
  wait_http "$URL/version" "$SERVER_PID" "$WORK/server.log"
fi
echo "Gatehouse at $URL" >&2

# 4. Keyrock's fixture users and organizations (test/mysql-data/backup.sql) through the CLI. An
# existing one (a second run against the same server) is not an error.
idm() { (cd "$REPO" && npx idm "$@" 2>>"$WORK/idm.log"); }
user_id() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{console.log(JSON.parse(s).id)}catch{}})'; }
# alice keeps the id she has in Keyrock's dump: 012 assigns her a role by it.
ALICE="$(idm user create --email alice-the-admin@test.com --password "$FIXTURE_PASSWORD" --name alice --admin \
  --keyrock-id aaaaaaaa-good-0000-0000-000000000000 | user_id || true)"
BOB="$(idm user create --email bob-the-manager@test.com --password "$FIXTURE_PASSWORD" --name bob | user_id || true)"
for who in charlie-security manager1 manager2 detective1 detective2; do
  idm user create --email "$who@test.com" --password "$FIXTURE_PASSWORD" --name "${who%%-*}" >/dev/null || true
done
if [ -n "$ALICE" ]; then
  idm org create --owner "$ALICE" --name Security --description 'Security Group for Store Detectives' >/dev/null || true
  MANAGEMENT="$(idm org create --owner "$ALICE" --name Management --description 'Management Group for Store Managers' | user_id || true)"
  if [ -n "$BOB" ] && [ -n "$MANAGEMENT" ]; then
    idm org add-member --org "$MANAGEMENT" --user "$BOB" --role owner >/dev/null || true
  fi
fi

# 5. Mocha on the chosen files, as Keyrock's `npm test` runs it (spec reporter: one line per test).
SPECS=()
for n in $FILES; do
  for f in "$WORK"/test/integration/api/"$n"-*.js; do [ -f "$f" ] && SPECS+=("test/integration/api/$(basename "$f")"); done
done
[ ${#SPECS[@]} -gt 0 ] || { echo "No test files match: $FILES" >&2; exit 2; }
set +e
(cd "$WORK" && IDM_HOST="$URL" ./node_modules/.bin/mocha "${SPECS[@]}" --reporter spec --timeout 3000 --ui bdd --exit)
STATUS=$?
set -e
exit "$STATUS"
