import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { config } from '../config.js';
import { Doc } from './doc.js';

/** A table handle: the document layer (doc.ts) and the table it works on. Repositories take one. */
export interface Db {
  readonly doc: Doc;
  readonly table: string;
}

export interface DbOptions {
  table: string;
  endpoint?: string | undefined;
  region?: string;
}

export function createDb(options: DbOptions): Db {
  const client = new DynamoDBClient({
    region: options.region ?? process.env.AWS_REGION ?? 'us-east-1',
    ...(options.endpoint
      ? { endpoint: options.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
    maxAttempts: 4,
    // Resolve each command's middleware stack once, not on every send: about 60 µs of CPU per
    // call on the benchmark machine (doc.ts has the figures).
    cacheMiddleware: true,
  });
  return { doc: new Doc(client), table: options.table };
}

let cached: Db | undefined;

/** The process-wide handle from configuration, created once per Lambda container. */
export function db(): Db {
  if (!cached) {
    const c = config();
    cached = createDb({ table: c.tableName, endpoint: c.dynamodbEndpoint, region: c.region });
  }
  return cached;
}
