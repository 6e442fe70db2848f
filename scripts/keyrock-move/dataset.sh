#!/usr/bin/env bash
# A small, realistic Keyrock deployment made through Keyrock itself: its /v1 API, and its web pages
# for the two things the API cannot do (disable an account, upload an application's image).
# Used by scripts/keyrock-move-check.sh. Needs: KR (Keyrock's base URL), OUT (a state directory),
# LOGO (a PNG file). Writes $OUT/dataset.json with every id, secret and password the probes use.
set -euo pipefail
: "${KR:?}" "${OUT:?}" "${LOGO:?}"
mkdir -p "$OUT"
LOG="$OUT/keyrock-api.log"; : >"$LOG"

# api METHOD PATH TOKEN [BODY] -> body on stdout; status checked to be 2xx
api() {
  local method=$1 path=$2 token=$3 body=${4:-} out code
  out=$(mktemp)
  code=$(curl -s -o "$out" -w '%{http_code}' -X "$method" "$KR$path" \
    -H 'Content-Type: application/json' ${token:+-H "X-Auth-Token: $token"} ${body:+-d "$body"})
  printf '%s %s -> %s %s\n' "$method" "$path" "$code" "$(cat "$out")" >>"$LOG"
  if [[ $code != 2* ]]; then echo "Keyrock $method $path answered $code: $(cat "$out")" >&2; rm -f "$out"; exit 1; fi
  cat "$out"; rm -f "$out"
}
login() { # email password -> X-Subject-Token
  curl -s -D - -o /dev/null -H 'Content-Type: application/json' \
    -d "{\"name\":\"$1\",\"password\":\"$2\"}" "$KR/v1/auth/tokens" |
    awk 'tolower($1)=="x-subject-token:"{print $2}' | tr -d '\r'
}

ADMIN=$(login admin@test.com 1234)
[[ -n $ADMIN ]] || { echo "admin@test.com/1234 cannot sign in to Keyrock" >&2; exit 1; }

declare -A UID_ PASS
PASS[alice]='alice-pass-1'; PASS[bob]='bob-pass-22'; PASS[carol]='carol-pass-333'; PASS[dave]='dave-pass-4444'
for u in alice bob carol dave; do
  UID_[$u]=$(api POST /v1/users "$ADMIN" "{\"user\":{\"username\":\"$u\",\"email\":\"$u@test.com\",\"password\":\"${PASS[$u]}\"}}" | jq -r .user.id)
done
ALICE=$(login alice@test.com "${PASS[alice]}"); BOB=$(login bob@test.com "${PASS[bob]}")

# Organizations: Acme (owner alice, member bob), Beta (owner bob, members carol and dave)
ACME=$(api POST /v1/organizations "$ALICE" '{"organization":{"name":"Acme","description":"Buyers","website":"https://acme.example"}}' | jq -r .organization.id)
BETA=$(api POST /v1/organizations "$BOB" '{"organization":{"name":"Beta","description":"Partners"}}' | jq -r .organization.id)
api PUT "/v1/organizations/$ACME/users/${UID_[bob]}/organization_roles/member" "$ALICE" >/dev/null
api PUT "/v1/organizations/$BETA/users/${UID_[carol]}/organization_roles/member" "$BOB" >/dev/null
api PUT "/v1/organizations/$BETA/users/${UID_[dave]}/organization_roles/member" "$BOB" >/dev/null

# Application A "Shop" (alice, bearer) and B "Warehouse" (bob, token_types jwt+permanent)
A_JSON=$(api POST /v1/applications "$ALICE" '{"application":{"name":"Shop","description":"The shop","url":"http://shop.example","redirect_uri":"http://shop.example/callback","redirect_sign_out_uri":"http://shop.example/bye","grant_type":["authorization_code","implicit","password","client_credentials","refresh_token"]}}')
B_JSON=$(api POST /v1/applications "$BOB" '{"application":{"name":"Warehouse","description":"The warehouse","url":"http://wh.example","redirect_uri":"http://wh.example/callback","grant_type":["authorization_code","password","client_credentials","refresh_token"],"token_types":["jwt","permanent"]}}')
A=$(jq -r .application.id <<<"$A_JSON"); A_SECRET=$(jq -r .application.secret <<<"$A_JSON")
B=$(jq -r .application.id <<<"$B_JSON"); B_SECRET=$(jq -r .application.secret <<<"$B_JSON")
B_JWT=$(api GET "/v1/applications/$B" "$BOB" | jq -r .application.jwt_secret)

role() { api POST "/v1/applications/$1/roles" "$2" "{\"role\":{\"name\":\"$3\"}}" | jq -r .role.id; }
perm() { api POST "/v1/applications/$1/permissions" "$2" "{\"permission\":$3}" | jq -r .permission.id; }
permit() { api PUT "/v1/applications/$1/roles/$3/permissions/$4" "$2" >/dev/null; }

A_VIEWER=$(role "$A" "$ALICE" Viewer); A_EDITOR=$(role "$A" "$ALICE" Editor); A_AUDIT=$(role "$A" "$ALICE" Auditor)
P_GET_ORDERS=$(perm "$A" "$ALICE" '{"name":"Read orders","action":"GET","resource":"/orders"}')
P_POST_ORDERS=$(perm "$A" "$ALICE" '{"name":"Write orders","action":"POST","resource":"/orders"}')
P_ORDER_RE=$(perm "$A" "$ALICE" '{"name":"Read one order","action":"GET","resource":"^/orders/[0-9]+$","is_regex":true}')
P_REPORTS=$(perm "$A" "$ALICE" '{"name":"Tenant reports","action":"GET","resource":"/reports","use_authorization_service_header":true,"authorization_service_header":"tenant1"}')
P_AUDIT=$(perm "$A" "$ALICE" '{"name":"Audit log","action":"GET","resource":"/audit"}')
permit "$A" "$ALICE" "$A_VIEWER" "$P_GET_ORDERS"; permit "$A" "$ALICE" "$A_VIEWER" "$P_ORDER_RE"
permit "$A" "$ALICE" "$A_EDITOR" "$P_POST_ORDERS"; permit "$A" "$ALICE" "$A_EDITOR" "$P_REPORTS"
permit "$A" "$ALICE" "$A_AUDIT" "$P_AUDIT"

B_OPER=$(role "$B" "$BOB" Operator); B_READER=$(role "$B" "$BOB" Reader)
P_PUT_STOCK=$(perm "$B" "$BOB" '{"name":"Update stock","action":"PUT","resource":"/stock"}')
P_GET_STOCK=$(perm "$B" "$BOB" '{"name":"Read stock","action":"GET","resource":"/stock"}')
permit "$B" "$BOB" "$B_OPER" "$P_PUT_STOCK"; permit "$B" "$BOB" "$B_OPER" "$P_GET_STOCK"
permit "$B" "$BOB" "$B_READER" "$P_GET_STOCK"

# Assignments in A: bob Viewer (user); Acme members Editor, Acme owners Auditor; dave Editor (user)
api PUT "/v1/applications/$A/users/${UID_[bob]}/roles/$A_VIEWER" "$ALICE" >/dev/null
api PUT "/v1/applications/$A/users/${UID_[dave]}/roles/$A_EDITOR" "$ALICE" >/dev/null
api PUT "/v1/applications/$A/organizations/$ACME/roles/$A_EDITOR/organization_roles/member" "$ALICE" >/dev/null
api PUT "/v1/applications/$A/organizations/$ACME/roles/$A_AUDIT/organization_roles/owner" "$ALICE" >/dev/null
# Assignments in B: Beta members Reader, Beta owners Operator; alice Reader (user); carol Operator (user)
api PUT "/v1/applications/$B/organizations/$BETA/roles/$B_READER/organization_roles/member" "$BOB" >/dev/null
api PUT "/v1/applications/$B/organizations/$BETA/roles/$B_OPER/organization_roles/owner" "$BOB" >/dev/null
api PUT "/v1/applications/$B/users/${UID_[alice]}/roles/$B_READER" "$BOB" >/dev/null
api PUT "/v1/applications/$B/users/${UID_[carol]}/roles/$B_OPER" "$BOB" >/dev/null

# PEP proxy and IoT agent per application; A trusts B
A_PEP=$(api POST "/v1/applications/$A/pep_proxies" "$ALICE")
B_PEP=$(api POST "/v1/applications/$B/pep_proxies" "$BOB")
A_IOT=$(api POST "/v1/applications/$A/iot_agents" "$ALICE")
B_IOT=$(api POST "/v1/applications/$B/iot_agents" "$BOB")
api PUT "/v1/applications/$A/trusted_applications/$B" "$ALICE" >/dev/null

# Disable dave. PATCH /v1/users/{id} always sets enabled=true (controllers/api/users.js), so this is
# Keyrock's admin UI call (PUT /idm/admins/list_users/users/{id}/enable, enabled=false) with a session.
JAR=$(mktemp)
csrf_of() { grep -o "name=[\"']_csrf[\"'] value=[\"'][^\"']*" | head -1 | sed -E "s/.*value=[\"']//"; }
CSRF=$(curl -s -c "$JAR" -b "$JAR" "$KR/auth/login" | csrf_of)
curl -s -c "$JAR" -b "$JAR" -o /dev/null --data-urlencode "_csrf=$CSRF" --data-urlencode email=admin@test.com \
  --data-urlencode password=1234 "$KR/auth/login"
CSRF=$(curl -s -c "$JAR" -b "$JAR" "$KR/idm/admins/list_users" | csrf_of)
code=$(curl -s -o "$OUT/disable.out" -w '%{http_code}' -c "$JAR" -b "$JAR" -X PUT -H "X-CSRF-Token: $CSRF" \
  --data-urlencode enabled=false --data-urlencode "_csrf=$CSRF" "$KR/idm/admins/list_users/users/${UID_[dave]}/enable")
echo "disable dave -> $code $(cat "$OUT/disable.out")" >>"$LOG"
[[ $code == 200 ]] || { echo "Could not disable dave through Keyrock's admin UI ($code)" >&2; exit 1; }
rm -f "$JAR"

# A logo for A, through Keyrock's web UI as alice (the API has no image upload): a file under
# public/img/applications/ named in oauth_client.image.
JAR=$(mktemp)
CSRF=$(curl -s -c "$JAR" -b "$JAR" "$KR/auth/login" | csrf_of)
curl -s -c "$JAR" -b "$JAR" -o /dev/null --data-urlencode "_csrf=$CSRF" --data-urlencode email=alice@test.com \
  --data-urlencode "password=${PASS[alice]}" "$KR/auth/login"
CSRF=$(curl -s -c "$JAR" -b "$JAR" "$KR/idm/applications/$A/edit" | csrf_of)
code=$(curl -s -o /dev/null -w '%{http_code}' -c "$JAR" -b "$JAR" -X PUT -H "X-CSRF-Token: $CSRF" -F "_csrf=$CSRF" \
  -F x=0 -F y=0 -F w=100 -F h=100 -F "image=@${LOGO};type=image/png" "$KR/idm/applications/$A/edit/avatar")
echo "logo A -> $code" >>"$LOG"
rm -f "$JAR"

# Texts longer than Gatehouse keeps (Keyrock's are TEXT): an organization's description (Gatehouse:
# 500 characters) and an application's (1000); the import cuts them and says so. Carol owns Gamma,
# alice is a member, and Gamma's members hold Viewer in A.
CAROL=$(login carol@test.com "${PASS[carol]}")
LONG=$(printf 'x%.0s' $(seq 1 600))
GAMMA=$(api POST /v1/organizations "$CAROL" "{\"organization\":{\"name\":\"Gamma\",\"description\":\"$LONG\",\"website\":\"https://gamma.example\"}}" | jq -r .organization.id)
api PUT "/v1/organizations/$GAMMA/users/${UID_[alice]}/organization_roles/member" "$CAROL" >/dev/null
api PUT "/v1/applications/$A/organizations/$GAMMA/roles/$A_VIEWER/organization_roles/member" "$ALICE" >/dev/null
LONGAPP=$(printf 'y%.0s' $(seq 1 1500))
api POST /v1/applications "$CAROL" "{\"application\":{\"name\":\"Longdesc\",\"description\":\"$LONGAPP\",\"url\":\"http://long.example\",\"redirect_uri\":\"http://long.example/cb\"}}" >/dev/null

jq -n --arg acme "$ACME" --arg beta "$BETA" --arg gamma "$GAMMA" \
  --arg A "$A" --arg A_SECRET "$A_SECRET" --arg B "$B" --arg B_SECRET "$B_SECRET" --arg B_JWT "$B_JWT" \
  --argjson A_PEP "$A_PEP" --argjson B_PEP "$B_PEP" --argjson A_IOT "$A_IOT" --argjson B_IOT "$B_IOT" \
  --arg alice "${UID_[alice]}" --arg bob "${UID_[bob]}" --arg carol "${UID_[carol]}" --arg dave "${UID_[dave]}" \
  --arg a_viewer "$A_VIEWER" --arg a_editor "$A_EDITOR" --arg a_audit "$A_AUDIT" --arg b_oper "$B_OPER" --arg b_reader "$B_READER" '{
  users: {
    admin: {id: "admin", email: "admin@test.com", password: "1234"},
    alice: {id: $alice, email: "alice@test.com", password: "alice-pass-1"},
    bob: {id: $bob, email: "bob@test.com", password: "bob-pass-22"},
    carol: {id: $carol, email: "carol@test.com", password: "carol-pass-333"},
    dave: {id: $dave, email: "dave@test.com", password: "dave-pass-4444", disabled: true}
  },
  orgs: {Acme: $acme, Beta: $beta, Gamma: $gamma},
  apps: {
    A: {id: $A, secret: $A_SECRET, pep: $A_PEP.pep_proxy, iot: $A_IOT.iot_agent},
    B: {id: $B, secret: $B_SECRET, jwt_secret: $B_JWT, pep: $B_PEP.pep_proxy, iot: $B_IOT.iot_agent}
  },
  roles: {A: {Viewer: $a_viewer, Editor: $a_editor, Auditor: $a_audit}, B: {Operator: $b_oper, Reader: $b_reader}}
}' >"$OUT/dataset.json"
echo "dataset: $OUT/dataset.json" >&2
