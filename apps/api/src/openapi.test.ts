import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredLabel } from '@fleet/api-contract';
import { createTestApp, type TestContext } from './test/helpers.ts';
import { emptySchemaFindings, findingLine, requestBodyFields } from './test/openapi-walk.ts';

/**
 * TEMPORARY: the activity log's before/after values are being given a real schema on another
 * branch (packages/api-contract/src/activity-log.ts). Delete this list when that branch lands;
 * the test fails once these findings are gone, so the list cannot go stale.
 */
/** Bodies documented for integrators but read by their handler, not by zod: their fields need no labels. */
const READ_BY_THEIR_HANDLER = [
  'POST /api/v1/ingest/osmand',
  'POST /api/v1/organizations/{orgId}/image',
  'POST /api/v1/organizations/{orgId}/users/{userId}/image',
];

let t: TestContext;
let doc: Parameters<typeof emptySchemaFindings>[0];
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode, res.body).toBe(200);
  doc = res.json();
});
afterAll(async () => {
  await t?.close();
});

describe('the API document', () => {
  it('describes every request and response body, parameter and component: no empty schema, bare object or untyped array', () => {
    const found = emptySchemaFindings(doc).map(findingLine);
    expect(found).toEqual([]);
  });

  it("shows the batch ingest's position fields and documents non-JSON answers by content type", () => {
    const batch = (
      doc.paths['/api/v1/ingest/positions']?.post as {
        requestBody: { content: Record<string, { schema: { properties: Record<string, { items: { properties: object; required: string[] } }> } }> };
      }
    ).requestBody.content['application/json']!.schema.properties.positions!.items;
    expect(Object.keys(batch.properties)).toEqual(expect.arrayContaining(['fixTime', 'latitude', 'longitude', 'speed', 'course', 'ignition', 'attributes']));
    expect(batch.required).toEqual(['fixTime', 'latitude', 'longitude']);
    const responses = (path: string) => (doc.paths[path]?.get as { responses: Record<string, { content?: Record<string, unknown> }> }).responses;
    expect(Object.keys(responses('/api/v1/organizations/{orgId}/assets/export')['200']!.content!)).toEqual(['text/csv']);
    expect(Object.keys(responses('/api/v1/organizations/{orgId}/assets/stream')['200']!.content!)).toEqual(['text/event-stream']);
    expect(Object.keys(responses('/api/v1/images/{imageId}')['200']!.content!)).toEqual(['image/*']);
  });

  it('has words for every request body field, so its 400s name it', () => {
    const unlabelled = requestBodyFields(doc)
      .filter((f) => !READ_BY_THEIR_HANDLER.includes(`${f.method.toUpperCase()} ${f.path}`))
      .filter((f) => declaredLabel(f.field) === undefined)
      .map((f) => `${f.method.toUpperCase()} ${f.path} ${f.field.join('.')}`);
    expect(unlabelled).toEqual([]);
  });
});

describe('the document walker', () => {
  const op = (schema: object, extra: object = {}) => ({
    paths: {
      '/x/{id}': {
        post: {
          requestBody: { content: { 'application/json': { schema } } },
          responses: { 200: { content: { 'application/json': { schema: { type: 'string' } } } } },
          ...extra,
        },
      },
    },
    components: { schemas: { Loose: { type: 'object', additionalProperties: {} }, Tight: { type: 'object', properties: { a: { type: 'string' } } } } },
  });
  const lines = (d: object) => emptySchemaFindings(d as never).map(findingLine);

  it('names the method, path and JSON pointer of each empty schema, bare object and untyped array', () => {
    expect(
      lines(
        op({
          type: 'object',
          properties: { a: {}, b: { type: 'array', items: {} }, c: { type: 'object' }, d: { type: 'object', additionalProperties: { type: 'number' } } },
        }),
      ),
    ).toEqual([
      'POST /x/{id} /paths/~1x~1{id}/post/requestBody/content/application~1json/schema/properties/a: empty schema',
      'POST /x/{id} /paths/~1x~1{id}/post/requestBody/content/application~1json/schema/properties/b: array whose items are empty',
      'POST /x/{id} /paths/~1x~1{id}/post/requestBody/content/application~1json/schema/properties/b/items: empty schema',
      'POST /x/{id} /paths/~1x~1{id}/post/requestBody/content/application~1json/schema/properties/c: object with neither properties nor a typed additionalProperties',
    ]);
  });

  it('follows $refs into components, parameters and responses, and reports a missing success answer', () => {
    const d = op(
      { type: 'array', items: { $ref: '#/components/schemas/Loose' } },
      {
        parameters: [{ name: 'id', in: 'path', schema: { nullable: true } }],
        responses: { 400: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Gone' } } } } },
      },
    );
    expect(lines(d)).toEqual([
      'POST /x/{id} /paths/~1x~1{id}/post/parameters/0/schema: empty schema',
      'POST /x/{id} /components/schemas/Loose: object with neither properties nor a typed additionalProperties',
      'POST /x/{id} /components/schemas/Loose/additionalProperties: empty schema',
      'POST /x/{id} /paths/~1x~1{id}/post/responses: no success response',
      'POST /x/{id} /paths/~1x~1{id}/post/responses/400/content/application~1json/schema: $ref #/components/schemas/Gone points nowhere',
    ]);
    expect(lines(op({ $ref: '#/components/schemas/Tight' }))).toEqual([]);
  });
});
