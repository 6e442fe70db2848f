import { join } from 'node:path';
import {
  type Emulator,
  ensureBucket,
  ensureLocalTable,
  freePort,
  startDynamoDbLocal,
  startS3,
} from '../local/emulators.js';
import { dataDir, LOCAL, localEnv, readRuntime } from '../local/runtime.js';
import { config } from '../shared/config.js';
import { createDb, type Db } from '../shared/store/db.js';

/** Where `idm` reads and writes, and how to let go of it afterwards. */
export interface Target {
  db: Db;
  /** Human description for error messages ("the table gatehouse at http://…"). */
  where: string;
  close(): Promise<void>;
}

/**
 * Picks the data the CLI acts on, in this order:
 *  1. IDM_TABLE_NAME set: that table, with the usual AWS environment (IDM_DYNAMODB_ENDPOINT
 *     points at another DynamoDB, such as a test run's DynamoDB Local).
 *  2. `npm start` running from this checkout (same DATA_DIR): its emulators, found through
 *     DATA_DIR/runtime.json.
 *  3. Otherwise: DynamoDB Local started here on DATA_DIR's files (and s3rver when the command
 *     needs logos), stopped again when the command is done, so `npm start` later sees the records.
 *
 * The handlers `idm invoke` runs read the same environment (shared/config.ts), so this sets it.
 */
export async function openTarget(options: { needS3: boolean }): Promise<Target> {
  if (process.env.IDM_TABLE_NAME) return fromConfig([]);

  const dir = dataDir();
  const running = readRuntime(dir);
  if (running) {
    Object.assign(process.env, localEnv(running));
    return fromConfig([]);
  }

  const emulators: Emulator[] = [];
  try {
    const dynamo = await startDynamoDbLocal({ port: await freePort(), dataDir: join(dir, 'dynamodb') });
    emulators.push(dynamo);
    await ensureLocalTable(dynamo.endpoint, LOCAL.table);
    let s3Endpoint = '';
    if (options.needS3) {
      const s3 = await startS3({ port: await freePort(), dataDir: join(dir, 's3') });
      emulators.push(s3);
      await ensureBucket(s3.endpoint, LOCAL.logoBucket);
      s3Endpoint = s3.endpoint;
    }
    Object.assign(
      process.env,
      localEnv({
        table: LOCAL.table,
        logoBucket: LOCAL.logoBucket,
        dynamodbEndpoint: dynamo.endpoint,
        s3Endpoint,
      }),
    );
    return fromConfig(emulators);
  } catch (error) {
    await Promise.allSettled(emulators.map((e) => e.stop()));
    throw error;
  }
}

function fromConfig(emulators: Emulator[]): Target {
  const c = config();
  const db = createDb({ table: c.tableName, endpoint: c.dynamodbEndpoint, region: c.region });
  return {
    db,
    where: `table "${c.tableName}"${c.dynamodbEndpoint ? ` at ${c.dynamodbEndpoint}` : ` in ${c.region}`}`,
    close: async () => {
      db.doc.destroy();
      // Reverse order: s3rver first, then DynamoDB Local.
      for (const e of emulators.reverse()) await e.stop().catch(() => undefined);
    },
  };
}
