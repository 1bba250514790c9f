// Whether a build is older than its sources (docs/decisions/0266), and a lock so two builds of one
// checkout take turns. Used by scripts/build.mjs; plain Node so `npm start` needs no TypeScript loader.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Where the stamp is kept: inside the output, which each build empties first, so a broken build has none. */
export const STAMP = '.build-stamp';

/** Folders never read as sources: outputs, installs, data, and the browser tests (not part of a build). */
const SKIP_DIRS = /^(node_modules|dist|dist-.*|test-results|data|\.cache|e2e)$/;
/** Files that no build reads: the unit tests beside the code. */
const SKIP_FILES = /\.test\.tsx?$/;

/** What each build is made from, relative to the repository's root (folders are read whole). */
export const TARGETS = {
  web: {
    out: 'apps/web/dist',
    inputs: [
      'apps/web',
      'packages',
      'package.json',
      'package-lock.json',
      'tsconfig.base.json',
      'scripts/precompress.mjs',
      'scripts/build.mjs',
      'scripts/build-stamp.mjs',
    ],
  },
  api: {
    out: 'apps/api/dist',
    inputs: [
      'apps/api',
      'packages',
      'package.json',
      'package-lock.json',
      'tsconfig.base.json',
      'scripts/build-api.mjs',
      'scripts/build.mjs',
      'scripts/build-stamp.mjs',
    ],
  },
};

function listFiles(root, rel, out) {
  const full = path.join(root, rel);
  let stat;
  try {
    stat = fs.statSync(full);
  } catch {
    return; // an input that does not exist (yet) adds nothing
  }
  if (stat.isFile()) {
    out.push(rel);
    return;
  }
  for (const e of fs.readdirSync(full, { withFileTypes: true })) {
    if (e.isDirectory() ? SKIP_DIRS.test(e.name) : SKIP_FILES.test(e.name)) continue;
    listFiles(root, path.join(rel, e.name), out);
  }
}

/**
 * A hash of the inputs' names and contents. Contents, not modification times: a checkout, a
 * `git stash` or a copy with old times changes what is built without making any file newer, and a
 * file touched but unchanged needs no build. About 14 MB of sources: under a second.
 */
export function sourcesHash(root, inputs) {
  const files = [];
  for (const rel of inputs) listFiles(root, rel, files);
  files.sort();
  const hash = crypto.createHash('sha256');
  for (const rel of files) {
    hash.update(`${rel.split(path.sep).join('/')}\0`);
    hash.update(fs.readFileSync(path.join(root, rel)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The hash a finished build of `target` was made from, or null (never built, or the build broke off). */
export function readStamp(root, target) {
  try {
    return fs.readFileSync(path.join(root, target.out, STAMP), 'utf8').trim();
  } catch {
    return null;
  }
}

/** Written once the build succeeded: the hash taken before it started, so a source edited during it rebuilds next time. */
export function writeStamp(root, target, hash) {
  fs.writeFileSync(path.join(root, target.out, STAMP), `${hash}\n`);
}

/** Whether `target` must be built: no finished build, or one made from other sources. */
export function needsBuild(root, target, hash = sourcesHash(root, target.inputs)) {
  return readStamp(root, target) !== hash;
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};

/**
 * Takes the checkout's build lock (a directory: mkdir is atomic) and resolves with its release.
 * While another live process holds it, waits; a lock whose process is gone (killed mid-build) is
 * taken over. Two starts of one checkout once emptied each other's output mid-build.
 */
export async function takeBuildLock(lockDir, { onWait = () => {}, pollMs = 500 } = {}) {
  fs.mkdirSync(path.dirname(lockDir), { recursive: true });
  let told = false;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      return () => fs.rmSync(lockDir, { recursive: true, force: true });
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    let holder = NaN;
    try {
      holder = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
    } catch {
      // made a moment ago, its pid not written yet: wait, unless it has been so for long (its maker died)
    }
    const ageMs = (() => {
      try {
        return Date.now() - fs.statSync(lockDir).mtimeMs;
      } catch {
        return 0;
      }
    })();
    if (holder > 0 ? !alive(holder) : ageMs > 10_000) {
      // Two waiters can both find it stale and the second remove the first's new lock: a window of a
      // few microseconds after a build was killed, not worth a kernel lock that macOS lacks.
      fs.rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (!told) onWait(holder);
    told = true;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
