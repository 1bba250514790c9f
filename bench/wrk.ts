// wrk (Debian package `wrk`) as the load generator of the read benchmarks: a C client whose CPU
// per request is a tenth of autocannon's, so on a small machine the figures describe the server
// more than the client sharing its cores (docs/benchmarks/queries.md). Requests cycle through a list of
// paths with one header set, like autocannon's setupRequest; latency percentiles are wrk's.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const WRK = '/usr/bin/wrk';
export const wrkInstalled = () => fs.existsSync(WRK);

export interface WrkResult {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  /** CPU seconds wrk itself used (user + system). */
  cpuS: number;
}

const LUA = `
local paths = {}
for line in io.lines(os.getenv("WRK_PATHS")) do paths[#paths + 1] = line end
local headers = {}
for k, v in string.gmatch(os.getenv("WRK_HEADERS") or "", "([^\\n:]+): ([^\\n]+)") do headers[k] = v end
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1], headers)
end
`;

/** CPU seconds of this process's finished children (cutime + cstime from /proc). */
const childCpu = () => {
  const f = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(f[13]) + Number(f[14])) / 100;
};

const ms = (text: string): number => {
  const m = /^([\d.]+)(us|ms|s)$/.exec(text);
  if (!m) return Number.NaN;
  const v = Number(m[1]);
  return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
};

/** `seconds` of load on `connections` keep-alive connections, cycling through `paths`. */
export function wrk(origin: string, paths: string[], headers: Record<string, string>, connections: number, seconds: number): WrkResult {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-wrk-'));
  try {
    fs.writeFileSync(path.join(dir, 'paths.txt'), `${paths.join('\n')}\n`);
    fs.writeFileSync(path.join(dir, 'paths.lua'), LUA);
    const env = {
      ...process.env,
      WRK_PATHS: path.join(dir, 'paths.txt'),
      WRK_HEADERS: Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n'),
    };
    const cpu0 = childCpu();
    const run = spawnSync(WRK, ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', path.join(dir, 'paths.lua'), origin], { env, encoding: 'utf8' });
    const cpuS = childCpu() - cpu0;
    if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr}`);
    const out = run.stdout;
    const pct = (p: string) => ms(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out)?.[1] ?? '');
    const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
    return {
      requests,
      perSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
      p50Ms: pct('50'),
      p99Ms: pct('99'),
      non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) + Number(/Socket errors: .*?(\d+) timeout/.exec(out)?.[1] ?? 0),
      cpuS,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
