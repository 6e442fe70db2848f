/**
 * The same canned answers as mock-store.ts (its cannedTable), one layer lower: the DynamoDB
 * client's HTTP sender is replaced, so the whole client runs under the document layer (JSON
 * serialisation, SigV4 signing, retries, response parsing) and only the network is gone.
 * Together with the mock-store figures, which already include the document layer's marshalling,
 * it shows what the client's own work costs per request. Queries are answered in DynamoDB's
 * order (sort keys by code unit, not by the locale).
 */
import type { Db } from '../shared/store/db.js';
import type { Item } from '../shared/store/ops.js';
import { cannedTable } from './mock-store.js';

export function wireFromSnapshot(items: Item[], db: Db): { restore(): void } {
  const answer = cannedTable(items, db.table);
  const client = db.doc.client;
  const original = client.send;
  client.send = async (request) => {
    const operation = String(request.headers['X-Amz-Target'] ?? '').split('.')[1] ?? '';
    const body = JSON.stringify(answer(operation, JSON.parse(request.body || '{}')));
    return {
      statusCode: 200,
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'content-length': String(Buffer.byteLength(body)),
      },
      body,
    };
  };
  return {
    restore: () => {
      client.send = original;
    },
  };
}
