import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { ensureBucket, ensureLocalTable } from '../../local/emulators.js';
import { localEnv } from '../../local/runtime.js';
import { createDb, type Db } from '../../shared/store/db.js';

/** A fresh table on the run's DynamoDB Local, for one test file. */
export async function testDb(): Promise<Db> {
  const endpoint = inject('dynamodbEndpoint');
  const table = `t-${randomUUID()}`;
  await ensureLocalTable(endpoint, table);
  return createDb({ table, endpoint });
}

export interface TestService {
  url: string;
  db: Db;
  bucket: string;
  close(): Promise<void>;
}

/**
 * The whole service through the local server, as `npm start` runs it, on its own table and
 * bucket. Handlers read their configuration from the environment once per process; vitest runs
 * each file in its own process, so each file gets its own service.
 */
export async function startService(extraEnv: Record<string, string> = {}): Promise<TestService> {
  const db = await testDb();
  const bucket = `b-${randomUUID().slice(0, 8)}`;
  const s3Endpoint = inject('s3Endpoint');
  await ensureBucket(s3Endpoint, bucket);
  Object.assign(
    process.env,
    localEnv({
      table: db.table,
      logoBucket: bucket,
      dynamodbEndpoint: inject('dynamodbEndpoint'),
      s3Endpoint,
    }),
    {
      IDM_BCRYPT_COST: '4',
      IDM_LOG_LEVEL: 'SILENT',
      IDM_INSECURE_COOKIES: 'true',
      // Mail goes to the run's maildev (test/support/mail.ts reads it back).
      IDM_SMTP_URL: inject('smtpUrl'),
      // Each service signs with its own key set (made on first use), never the developer's .data/.
      IDM_SIGNING_KEYS_FILE: join(tmpdir(), `gatehouse-keys-${randomUUID()}.json`),
      // Likewise the at-rest key (authenticator-app and Keyrock jwt secrets).
      IDM_AT_REST_KEY_FILE: join(tmpdir(), `gatehouse-at-rest-${randomUUID()}`),
    },
    extraEnv,
  );
  const { createLocalServer } = await import('../../local/server.js');
  const server: Server = createLocalServer({ portalDir: 'portal/dist', logoBucket: bucket });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://localhost:${port}`;
  process.env.IDM_PUBLIC_URL ??= url;
  return {
    url,
    db,
    bucket,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
