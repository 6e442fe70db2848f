import { describe, expect, it } from 'vitest';
import { isAgentId } from '../../../../shared/domain/agents.js';
import { isPepTokenValue } from '../../../../shared/domain/api-tokens.js';

describe('PEP proxy and IoT agent credentials', () => {
  it('takes Keyrock’s ids and nothing that could not be one', () => {
    expect(isAgentId('pep_proxy_7f270eda-17ed-4a49-b9fc-2f6f68490782')).toBe(true);
    expect(isAgentId('iot_sensor_1c5a4e43-0b9a-4e1c-9b28-2d8c2a1c1a1a')).toBe(true);
    for (const bad of ['', 'a b', 'pep/../x', 'x'.repeat(101), 'a@b.co']) expect(isAgentId(bad)).toBe(false);
  });

  it('tells a PEP proxy’s API token from a user’s by its form', () => {
    const random = 'A'.repeat(43);
    expect(isPepTokenValue(`pep_${random}`)).toBe(true);
    expect(isPepTokenValue(`2.${random}`)).toBe(false);
    expect(isPepTokenValue(`pep_${random}x`)).toBe(false);
    expect(isPepTokenValue('pep.short')).toBe(false);
  });
});
