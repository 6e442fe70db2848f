import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type middy from '@middy/core';
import { buildEvent } from '../../../local/event.js';
import type { HttpEvent, HttpResult, LambdaContext } from '../../../shared/http/types.js';
import type { Db } from '../../../shared/store/db.js';
import { Doc } from '../../../shared/store/doc.js';

/**
 * Fakes for the unit tier: no DynamoDB, no network. A fake table answers GetItem by key from a
 * map and records every command, so a middleware's decisions can be checked without a server
 * (the integration tier runs the same code against DynamoDB Local).
 */
export interface FakeDb extends Db {
  sent: { name: string; input: Record<string, unknown> }[];
}

export function fakeDb(items: Record<string, Record<string, unknown>> = {}): FakeDb {
  const sent: FakeDb['sent'] = [];
  // A DynamoDBClient stand-in under the store's real document layer, answering in wire form.
  const client = {
    send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      sent.push({ name: command.constructor.name, input: command.input });
      const raw = command.input.Key as Record<string, AttributeValue> | undefined;
      if (!raw) return {};
      const key = unmarshall(raw) as { PK: string; SK: string };
      const item = items[`${key.PK}|${key.SK}`];
      return { Item: item ? marshall(item, { removeUndefinedValues: true }) : undefined };
    },
  };
  return { doc: new Doc(client as unknown as DynamoDBClient), table: 'unit', sent };
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
