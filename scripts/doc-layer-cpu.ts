/**
 * CPU per DynamoDB call of the store's document layer (shared/store/doc.ts over the store's AWS
 * JSON client, shared/store/aws-json.ts) against what came before it: `@aws-sdk/lib-dynamodb`'s
 * DynamoDBDocumentClient, the SDK's DynamoDBClient with `marshall`/`unmarshall` and no handler
 * cache, and the same with `cacheMiddleware: true` (the layer's first form). Each way reads the same user-profile item with GetItem:
 * per round, 200 warm-up calls then 2,000 timed ones, CPU from `process.cpuUsage()`; three rounds,
 * the ways interleaved within each so a neighbour's load falls on all of them alike, after one
 * untimed pass of every way (the JIT's own work).
 *
 * Usage: `npx tsx scripts/doc-layer-cpu.ts [endpoint]`. With an endpoint (or IDM_DYNAMODB_ENDPOINT)
 * it uses that DynamoDB Local and a table of its own, dropped at the end; without one it starts
 * DynamoDB Local on a free port and stops it. Prints one line per way and one JSON line.
 */
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { type Emulator, ensureLocalTable, freePort, startDynamoDbLocal } from '../local/emulators.js';
import { createDb } from '../shared/store/db.js';
import { keys } from '../shared/store/keys.js';

const WARMUP = 200;
const CALLS = 2_000;
const ROUNDS = 3;

const given = process.argv[2] ?? process.env.IDM_DYNAMODB_ENDPOINT;
let dynamo: Emulator | undefined;
if (!given) dynamo = await startDynamoDbLocal({ port: await freePort() });
const endpoint = given ?? dynamo!.endpoint;
const table = `doc-layer-cpu-${Date.now().toString(36)}`;

// The options shared/store/db.ts gives the client, without the handler cache.
const clientConfig = {
  region: 'us-east-1',
  endpoint,
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  maxAttempts: 4,
};
const MARSHALL = { removeUndefinedValues: true, convertClassInstanceToMap: false } as const;

try {
  await ensureLocalTable(endpoint, table);
  const db = createDb({ table, endpoint });
  const key = keys.user(1);
  await db.doc.put({
    TableName: table,
    Item: {
      ...key,
      type: 'user',
      id: 1,
      actorId: 2,
      email: 'ada@example.com',
      nickName: 'ada',
      displayName: 'Ada Lovelace',
      enabled: true,
      admin: false,
      createdAt: '2026-11-23T00:00:00.000Z',
      GSI1PK: 'USERNAME#ada',
      GSI1SK: 'USER#1',
    },
  });

  // A copy: the document client writes `convertTopLevelContainer` into the options it is given.
  const docClient = DynamoDBDocumentClient.from(new DynamoDBClient(clientConfig), {
    marshallOptions: { ...MARSHALL },
  });
  const raw = new DynamoDBClient(clientConfig);
  const cached = new DynamoDBClient({ ...clientConfig, cacheMiddleware: true });
  const ways: { name: string; get(): Promise<unknown> }[] = [
    {
      name: 'DynamoDBDocumentClient (before)',
      get: async () => (await docClient.send(new GetCommand({ TableName: table, Key: key }))).Item,
    },
    {
      name: 'DynamoDBClient + marshall, no handler cache',
      get: async () => {
        const out = await raw.send(new GetItemCommand({ TableName: table, Key: marshall(key, MARSHALL) }));
        return out.Item && unmarshall(out.Item);
      },
    },
    {
      name: 'DynamoDBClient + marshall, handler cache',
      get: async () => {
        const out = await cached.send(new GetItemCommand({ TableName: table, Key: marshall(key, MARSHALL) }));
        return out.Item && unmarshall(out.Item);
      },
    },
    {
      name: 'store document layer (JSON client)',
      get: async () => (await db.doc.get({ TableName: table, Key: key })).Item,
    },
  ];

  const figures = new Map<string, number[]>(ways.map((w) => [w.name, []]));
  // One untimed pass of every way first: the first round would otherwise carry the JIT's work.
  for (const way of ways) for (let i = 0; i < WARMUP; i++) await way.get();
  for (let round = 0; round < ROUNDS; round++) {
    for (const way of ways) {
      for (let i = 0; i < WARMUP; i++) await way.get();
      if (!(await way.get())) throw new Error(`${way.name}: the item was not read`);
      const cpu = process.cpuUsage();
      for (let i = 0; i < CALLS; i++) await way.get();
      const used = process.cpuUsage(cpu);
      figures.get(way.name)!.push((used.user + used.system) / CALLS);
    }
  }

  const result: Record<string, { usPerCall: number[]; median: number }> = {};
  for (const [name, us] of figures) {
    const sorted = [...us].sort((a, b) => a - b);
    result[name] = { usPerCall: us.map((u) => Math.round(u)), median: Math.round(sorted[1]!) };
    console.log(
      `${name.padEnd(46)} ${Math.round(sorted[0]!)}–${Math.round(sorted.at(-1)!)} µs CPU per GetItem (rounds: ${us.map((u) => Math.round(u)).join(', ')})`,
    );
  }
  console.log(
    JSON.stringify({ endpoint: given ? 'given' : 'started', calls: CALLS, warmup: WARMUP, result }),
  );
  docClient.destroy();
  raw.destroy();
  cached.destroy();
  await db.doc.client.call('DeleteTable', { TableName: table });
  db.doc.destroy();
} finally {
  await dynamo?.stop();
}
