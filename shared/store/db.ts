import { config } from '../config.js';
import { AwsJsonClient, defaultCredentials } from './aws-json.js';
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

/** DynamoDB Local accepts any credentials; these sign its requests. */
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

export function createDb(options: DbOptions): Db {
  const client = new AwsJsonClient({
    service: 'dynamodb',
    json: { targetPrefix: 'DynamoDB_20120810', version: '1.0' },
    region: options.region ?? process.env.AWS_REGION ?? 'us-east-1',
    endpoint: options.endpoint,
    credentials: options.endpoint ? LOCAL_CREDENTIALS : defaultCredentials(),
    maxAttempts: 4,
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
