/**
 * Section 1, cold start per function: each route's function is bundled with the stack's esbuild
 * options (infra/bundling.ts), its minified and gzip sizes are read, and its module
 * initialisation is timed in fresh Node processes (performance.now() around `await import()`
 * inside the child, so process start-up is not counted). A reference bundle holding only a
 * DynamoDB client under the store's document layer and middy is measured in the same rounds,
 * interleaved, so the ratio is fair on a noisy machine.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { esbuildOptions, FUNCTION_NODE_OPTIONS } from '../infra/bundling.js';
import { type Route, routes } from '../shared/routes.js';
import { WrongAnswer } from './answers.js';
import { median } from './stats.js';

/** Packages whose presence in a bundle is worth naming: heavy, or only some functions need them. */
export const WATCHED_PACKAGES = [
  'sharp',
  'bcryptjs',
  'jose',
  '@aws-sdk/client-dynamodb',
  '@aws-sdk/client-secrets-manager',
  '@aws-sdk/client-s3',
  'mysql2',
  'nodemailer',
  '@simplewebauthn/server',
  'otpauth',
] as const;

export interface BundleFigure {
  fn: string;
  routes: string[];
  rawBytes: number;
  gzipBytes: number;
  /** Packages in the bundle by bytes they contribute, largest first. */
  packages: { name: string; bytes: number }[];
  watched: string[];
  /** For each watched package present: the import chain from the entry that pulls it in. */
  chains: Record<string, string[]>;
  initMs: number[];
  initMedianMs: number;
  /** CPU time (user + system) of the same imports: steady when other processes share the cores. */
  initCpuMs: number[];
  initCpuMedianMs: number;
  /** Set when the bundle failed to build or to load. */
  error?: string;
}

export interface ImportCheck {
  rule: string;
  fn: string;
  ok: boolean;
  found: string[];
  /** How each forbidden package gets in: the import chain from the function's entry. */
  chains: string[][];
}

export interface ColdStartResult {
  runs: number;
  target: string;
  nodeOptions: string;
  reference: BundleFigure;
  functions: BundleFigure[];
  checks: ImportCheck[];
  /** The same reference measured without --enable-source-maps, to show what source maps cost. */
  referenceWithoutSourceMapsMs: number;
}

function packageOf(path: string): string | undefined {
  const at = path.lastIndexOf('node_modules/');
  if (at === -1) return undefined;
  const parts = path.slice(at + 'node_modules/'.length).split('/');
  return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

/** The shortest import chain from the entry to any file of `pkg` (breadth-first over the metafile). */
function chainTo(meta: Metafile, entry: string, pkg: string): string[] {
  const previous = new Map<string, string>();
  const queue = [entry];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const current = queue.shift()!;
    const hit = packageOf(current) === pkg;
    if (hit) {
      const chain = [current];
      for (let p = previous.get(current); p; p = previous.get(p)) chain.unshift(p);
      return chain;
    }
    for (const imported of meta.inputs[current]?.imports ?? []) {
      const path = imported.external ? `node_modules/${imported.path}` : imported.path;
      if (!seen.has(path)) {
        seen.add(path);
        previous.set(path, current);
        queue.push(path);
      }
    }
  }
  return [];
}

function packagesIn(meta: Metafile): { name: string; bytes: number }[] {
  const bytes = new Map<string, number>();
  for (const output of Object.values(meta.outputs)) {
    for (const [path, input] of Object.entries(output.inputs)) {
      const name = packageOf(path) ?? '(gatehouse)';
      bytes.set(name, (bytes.get(name) ?? 0) + input.bytesInOutput);
    }
  }
  // External packages (sharp for the logo function) appear as imports, not inputs.
  for (const output of Object.values(meta.outputs)) {
    for (const imported of output.imports) {
      if (imported.external && !imported.path.startsWith('node:')) {
        const name = packageOf(`node_modules/${imported.path}`) ?? imported.path;
        if (!bytes.has(name)) bytes.set(name, 0);
      }
    }
  }
  return [...bytes].map(([name, b]) => ({ name, bytes: b })).sort((a, b) => b.bytes - a.bytes);
}

async function bundle(
  route: Pick<Route, 'fn' | 'x86'>,
  entry: string,
  outDir: string,
  target: string,
): Promise<
  Omit<BundleFigure, 'routes' | 'initMs' | 'initMedianMs' | 'initCpuMs' | 'initCpuMedianMs'> & {
    file: string;
  }
> {
  const options = esbuildOptions(route, { target });
  const outfile = join(outDir, route.fn, 'index.mjs');
  mkdirSync(join(outDir, route.fn), { recursive: true });
  const result = await build({
    ...options,
    entryPoints: [entry],
    outfile,
    metafile: true,
    logLevel: 'silent',
  });
  const code = readFileSync(outfile);
  const packages = packagesIn(result.metafile);
  const watched = WATCHED_PACKAGES.filter((p) => packages.some((x) => x.name === p));
  return {
    fn: route.fn,
    file: outfile,
    rawBytes: code.length,
    gzipBytes: gzipSync(code, { level: 9 }).length,
    packages,
    watched,
    chains: Object.fromEntries(watched.map((p) => [p, chainTo(result.metafile, entry, p)])),
  };
}

/**
 * What the child runs: time the import of one bundle, print [wall ms, CPU ms, typeof handler].
 * Section 1 sends no request; what it checks is that the bundle loads and exports its handler.
 */
const CHILD = `const c = process.cpuUsage();
const t = performance.now();
const m = await import(process.argv[1]);
const wall = performance.now() - t;
const cpu = process.cpuUsage(c);
process.stdout.write(JSON.stringify([wall, (cpu.user + cpu.system) / 1000, typeof m.handler]));`;

function timeImport(file: string, nodeOptions: string, env: NodeJS.ProcessEnv): [number, number] {
  const out = spawnSync(
    process.execPath,
    [...nodeOptions.split(' ').filter(Boolean), '--input-type=module', '-e', CHILD, pathToFileURL(file).href],
    { env, encoding: 'utf8', timeout: 30_000 },
  );
  let figures: [number, number, string] | undefined;
  try {
    figures = JSON.parse(out.stdout) as [number, number, string];
  } catch {
    figures = undefined;
  }
  if (out.status !== 0 || !figures) {
    throw new Error(
      `import failed: ${(out.stderr || out.stdout || '').trim().split('\n').slice(0, 3).join(' ')}`,
    );
  }
  if (figures[2] !== 'function') throw new Error(`the bundle exports no handler function (${figures[2]})`);
  return [figures[0], figures[1]];
}

const firstLine = (error: unknown) => String((error as Error).message ?? error).split('\n')[0];

/** timeImport, where a bundle that fails to load or has no handler stops the run. */
function checkedImport(
  figure: { fn: string; file?: string },
  nodeOptions: string,
  env: NodeJS.ProcessEnv,
): [number, number] {
  try {
    return timeImport(figure.file!, nodeOptions, env);
  } catch (error) {
    throw new WrongAnswer(`cold start: ${figure.fn}: ${firstLine(error)}`);
  }
}

/** Which function a rule concerns, by route (function names are the route table's business). */
function fnFor(method: string, path: string): string | undefined {
  return routes.find((r) => r.method === method && r.path === path)?.fn;
}

function checksFor(figures: BundleFigure[]): ImportCheck[] {
  const byFn = new Map(figures.map((f) => [f.fn, f]));
  const checks: ImportCheck[] = [];
  const rule = (text: string, fn: string | undefined, forbidden: string[]) => {
    const figure = fn ? byFn.get(fn) : undefined;
    if (!figure) return;
    const found = forbidden.filter((p) => figure.watched.includes(p));
    checks.push({
      rule: text,
      fn: figure.fn,
      ok: found.length === 0,
      found,
      chains: found.map((p) => figure.chains[p] ?? []),
    });
  };
  rule('token endpoint carries no sharp', fnFor('POST', '/oauth2/token'), ['sharp']);
  for (const path of ['/user', '/users/{id}', '/applications.json']) {
    rule(`lookup GET ${path} carries no bcryptjs, no sharp`, fnFor('GET', path), ['bcryptjs', 'sharp']);
  }
  rule('SCIM config carries no bcryptjs, no sharp', fnFor('GET', '/v2/ServiceProviderConfigs'), [
    'bcryptjs',
    'sharp',
  ]);
  // The lookups a PEP proxy calls on every request carry no account or import machinery.
  for (const [method, path] of [
    ['GET', '/user'],
    ['GET', '/users/{id}'],
    ['GET', '/applications.json'],
    ['POST', '/oauth2/token'],
    // The portal's sign-in only asks whether a second factor exists; checking one is another function's.
    ['POST', '/api/session'],
  ] as const) {
    rule(`${method} ${path} carries no mail, WebAuthn or TOTP code`, fnFor(method, path), [
      'nodemailer',
      '@simplewebauthn/server',
      'otpauth',
    ]);
  }
  for (const figure of figures) {
    const fnRoutes = routes.filter((r) => r.fn === figure.fn);
    if (fnRoutes.length === 0) continue;
    // Only functions that touch the logo bucket may carry the S3 client or sharp.
    if (fnRoutes.every((r) => r.logos === 'none')) {
      rule('no logo access, so no sharp and no S3 client', figure.fn, ['sharp', '@aws-sdk/client-s3']);
    }
    // DynamoDB and Secrets Manager are spoken to by the store's own JSON client (aws-json.ts).
    rule('no function carries the SDK DynamoDB or Secrets Manager client', figure.fn, [
      '@aws-sdk/client-dynamodb',
      '@aws-sdk/client-secrets-manager',
    ]);
    // The Keyrock import reads MySQL from the CLI (`idm import keyrock`); no function does.
    rule('no function carries the MySQL driver', figure.fn, ['mysql2']);
    // JWTs are signed on the OAuth / OpenID endpoints and verified where a bearer token is read.
    const needsJose = (r: Route) =>
      r.path.startsWith('/oauth2/') || r.path.startsWith('/.well-known/') || r.auth === 'bearer';
    if (!fnRoutes.some(needsJose)) {
      rule('not an OAuth, OpenID or bearer-token function, so no jose', figure.fn, ['jose']);
    }
  }
  return checks;
}

export async function coldStart(options: {
  runs: number;
  outDir: string;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
}): Promise<ColdStartResult> {
  // Lambda runs Node 22; this machine runs Node 20, so the bundles target the Node that runs them.
  const target = `node${process.versions.node.split('.')[0]}`;
  const byFn = new Map<string, Route[]>();
  for (const route of routes) byFn.set(route.fn, [...(byFn.get(route.fn) ?? []), route]);

  const reference = await bundle({ fn: 'reference' }, 'bench/reference.ts', options.outDir, target);
  const built: (BundleFigure & { file?: string })[] = [];
  // esbuild runs builds in parallel in its own service; the route-table order is kept.
  const results = await Promise.all(
    [...byFn].map(async ([fn, list]): Promise<BundleFigure & { file?: string }> => {
      const routeKeys = list.map((r) => `${r.method} ${r.path}`);
      try {
        const b = await bundle(list[0]!, `functions/${fn}.ts`, options.outDir, target);
        return {
          ...b,
          routes: routeKeys,
          initMs: [],
          initMedianMs: Number.NaN,
          initCpuMs: [],
          initCpuMedianMs: Number.NaN,
        };
      } catch (error) {
        // A function that does not bundle has no cold start to measure: the run stops.
        throw new WrongAnswer(
          `cold start: ${fn} (${routeKeys.join(', ')}): bundle failed: ${firstLine(error)}`,
        );
      }
    }),
  );
  built.push(...results);
  options.log(`cold start: ${built.length} functions bundled; ${options.runs} rounds of fresh processes`);

  const referenceFigure: BundleFigure & { file: string } = {
    ...reference,
    routes: [],
    initMs: [],
    initMedianMs: 0,
    initCpuMs: [],
    initCpuMedianMs: 0,
  };
  const bare: number[] = [];
  for (let round = 0; round < options.runs; round++) {
    // Interleaved: each round measures the reference and every function once, so drifting load
    // on the shared machine hits them alike.
    const [wall, cpu] = checkedImport(referenceFigure, FUNCTION_NODE_OPTIONS, options.env);
    referenceFigure.initMs.push(wall);
    referenceFigure.initCpuMs.push(cpu);
    bare.push(checkedImport(referenceFigure, '', options.env)[0]);
    for (const figure of built) {
      const [w, c] = checkedImport(figure, FUNCTION_NODE_OPTIONS, options.env);
      figure.initMs.push(w);
      figure.initCpuMs.push(c);
    }
  }
  referenceFigure.initMedianMs = median(referenceFigure.initMs);
  referenceFigure.initCpuMedianMs = median(referenceFigure.initCpuMs);
  const functions = built.map(({ file: _file, ...figure }) => ({
    ...figure,
    initMedianMs: median(figure.initMs),
    initCpuMedianMs: median(figure.initCpuMs),
  }));
  const { file: _file, ...ref } = referenceFigure;
  return {
    runs: options.runs,
    target,
    nodeOptions: FUNCTION_NODE_OPTIONS,
    reference: ref,
    functions,
    checks: checksFor(functions),
    referenceWithoutSourceMapsMs: median(bare),
  };
}
