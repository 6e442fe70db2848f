import { registerUser } from '../shared/domain/accounts.js';
import { bcryptCost, userView } from '../shared/domain/portal-views.js';
import { publicPortalHandler } from '../shared/http/portal.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { db } from '../shared/store/db.js';

/** POST /api/users: sign up (email, displayName, password ≥ 8). Signing in is a separate step. */
export const handler = publicPortalHandler('POST /api/users', async (event) => {
  const body = jsonBody(event);
  const user = await registerUser(
    db(),
    { email: body.email, displayName: body.displayName, password: body.password },
    bcryptCost(),
  );
  return json(201, { user: userView(user) });
});
