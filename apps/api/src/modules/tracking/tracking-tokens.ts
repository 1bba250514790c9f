import { createHmac, randomBytes } from 'node:crypto';
import { sha256 } from '../auth/index.ts';

// Tokens of customer tracking (decision 0282): a link's token is 32 random bytes (256 bits),
// base64url, shown once in the link's url; only its SHA-256 is stored. The notices' link and a
// contact's unsubscribe token are e-mailed again later, so they are derived (HMAC-SHA256 under a key
// of the server secret, over the row's random id): as unguessable, and still stored only as hashes.

/** 32 bytes in base64url: 43 characters of A-Z, a-z, 0-9, - and _. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const newToken = (): string => randomBytes(32).toString('base64url');
export const tokenHash = (token: string): string => sha256(token);

/** The key tracking tokens are derived under, from the API token key (itself of the server secret). */
export const trackingKey = (serverKey: Buffer): Buffer => createHmac('sha256', serverKey).update('tracking-tokens').digest();

export const derivedToken = (key: Buffer, purpose: 'notice-link' | 'unsubscribe' | 'demo-link', id: string): string =>
  createHmac('sha256', key).update(`${purpose}:${id}`).digest('base64url');

export const trackingUrl = (publicUrl: string, token: string): string => `${publicUrl}/track/${token}`;
export const unsubscribeUrl = (publicUrl: string, token: string): string => `${publicUrl}/api/v1/public/unsubscribe/${token}`;
