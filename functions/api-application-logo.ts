import { cropFromParams, replaceLogo } from '../shared/domain/logo.js';
import { logoUrl } from '../shared/domain/logo-url.js';
import { requireProvider } from '../shared/domain/permissions-policy.js';
import { positiveInt } from '../shared/domain/validate.js';
import { endpoint } from '../shared/http/handler.js';
import { pathParam, queryParams, rawBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';

/**
 * POST /api/applications/{id}/logo?x=&y=&width=&height=: the image file is the raw body (any
 * Content-Type; the bytes decide), the crop box is in the query, in the image's own pixels.
 */
export const handler = endpoint('api-application-logo', async ({ db, event, session }) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const crop = cropFromParams(queryParams(event));
  const { app } = await requireProvider(db, session.userId, appId);
  const key = await replaceLogo(db, app, rawBody(event), crop);
  return json(200, { logoUrl: logoUrl(key) });
});
