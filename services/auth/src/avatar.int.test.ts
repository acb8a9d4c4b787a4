import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunksOf, type Caller, type ServiceClient } from '@snapcracks/kit';
import { startTestServices, type TestServices, callError } from '@snapcracks/kit/testing';
import { AuthServiceClient, type UploadAvatarResponse } from '@snapcracks/proto/auth/v1';
import { createStorageService } from '@snapcracks/storage';
import { authService } from './index.js';

/**
 * The avatar upload as the gateway makes it, one call to auth, with the real storage service behind: auth relays the
 * bytes under the member's own assertion, and keeps the account and storage in step whatever happens.
 */
const fixture = (name: string) => readFile(new URL(`../../storage/test/fixtures/${name}`, import.meta.url));
const REFUSED = 'Only JPG, JPEG or PNG images up to 5MB are accepted';

let services: TestServices;
let gateway: ServiceClient<AuthServiceClient>;
let member: Caller;

beforeAll(async () => {
  services = await startTestServices({ services: [createStorageService({ env: {} }), authService] });
  gateway = services.client(AuthServiceClient, { as: 'gateway', deadlineMs: 30_000 });
  const { user } = await gateway.call.signIn({ issuer: 'https://idp.example', subject: 'ada', email: 'ada@example.com', emailVerified: true }, { caller: null });
  member = { userId: user!.id, isAdmin: false, hasAcceptedTerms: true };
  await gateway.call.acceptTerms({}, { caller: member });
});
afterAll(() => services?.stop());

async function upload(client: ServiceClient<AuthServiceClient>, bytes: Buffer, caller: Caller | null = member): Promise<UploadAvatarResponse> {
  const stream = client.clientStream('uploadAvatar', { caller });
  try {
    for (const chunk of chunksOf(bytes, 64 * 1024)) await stream.send({ chunk: Buffer.from(chunk) });
  } catch {
    // Refused before we finished; finish() reports it.
  }
  return stream.finish();
}

async function avatarFiles(): Promise<string[]> {
  try {
    return (await readdir(join(services.dataDir, 'uploads', 'avatars'))).sort();
  } catch {
    return [];
  }
}

const avatarOf = async () => (await gateway.call.getUser({ id: member.userId }, { caller: member })).user?.customProfileImage;

describe('UploadAvatar', () => {
  it('stores the avatar through storage, points the account at it and deletes the one it replaces', async () => {
    const first = await upload(gateway, await fixture('rotated-gps.jpg'));
    const firstName = first.user!.customProfileImage!;
    expect(firstName).toMatch(/^[0-9a-f-]{36}\.webp$/);
    expect(await avatarFiles()).toEqual([firstName]);

    const second = await upload(gateway, await fixture('photo.png'));
    const secondName = second.user!.customProfileImage!;
    expect(secondName).not.toBe(firstName);
    expect(await avatarOf()).toBe(secondName);
    expect(await avatarFiles()).toEqual([secondName]);
  });

  it('passes storage’s refusal on and changes nothing, nor for a caller other than the gateway or a member', async () => {
    const before = await avatarOf();
    const files = await avatarFiles();
    expect(await callError(upload(gateway, await fixture('html.jpg')))).toMatchObject({ code: status.INVALID_ARGUMENT, details: REFUSED });
    expect(await callError(upload(gateway, Buffer.alloc(5 * 1024 * 1024 + 1, 0xff)))).toMatchObject({ code: status.INVALID_ARGUMENT, details: REFUSED });
    const jpeg = await fixture('rotated-gps.jpg');
    expect(await callError(upload(services.client(AuthServiceClient, { as: 'photo' }), jpeg))).toMatchObject({ code: status.PERMISSION_DENIED });
    expect(await callError(upload(gateway, jpeg, null))).toMatchObject({ code: status.UNAUTHENTICATED });
    expect(await callError(upload(gateway, jpeg, { ...member, hasAcceptedTerms: false }))).toMatchObject({ code: status.PERMISSION_DENIED });
    expect(await avatarOf()).toBe(before);
    expect(await avatarFiles()).toEqual(files);
  });

  it('stores nothing and keeps the avatar when the gateway gives up before finishing', async () => {
    const before = await avatarOf();
    const files = await avatarFiles();
    const jpeg = await fixture('rotated-gps.jpg');
    const stream = gateway.clientStream('uploadAvatar', { caller: member });
    await stream.send({ chunk: jpeg });
    stream.cancel();
    // Auth hears the cancellation and cancels its call to storage; give both a moment to (not) store anything.
    await sleep(500);
    expect(await avatarOf()).toBe(before);
    expect(await avatarFiles()).toEqual(files);
  });
});
