import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db.js';
import { keys } from './keys.js';
import { isoNow } from './ops.js';

/** The user approved an application at /oauth2/authorize: USER#<uid>/CONSENT#<appId>. */
export async function putConsent(db: Db, userId: number, appId: number): Promise<void> {
  await db.doc.send(
    new PutCommand({
      TableName: db.table,
      Item: { ...keys.consent(userId, appId), type: 'consent', userId, appId, approvedAt: isoNow() },
    }),
  );
}
