import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type middy from '@middy/core';
import { buildEvent } from '../../../local/event.js';
import type { HttpEvent, HttpResult, LambdaContext } from '../../../shared/http/types.js';
import { AwsJsonClient } from '../../../shared/store/aws-json.js';
import type { Db } from '../../../shared/store/db.js';
import { Doc } from '../../../shared/store/doc.js';

/**
 * Fakes for the unit tier: no DynamoDB, no network. A fake table answers GetItem by key from a
 * map and records every operation, so a middleware's decisions can be checked without a server
 * (the integration tier runs the same code against DynamoDB Local).
 */
export interface FakeDb extends Db {
  sent: { name: string; input: Record<string, unknown> }[];
}

export function fakeDb(items: Record<string, Record<string, unknown>> = {}): FakeDb {
  const sent: FakeDb['sent'] = [];
  // The store's real document layer and client; an interceptor answers in wire form, no network.
  const client = new AwsJsonClient({
    service: 'dynamodb',
    json: { targetPrefix: 'DynamoDB_20120810', version: '1.0' },
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:9',
    credentials: { accessKeyId: 'unit', secretAccessKey: 'unit' },
  });
  client.use(async (operation, input) => {
    sent.push({ name: operation, input });
    const raw = input.Key as Record<string, AttributeValue> | undefined;
    if (!raw) return {};
    const key = unmarshall(raw) as { PK: string; SK: string };
    const item = items[`${key.PK}|${key.SK}`];
    return item ? { Item: marshall(item, { removeUndefinedValues: true }) } : {};
  });
  return { doc: new Doc(client), table: 'unit', sent };
}

export function event(
  method: string,
  url: string,
  headers: Record<string, string> = {},
  body = '',
): HttpEvent {
  const rawHeaders = Object.entries({ host: 'localhost', ...headers }).flat();
  return buildEvent({ method, url, rawHeaders, body: Buffer.from(body) }, { method, path: url }, {});
}

export type Request = middy.Request<HttpEvent, HttpResult, Error, LambdaContext>;

/** The request object middy hands each middleware. */
export function request(e: HttpEvent, response?: HttpResult): Request {
  return {
    event: e,
    context: { awsRequestId: 'req-1' } as LambdaContext,
    response: response as HttpResult,
    error: null as unknown as Error,
    internal: {},
  };
}
