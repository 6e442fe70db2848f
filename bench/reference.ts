/**
 * The cold-start floor the budget is set against: a function holding the AWS SDK's DynamoDB client
 * (what every function carried before the store spoke DynamoDB's JSON protocol itself,
 * shared/store/aws-json.ts), with `marshall`/`unmarshall` and middy, its client created lazily on
 * first use. Bundled with the same options as the real functions (infra/bundling.ts) by the
 * benchmark.
 */
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import middy from '@middy/core';

let client: DynamoDBClient | undefined;

export const handler = middy<{ id?: string }, { statusCode: number; body: string }>().handler(
  async (event) => {
    client ??= new DynamoDBClient({ cacheMiddleware: true });
    const out = await client.send(
      new GetItemCommand({ TableName: 'reference', Key: marshall({ PK: event.id, SK: 'X' }) }),
    );
    return { statusCode: 200, body: JSON.stringify(out.Item ? unmarshall(out.Item) : {}) };
  },
);
