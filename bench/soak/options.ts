// The soak's command line: `npm run soak -- [--minutes 30] [--devices 1000] [--interval-s 10] [--ci]
// [--no-demo] [--keep] [--skip-build] [--dist <dir>]`; DATABASE_URL (a PostgreSQL server whose user may create databases) runs
// it on a new database of that server instead of PGlite.
import path from 'node:path';
import { parseArgs } from 'node:util';

export interface SoakOptions {
  /** Length of the traffic window (the faults are spread over it). */
  minutes: number;
  devices: number;
  intervalS: number;
  /** The CI flavour: PGlite, fewer devices, no demo fleet, a short window with every fault. */
  ci: boolean;
  /**
   * The demo fleet seeded and driving beside the devices (a week of history first: about a minute
   * alone, several beside CI's other work). Off in the CI flavour and with --no-demo.
   */
  demo: boolean;
  /** A PostgreSQL server to create the soak's databases on; unset: PGlite. */
  serverUrl: string | undefined;
  /** Keep the scratch directory (databases, logs, acknowledged fixes) and the PostgreSQL databases. */
  keep: boolean;
  build: boolean;
  /** Another build of the API to soak (its directory, holding main.js), e.g. an older commit's; unset: apps/api/dist. */
  dist: string | undefined;
  /** How many poisoned fixes of each kind. */
  poisonCount: number;
  /** How long devices may take after the window to send what they hold. */
  drainMs: number;
}

export const CI_DEFAULTS = { minutes: 3, devices: 100 } as const;

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name}: "${value}" is not a positive number`);
  return n;
}

export function parseSoakOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): SoakOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      minutes: { type: 'string' },
      devices: { type: 'string' },
      'interval-s': { type: 'string' },
      ci: { type: 'boolean', default: false },
      'no-demo': { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      'skip-build': { type: 'boolean', default: false },
      dist: { type: 'string' },
    },
    strict: true,
  });
  const ci = values.ci ?? false;
  const minutes = positive('minutes', values.minutes, ci ? CI_DEFAULTS.minutes : 30);
  const devices = Math.round(positive('devices', values.devices, ci ? CI_DEFAULTS.devices : 1000));
  const intervalS = positive('interval-s', values['interval-s'], 10);
  return {
    minutes,
    devices,
    intervalS,
    ci,
    demo: !ci && !(values['no-demo'] ?? false),
    // CI's flavour runs on the embedded database, whatever the environment says.
    serverUrl: ci ? undefined : env.DATABASE_URL || undefined,
    keep: values.keep ?? false,
    build: !(values['skip-build'] ?? false) && values.dist === undefined,
    dist: values.dist === undefined ? undefined : path.resolve(values.dist),
    poisonCount: minutes < 10 ? 20 : 100,
    drainMs: minutes < 10 ? 60_000 : 120_000,
  };
}
