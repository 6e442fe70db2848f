/**
 * How every Lambda function is bundled: ONE definition, read by the CDK stack (as NodejsFunction
 * `bundling` props) and by the benchmark (`npm run bench`, which runs esbuild itself with the same
 * options to report each function's size and initialisation time). This module imports neither
 * aws-cdk-lib nor esbuild, so both sides can load it cheaply.
 */
import type { Route } from '../shared/routes.js';

/** The Lambda runtime the functions run on; esbuild's target follows it. */
export const NODE_RUNTIME_MAJOR = 22;

/**
 * The functions' NODE_OPTIONS: readable stack traces from the bundled source maps. It is part of
 * the cold start (Node reads a bundle's map when it loads it), so the benchmark measures with it.
 */
export const FUNCTION_NODE_OPTIONS = '--enable-source-maps';

/**
 * Lets CommonJS dependencies that call `require` run inside an ES module bundle (nodemailer,
 * parts of the AWS SDK's dependency tree).
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/**
 * The NodejsFunction bundling props shared by every function (field names as in
 * aws-cdk-lib/aws-lambda-nodejs BundlingOptions; `format: 'esm'` is OutputFormat.ESM).
 *
 * - What a function uses of the AWS SDK v3 is bundled, not taken from the runtime: one minified,
 *   tree-shaken file initialises faster than resolving the runtime's SDK from node_modules, and
 *   the SDK version is the one our tests ran against. DynamoDB, Secrets Manager and SES are spoken to
 *   without it (shared/store/aws-json.ts); only the logo functions carry an SDK client (S3).
 * - `@aws-sdk/credential-provider-node` is left out: shared/store/aws-json.ts imports it only
 *   where the environment holds no credentials (an operator's `npx idm`), which in Lambda never
 *   happens; were it ever reached there, the runtime's own copy would answer.
 * - `mainFields` prefers the ESM build of dependencies so esbuild can drop what a function never
 *   imports (the lookups carry no bcryptjs, the token function no sharp).
 */
export const BUNDLING = {
  minify: true,
  sourceMap: true,
  // The map names files and lines without carrying their text: a smaller map to read at start.
  sourcesContent: false,
  format: 'esm',
  target: `node${NODE_RUNTIME_MAJOR}`,
  mainFields: ['module', 'main'],
  banner: ESM_REQUIRE_BANNER,
  externalModules: ['@aws-sdk/credential-provider-node'] as string[],
} as const;

/**
 * Packages installed into a function's bundle folder instead of being bundled: native modules.
 * sharp ships prebuilt binaries per platform, so the logo function (x86) gets it installed.
 */
export function nodeModulesFor(route: Pick<Route, 'x86'>): string[] {
  return route.x86 ? ['sharp'] : [];
}

/**
 * The esbuild build options equivalent to what NodejsFunction runs for a route with BUNDLING
 * (`esbuild --bundle entry --platform=node --target=… --format=esm --minify --sourcemap
 * --external:… --banner:js=… --main-fields=…`). `target` may be lowered by a caller that runs the
 * bundle on an older Node (the benchmark machine runs Node 20).
 */
export function esbuildOptions(
  route: Pick<Route, 'fn' | 'x86'>,
  overrides: { target?: string } = {},
): {
  entryPoints: string[];
  bundle: true;
  platform: 'node';
  format: 'esm';
  target: string;
  minify: boolean;
  sourcemap: boolean;
  sourcesContent: boolean;
  mainFields: string[];
  external: string[];
  banner: { js: string };
} {
  return {
    entryPoints: [`functions/${route.fn}.ts`],
    bundle: true,
    platform: 'node',
    format: BUNDLING.format,
    target: overrides.target ?? BUNDLING.target,
    minify: BUNDLING.minify,
    sourcemap: BUNDLING.sourceMap,
    sourcesContent: BUNDLING.sourcesContent,
    mainFields: [...BUNDLING.mainFields],
    external: [...BUNDLING.externalModules, ...nodeModulesFor(route)],
    banner: { js: BUNDLING.banner },
  };
}
