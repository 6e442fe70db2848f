/**
 * Builds the stack in-process for tests: the same GatehouseStack that infra/app.ts deploys, with
 * a caller-chosen route table, portal directory and context. `bundle: false` sets CDK's own
 * `aws:cdk:bundling-stacks` context to none, so esbuild never runs (for tests that only vary
 * settings; test/infra.test.ts synthesizes once with real bundling).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App } from 'aws-cdk-lib';
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
  readonly template: Template;
  readonly outdir: string;
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
  return { app, stack, template: Template.fromStack(stack), outdir };
}
