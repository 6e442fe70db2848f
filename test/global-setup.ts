import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, startDynamoDbLocal, startMailCatcher, startS3 } from '../local/emulators.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
    s3Endpoint: string;
    /** maildev: the service sends here (IDM_SMTP_URL); tests read mail from its HTTP API. */
    smtpUrl: string;
    mailWebUrl: string;
  }
}

/**
 * One DynamoDB Local (in memory), one s3rver and one maildev per test run, on free ports. Test files create
 * their own tables and buckets, so they run in parallel without seeing each other's data.
 *
 * Every temporary file the run makes (key files, data directories, CDK's synthesized assets at
 * ~180 MB a synthesis, Chromium profiles, MariaDB data) goes under one directory removed at the
 * end: TMPDIR is set before the test processes are forked, so they inherit it and `os.tmpdir()`
 * answers it everywhere, in child processes too.
 */
export default async function setup(project: TestProject) {
  const scratch = mkdtempSync(join(tmpdir(), 'gatehouse-test-'));
  process.env.TMPDIR = scratch;
  const s3Dir = mkdtempSync(join(scratch, 's3-'));
  const [dynamo, s3, mail] = await Promise.all([
    freePort().then((port) => startDynamoDbLocal({ port })),
    freePort().then((port) => startS3({ port, dataDir: s3Dir })),
    Promise.all([freePort(), freePort()]).then(([smtpPort, webPort]) =>
      startMailCatcher({ smtpPort, webPort }),
    ),
  ]);
  project.provide('dynamodbEndpoint', dynamo.endpoint);
  project.provide('s3Endpoint', s3.endpoint);
  project.provide('smtpUrl', mail.smtpUrl);
  project.provide('mailWebUrl', mail.webUrl);
  return async () => {
    await Promise.allSettled([dynamo.stop(), s3.stop(), mail.stop()]);
    rmSync(scratch, { recursive: true, force: true });
  };
}
