import type { FastifyInstance } from 'fastify';

/** The smallest PNG (1×1). */
export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a1e2f1b40000000049454e44ae426082', 'hex'),
]);

/** A photo uploaded to `orgId` as a phone does, through the messages' or the reports' upload; the answer as it came. */
export function uploadImage(
  app: FastifyInstance,
  orgId: string,
  headers: Record<string, string>,
  via: '/messages/images' | '/dvirs/images' = '/messages/images',
  key?: string,
) {
  const boundary = '----ownertest' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`),
    PNG,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return app.inject({
    method: 'POST',
    url: `/api/v1/organizations/${orgId}${via}`,
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...(key ? { 'idempotency-key': key } : {}), ...headers },
  });
}
