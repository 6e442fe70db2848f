/**
 * The layers of Gatehouse, as forbidden imports (`npm run lint:deps`):
 *
 *   functions/ → shared/http/ → shared/oauth/ → shared/domain/ → shared/store/
 *                             ↘ shared/oidc/  ↗  (OpenID Connect: same layer and rules as oauth)
 *                             ↘ shared/keyrock/ (Keyrock's /v1 wire formats) ↗
 *
 * A layer imports only the layers to its right, and every layer may import the root modules of
 * shared/ (errors, config, crypto, log, routes, model), which import none of the layers. A
 * function reaches the table only through the domain or OAuth layers, never shared/store directly.
 * Type-only imports count like any other (tsPreCompilationDeps).
 *
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'store-imports-upper-layer',
      comment: 'shared/store is the bottom layer: it may not import shared/domain, oauth, http or functions.',
      severity: 'error',
      from: { path: '^shared/store/' },
      to: { path: '^(shared/(domain|oauth|oidc|http|keyrock)|functions)/' },
    },
    {
      name: 'domain-imports-upper-layer',
      comment: 'shared/domain holds the rules: it may not import shared/oauth, oidc, http or functions.',
      severity: 'error',
      from: { path: '^shared/domain/' },
      to: { path: '^(shared/(oauth|oidc|http|keyrock)|functions)/' },
    },
    {
      name: 'oauth-imports-upper-layer',
      comment: 'shared/oauth may not import shared/http or functions.',
      severity: 'error',
      from: { path: '^shared/oauth/' },
      to: { path: '^(shared/(http|keyrock)|functions)/' },
    },
    {
      name: 'oidc-imports-upper-layer',
      comment:
        'shared/oidc (OpenID Connect) sits beside shared/oauth: it may not import shared/http or functions.',
      severity: 'error',
      from: { path: '^shared/oidc/' },
      to: { path: '^(shared/(http|keyrock)|functions)/' },
    },
    {
      name: 'keyrock-imports-upper-layer',
      comment:
        "shared/keyrock holds Keyrock's wire formats (parsing and shapes): shared/http and functions use it, it uses neither (nor shared/oauth).",
      severity: 'error',
      from: { path: '^shared/keyrock/' },
      to: { path: '^(shared/(oauth|oidc|http)|functions)/' },
    },
    {
      name: 'keyrock-reads-store',
      comment:
        'shared/keyrock shapes store records but never reads or writes them: type-only imports of shared/store.',
      severity: 'error',
      from: { path: '^shared/keyrock/' },
      to: { path: '^shared/store/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'http-imports-functions',
      comment: 'shared/http may not import functions.',
      severity: 'error',
      from: { path: '^shared/http/' },
      to: { path: '^functions/' },
    },
    {
      name: 'functions-import-store',
      comment: 'A function reaches the table through shared/domain or shared/oauth, not shared/store.',
      severity: 'error',
      from: { path: '^functions/' },
      to: { path: '^shared/store/' },
    },
    {
      name: 'shared-root-imports-layer',
      comment:
        'The root modules of shared/ (errors, config, crypto, log, routes, model) are below every layer.',
      severity: 'error',
      from: { path: '^shared/[^/]+\\.ts$' },
      to: { path: '^shared/(store|domain|oauth|oidc|http|keyrock)/' },
    },
    {
      name: 'no-circular',
      comment: 'No module may depend on itself through others.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    // Type-only imports (`import type`) are dependencies too.
    tsPreCompilationDeps: true,
    // NodeNext sources import `./x.js` for `./x.ts`; the tsconfig makes the resolver map them.
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
