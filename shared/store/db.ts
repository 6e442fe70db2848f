import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.js';

/** A table handle: the document client and the table it works on. Repositories take one. */
export interface Db {
  readonly doc: DynamoDBDocumentClient;
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
  });
  const doc = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  return { doc, table: options.table };
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
