#!/usr/bin/env bash
# Puts FIWARE's PEP proxy (ging/fiware-pep-proxy, unmodified) in front of a small HTTP service
# with Gatehouse as its Keyrock, and checks what the proxy lets through.
#
#   scripts/pep-proxy-check.sh --pep /tmp/pep [--keep]
#
# --pep is a checkout of ging/fiware-pep-proxy; its dependencies are installed there when it has
# none (`npm ci --omit=dev`, under /tmp/npm.lock; see step 0 for its one native module). Everything runs on 127.0.0.1 on free ports:
# Gatehouse (`npm start`, its own DATA_DIR in a temporary directory), the service, the proxy. The
# proxy is configured only by its own environment variables (PEP_PROXY_*, its lib/config_service.js);
# its source is not touched. Its bin/www listens on every interface, so it is started with a
# preload (`node -r`) that binds servers given no host to 127.0.0.1.
#
# Through /v1 (as an administrator made with `npx idm`): a user; application A with a role whose
# permission is GET /orders, held by the user, and A's PEP proxy; application B, where the user
# holds a role with GET /invoices; application T, which A trusts; application U, which A does not.
# Then, through the proxy:
#   1. the user's token of A, GET /orders             -> the service answers (200)
#   2. the same token, DELETE /orders                 -> refused (Keyrock: Deny)
#   3. the same token, GET /invoices (B's permission) -> refused
#   4. the user's token of B, GET /orders             -> refused (B is not A, nor trusted by A)
#   5. the user's token of U (untrusted), GET /orders -> refused
#   6. the user's token of T (trusted), GET /orders   -> the service answers (T's token, A's roles)
#   7. a revoked token of A, GET /orders              -> refused
#   8. no token                                       -> refused
# Exit status 0 when every check holds.
set -euo pipefail

PEP=''
KEEP=0
REPO="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=lib/servers.sh
. "$REPO/scripts/lib/servers.sh"
usage() { sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --pep) PEP="$2"; shift 2 ;;
    --keep) KEEP=1; shift ;;
    -h|--help) usage ;;
    *) echo "Unknown argument: $1" >&2; usage ;;
  esac
done
[ -n "$PEP" ] || usage
if [ ! -f "$PEP/bin/www" ] || [ ! -f "$PEP/lib/pdp/keyrock.js" ]; then
  echo "$PEP is not a checkout of ging/fiware-pep-proxy (no bin/www or lib/pdp/keyrock.js)." >&2
  exit 2
fi
PEP="$(cd "$PEP" && pwd)"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/pep-proxy-check.XXXXXX")"
cleanup() {
  stop_servers
  if [ "$KEEP" = 1 ]; then echo "Kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

# 0. The proxy's dependencies, as its package-lock.json pins them. One of them, node-expat (through
# xml2json, which lib/pdp/authzforce.js loads at start), is a native module whose pinned build
# headers (nan 2.15) predate Node 20's V8: nan alone is replaced by the current 2.x and node-expat
# rebuilt. No file of the proxy itself changes.
if ! (cd "$PEP" && node -e 'require("xml2json"); require("express")') 2>/dev/null; then
  echo "Installing the proxy's dependencies in $PEP" >&2
  (cd "$PEP" && flock /tmp/npm.lock npm ci --omit=dev --ignore-scripts --no-audit --no-fund --silent >/dev/null)
  NAN="$(cd "$WORK" && npm pack --silent nan@2)"
  rm -rf "$PEP/node_modules/nan" && mkdir "$PEP/node_modules/nan"
  tar -xzf "$WORK/$NAN" -C "$PEP/node_modules/nan" --strip-components=1
  (cd "$PEP" && npm rebuild node-expat --silent >/dev/null)
fi

# 1. Gatehouse, as `npm start` runs it.
export DATA_DIR="$WORK/data"
GH_PORT="$(free_port)"
GH="http://127.0.0.1:$GH_PORT"
start_server "$WORK/gatehouse.log" env PORT="$GH_PORT" DYNAMODB_PORT="$(free_port)" S3_PORT="$(free_port)" \
  IDM_PUBLIC_URL="$GH" bash -c 'cd "$1" && exec npm start' _ "$REPO"
wait_http "$GH/version" "$SERVER_PID" "$WORK/gatehouse.log"
echo "Gatehouse at $GH" >&2

# 2. The protected service: answers every request with its method and path.
SVC_PORT="$(free_port)"
start_server "$WORK/service.log" node -e '
  require("http").createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ served: req.method + " " + req.url }));
  }).listen(Number(process.argv[1]), "127.0.0.1");
' "$SVC_PORT"
wait_http "http://127.0.0.1:$SVC_PORT/" "$SERVER_PID" "$WORK/service.log"

# 3. The set-up, through /v1 and the token endpoint.
field() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=process.argv[1].split(".").reduce((o,k)=>o?.[k],JSON.parse(s));if(v===undefined){process.stderr.write("no "+process.argv[1]+" in "+s+"\n");process.exit(1)}console.log(v)})' "$1"; }
ADMIN_PASSWORD='pep-check-admin-pass'
USER_PASSWORD='pep-check-user-pass'
(cd "$REPO" && npx idm user create --email admin@pep.check --password "$ADMIN_PASSWORD" --name admin --admin >/dev/null)
ADMIN_TOKEN="$(curl -sS -D - -o /dev/null -H 'content-type: application/json' \
  -d "{\"name\":\"admin@pep.check\",\"password\":\"$ADMIN_PASSWORD\"}" "$GH/v1/auth/tokens" |
  tr -d '\r' | awk -F': ' 'tolower($1)=="x-subject-token"{print $2}')"
[ -n "$ADMIN_TOKEN" ] || { echo "No /v1 token for the administrator." >&2; exit 1; }
v1() { # method path [json]
  curl -sS -X "$1" -H "x-auth-token: $ADMIN_TOKEN" -H 'content-type: application/json' \
    ${3:+-d "$3"} "$GH/v1$2"
}
USER_ID="$(v1 POST /users "{\"user\":{\"username\":\"orders clerk\",\"email\":\"clerk@pep.check\",\"password\":\"$USER_PASSWORD\"}}" | field user.id)"
new_app() { v1 POST /applications "{\"application\":{\"name\":\"$1\",\"description\":\"pep check\",\"redirect_uri\":\"http://127.0.0.1/cb\",\"url\":\"http://127.0.0.1\",\"grant_type\":[\"password\"]}}"; }
role_with() { # app verb path -> grants the user a role with that permission
  local perm role
  perm="$(v1 POST "/applications/$1/permissions" "{\"permission\":{\"name\":\"$2 $3\",\"action\":\"$2\",\"resource\":\"$3\"}}" | field permission.id)"
  role="$(v1 POST "/applications/$1/roles" "{\"role\":{\"name\":\"$2 $3\"}}" | field role.id)"
  v1 PUT "/applications/$1/roles/$role/permissions/$perm" >/dev/null
  v1 PUT "/applications/$1/users/$USER_ID/roles/$role" >/dev/null
}
declare -A ID SECRET
for a in A B T U; do
  body="$(new_app "pep check $a")"
  ID[$a]="$(printf '%s' "$body" | field application.id)"
  SECRET[$a]="$(printf '%s' "$body" | field application.secret)"
done
role_with "${ID[A]}" GET /orders
role_with "${ID[B]}" GET /invoices
role_with "${ID[B]}" GET /orders
v1 PUT "/applications/${ID[A]}/trusted_applications/${ID[T]}" >/dev/null
PEP_BODY="$(v1 POST "/applications/${ID[A]}/pep_proxies")"
PEP_ID="$(printf '%s' "$PEP_BODY" | field pep_proxy.id)"
PEP_PASSWORD="$(printf '%s' "$PEP_BODY" | field pep_proxy.password)"
token_of() { # app -> the user's access token of that application (password grant)
  curl -sS -u "${ID[$1]}:${SECRET[$1]}" -d grant_type=password \
    --data-urlencode "username=clerk@pep.check" --data-urlencode "password=$USER_PASSWORD" \
    "$GH/oauth2/token" | field access_token
}

# 4. The proxy, configured by its own environment variables only.
PEP_PORT="$(free_port)"
start_server "$WORK/pep.log" env -C "$PEP" \
  PEP_PROXY_PORT="$PEP_PORT" PEP_PROXY_HTTPS_ENABLED=false \
  PEP_PROXY_IDM_HOST=127.0.0.1 PEP_PROXY_IDM_PORT="$GH_PORT" PEP_PROXY_IDM_SSL_ENABLED=false \
  PEP_PROXY_APP_HOST=127.0.0.1 PEP_PROXY_APP_PORT="$SVC_PORT" PEP_PROXY_APP_SSL_ENABLED=false \
  PEP_PROXY_APP_ID="${ID[A]}" PEP_PROXY_USERNAME="$PEP_ID" PEP_PROXY_PASSWORD="$PEP_PASSWORD" \
  PEP_PROXY_AUTH_ENABLED=true PEP_PROXY_PDP=idm PEP_PROXY_CLUSTER_TYPE=manual PEP_PROXY_CLUSTER_NUMBER=1 \
  PEP_PROXY_DEBUG='pep-proxy:*' DEBUG='pep-proxy:*' \
  node -r "$LOOPBACK_PRELOAD" bin/www
wait_http "http://127.0.0.1:$PEP_PORT/" "$SERVER_PID" "$WORK/pep.log"
echo "PEP proxy at http://127.0.0.1:$PEP_PORT for application ${ID[A]}" >&2

# 5. The checks.
FAILED=0
check() { # label expected-outcome(pass|refused) method path [token]
  local status
  status="$(curl -s -o "$WORK/answer" -w '%{http_code}' -X "$3" ${5:+-H "x-auth-token: $5"} \
    "http://127.0.0.1:$PEP_PORT$4")"
  local outcome=refused
  if [ "$status" = 200 ] && grep -q '"served"' "$WORK/answer"; then outcome=pass; fi
  if [ "$outcome" = "$2" ]; then
    printf 'ok    %-58s %s (%s)\n' "$1" "$outcome" "$status"
  else
    printf 'FAIL  %-58s %s (%s), expected %s: %s\n' "$1" "$outcome" "$status" "$2" "$(head -c 300 "$WORK/answer")"
    FAILED=1
  fi
}
TOKEN_A="$(token_of A)"
REVOKED="$(token_of A)"
curl -sS -o /dev/null -u "${ID[A]}:${SECRET[A]}" -d "token=$REVOKED" "$GH/oauth2/revoke"
check 'user token of A with the role: GET /orders' pass GET /orders "$TOKEN_A"
check 'same token: DELETE /orders (no such permission)' refused DELETE /orders "$TOKEN_A"
check 'same token: GET /invoices (a permission of B only)' refused GET /invoices "$TOKEN_A"
check 'user token of B (another application): GET /orders' refused GET /orders "$(token_of B)"
check 'user token of U (not trusted by A): GET /orders' refused GET /orders "$(token_of U)"
check 'user token of T (trusted by A): GET /orders' pass GET /orders "$(token_of T)"
check 'revoked user token of A: GET /orders' refused GET /orders "$REVOKED"
check 'no token: GET /orders' refused GET /orders
if [ "$FAILED" != 0 ]; then
  echo "--- PEP proxy log (tail)" >&2
  tail -n 40 "$WORK/pep.log" >&2
  exit 1
fi
echo "All checks hold." >&2
