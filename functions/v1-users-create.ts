import { config } from '../shared/config.js';
import { createAccount } from '../shared/domain/user-admin.js';
import { endpoint } from '../shared/http/handler.js';
import { newUserOf } from '../shared/http/keyrock.js';
import { json } from '../shared/http/response.js';
import { createdUserBody } from '../shared/keyrock/users.js';

/** POST /v1/users (Keyrock, administrators): `{user: {username, email, password, …}}`. */
export const handler = endpoint('v1-users-create', async ({ db, event, caller }) => {
  const user = await createAccount(db, caller, newUserOf(event), config().bcryptCost);
  return json(201, { user: createdUserBody(user) });
});
