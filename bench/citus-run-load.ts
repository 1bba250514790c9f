// Runs one job of bench/citus-load.ts in a child process and returns its result line.
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { LoadJob, LoadResult } from './citus-load.ts';

const root = path.resolve(import.meta.dirname, '..');

export function runLoad(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'bench/citus-load.ts', JSON.stringify(job)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.on('exit', (c) => (c === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!) as LoadResult) : reject(new Error(`load generator exited ${c}`))));
  });
}
