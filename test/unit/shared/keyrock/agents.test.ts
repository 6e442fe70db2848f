import { describe, expect, it } from 'vitest';
import {
  createdIotAgentBody,
  createdPepProxyBody,
  iotAgentBody,
  iotAgentsBody,
  newPasswordBody,
  pepProxyBody,
  trustedAddedBody,
  trustedListBody,
} from '../../../../shared/keyrock/agents.js';

describe('Keyrock bodies for PEP proxies, IoT agents and trusted applications', () => {
  it('shows a password only in the answer that made or reset it', () => {
    expect(createdPepProxyBody('pep_proxy_1', 'pw')).toEqual({
      pep_proxy: { id: 'pep_proxy_1', password: 'pw' },
    });
    expect(createdIotAgentBody('iot_sensor_1', 'pw')).toEqual({
      iot_agent: { id: 'iot_sensor_1', password: 'pw' },
    });
    expect(newPasswordBody('pw2')).toEqual({ new_password: 'pw2' });
    const read = [pepProxyBody('pep_proxy_1', 'client'), iotAgentBody('iot_sensor_1', 'client')];
    expect(read).toEqual([
      { pep_proxy: { id: 'pep_proxy_1', oauth_client_id: 'client' } },
      { iot_agent: { id: 'iot_sensor_1', oauth_client_id: 'client' } },
    ]);
    expect(JSON.stringify(read)).not.toContain('password');
  });

  it('lists agents as objects and trusted applications as client ids, as Keyrock', () => {
    expect(iotAgentsBody(['a', 'b'])).toEqual({ iot_agents: [{ id: 'a' }, { id: 'b' }] });
    expect(trustedListBody(['x'])).toEqual({ trusted_applications: ['x'] });
    expect(trustedAddedBody('a', 'x')).toEqual({ oauth_client_id: 'a', trusted_oauth_client_id: 'x' });
  });
});
