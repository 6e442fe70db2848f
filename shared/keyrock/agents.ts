/**
 * Keyrock's bodies for PEP proxies, IoT agents and trusted applications
 * (controllers/api/pep_proxies.js, iot_agents.js, trusted_applications.js).
 */

/** POST: the id and the password, the only time the password is shown. */
export const createdPepProxyBody = (id: string, password: string) => ({ pep_proxy: { id, password } });
export const createdIotAgentBody = (id: string, password: string) => ({ iot_agent: { id, password } });

/** GET: the id and the application's client id (never the password or its hash). */
export const pepProxyBody = (id: string, clientId: string) => ({
  pep_proxy: { id, oauth_client_id: clientId },
});
export const iotAgentBody = (id: string, clientId: string) => ({
  iot_agent: { id, oauth_client_id: clientId },
});
export const iotAgentsBody = (ids: string[]) => ({ iot_agents: ids.map((id) => ({ id })) });

/** PATCH: the new password, shown once. */
export const newPasswordBody = (password: string) => ({ new_password: password });

export const trustedAddedBody = (clientId: string, trusted: string) => ({
  oauth_client_id: clientId,
  trusted_oauth_client_id: trusted,
});
export const trustedListBody = (clientIds: string[]) => ({ trusted_applications: clientIds });
