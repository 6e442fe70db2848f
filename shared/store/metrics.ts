import type { Doc } from './doc.js';

/**
 * Opt-in DynamoDB work counter for the benchmark (`npm run bench`) and for tests that want to
 * prove a round-trip budget. Nothing here runs unless `countDynamoDb(db.doc)` is called: an
 * interceptor is added to that one client and removed again by `stop()`, so production handlers
 * pay nothing for it.
 *
 * What it counts, per operation called (the client's retries are one call):
 * - calls, by DynamoDB operation (a Scan is visible here, and must never appear on a request path);
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
  /** Removes the interceptor; the client behaves as before. */
  stop(): void;
}

/** Operations that accept ReturnConsumedCapacity, and whether their units are writes. */
const DATA_PLANE: Record<string, 'read' | 'write'> = {
  GetItem: 'read',
  BatchGetItem: 'read',
  Query: 'read',
  Scan: 'read',
  TransactGetItems: 'read',
  PutItem: 'write',
  UpdateItem: 'write',
  DeleteItem: 'write',
  BatchWriteItem: 'write',
  TransactWriteItems: 'write',
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
  const remove = doc.client.use(async (operation, input, next) => {
    const kind = DATA_PLANE[operation];
    work.calls++;
    work.byCommand[operation] = (work.byCommand[operation] ?? 0) + 1;
    if (inFlight === 0) work.roundTrips++;
    inFlight++;
    const counted = work;
    try {
      const output = await next(kind ? { ...input, ReturnConsumedCapacity: 'TOTAL' } : input);
      if (kind) {
        let [r, w] = units(output.ConsumedCapacity as Capacity | Capacity[] | undefined, kind);
        // DynamoDB Local under-reports transactions; AWS bills 2 units per item of up to 1 KB
        // (transactional reads and writes cost double) plus 1 per index entry a Put writes, so
        // the larger figure is kept.
        const items = (input.TransactItems ?? []) as { Put?: { Item?: object } }[];
        const indexed = items.filter((i) => Object.keys(i.Put?.Item ?? {}).some((k) => /^GSI\d+PK$/.test(k)));
        if (operation === 'TransactWriteItems') w = Math.max(w, 2 * items.length + indexed.length);
        if (operation === 'TransactGetItems') r = Math.max(r, 2 * items.length);
        counted.readUnits += r;
        counted.writeUnits += w;
      }
      return output;
    } finally {
      inFlight--;
    }
  });
  return {
    read: () => ({ ...work, byCommand: { ...work.byCommand } }),
    reset: () => {
      work = empty();
    },
    stop: remove,
  };
}
