import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { schemas } from '@snapcracks/http-contract';
import { serializerCompiler } from './serializer.js';

const serialize = (schema: z.ZodType) => serializerCompiler({ schema, method: 'GET', url: '/x' });

describe('the response serializer', () => {
  it('writes exactly the fields the contract names, nulls and dates included', () => {
    const write = serialize(schemas.myVote);
    expect(write({ rating: 4, secret: 'never sent' })).toBe('{"rating":4}');
    expect(write({ rating: null })).toBe('{"rating":null}');
    const user = serialize(schemas.adminUser);
    const body = JSON.parse(user({ id: 'u', displayName: null, email: 'a@b.c', avatar: null, firstName: null, lastName: null, isEnabled: true, isAdmin: false, createdAt: '2026-11-28T10:00:00.000Z', passwordHash: 'x' })) as object;
    expect(body).toEqual({ id: 'u', displayName: null, email: 'a@b.c', avatar: null, firstName: null, lastName: null, isEnabled: true, isAdmin: false, createdAt: '2026-11-28T10:00:00.000Z' });
  });

  it('refuses a body without a field the contract requires, rather than send half of it', () => {
    expect(() => serialize(schemas.voteResult)({ rating: 4, voteCount: 2 })).toThrow(/averageRating/);
  });

  it('writes nested shapes and lists of them (a gallery page)', () => {
    const write = serialize(schemas.galleryStats);
    expect(JSON.parse(write({ photoCount: 1, totalVotes: 2, ratedFourOrHigher: 0, distinctUploaders: 1 }))).toEqual({ photoCount: 1, totalVotes: 2, ratedFourOrHigher: 0, distinctUploaders: 1 });
  });
});
