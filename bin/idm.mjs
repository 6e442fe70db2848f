#!/usr/bin/env node
// `npx idm`: registers tsx so the TypeScript CLI runs without a build step, then runs it.
import { register } from 'tsx/esm/api';

// Handlers run by `idm invoke` log through the shared logger; warnings and errors are enough here.
process.env.IDM_LOG_LEVEL ??= 'WARN';
// An error is one line on stderr; the SDK's multi-line notice about Node 20 would break that.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
register();

// stdout carries exactly one JSON object; anything else the code prints (log lines from an
// invoked handler, say) goes to stderr instead.
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (...args) => process.stderr.write(...args);

const { run } = await import('../cli/idm.ts');
const outcome = await run(process.argv.slice(2));
if (outcome.stderr) process.stderr.write(outcome.stderr);
if (outcome.stdout) write(outcome.stdout, () => process.exit(outcome.code));
else process.exit(outcome.code);
