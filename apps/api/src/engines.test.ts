import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// The README and CI say Node 20. A dependency that declares a newer Node installs with a warning
// and may fail at run time, so every locked package must accept the Node version we name.
const root = path.resolve(import.meta.dirname, '../../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; optional?: boolean; dev?: boolean }>;
};

describe('Node version', () => {
  const oldest = semver.minVersion(pkg.engines.node)!.version;

  it('the README names the Node of package.json engines', () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    expect(readme).toContain(`Node.js ${semver.major(oldest)}`);
  });

  it(`every locked package runs on Node ${oldest}, the oldest package.json allows`, () => {
    const refusing = Object.entries(lock.packages)
      .filter(([name, p]) => name && p.engines && !Array.isArray(p.engines) && p.engines.node)
      .filter(([, p]) => !semver.satisfies(oldest, (p.engines as { node: string }).node, { includePrerelease: true }))
      .map(([name, p]) => `${name.replace(/^.*node_modules\//, '')}@${p.version} needs node ${(p.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });
});
