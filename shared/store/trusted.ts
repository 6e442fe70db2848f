import type { Db } from './db.js';
import { keys } from './keys.js';
import { batchGet, writtenIf } from './ops.js';

/**
 * Trusted applications (Keyrock's `trusted_application` rows): the client ids an application
 * accepts tokens of at GET /user?app_id=. They are a list on the application's client item
 * (`trusted`), the item GET /user already reads for `app_id`, so the trust check costs no read of
 * its own (docs/data-model.md). At most MAX_TRUSTED per application.
 */
export const MAX_TRUSTED = 100;

/**
 * Adds `other` to the list of `clientId`; false when it is there already (or the list is full,
 * which the caller checks first with the list it read), so two concurrent adds never duplicate it.
 */
export async function addTrusted(db: Db, clientId: string, other: string): Promise<boolean> {
  return writtenIf(
    db.doc.update({
      TableName: db.table,
      Key: keys.client(clientId),
      UpdateExpression: 'SET trusted = list_append(if_not_exists(trusted, :empty), :one)',
      ConditionExpression:
        'attribute_exists(PK) AND (attribute_not_exists(trusted) OR (NOT contains(trusted, :other) AND size(trusted) < :max))',
      ExpressionAttributeValues: { ':empty': [], ':one': [other], ':other': other, ':max': MAX_TRUSTED },
    }),
  );
}

/**
 * Removes `other` from the list of `clientId`, found at `index` in the list the caller read; the
 * condition makes a concurrent change of the list a no-op rather than the removal of another
 * entry. False when it was not there.
 */
export async function removeTrusted(
  db: Db,
  clientId: string,
  other: string,
  index: number,
): Promise<boolean> {
  if (!Number.isInteger(index) || index < 0) return false;
  return writtenIf(
    db.doc.update({
      TableName: db.table,
      Key: keys.client(clientId),
      UpdateExpression: `REMOVE trusted[${index}]`,
      ConditionExpression: `trusted[${index}] = :other`,
      ExpressionAttributeValues: { ':other': other },
    }),
  );
}

/** The names of these clients' applications, in one BatchGetItem (a deleted one is absent). */
export async function clientNames(db: Db, clientIds: string[]): Promise<Map<string, string>> {
  if (clientIds.length === 0) return new Map();
  const items = await batchGet(db, clientIds.map(keys.client));
  return new Map(items.map((item) => [item.clientId as string, item.name as string]));
}
