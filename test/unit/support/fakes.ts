import type middy from '@middy/core';
import { buildEvent } from '../../../local/event.js';
import type { HttpEvent, HttpResult, LambdaContext } from '../../../shared/http/types.js';
import type { Db } from '../../../shared/store/db.js';

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
  const doc = {
    send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      sent.push({ name: command.constructor.name, input: command.input });
      const key = command.input.Key as { PK: string; SK: string } | undefined;
      return key ? { Item: items[`${key.PK}|${key.SK}`] } : {};
    },
  };
  return { doc: doc as unknown as Db['doc'], table: 'unit', sent };
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
