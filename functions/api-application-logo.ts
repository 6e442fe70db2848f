import { cropFromParams, processLogo } from '../shared/domain/logo.js';
import { logoUrl } from '../shared/domain/logo-url.js';
import { requireProvider } from '../shared/domain/permissions-policy.js';
import { positiveInt } from '../shared/domain/validate.js';
import { portalHandler } from '../shared/http/portal.js';
import { pathParam, queryParams, rawBody } from '../shared/http/request.js';
import { json } from '../shared/http/response.js';
import { setLogoKey } from '../shared/store/applications.js';
import { db } from '../shared/store/db.js';
import { deleteLogo, putLogo } from '../shared/store/logos.js';

/**
 * POST /api/applications/{id}/logo?x=&y=&width=&height=: the image file is the raw body (any
 * Content-Type; the bytes decide), the crop box is in the query, in the image's own pixels.
 */
export const handler = portalHandler('POST /api/applications/{id}/logo', async (event, session) => {
  const appId = positiveInt(pathParam(event, 'id'), 'id');
  const crop = cropFromParams(queryParams(event));
  const { app } = await requireProvider(db(), session.userId, appId);
  const png = await processLogo(rawBody(event), crop);
  const key = await putLogo(appId, png);
  await setLogoKey(db(), appId, key);
  if (app.logoKey) await deleteLogo(app.logoKey);
  return json(200, { logoUrl: logoUrl(key) });
});
