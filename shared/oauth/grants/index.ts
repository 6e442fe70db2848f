import { authorizationCode } from './authorization-code.js';
import { clientCredentials } from './client-credentials.js';
import { password } from './password.js';
import { refreshToken } from './refresh-token.js';
import type { Grant } from './types.js';

/** The grants the token endpoint serves, by grant_type. The implicit grant lives at /authorize. */
export const GRANTS: ReadonlyMap<string, Grant> = new Map(
  [authorizationCode, password, clientCredentials, refreshToken].map((g) => [g.type, g]),
);

export type { Grant } from './types.js';
