/**
 * The same canned answers as mock-store.ts (its cannedTable), one layer lower: a request handler
 * in place of the HTTP client, so the whole SDK stack runs under the document layer (JSON
 * serialisation, endpoint resolution, SigV4 signing, retries, response parsing) and only the
 * network is gone. Together with the aws-sdk-client-mock figures, which already include the
 * document layer's marshalling, it shows what the SDK client's own work costs per request.
 * Queries are answered in DynamoDB's order (sort keys by code unit, not by the locale).
 */
import type { Db } from '../shared/store/db.js';
import type { Item } from '../shared/store/ops.js';
import { cannedTable } from './mock-store.js';

interface FakeRequest {
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

export function wireFromSnapshot(items: Item[], db: Db): { restore(): void } {
  const answer = cannedTable(items, db.table);
  const config = db.doc.client.config as unknown as { requestHandler: unknown };
  const original = config.requestHandler;
  config.requestHandler = {
    handle: async (request: FakeRequest) => {
      const operation = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      const text =
        typeof request.body === 'string'
          ? request.body
          : new TextDecoder().decode(request.body ?? new Uint8Array());
      const body = Buffer.from(JSON.stringify(answer(operation, JSON.parse(text || '{}'))));
      return {
        response: {
          statusCode: 200,
          reason: 'OK',
          headers: { 'content-type': 'application/x-amz-json-1.0', 'content-length': String(body.length) },
          body: new Uint8Array(body),
        },
      };
    },
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
    destroy: () => undefined,
  };
  // The client keeps its resolved handlers, request handler included (cacheMiddleware).
  db.doc.reconfigured();
  return {
    restore: () => {
      config.requestHandler = original;
      db.doc.reconfigured();
    },
  };
}
