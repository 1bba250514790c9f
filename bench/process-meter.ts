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

/**
 * CPU seconds of `pid`'s main thread (its event loop: the API's JavaScript) and of all its other
 * threads together (the embedded database's worker thread when it has one, V8's collector and
 * compiler threads, libuv's pool): where the work of a request ran (decision 0170).
 */
export function threadCpuSeconds(pid: number): { main: number; others: number } {
  let main = 0;
  let others = 0;
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return { main, others };
  }
  for (const tid of tasks) {
    try {
      const f = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      const s = (Number(f[11]) + Number(f[12])) / 100;
      if (Number(tid) === pid) main += s;
      else others += s;
    } catch {
      // the thread ended meanwhile
    }
  }
  return { main, others };
}
