import fs from 'node:fs';

/** Removes the temporary data directory the config made (database and e-mail outbox). */
export default function globalTeardown(): void {
  const dir = process.env.E2E_DATA_DIR;
  if (dir && dir.includes('fleet-e2e-web-')) fs.rmSync(dir, { recursive: true, force: true });
}
