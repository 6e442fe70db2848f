import { config } from '../shared/config.js';
import { registerUser } from '../shared/domain/accounts.js';
import { userView } from '../shared/domain/portal-views.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** POST /api/users: sign up (email, displayName, password ≥ 8). Signing in is a separate step. */
export const handler = endpoint('api-users-create', async ({ db, event }) => {
  const body = jsonBody(event);
  const user = await registerUser(
    db,
    { email: body.email, displayName: body.displayName, password: body.password },
    config().bcryptCost,
  );
  return json(201, { user: userView(user) });
});
