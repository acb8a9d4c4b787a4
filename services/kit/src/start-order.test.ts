import { describe, expect, it } from 'vitest';
import { SERVICE_PEERS } from './call-graph.js';
import { COMPONENT_NAMES, type ComponentModule } from './component.js';
import { startOrder } from './start-order.js';

const module = (name: ComponentModule['name']): ComponentModule => ({ name, start: () => Promise.reject(new Error('not started here')) });

describe('startOrder', () => {
  it('starts every service after the peers it calls in SERVICE_PEERS, whatever order they are given in', () => {
    for (const names of [[...COMPONENT_NAMES], [...COMPONENT_NAMES].reverse()]) {
      const order = startOrder(names.map(module)).map((m) => m.name);
      expect([...order].sort()).toEqual([...COMPONENT_NAMES].sort());
      for (const [name, peers] of Object.entries(SERVICE_PEERS)) {
        for (const peer of peers) expect(order.indexOf(peer), `${peer} before ${name}`).toBeLessThan(order.indexOf(name as ComponentModule['name']));
      }
    }
  });

  it('starts a service alone when its peers are not in this process', () => {
    expect(startOrder([module('moderation')]).map((m) => m.name)).toEqual(['moderation']);
  });
});
