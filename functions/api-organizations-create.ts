import { optionalText, text } from '../shared/domain/validate.js';
import { portalHandler } from '../shared/http/portal.js';
import { jsonBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { db } from '../shared/store/db.js';
import { createOrganization } from '../shared/store/organizations.js';

/** POST /api/organizations `{name, description}`: the creator becomes its owner. */
export const handler = portalHandler('POST /api/organizations', async (event, session) => {
  const body = jsonBody(event);
  const org = await createOrganization(db(), {
    name: text(body.name, 'name', { max: 64 }),
    description: optionalText(body.description, 'description', 500),
    ownerUserId: session.userId,
  });
  return json(201, { organization: { id: org.id, name: org.name, description: org.description } });
});
