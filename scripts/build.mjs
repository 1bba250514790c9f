// `npm run build`: the web app (Vite) and the API (esbuild), each stamped with the hash of the sources
// it was built from. `npm start` runs it with --if-changed: a build whose sources have not changed
// since is skipped, so a second start serves in seconds (docs/decisions/0266). Builds of one checkout
// take turns under a lock: two starts at once used to empty each other's output mid-build.
//   node scripts/build.mjs [--if-changed] [web] [api]
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { needsBuild, sourcesHash, takeBuildLock, TARGETS, writeStamp } from './build-stamp.mjs';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const ifChanged = args.includes('--if-changed');
const names = args.filter((a) => a in TARGETS);
const LABEL = { web: 'web app', api: 'API' };

const release = await takeBuildLock(path.join(root, 'node_modules/.cache/fleet-build.lock.d'), {
  onWait: (pid) => console.log(`build: waiting for the build of process ${pid || '(starting)'} in this checkout`),
});
let failed = false;
try {
  for (const name of names.length ? names : ['web', 'api']) {
    const target = TARGETS[name];
    // Hashed under the lock: a build that finished while this one waited counts.
    const hash = sourcesHash(root, target.inputs);
    if (ifChanged && !needsBuild(root, target, hash)) {
      console.log(`build: ${LABEL[name]} is up to date with its sources (${target.out})`);
      continue;
    }
    const r = spawnSync('npm', ['run', 'build', '-w', path.dirname(target.out)], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) {
      failed = true;
      break;
    }
    writeStamp(root, target, hash);
  }
} finally {
  release();
}
process.exit(failed ? 1 : 0);
