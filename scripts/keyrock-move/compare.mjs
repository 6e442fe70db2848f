// Compares Keyrock's and Gatehouse's answers to the same probes (probe.mjs), field by field, and
// says whether the move kept what it must: every sign-in, client secret and PEP proxy password
// Keyrock accepted is accepted, and every Permit/Deny decision is the same. Exit 1 if not.
// node compare.mjs keyrock.json gatehouse.json dataset.json [--all]  -> report on stdout, JSON in compare.json
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const [krFile, ghFile, dsFile, flag] = process.argv.slice(2);
const kr = JSON.parse(readFileSync(krFile, 'utf8')).probes;
const gh = JSON.parse(readFileSync(ghFile, 'utf8')).probes;
const ds = JSON.parse(readFileSync(dsFile, 'utf8'));

const names = new Map();
for (const [n, u] of Object.entries(ds.users)) names.set(u.id, `user:${n}`);
for (const [n, id] of Object.entries(ds.orgs)) names.set(id, `org:${n}`);
for (const [n, a] of Object.entries(ds.apps)) names.set(a.id, `app:${n}`);
const nm = (v) => (typeof v === 'string' && names.has(v) ? names.get(v) : v);
const roleNames = (roles) => (Array.isArray(roles) ? roles.map((r) => r?.name).sort() : roles);
const orgs = (list) =>
  Array.isArray(list)
    ? list
        .map((o) => ({
          id: nm(o.id),
          name: o.name,
          description: o.description,
          website: o.website,
          roles: roleNames(o.roles),
        }))
        .sort((a, b) => String(a.id).localeCompare(String(b.id)))
    : list;

const USER_FIELDS = [
  'id',
  'sub',
  'username',
  'email',
  'displayName',
  'app_id',
  'trusted_apps',
  'roles',
  'organizations',
  'authorization_decision',
];
function norm(field, v) {
  if (field === 'roles') return roleNames(v);
  if (field === 'organizations') return orgs(v);
  if (field === 'trusted_apps') return Array.isArray(v) ? v.map(nm).sort() : v;
  return nm(v);
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

const rows = [];
const keys = [...new Set([...Object.keys(kr), ...Object.keys(gh)])];
for (const key of keys) {
  const k = kr[key];
  const g = gh[key];
  const row = { probe: key, kr: k?.status ?? '-', gh: g?.status ?? '-', diffs: [] };
  if (!k || !g) row.diffs.push(!k ? 'only asked of Gatehouse' : 'not asked of Gatehouse (no token)');
  else {
    const kb = k.body;
    const gb = g.body;
    const isUser = key.includes('/user');
    if (isUser && k.status === 200 && g.status === 200 && kb && typeof kb === 'object') {
      const fields = new Set([...USER_FIELDS.filter((f) => f in kb || f in gb)]);
      for (const f of fields) {
        const a = norm(f, kb[f]);
        const b = norm(f, gb[f]);
        if (!same(a, b)) row.diffs.push(`${f}: KR ${JSON.stringify(a)} | GH ${JSON.stringify(b)}`);
      }
      const extraKr = Object.keys(kb).filter((f) => !(f in gb));
      const extraGh = Object.keys(gb).filter((f) => !(f in kb));
      row.onlyKr = extraKr;
      row.onlyGh = extraGh;
    } else if (k.status !== g.status) {
      row.diffs.push(
        `status: KR ${k.status} ${JSON.stringify(kb).slice(0, 160)} | GH ${g.status} ${JSON.stringify(gb).slice(0, 160)}`,
      );
    } else if (key.endsWith('grant') || key.includes('scope=') || key.includes('client-credentials')) {
      const kk = kb && typeof kb === 'object' ? Object.keys(kb).sort() : typeof kb;
      const gk = gb && typeof gb === 'object' ? Object.keys(gb).sort() : typeof gb;
      if (!same(kk, gk))
        row.diffs.push(`token response keys: KR ${JSON.stringify(kk)} | GH ${JSON.stringify(gk)}`);
      for (const f of ['token_type', 'scope']) {
        if (kb && gb && typeof kb === 'object' && !same(kb[f], gb[f]))
          row.diffs.push(`${f}: KR ${JSON.stringify(kb[f])} | GH ${JSON.stringify(gb[f])}`);
      }
      if (kb && gb && typeof kb === 'object' && 'expires_in' in kb !== 'expires_in' in gb)
        row.diffs.push(`expires_in present: KR ${'expires_in' in kb} | GH ${'expires_in' in gb}`);
    } else if (k.status >= 400 && !same(kb, gb)) {
      row.diffs.push(
        `error body: KR ${JSON.stringify(kb).slice(0, 160)} | GH ${JSON.stringify(gb).slice(0, 160)}`,
      );
    }
  }
  rows.push(row);
}

writeFileSync(join(dirname(ghFile), 'compare.json'), JSON.stringify(rows, null, 2));
const decisions = rows.filter(
  (r) => / (GET|get|POST|PUT|DELETE) \//.test(r.probe) && r.probe.includes('/user app_id'),
);
const decisionDiffs = decisions.filter((r) =>
  r.diffs.some((d) => d.startsWith('authorization_decision') || d.startsWith('status')),
);
console.log(`probes: ${rows.length}; with a difference: ${rows.filter((r) => r.diffs.length).length}`);
console.log(
  `decisions asked: ${decisions.length}; decided differently (or status differs): ${decisionDiffs.length}`,
);
for (const r of rows) {
  if (!r.diffs.length && flag !== '--all') continue;
  console.log(`\n[${r.kr} | ${r.gh}] ${r.probe}`);
  for (const d of r.diffs) console.log(`   ${d}`);
}
const onlyKr = new Set(rows.flatMap((r) => r.onlyKr ?? []));
const onlyGh = new Set(rows.flatMap((r) => r.onlyGh ?? []));
console.log(`\n/user fields only Keyrock sends: ${[...onlyKr].join(', ')}`);
console.log(`/user fields only Gatehouse sends: ${[...onlyGh].join(', ')}`);

// The verdict: what a team moving from Keyrock needs to hold on the day.
const accepted = (r) => r.kr !== '-' && r.kr >= 200 && r.kr < 300;
const mustAccept = rows.filter(
  (r) =>
    accepted(r) &&
    (/ password-grant$/.test(r.probe) ||
      / client-credentials$/.test(r.probe) ||
      /^pep@\w+ \/v[13]\/auth\/tokens$/.test(r.probe) ||
      / \/v1\/auth\/tokens$/.test(r.probe)),
);
const refused = mustAccept.filter((r) => r.gh === '-' || r.gh < 200 || r.gh >= 300);
const notCompared = decisions.filter((r) => r.gh === '-');
console.log(`\ncredentials Keyrock accepted: ${mustAccept.length}; refused by Gatehouse: ${refused.length}`);
for (const r of refused) console.log(`   refused: ${r.probe} (${r.gh})`);
// A decision is not compared only when Gatehouse issued no token for it, which the line above
// counts when Keyrock's credential was one it must accept (else a refusal kept on purpose, such as a
// jwt token asked for as permanent: docs/decisions.md).
console.log(
  `decisions compared: ${decisions.length - notCompared.length} of ${decisions.length}; differing: ${decisionDiffs.length}`,
);
for (const r of notCompared) console.log(`   not compared (Gatehouse issued no token): ${r.probe}`);
if (refused.length > 0 || decisionDiffs.length > 0) {
  console.log('FAILED: the move does not keep every credential and decision');
  process.exit(1);
}
console.log('OK: every credential Keyrock accepted works, and every decision is the same');
