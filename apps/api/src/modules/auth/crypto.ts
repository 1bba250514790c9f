import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id of @node-rs/argon2 (an ambient const enum, not importable under verbatimModuleSyntax).
const ARGON2ID = 2;

/** argon2id with the library defaults (m=19 MiB, t=2, p=1): OWASP's recommended minimum. */
export const hashPassword = (password: string) => hash(password, { algorithm: ARGON2ID });

export async function verifyPassword(hashed: string | null, password: string): Promise<boolean> {
  if (!hashed) return false;
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

/** A verification against a fixed hash, so unknown e-mails take as long as wrong passwords. */
let dummyHash: Promise<string> | null = null;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('timing-equaliser-password');
  await verifyPassword(await dummyHash, password);
}

export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
