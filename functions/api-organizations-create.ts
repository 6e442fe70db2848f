import { newOrganization } from '../shared/domain/organizations.js';
import { endpoint } from '../shared/http/handler.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/** POST /api/organizations `{name, description}`: the creator becomes its owner. */
export const handler = endpoint('api-organizations-create', async ({ db, event, session }) => {
  const body = jsonBody(event);
  const org = await newOrganization(db, session.userId, { name: body.name, description: body.description });
  return json(201, { organization: { id: org.id, name: org.name, description: org.description } });
});
