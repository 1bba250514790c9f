import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadedImageSchema } from '@fleet/api-contract';
import { images } from '../../db/schema/index.ts';
import { createTestApp, DEMO, expectErrorBody, expectFieldErrors, login, type TestContext } from '../../test/helpers.ts';
import { memberWithRole } from '../../test/members.ts';
import { registryActors } from '../../test/registry.ts';
import { imageLink } from './image-links.ts';

// Uploaded images are an organization's (issue 43): through HTTP on the real database, who is
// served a DVIR photo, by which path, and what a signed link opens. Who reads an attached image
// (issue 66) is in image-owners.test.ts.

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

type Headers = Record<string, string>;
const get = (url: string, headers: Headers = {}) => t.app.inject({ method: 'GET', url, headers });
const orgImage = (orgId: string, imageId: string) => `/api/v1/organizations/${orgId}/images/${imageId}`;
const bare = (imageId: string) => `/api/v1/images/${imageId}`;

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a1e2f1b40000000049454e44ae426082', 'hex'),
]);

/** A defect photo uploaded to `orgId` as a driver's phone does; its id and signed link. */
async function upload(headers: Headers, orgId: string) {
  const boundary = '----imagetest' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="defect.png"\r\nContent-Type: image/png\r\n\r\n`),
    PNG,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/organizations/${orgId}/dvirs/images`,
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...headers },
  });
  expect(res.statusCode, res.body).toBe(201);
  return uploadedImageSchema.parse(res.json());
}

function expectImage(res: Awaited<ReturnType<typeof get>>) {
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('image/png');
  expect(res.rawPayload.equals(PNG)).toBe(true);
  // Never kept by a shared cache, and never for a year.
  expect(res.headers['cache-control']).toMatch(/^private, /);
}

let photo: { id: string; url: string };
beforeAll(async () => {
  photo = await upload(a.admin, a.orgId);
});

describe('an organization’s photo', () => {
  it('is not served without a token or a signed link (401, as any request without credentials)', async () => {
    expectErrorBody((await get(bare(photo.id))).json(), 401);
    expectErrorBody((await get(orgImage(a.orgId, photo.id))).json(), 401);
  });

  it('is a 404 to another organization’s member, by either path, as if it did not exist', async () => {
    expect(expectErrorBody((await get(bare(photo.id), a.other)).json(), 404).message).toBe('Image not found');
    expectErrorBody((await get(orgImage(a.otherOrgId, photo.id), a.other)).json(), 404);
    expectErrorBody((await get(orgImage(a.orgId, photo.id), a.other)).json(), 404);
    // The same answer as an id nobody uploaded.
    expectErrorBody((await get(bare(randomUUID()), a.other)).json(), 404);
  });

  it('is served with its bytes to its uploader until it is attached, and to no other member (issue 66)', async () => {
    const res = await get(orgImage(a.orgId, photo.id), a.admin);
    expectImage(res);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expectImage(await get(bare(photo.id), a.admin));
    const member = await memberWithRole(t.app, t.dataDir, await login(t.app, DEMO.admin), []);
    const headers = { authorization: `Bearer ${member.session.accessToken}` };
    expectErrorBody((await get(orgImage(a.orgId, photo.id), headers)).json(), 404);
    expectErrorBody((await get(bare(photo.id), headers)).json(), 404);
  });

  it('is served to a super administrator controlling the organization', async () => {
    expectImage(await get(orgImage(a.orgId, photo.id), a.superAdmin));
    expectImage(await get(bare(photo.id), a.superAdmin));
  });

  it('is refused to a deactivated member and to a forged token', async () => {
    const admin = await login(t.app, DEMO.admin);
    const member = await memberWithRole(t.app, t.dataDir, admin, ['DVIR_LIST']);
    const headers = { authorization: `Bearer ${member.session.accessToken}` };
    // The member's own upload, theirs to read until it is attached.
    const own = await upload(headers, a.orgId);
    expectImage(await get(bare(own.id), headers));
    const off = await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.orgId}/users/${member.session.user.id}/deactivate`, headers: a.admin });
    expect(off.statusCode, off.body).toBeLessThan(300);
    expectErrorBody((await get(bare(own.id), headers)).json(), 401);
    expectErrorBody((await get(bare(own.id), { authorization: `Bearer ${member.session.accessToken}x` })).json(), 401);
  });
});

describe('a signed link', () => {
  it('is what the upload answers, and shows the image without a token for up to two hours', async () => {
    expect(photo.url).toMatch(new RegExp(`^/api/v1/images/${photo.id}\\?exp=\\d+&sig=[A-Za-z0-9_-]{43}$`));
    const res = await get(photo.url);
    expectImage(res);
    const maxAge = Number(/max-age=(\d+)/.exec(res.headers['cache-control'] as string)?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(3600);
    const exp = Number(new URL(photo.url, 'http://x').searchParams.get('exp'));
    expect(exp - Date.now() / 1000).toBeGreaterThan(3600 - 5);
    expect(exp - Date.now() / 1000).toBeLessThanOrEqual(7200);
  });

  it('is refused once expired, and when its signature, expiry or image was changed', async () => {
    const expired = imageLink(photo.id, Date.now() - 3 * 3600_000);
    expect(expectErrorBody((await get(expired)).json(), 401).message).toContain('expired');
    const url = new URL(photo.url, 'http://x');
    const sig = url.searchParams.get('sig')!;
    const exp = url.searchParams.get('exp')!;
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    const other = await upload(a.admin, a.orgId);
    for (const forged of [
      `${bare(photo.id)}?exp=${exp}&sig=${flipped}`,
      `${bare(photo.id)}?exp=${Number(exp) + 86_400}&sig=${sig}`,
      `${bare(other.id)}?exp=${exp}&sig=${sig}`,
      `${bare(photo.id)}?sig=${sig}`,
      `${bare(photo.id)}?exp=${exp}`,
    ]) {
      expect(expectErrorBody((await get(forged)).json(), 401).message, forged).not.toContain('expired');
    }
    // A valid token does not rescue a forged link: the link is checked when one is given.
    expectErrorBody((await get(`${bare(photo.id)}?exp=${exp}&sig=${flipped}`, a.admin)).json(), 401);
  });

  it('names a malformed expiry or signature (400)', async () => {
    expectFieldErrors((await get(`${bare(photo.id)}?exp=soon&sig=${'a'.repeat(43)}`)).json(), 400, { exp: "exp must be the link's expiry in Unix seconds" });
    expectFieldErrors((await get(`${bare(photo.id)}?exp=1&sig=${'!'.repeat(43)}`)).json(), 400, { sig: "sig must be the link's signature" });
    // A NUL is refused in every text of every request, before the field's own rule (issue 43).
    expectFieldErrors((await get(`${bare(photo.id)}?exp=1&sig=%00`)).json(), 400, { sig: 'sig must not contain the NUL character' });
  });

  it('opens an image of no organization, which a bearer token opens only for a super administrator', async () => {
    const [row] = await t.app.db
      .insert(images)
      .values({ organizationId: null, contentType: 'image/png', size: PNG.length, data: PNG })
      .returning({ id: images.id });
    const id = row!.id;
    expectImage(await get(imageLink(id)));
    expectImage(await get(bare(id), a.superAdmin));
    expectErrorBody((await get(bare(id), a.admin)).json(), 404);
    expectErrorBody((await get(orgImage(a.orgId, id), a.admin)).json(), 404);
    expectErrorBody((await get(orgImage(a.orgId, id), a.superAdmin)).json(), 404);
  });
});
