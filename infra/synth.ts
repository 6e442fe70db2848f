/**
 * Builds the stack in-process for tests: the same GatehouseStack that infra/app.ts deploys, with
 * a caller-chosen route table, portal directory and context. `bundle: false` sets CDK's own
 * `aws:cdk:bundling-stacks` context to none, so esbuild never runs (for tests that only vary
 * settings; test/infra.test.ts synthesizes once with real bundling). The route functions live in
 * nested stacks (one per API area); `template` reads parent and nested stacks as one.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, type CfnElement, type NestedStack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { type Route, routes as routeTable } from '../shared/routes.js';
import { GatehouseStack } from './stack.js';

export const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface SynthOptions {
  readonly context?: Record<string, unknown>;
  readonly routes?: readonly Route[];
  readonly bundle?: boolean;
}

export interface Synthesized {
  readonly app: App;
  readonly stack: GatehouseStack;
  /**
   * The whole deployment read as one template: the parent's resources and every area nested
   * stack's, each nested parameter replaced by what the parent passes it (so a function's
   * `IDM_TABLE_NAME` reads `{ Ref: <table> }` as it would in a single stack). Outputs are the
   * parent's. For per-template facts (resource counts) use `templates`.
   */
  readonly template: Template;
  /** Each deployed template by stack: the parent's under its id, each area's under its construct id. */
  readonly templates: ReadonlyMap<string, Template>;
  readonly outdir: string;
}

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON is untyped.
type Json = any;

/** `{ Ref: parameter }` replaced by the parent's value for it, throughout a template fragment. */
function substitute(node: Json, parameters: Record<string, Json>): Json {
  if (Array.isArray(node)) return node.map((n) => substitute(n, parameters));
  if (!node || typeof node !== 'object') return node;
  const keys = Object.keys(node);
  if (keys.length === 1 && keys[0] === 'Ref' && node.Ref in parameters) return parameters[node.Ref];
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, substitute(v, parameters)]));
}

/** The parent template with every nested stack's resources merged in (logical IDs never clash). */
function mergeTemplates(stack: GatehouseStack, parent: Template, nested: Map<string, Template>): Template {
  const json: Json = parent.toJSON();
  const resources: Record<string, Json> = { ...json.Resources };
  for (const [id, template] of nested) {
    const area = stack.node.findChild(id) as NestedStack;
    const resourceId = stack.getLogicalId(area.nestedStackResource as CfnElement);
    const parameters: Record<string, Json> = resources[resourceId].Properties.Parameters ?? {};
    for (const [logicalId, resource] of Object.entries(template.toJSON().Resources as Record<string, Json>)) {
      if (logicalId in resources) throw new Error(`${id} and another template both define ${logicalId}.`);
      resources[logicalId] = substitute(resource, parameters);
    }
  }
  return Template.fromJSON({ ...json, Resources: resources });
}

/** A stand-in portal build, so tests never race a concurrent `npm run build:portal`. */
function stubPortal(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-portal-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Gatehouse</title>');
  return dir;
}

export function synthesize(options: SynthOptions = {}): Synthesized {
  const outdir = mkdtempSync(join(tmpdir(), 'gatehouse-cdk-'));
  const app = new App({
    outdir,
    context: {
      ...(options.bundle === false ? { 'aws:cdk:bundling-stacks': [] } : {}),
      ...options.context,
    },
  });
  const stack = new GatehouseStack(app, 'Gatehouse', {
    routes: options.routes ?? routeTable,
    projectRoot,
    portalDir: stubPortal(),
  });
  const parent = Template.fromStack(stack);
  const nested = new Map<string, Template>();
  for (const area of stack.areas.values()) nested.set(area.node.id, Template.fromStack(area));
  const templates = new Map<string, Template>([[stack.node.id, parent], ...nested]);
  return { app, stack, template: mergeTemplates(stack, parent, nested), templates, outdir };
}
