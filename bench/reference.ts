/**
 * The cold-start floor: a function holding only what every Gatehouse function must carry, a
 * DynamoDB client under the store's document layer (shared/store/doc.ts) and middy, created
 * lazily on first use as shared/store/db.ts does. Bundled with the same options as the real
 * functions (infra/bundling.ts) by the benchmark.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import middy from '@middy/core';
import { Doc } from '../shared/store/doc.js';

let doc: Doc | undefined;

export const handler = middy<{ id?: string }, { statusCode: number; body: string }>().handler(
  async (event) => {
    doc ??= new Doc(new DynamoDBClient({ cacheMiddleware: true }));
    const out = await doc.get({ TableName: 'reference', Key: { PK: event.id, SK: 'X' } });
    return { statusCode: 200, body: JSON.stringify(out.Item ?? {}) };
  },
);
