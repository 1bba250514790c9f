import { describe, expect, it } from 'vitest';
import { loggableUrl, serializeError } from './request-log.ts';

describe('loggableUrl', () => {
  it('keeps paths and ordinary query parameters as they are', () => {
    expect(loggableUrl('/api/v1/organizations/o-1/assets?page=0&size=15&sort=name,asc&search=kw')).toBe(
      '/api/v1/organizations/o-1/assets?page=0&size=15&sort=name,asc&search=kw',
    );
    expect(loggableUrl('/api/v1/auth/authenticate')).toBe('/api/v1/auth/authenticate');
  });

  it('redacts the values of credential-bearing parameters, whatever their case or encoding', () => {
    expect(loggableUrl('/s?group=g&ticket=abc')).toBe('/s?group=g&ticket=[redacted]');
    expect(loggableUrl('/s?access_token=eyJ.x.y&Refresh_Token=r&api%5Fkey=k&password=p')).toBe(
      '/s?access_token=[redacted]&Refresh_Token=[redacted]&api%5Fkey=[redacted]&password=[redacted]',
    );
    // The OsmAnd protocol authenticates a device by its id.
    expect(loggableUrl('/api/v1/ingest/osmand?id=demo-truck-01&lat=1&deviceid=x')).toBe('/api/v1/ingest/osmand?id=[redacted]&lat=1&deviceid=[redacted]');
  });

  it('redacts the token of the e-mailed set-password link', () => {
    expect(loggableUrl('/create-new-password/Zm9vYmFy-token?x=1')).toBe('/create-new-password/[redacted]?x=1');
  });

  it('bounds the length', () => {
    expect(loggableUrl(`/a?q=${'x'.repeat(5000)}`).length).toBeLessThanOrEqual(1001);
  });
});

describe('serializeError', () => {
  it('logs a failed query without its parameter values, through the cause chain', () => {
    const pg = Object.assign(new Error('duplicate key value violates unique constraint "users_email_uq"'), {
      code: '23505',
      constraint: 'users_email_uq',
      detail: 'Key (email)=(a@b.c) already exists.',
    });
    const failed = Object.assign(
      new Error('Failed query: insert into "users" ("email", "password_hash") values ($1, $2)\nparams: a@b.c,$argon2id$secret-hash'),
      { params: ['a@b.c', '$argon2id$secret-hash'], cause: pg },
    );
    const logged = serializeError(failed);
    const text = JSON.stringify(logged);
    expect(text).not.toContain('secret-hash');
    expect(text).not.toContain('a@b.c');
    expect(logged.message).toBe('Failed query: insert into "users" ("email", "password_hash") values ($1, $2)\nparams: [redacted]');
    expect(logged.stack).toContain('    at ');
    expect(logged.cause).toMatchObject({ code: '23505', constraint: 'users_email_uq' });
  });
});
