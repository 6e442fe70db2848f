import { config } from '../shared/config.js';
import { sendVerification } from '../shared/domain/account-links.js';
import { registerUser } from '../shared/domain/accounts.js';
import { userView } from '../shared/domain/portal-views.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { mailer } from '../shared/mail/index.js';

/**
 * POST /api/users: sign up (email, displayName, password ≥ 8) and email a verification link.
 * Signing in is a separate step, refused until the link is followed when verification is required.
 */
export const handler = endpoint('api-users-create', async ({ db, event }) => {
  const body = jsonBody(event);
  const user = await registerUser(
    db,
    { email: body.email, displayName: body.displayName, password: body.password, unverified: true },
    config().bcryptCost,
  );
  await sendVerification(db, mailer(), user);
  const verification = config().requireEmailVerification ? 'required' : 'optional';
  return json(201, { user: userView(user), verification });
});
