/**
 * `npm start`: the whole service on one machine. DynamoDB Local and s3rver keep their data under
 * DATA_DIR (default .data/), the table and bucket are created when missing, and one HTTP server
 * runs the same handlers Lambda runs. Ctrl-C stops everything, Java included.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Emulator,
  ensureBucket,
  ensureLocalTable,
  portFree,
  StartupError,
  startDynamoDbLocal,
  startMailCatcher,
  startS3,
} from './emulators.js';
import { clearRuntime, dataDir, LOCAL, localEnv, writeRuntime } from './runtime.js';

function port(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw ? Number(raw) : fallback;
  if (!Number.isInteger(value) || value < 1 || value > 65535)
    throw new StartupError(`${name} must be a port number, got "${raw}".`);
  return value;
}

async function main(): Promise<void> {
  // The SDK's eight-line notice about Node 20 would bury the one line saying where we listen.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const httpPort = port('PORT', 3000);
  const dynamoPort = port('DYNAMODB_PORT', 8000);
  const s3Port = port('S3_PORT', 4569);
  const mailPort = port('MAIL_PORT', 1025);
  const mailWebPort = port('MAIL_WEB_PORT', 1080);
  for (const [name, p] of [
    ['PORT', httpPort],
    ['DYNAMODB_PORT', dynamoPort],
    ['S3_PORT', s3Port],
    ['MAIL_PORT', mailPort],
    ['MAIL_WEB_PORT', mailWebPort],
  ] as const) {
    if (!(await portFree(p)))
      throw new StartupError(
        `Port ${p} is already in use; stop what holds it or set ${name} to another port.`,
      );
  }
  const dir = dataDir();
  const running: Emulator[] = [];
  const stopAll = async () => {
    clearRuntime(dir);
    await Promise.allSettled(running.map((e) => e.stop()));
  };
  try {
    const dynamo = await startDynamoDbLocal({ port: dynamoPort, dataDir: join(dir, 'dynamodb') });
    running.push(dynamo);
    const s3 = await startS3({ port: s3Port, dataDir: join(dir, 's3') });
    running.push(s3);
    const mail = await startMailCatcher({
      smtpPort: mailPort,
      webPort: mailWebPort,
      dataDir: join(dir, 'mail'),
    });
    running.push(mail);
    const url = `http://localhost:${httpPort}`;
    const env = localEnv({
      table: LOCAL.table,
      logoBucket: LOCAL.logoBucket,
      dynamodbEndpoint: dynamo.endpoint,
      s3Endpoint: s3.endpoint,
      url,
    });
    Object.assign(process.env, env, {
      IDM_INSECURE_COOKIES: process.env.IDM_INSECURE_COOKIES ?? 'true',
      IDM_SMTP_URL: mail.smtpUrl,
    });
    process.env.IDM_LOG_LEVEL ??= 'WARN';

    await ensureLocalTable(dynamo.endpoint, LOCAL.table);
    await ensureBucket(s3.endpoint, LOCAL.logoBucket);

    const portalDir = join(process.cwd(), 'portal', 'dist');
    if (!existsSync(join(portalDir, 'index.html'))) {
      const { buildPortal } = await import('../portal/build.js');
      await buildPortal();
    }
    const { createLocalServer } = await import('./server.js');
    const server = createLocalServer({
      portalDir,
      logoBucket: LOCAL.logoBucket,
      log: (line) => console.log(line),
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(httpPort, '127.0.0.1', resolve);
    });
    writeRuntime(dir, {
      pid: process.pid,
      url,
      dynamodbEndpoint: dynamo.endpoint,
      s3Endpoint: s3.endpoint,
      table: LOCAL.table,
      logoBucket: LOCAL.logoBucket,
    });
    console.log(
      `Gatehouse is listening on ${url} (mail inbox on ${mail.webUrl}; data in ${dir}; Ctrl-C to stop)`,
    );

    let stopping = false;
    const shutdown = async () => {
      if (stopping) return;
      stopping = true;
      console.log('Stopping…');
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stopAll();
      process.exit(0);
    };
    process.on('SIGINT', shutdown);
    process.on('SIGTERM', shutdown);
  } catch (error) {
    await stopAll();
    throw error;
  }
}

main().catch((error: unknown) => {
  if (error instanceof StartupError) console.error(error.message);
  else console.error('Gatehouse could not start:', error);
  process.exit(1);
});
