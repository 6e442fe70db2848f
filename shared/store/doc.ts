/**
 * The document layer the repositories talk to: DynamoDB's data-plane calls with native JavaScript
 * values in and out (strings, numbers, booleans, lists, maps, `Set`s for NS/SS), over the AWS
 * JSON client (aws-json.ts), which costs about a third of the SDK's DynamoDBClient per call.
 *
 * Why not `@aws-sdk/lib-dynamodb`'s DynamoDBDocumentClient (before the SDK itself was dropped from
 * the request path): it marshals in a middleware pass of its own that walks each input and output
 * by a table of key paths, and refuses `cacheMiddleware`. Measured on the benchmark machine
 * against DynamoDB Local (2,000 GetItems after 200 warm-up, `process.cpuUsage()`, three rounds;
 * `scripts/doc-layer-cpu.ts`, medians): the document client 712 µs of CPU per call,
 * `DynamoDBClient` with `marshall`/`unmarshall` and its handler cache 622 µs, this layer on the
 * JSON client 255 µs. Here each native map is marshalled once, where it appears, and each item an
 * answer carries is unmarshalled once.
 *
 * The store keeps no binary attributes: in DynamoDB's JSON protocol a B value is base64 text, and
 * a Uint8Array given here would not be sent as one.
 *
 * Every place a command carries native values is translated: Key, Item, ExpressionAttributeValues,
 * ExclusiveStartKey, a batch's Keys, PutRequest.Item and DeleteRequest.Key, and a transaction's
 * Put, Update, Delete and ConditionCheck. Answers come back with Item, Items, Attributes,
 * LastEvaluatedKey, Responses, UnprocessedKeys and UnprocessedItems unmarshalled; numbers come
 * back as JS numbers. The legacy parameters (Expected, AttributeUpdates, KeyConditions,
 * QueryFilter, ScanFilter) are left out of the types, so nothing can pass them untranslated.
 *
 * Errors are AwsError, named by DynamoDB's error code, with the answer's fields on them
 * (ConditionalCheckFailedException, TransactionCanceledException with its CancellationReasons,
 * throttling), as the SDK named them; only the reasons' codes are read (ops.ts), so a reason's `Item` stays in
 * DynamoDB's wire form.
 */
import type {
  AttributeValue,
  BatchGetItemCommandOutput,
  BatchGetItemInput,
  BatchWriteItemCommandOutput,
  BatchWriteItemInput,
  ConditionCheck,
  Delete,
  DeleteItemCommandOutput,
  DeleteItemInput,
  GetItemCommandOutput,
  GetItemInput,
  KeysAndAttributes,
  Put,
  PutItemCommandOutput,
  PutItemInput,
  QueryInput as RawQueryInput,
  QueryCommandOutput as RawQueryOutput,
  ScanInput as RawScanInput,
  ScanCommandOutput as RawScanOutput,
  TransactWriteItem,
  TransactWriteItemsCommandOutput,
  TransactWriteItemsInput,
  Update,
  UpdateItemCommandOutput,
  UpdateItemInput,
  WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { marshall, type NativeAttributeValue, unmarshall } from '@aws-sdk/util-dynamodb';
import type { AwsJsonClient, Json } from './aws-json.js';

/** An item, key or set of expression values in native JavaScript values. */
export type NativeItem = Record<string, NativeAttributeValue>;
type Raw = Record<string, AttributeValue>;

/** `T` with the members of `N` replacing its own (the wire-form members made native). */
type With<T, N> = Omit<T, keyof N> & N;
type Values = { ExpressionAttributeValues?: NativeItem | undefined };
type Legacy = 'Expected' | 'AttributeUpdates' | 'KeyConditions' | 'QueryFilter' | 'ScanFilter';
/** ItemCollectionMetrics is never asked for; left out rather than returned in wire form. */
type Unasked = 'ItemCollectionMetrics';

export type GetInput = With<GetItemInput, { Key: NativeItem }>;
export type GetOutput = With<GetItemCommandOutput, { Item?: NativeItem }>;
export type PutInput = With<Omit<PutItemInput, Legacy>, { Item: NativeItem } & Values>;
export type PutOutput = With<Omit<PutItemCommandOutput, Unasked>, { Attributes?: NativeItem }>;
export type UpdateInput = With<Omit<UpdateItemInput, Legacy>, { Key: NativeItem } & Values>;
export type UpdateOutput = With<Omit<UpdateItemCommandOutput, Unasked>, { Attributes?: NativeItem }>;
export type DeleteInput = With<Omit<DeleteItemInput, Legacy>, { Key: NativeItem } & Values>;
export type DeleteOutput = With<Omit<DeleteItemCommandOutput, Unasked>, { Attributes?: NativeItem }>;
export type QueryInput = With<
  Omit<RawQueryInput, Legacy>,
  { ExclusiveStartKey?: NativeItem | undefined } & Values
>;
export type QueryOutput = With<RawQueryOutput, { Items?: NativeItem[]; LastEvaluatedKey?: NativeItem }>;
export type ScanInput = With<
  Omit<RawScanInput, Legacy>,
  { ExclusiveStartKey?: NativeItem | undefined } & Values
>;
export type ScanOutput = With<RawScanOutput, { Items?: NativeItem[]; LastEvaluatedKey?: NativeItem }>;

export type BatchKeys = With<KeysAndAttributes, { Keys: NativeItem[] }>;
export type BatchGetInput = With<BatchGetItemInput, { RequestItems: Record<string, BatchKeys> }>;
export type BatchGetOutput = With<
  BatchGetItemCommandOutput,
  { Responses?: Record<string, NativeItem[]>; UnprocessedKeys?: Record<string, BatchKeys> }
>;
export interface BatchWriteRequest {
  PutRequest?: { Item: NativeItem } | undefined;
  DeleteRequest?: { Key: NativeItem } | undefined;
}
export type BatchWriteInput = With<
  BatchWriteItemInput,
  { RequestItems: Record<string, BatchWriteRequest[]> }
>;
export type BatchWriteOutput = With<
  Omit<BatchWriteItemCommandOutput, Unasked>,
  { UnprocessedItems?: Record<string, BatchWriteRequest[]> }
>;

/** One item of a TransactWriteItems, in native values. */
export interface TransactItem {
  ConditionCheck?: With<ConditionCheck, { Key: NativeItem } & Values> | undefined;
  Put?: With<Put, { Item: NativeItem } & Values> | undefined;
  Delete?: With<Delete, { Key: NativeItem } & Values> | undefined;
  Update?: With<Update, { Key: NativeItem } & Values> | undefined;
}
export type TransactWriteInput = With<TransactWriteItemsInput, { TransactItems: TransactItem[] }>;
export type TransactWriteOutput = Omit<TransactWriteItemsCommandOutput, Unasked>;

/** As the document client was configured: drop undefined members, refuse class instances. */
const MARSHALL = { removeUndefinedValues: true, convertClassInstanceToMap: false } as const;

const toRaw = (value: NativeItem): Raw => marshall(value, MARSHALL);
const toNative = (value: Raw): NativeItem => unmarshall(value);
const valuesToRaw = (values: NativeItem | undefined): Raw | undefined =>
  values === undefined ? undefined : toRaw(values);
const perTable = <A, B>(byTable: Record<string, A>, map: (a: A) => B): Record<string, B> => {
  const out: Record<string, B> = {};
  for (const [table, value] of Object.entries(byTable)) out[table] = map(value);
  return out;
};
const keysToRaw = (k: BatchKeys): KeysAndAttributes => ({ ...k, Keys: k.Keys.map(toRaw) });
const keysToNative = (k: KeysAndAttributes): BatchKeys => ({ ...k, Keys: (k.Keys ?? []).map(toNative) });
const writeToRaw = (w: BatchWriteRequest): WriteRequest => ({
  ...(w.PutRequest ? { PutRequest: { Item: toRaw(w.PutRequest.Item) } } : {}),
  ...(w.DeleteRequest ? { DeleteRequest: { Key: toRaw(w.DeleteRequest.Key) } } : {}),
});
const writeToNative = (w: WriteRequest): BatchWriteRequest => ({
  ...(w.PutRequest?.Item ? { PutRequest: { Item: toNative(w.PutRequest.Item) } } : {}),
  ...(w.DeleteRequest?.Key ? { DeleteRequest: { Key: toNative(w.DeleteRequest.Key) } } : {}),
});
/** A command part naming an item by key, with its expression values, in wire form. */
const keyedToRaw = <T extends { Key: NativeItem } & Values>(part: T) => ({
  ...part,
  Key: toRaw(part.Key),
  ExpressionAttributeValues: valuesToRaw(part.ExpressionAttributeValues),
});
/** A command part carrying a whole item, with its expression values, in wire form. */
const itemToRaw = <T extends { Item: NativeItem } & Values>(part: T) => ({
  ...part,
  Item: toRaw(part.Item),
  ExpressionAttributeValues: valuesToRaw(part.ExpressionAttributeValues),
});
/** A Query's or Scan's input, its start key and expression values in wire form. */
const pageToRaw = <T extends { ExclusiveStartKey?: NativeItem | undefined } & Values>(input: T) => ({
  ...input,
  ExclusiveStartKey: valuesToRaw(input.ExclusiveStartKey),
  ExpressionAttributeValues: valuesToRaw(input.ExpressionAttributeValues),
});
const transactToRaw = (t: TransactItem): TransactWriteItem => ({
  ...(t.ConditionCheck ? { ConditionCheck: keyedToRaw(t.ConditionCheck) } : {}),
  ...(t.Put ? { Put: itemToRaw(t.Put) } : {}),
  ...(t.Delete ? { Delete: keyedToRaw(t.Delete) } : {}),
  ...(t.Update ? { Update: keyedToRaw(t.Update) } : {}),
});

/** A single-item write's answer, its Attributes (ReturnValues) made native. */
function withNativeAttributes<O extends { Attributes?: Raw | undefined }>({ Attributes, ...out }: O) {
  return Attributes ? { ...out, Attributes: toNative(Attributes) } : out;
}

/** A Query's or Scan's page, its items and its last key made native. */
function nativePage<O extends { Items?: Raw[] | undefined; LastEvaluatedKey?: Raw | undefined }>({
  Items,
  LastEvaluatedKey,
  ...out
}: O) {
  return {
    ...out,
    ...(Items ? { Items: Items.map((item) => toNative(item)) } : {}),
    ...(LastEvaluatedKey ? { LastEvaluatedKey: toNative(LastEvaluatedKey) } : {}),
  };
}

/**
 * DynamoDB with native values, one method per operation the store uses, over the AWS JSON client
 * (aws-json.ts): each call is one `DynamoDB_20120810.<Operation>` request whose body is the
 * wire-form input. Interceptors on `client` (metrics.ts, the benchmark's canned store, tests'
 * faults) see every call in wire form.
 */
export class Doc {
  constructor(readonly client: AwsJsonClient) {}

  destroy(): void {
    this.client.destroy();
  }

  private send<O>(operation: string, input: object): Promise<O> {
    return this.client.call(operation, input as Json) as Promise<O>;
  }

  async get(input: GetInput): Promise<GetOutput> {
    const { Item, ...out } = await this.send<GetItemCommandOutput>('GetItem', {
      ...input,
      Key: toRaw(input.Key),
    });
    return Item ? { ...out, Item: toNative(Item) } : out;
  }

  async put(input: PutInput): Promise<PutOutput> {
    return withNativeAttributes(await this.send<PutItemCommandOutput>('PutItem', itemToRaw(input)));
  }

  async update(input: UpdateInput): Promise<UpdateOutput> {
    return withNativeAttributes(await this.send<UpdateItemCommandOutput>('UpdateItem', keyedToRaw(input)));
  }

  async delete(input: DeleteInput): Promise<DeleteOutput> {
    return withNativeAttributes(await this.send<DeleteItemCommandOutput>('DeleteItem', keyedToRaw(input)));
  }

  async query(input: QueryInput): Promise<QueryOutput> {
    return nativePage(await this.send<RawQueryOutput>('Query', pageToRaw(input)));
  }

  async scan(input: ScanInput): Promise<ScanOutput> {
    return nativePage(await this.send<RawScanOutput>('Scan', pageToRaw(input)));
  }

  async batchGet(input: BatchGetInput): Promise<BatchGetOutput> {
    const { Responses, UnprocessedKeys, ...out } = await this.send<BatchGetItemCommandOutput>(
      'BatchGetItem',
      {
        ...input,
        RequestItems: perTable(input.RequestItems, keysToRaw),
      },
    );
    return {
      ...out,
      ...(Responses ? { Responses: perTable(Responses, (items) => items.map(toNative)) } : {}),
      ...(UnprocessedKeys ? { UnprocessedKeys: perTable(UnprocessedKeys, keysToNative) } : {}),
    };
  }

  async batchWrite(input: BatchWriteInput): Promise<BatchWriteOutput> {
    const { UnprocessedItems, ...out } = await this.send<BatchWriteItemCommandOutput>('BatchWriteItem', {
      ...input,
      RequestItems: perTable(input.RequestItems, (writes) => writes.map(writeToRaw)),
    });
    return UnprocessedItems
      ? { ...out, UnprocessedItems: perTable(UnprocessedItems, (writes) => writes.map(writeToNative)) }
      : out;
  }

  transactWrite(input: TransactWriteInput): Promise<TransactWriteOutput> {
    return this.send<TransactWriteOutput>('TransactWriteItems', {
      ...input,
      TransactItems: input.TransactItems.map(transactToRaw),
    });
  }
}
