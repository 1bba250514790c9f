// Caps a process tree's CPU with a Linux cgroup's CFS quota, for benches that stand in for a
// smaller machine (issue 49: each Citus worker as a machine of its own, on one shared host). Needs
// root and the cpu controller: cgroup v1 (/sys/fs/cgroup/cpu) or v2 (/sys/fs/cgroup with cpu in
// cgroup.controllers). A process forked inside the group stays in it: capping a postmaster caps
// the backends it starts afterwards; its children already running are moved in too.
import fs from 'node:fs';
import path from 'node:path';

/** The quota's period: short, so that a capped process waits at most this long for its next slice. */
const PERIOD_US = 10_000;

export interface CpuCap {
  /** Moves every process of the group back to the root group and removes the group. */
  release(): void;
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 4 (ppid) follows the command name, which sits in parentheses and may hold spaces.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

function cgroupRoot(): { root: string; v2: boolean } {
  if (fs.existsSync('/sys/fs/cgroup/cpu/cpu.cfs_quota_us') || fs.existsSync('/sys/fs/cgroup/cpu/cgroup.procs'))
    return { root: '/sys/fs/cgroup/cpu', v2: false };
  const controllers = '/sys/fs/cgroup/cgroup.controllers';
  if (fs.existsSync(controllers) && fs.readFileSync(controllers, 'utf8').split(/\s+/).includes('cpu')) return { root: '/sys/fs/cgroup', v2: true };
  throw new Error('no cgroup cpu controller at /sys/fs/cgroup (cgroup v1 cpu or v2 with cpu)');
}

/** Caps `pid` and its children (present and future) to `cores` of CPU. */
export function capProcessTree(name: string, pid: number, cores: number): CpuCap {
  if (!(cores > 0)) throw new Error(`a CPU cap must be above 0 cores, not ${cores}`);
  const { root, v2 } = cgroupRoot();
  if (v2) {
    const subtree = path.join(root, 'cgroup.subtree_control');
    if (!fs.readFileSync(subtree, 'utf8').includes('cpu')) fs.writeFileSync(subtree, '+cpu');
  }
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  const quota = Math.max(1000, Math.round(cores * PERIOD_US));
  if (v2) {
    fs.writeFileSync(path.join(dir, 'cpu.max'), `${quota} ${PERIOD_US}`);
  } else {
    fs.writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
    fs.writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(quota));
  }
  const move = (to: string, p: number) => {
    try {
      fs.writeFileSync(path.join(to, 'cgroup.procs'), String(p));
    } catch {
      // Ended meanwhile.
    }
  };
  move(dir, pid);
  for (const child of childrenOf(pid)) move(dir, child);
  return {
    release() {
      const procs = fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
      for (const p of procs) move(root, p);
      try {
        fs.rmdirSync(dir);
      } catch {
        // A process forked into it as we moved the others: the group stays, empty once it ends.
      }
    },
  };
}
