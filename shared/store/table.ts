import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { GSI1 } from './keys.js';

/**
 * The table's shape, one definition for local runs and tests; infra/ declares the same keys for
 * AWS (test/infra checks they agree). TTL on `expiresAt`.
 */
export const TABLE_SCHEMA = {
  partitionKey: 'PK',
  sortKey: 'SK',
  ttlAttribute: 'expiresAt',
  indexes: [{ name: GSI1, partitionKey: 'GSI1PK', sortKey: 'GSI1SK' }],
} as const;

export async function ensureTable(client: DynamoDBClient, table: string): Promise<'created' | 'existed'> {
  try {
    await client.send(new DescribeTableCommand({ TableName: table }));
    return 'existed';
  } catch (error) {
    if ((error as { name?: string }).name !== 'ResourceNotFoundException') throw error;
  }
  const attributes = new Set<string>([TABLE_SCHEMA.partitionKey, TABLE_SCHEMA.sortKey]);
  for (const index of TABLE_SCHEMA.indexes) {
    attributes.add(index.partitionKey);
    attributes.add(index.sortKey);
  }
  try {
    await client.send(
      new CreateTableCommand({
        TableName: table,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: TABLE_SCHEMA.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_SCHEMA.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: TABLE_SCHEMA.indexes.map((index) => ({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      }),
    );
  } catch (error) {
    // Another process created it between our describe and create.
    if ((error as { name?: string }).name !== 'ResourceInUseException') throw error;
  }
  await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: table });
  await client
    .send(
      new UpdateTimeToLiveCommand({
        TableName: table,
        TimeToLiveSpecification: { AttributeName: TABLE_SCHEMA.ttlAttribute, Enabled: true },
      }),
    )
    .catch(() => {
      // DynamoDB Local accepts but never acts on TTL; readers check expiresAt themselves.
    });
  return 'created';
}
