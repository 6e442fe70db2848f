import { isoNow } from '../time.js';
import { type Application, toApplication } from './applications.js';
import type { Db } from './db.js';
import { keys } from './keys.js';
import { batchGet, findItem, isConditionalFailure } from './ops.js';
import { toUser, type User } from './users.js';

/**
 * The user approved an application at /oauth2/authorize: USER#<uid>/CONSENT#<appId>. A consent
 * moved from Keyrock (`user_authorized_application`) keeps its date and, with `onlyNew`, is
 * written only where none exists; answers whether it wrote.
 */
export async function putConsent(
  db: Db,
  userId: number,
  appId: number,
  options: { approvedAt?: string | undefined; onlyNew?: boolean } = {},
): Promise<boolean> {
  try {
    await db.doc.put({
      TableName: db.table,
      Item: {
        ...keys.consent(userId, appId),
        type: 'consent',
        userId,
        appId,
        approvedAt: options.approvedAt ?? isoNow(),
      },
      ...(options.onlyNew ? { ConditionExpression: 'attribute_not_exists(PK)' } : {}),
    });
    return true;
  } catch (error) {
    if (options.onlyNew && isConditionalFailure(error)) return false;
    throw error;
  }
}

/** What GET /oauth2/authorize needs once the client is known: one BatchGetItem. */
export interface AuthorizeContext {
  consented: boolean;
  application: Application | undefined;
  user: User | undefined;
}

export async function authorizeContext(db: Db, userId: number, appId: number): Promise<AuthorizeContext> {
  const wanted = [keys.consent(userId, appId), keys.application(appId), keys.user(userId)];
  const items = await batchGet(db, wanted);
  const application = findItem(items, keys.application(appId));
  const user = findItem(items, keys.user(userId));
  return {
    consented: findItem(items, keys.consent(userId, appId)) !== undefined,
    application: application ? toApplication(application) : undefined,
    user: user ? toUser(user) : undefined,
  };
}
