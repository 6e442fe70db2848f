import type { Doc } from './doc.js';

/**
 * Opt-in DynamoDB work counter for the benchmark (`npm run bench`) and for tests that want to
 * prove a round-trip budget. Nothing here runs unless `countDynamoDb(db.doc)` is called: the
 * middleware is added to that one client's stack and removed again by `stop()`, so production
 * handlers pay nothing for it. The client caches its resolved stack (`cacheMiddleware`), so both
 * tell the document layer to drop that cache (Doc.reconfigured).
 *
 * What it counts, per command sent (retries inside the SDK are one call):
 * - calls, by command name (a Scan is visible here, and must never appear on a request path);
 * - consumed capacity: it sets `ReturnConsumedCapacity: 'TOTAL'` on every data-plane command
 *   and adds up what DynamoDB reports (read and write units are told apart by the command;
 *   transactions are counted at AWS's rate, which DynamoDB Local under-reports);
 * - sequential round trips: the number of times the count of in-flight calls rises from 0.
 *   Calls started while another is in flight overlap and share a round trip; a call that waits
 *   for a previous answer starts a new one. For a request that awaits A, then runs B ‖ C, then D,
 *   that is 3.
 */
export interface DynamoDbWork {
  calls: number;
  byCommand: Record<string, number>;
  readUnits: number;
  writeUnits: number;
  roundTrips: number;
}

export interface DynamoDbCounter {
  /** The work counted since the last reset (a copy). */
  read(): DynamoDbWork;
  reset(): void;
  /** Removes the middleware; the client behaves as before. */
  stop(): void;
}

const NAME = 'gatehouseWorkCounter';

/** Commands that accept ReturnConsumedCapacity, and whether their units are writes. */
const DATA_PLANE: Record<string, 'read' | 'write'> = {
  GetItemCommand: 'read',
  BatchGetItemCommand: 'read',
  QueryCommand: 'read',
  ScanCommand: 'read',
  TransactGetItemsCommand: 'read',
  PutItemCommand: 'write',
  UpdateItemCommand: 'write',
  DeleteItemCommand: 'write',
  BatchWriteItemCommand: 'write',
  TransactWriteItemsCommand: 'write',
};

interface Capacity {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

function units(consumed: Capacity | Capacity[] | undefined, kind: 'read' | 'write'): [number, number] {
  let read = 0;
  let write = 0;
  for (const c of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
    // DynamoDB splits read/write units only for some commands; otherwise the command's kind decides.
    if (c.ReadCapacityUnits !== undefined || c.WriteCapacityUnits !== undefined) {
      read += c.ReadCapacityUnits ?? 0;
      write += c.WriteCapacityUnits ?? 0;
    } else if (kind === 'read') read += c.CapacityUnits ?? 0;
    else write += c.CapacityUnits ?? 0;
  }
  return [read, write];
}

function empty(): DynamoDbWork {
  return { calls: 0, byCommand: {}, readUnits: 0, writeUnits: 0, roundTrips: 0 };
}

export function countDynamoDb(doc: Doc): DynamoDbCounter {
  let work = empty();
  let inFlight = 0;
  const stack = doc.client.middlewareStack;
  stack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName ?? 'unknown');
      const kind = DATA_PLANE[command];
      if (kind) (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      work.calls++;
      work.byCommand[command] = (work.byCommand[command] ?? 0) + 1;
      if (inFlight === 0) work.roundTrips++;
      inFlight++;
      const counted = work;
      try {
        const result = await next(args);
        if (kind) {
          const output = result.output as { ConsumedCapacity?: Capacity | Capacity[] };
          let [r, w] = units(output.ConsumedCapacity, kind);
          // DynamoDB Local under-reports transactions; AWS bills 2 units per item of up to 1 KB
          // (transactional reads and writes cost double) plus 1 per index entry a Put writes, so
          // the larger figure is kept.
          const items = (args.input as { TransactItems?: { Put?: { Item?: object } }[] }).TransactItems ?? [];
          const indexed = items.filter((i) =>
            Object.keys(i.Put?.Item ?? {}).some((k) => /^GSI\d+PK$/.test(k)),
          );
          if (command === 'TransactWriteItemsCommand') w = Math.max(w, 2 * items.length + indexed.length);
          if (command === 'TransactGetItemsCommand') r = Math.max(r, 2 * items.length);
          counted.readUnits += r;
          counted.writeUnits += w;
        }
        return result;
      } finally {
        inFlight--;
      }
    },
    { step: 'initialize', name: NAME, override: true },
  );
  doc.reconfigured();
  return {
    read: () => ({ ...work, byCommand: { ...work.byCommand } }),
    reset: () => {
      work = empty();
    },
    stop: () => {
      stack.remove(NAME);
      doc.reconfigured();
    },
  };
}
