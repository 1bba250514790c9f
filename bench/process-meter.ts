// CPU and memory of another process, from /proc (Linux): what a benchmark's server and load
// generator each spent, so a figure can be read against the machine's two cores.
import fs from 'node:fs';

/** utime + stime of `pid` in seconds; 0 once it has exited. */
export function cpuSeconds(pid: number): number {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/** Resident set size of `pid` in MB. */
export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** This process's own CPU seconds (user + system). */
export function ownCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}
