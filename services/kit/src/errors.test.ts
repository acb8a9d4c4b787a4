import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './errors.js';

describe('isDatabaseUnavailable', () => {
  const withCode = (code: string, message = 'boom') => Object.assign(new Error(message), { code });

  it.each([
    ['a server shutting down (57P01)', withCode('57P01', 'terminating connection due to administrator command')],
    ['a server starting up (57P03)', withCode('57P03', 'the database system is starting up')],
    ['a connection exception (08006)', withCode('08006')],
    ['Prisma unable to reach the server (P1001)', withCode('P1001', "Can't reach database server")],
    ['a refused connection', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a connection cut mid-query', new Error('Connection terminated unexpectedly')],
    ['Prisma’s driver adapter, a server shutting down', Object.assign(new Error('terminating connection due to administrator command'), { name: 'DriverAdapterError', cause: { kind: 'postgres', code: '57P01' } })],
    ['Prisma’s driver adapter, a refused connection', Object.assign(new Error('x'), { name: 'DriverAdapterError', cause: { kind: 'DatabaseNotReachable' } })],
    ['Prisma’s raw query failure that only says so in its text (P2010)', withCode('P2010', "Raw query failed. Code: `N/A`. Message: `Can't reach database server at 127.0.0.1:5432`")],
  ])('is true for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation (23505)', withCode('23505')],
    ['Prisma record not found (P2025)', withCode('P2025')],
    ['a plain error', new Error('something else')],
    ['Prisma’s driver adapter, a unique violation', Object.assign(new Error('x'), { cause: { kind: 'UniqueConstraintViolation' } })],
    ['a raw query failure of another kind (P2010)', withCode('P2010', 'Raw query failed. Code: `42601`. Message: `syntax error`')],
    ['a non-error', 'text'],
    ['nothing', undefined],
  ])('is false for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
