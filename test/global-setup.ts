import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, startDynamoDbLocal, startS3 } from '../local/emulators.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
    s3Endpoint: string;
  }
}

/**
 * One DynamoDB Local (in memory) and one s3rver per test run, on free ports. Test files create
 * their own tables and buckets, so they run in parallel without seeing each other's data.
 */
export default async function setup(project: TestProject) {
  const s3Dir = mkdtempSync(join(tmpdir(), 'gatehouse-s3-'));
  const [dynamo, s3] = await Promise.all([
    freePort().then((port) => startDynamoDbLocal({ port })),
    freePort().then((port) => startS3({ port, dataDir: s3Dir })),
  ]);
  project.provide('dynamodbEndpoint', dynamo.endpoint);
  project.provide('s3Endpoint', s3.endpoint);
  return async () => {
    await Promise.allSettled([dynamo.stop(), s3.stop()]);
    rmSync(s3Dir, { recursive: true, force: true });
  };
}
