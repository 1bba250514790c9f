import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { needsBuild, sourcesHash, takeBuildLock, writeStamp } from './build-stamp.mjs';

let root;
const target = { out: 'app/dist', inputs: ['app', 'lock.json'] };
const write = (rel, text) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};
/** A finished build of the sources as they are now. */
const build = () => {
  fs.rmSync(path.join(root, target.out), { recursive: true, force: true });
  write('app/dist/main.js', 'built');
  writeStamp(root, target, sourcesHash(root, target.inputs));
};

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-stamp-'));
  write('app/src/main.ts', 'one');
  write('app/src/util.ts', 'two');
  write('lock.json', '{}');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('needsBuild', () => {
  it('builds what was never built, or whose build broke off before its stamp', () => {
    expect(needsBuild(root, target)).toBe(true);
    write('app/dist/main.js', 'half');
    expect(needsBuild(root, target)).toBe(true);
  });

  it('skips a build made from the same sources, even when files were touched or copied with other times', () => {
    build();
    expect(needsBuild(root, target)).toBe(false);
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(root, 'app/src/main.ts'), later, later);
    expect(needsBuild(root, target)).toBe(false);
  });

  it('builds again when a source, the lockfile, or the set of files changed', () => {
    build();
    write('app/src/main.ts', 'one!');
    expect(needsBuild(root, target)).toBe(true);
    build();
    write('lock.json', '{"a":1}');
    expect(needsBuild(root, target)).toBe(true);
    build();
    write('app/src/new.ts', '');
    expect(needsBuild(root, target)).toBe(true);
    build();
    fs.rmSync(path.join(root, 'app/src/util.ts'));
    expect(needsBuild(root, target)).toBe(true);
    build();
    fs.renameSync(path.join(root, 'app/src/main.ts'), path.join(root, 'app/src/entry.ts'));
    expect(needsBuild(root, target)).toBe(true);
  });

  it('a change moved back to what was built needs no build (an edit undone, a branch checked out again)', () => {
    build();
    write('app/src/main.ts', 'other');
    write('app/src/main.ts', 'one');
    expect(needsBuild(root, target)).toBe(false);
  });

  it('ignores what no build reads: its own output, installed packages, unit tests, browser tests', () => {
    build();
    write('app/dist/extra.js', 'x');
    write('app/node_modules/dep/index.js', 'x');
    write('app/src/main.test.ts', 'x');
    write('app/e2e/login.spec.ts', 'x');
    expect(needsBuild(root, target)).toBe(false);
  });
});

describe('takeBuildLock', () => {
  it('a second build waits until the first releases the lock', async () => {
    const lock = path.join(root, 'cache/build.lock.d');
    const release = await takeBuildLock(lock);
    const waited = [];
    let second = false;
    const next = takeBuildLock(lock, { pollMs: 20, onWait: (pid) => waited.push(pid) }).then((r) => ((second = true), r));
    await vi.waitFor(() => expect(waited).toEqual([process.pid]));
    expect(second).toBe(false);
    release();
    (await next)();
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('takes over the lock of a build whose process is gone', async () => {
    const lock = path.join(root, 'cache/build.lock.d');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    fs.mkdirSync(lock, { recursive: true });
    fs.writeFileSync(path.join(lock, 'pid'), dead);
    const release = await takeBuildLock(lock, { pollMs: 20, onWait: () => expect.unreachable('waited on a dead process') });
    expect(fs.readFileSync(path.join(lock, 'pid'), 'utf8')).toBe(String(process.pid));
    release();
  });
});
