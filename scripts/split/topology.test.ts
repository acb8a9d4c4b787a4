import { describe, expect, it } from 'vitest';
import { SERVICE_PEERS } from '../../services/kit/src/call-graph.js';
import { SERVICE_NAMES } from '../../services/kit/src/component.js';
import { componentDatabaseUrls, databaseUrlVariable, withoutDatabaseUrls } from '../db/migration-job.js';
import { splitTopology } from './topology.js';

const ADMIN = 'postgresql://postgres@127.0.0.1:5432/snapcracks_split';

describe('split mode', () => {
  it('connects every process as its own component’s role, never as another’s or the admin', async () => {
    const databaseUrls = componentDatabaseUrls(ADMIN);
    let port = 40_000;
    const processes = await splitTopology({
      replicas: { photo: 2, vote: 2 },
      databaseUrls,
      common: { NATS_URL: 'nats://127.0.0.1:4222' },
      gateway: {},
      service: {},
      ports: async () => port++,
    });
    expect(processes).toHaveLength(10);
    for (const process of processes) {
      const own = databaseUrls[process.component]!;
      expect(process.env.DATABASE_URL, process.name).toBe(own);
      const url = new URL(own);
      expect([url.host, url.pathname, url.username], process.name).toEqual(['127.0.0.1:5432', '/snapcracks_split', `snapcracks_split_${process.component}`]);
      expect(url.password, process.name).toMatch(/^[0-9a-f]{48}$/);
    }
  });

  it('tells each service where the peers it calls are (SERVICE_PEERS), and the gateway where every service is', async () => {
    let port = 40_000;
    const processes = await splitTopology({ replicas: {}, databaseUrls: componentDatabaseUrls(ADMIN), common: {}, gateway: {}, service: {}, ports: async () => port++ });
    const peersOf = (env: Record<string, string>) =>
      Object.keys(env)
        .filter((key) => key.endsWith('_SERVICE_ADDR'))
        .map((key) => key.replace('_SERVICE_ADDR', '').toLowerCase())
        .sort();
    for (const process of processes) {
      const expected = process.component === 'gateway' ? SERVICE_NAMES : process.component === 'dev-idp' ? [] : SERVICE_PEERS[process.component];
      expect(peersOf(process.env), process.name).toEqual([...expected].sort());
    }
  });

  it('makes new passwords at each start, unless the environment gives a component its URL', () => {
    const [first, second] = [componentDatabaseUrls(ADMIN), componentDatabaseUrls(ADMIN)];
    expect(first.auth).not.toBe(second.auth);
    const given = 'postgresql://mine:pw@127.0.0.1:5432/snapcracks_split';
    expect(componentDatabaseUrls(ADMIN, { [databaseUrlVariable('vote')]: given }).vote).toBe(given);
  });

  it('hands a child no connection string of this process’s (the admin’s, a direct one, a component’s)', () => {
    const env = { DATABASE_URL: ADMIN, DATABASE_DIRECT_URL: ADMIN, AUTH_DATABASE_URL: 'x', STATS_DATABASE_DIRECT_URL: 'y', PORT: '8080', DATABASE_POOL_MAX: '4' };
    expect(withoutDatabaseUrls(env)).toEqual({ PORT: '8080', DATABASE_POOL_MAX: '4' });
  });
});
