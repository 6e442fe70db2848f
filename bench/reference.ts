/**
 * The cold-start floor: a function holding only what every Gatehouse function must carry, a
 * DynamoDB document client and middy, created lazily on first use as shared/store/db.ts does.
 * Bundled with the same options as the real functions (infra/bundling.ts) by the benchmark.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';

let doc: DynamoDBDocumentClient | undefined;

export const handler = middy<{ id?: string }, { statusCode: number; body: string }>().handler(
  async (event) => {
    doc ??= DynamoDBDocumentClient.from(new DynamoDBClient({}));
    const out = await doc.send(new GetCommand({ TableName: 'reference', Key: { PK: event.id, SK: 'X' } }));
    return { statusCode: 200, body: JSON.stringify(out.Item ?? {}) };
  },
);
