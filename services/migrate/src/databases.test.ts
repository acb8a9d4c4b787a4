import { describe, expect, it } from 'vitest';
import { gatewayDatabase } from '../../../gateway/src/gateway.js';
import { SERVICE_DATABASES } from '../../all-in-one/src/modules.js';
import { MIGRATED_DATABASES } from './databases.js';

describe('the migration job', () => {
  it('migrates the schemas the services and the gateway declare, from their directories, in the all-in-one order', () => {
    const declared = [...SERVICE_DATABASES, gatewayDatabase].map(({ schema, migrationsDir }) => ({ schema, migrationsDir }));
    expect(MIGRATED_DATABASES).toEqual(declared);
  });
});
