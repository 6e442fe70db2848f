/**
 * The CDK app: `npx cdk synth` / `npx cdk deploy` run this (cdk.json). Environment-agnostic (no
 * account or region lookups), so `npm run synth` works offline and without credentials.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildPortal } from '../portal/build.js';
import { routes } from '../shared/routes.js';
import { GatehouseStack } from './stack.js';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const portalDir = join(projectRoot, 'portal', 'dist');
if (!existsSync(join(portalDir, 'index.html'))) await buildPortal(portalDir);

const app = new App();
const stackName = (app.node.tryGetContext('stackName') as string | undefined) ?? 'Gatehouse';
new GatehouseStack(app, stackName, {
  routes,
  projectRoot,
  portalDir,
  description: 'Gatehouse identity manager (FIWARE Keyrock compatible)',
});
// Every AwsSolutions finding fails the synthesis unless acknowledged with a reason in infra/.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
app.synth();
