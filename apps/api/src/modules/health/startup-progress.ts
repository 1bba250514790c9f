/**
 * What start-up still does after the server listens (the demo data on a first start): /readyz
 * answers 503 "seeding demo data (n %)" until it is done, and the console shows the progress.
 * Each step of the plan has a share of the whole, roughly its share of the time.
 */
export class StartupProgress {
  private plan: Array<{ step: string; share: number }> = [];
  private index = -1;
  private fraction = 0;
  private logged = -1;
  private log: (msg: string) => void = () => undefined;

  /** Seeding is under way (begun and not done). */
  get active(): boolean {
    return this.index >= 0;
  }

  /** 0-99 while seeding. */
  get percent(): number {
    if (!this.active) return 100;
    const total = this.plan.reduce((n, p) => n + p.share, 0);
    const done = this.plan.slice(0, this.index).reduce((n, p) => n + p.share, 0) + (this.plan[this.index]?.share ?? 0) * this.fraction;
    return Math.min(99, Math.floor((100 * done) / total));
  }

  get step(): string {
    return this.plan[this.index]?.step ?? '';
  }

  /** Starts seeding with its steps (in order) and their shares; `log` prints the progress. */
  begin(plan: Record<string, number>, log: (msg: string) => void): void {
    this.plan = Object.entries(plan).map(([step, share]) => ({ step, share }));
    this.index = 0;
    this.fraction = 0;
    this.logged = -1;
    this.log = log;
    this.report();
  }

  /** `step` is under way, `fraction` (0-1) of it done. Steps left out of the plan are ignored. */
  at(step: string, fraction = 0): void {
    if (!this.active) return;
    const i = this.plan.findIndex((p) => p.step === step);
    if (i < 0) return;
    this.index = i;
    this.fraction = Math.max(0, Math.min(1, fraction));
    this.report();
  }

  done(): void {
    if (!this.active) return;
    this.index = -1;
    this.log('Seeding demo data: done, ready');
  }

  /** A line per 10 % and per step, not per truck. */
  private report(): void {
    const tenth = Math.floor(this.percent / 10);
    const key = this.index * 100 + tenth;
    if (key === this.logged) return;
    this.logged = key;
    this.log(`Seeding demo data: ${this.percent} % (${this.step})`);
  }
}
