import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { expect, test, type Locator, type Page } from '@playwright/test';

export const ACCOUNTS = {
  admin: { email: 'admin@demofreight.test', password: 'DemoAdmin#2026' },
  dispatcher: { email: 'dispatcher@demofreight.test', password: 'Dispatch#2026' },
  superAdmin: { email: 'superadmin@fleet.test', password: 'SuperAdmin#2026' },
} as const;

export async function fillLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByPlaceholder('min 8 characters').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

export interface Account {
  email: string;
  password: string;
}

/**
 * Starts a session without the login screen: signs in through the API and leaves the answer where
 * the login form does (the tokens and the user in localStorage), written from the app's icon (a
 * page of the origin without the app), so the next `page.goto` opens signed in. The login
 * screen's load was a second of the browser's CPU for each test whose subject is not signing in
 * (decision 0219); auth.spec.ts, offline.spec.ts, messages.spec.ts and roles.spec.ts still go
 * through the form.
 */
export async function signIn(page: Page, who: keyof typeof ACCOUNTS | Account): Promise<void> {
  const account = typeof who === 'string' ? ACCOUNTS[who] : who;
  const res = await page.request.post('/api/v1/auth/authenticate', { data: { email: account.email, password: account.password } });
  expect(res.status(), await res.text()).toBe(200);
  const session = (await res.json()) as { accessToken: string; refreshToken: string; user: unknown };
  await page.goto('/favicon.svg');
  await page.evaluate((s) => {
    localStorage.setItem('fleet.accessToken', s.accessToken);
    localStorage.setItem('fleet.refreshToken', s.refreshToken);
    localStorage.setItem('fleet.user', JSON.stringify(s.user));
  }, session);
}

/** Where signing in lands: super administrators on the organizations list, everyone else on the dashboard. */
const landingOf = (who: keyof typeof ACCOUNTS | Account) =>
  (typeof who === 'string' ? ACCOUNTS[who] : who).email === ACCOUNTS.superAdmin.email ? '/administration/organizations' : '/dashboard';

/** Signs in (signIn) and opens the landing page. */
export async function login(page: Page, who: keyof typeof ACCOUNTS | Account, landing = landingOf(who)) {
  await signIn(page, who);
  await page.goto(landing);
  // The dashboard may add its filters to the query (a dispatcher's group): the path is the landing.
  await expect(page).toHaveURL((url) => url.pathname === landing);
  // Drawn: the menu and the screen (the form's sign-in left the app's frame up before the landing).
  await expect(page.getByRole('main').getByRole('heading').first()).toBeVisible();
}

/** Logs in through the login form and waits for the landing page (for tests of signing in). */
export async function loginThroughForm(page: Page, who: keyof typeof ACCOUNTS, landing = landingOf(who)) {
  await page.goto('/');
  await fillLogin(page, ACCOUNTS[who].email, ACCOUNTS[who].password);
  await expect(page).toHaveURL((url) => url.pathname === landing);
}

/** The newest e-mail the API wrote to its outbox for `to`. */
export async function readOutbox(to: string): Promise<{ subject: string; text: string }> {
  const dir = path.join(process.env.E2E_DATA_DIR ?? '', 'outbox');
  let found: { subject: string; text: string; to: string } | undefined;
  await expect
    .poll(() => {
      const files = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
      found = files
        .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { subject: string; text: string; to: string })
        .reverse()
        .find((m) => m.to === to);
      return !!found;
    })
    .toBe(true);
  return found!;
}

const require = createRequire(import.meta.url);
const axePath = require.resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * Runs axe-core on the page; returns the serious and critical violations. Needs a context with
 * bypassCSP. axe is injected once per page load (a second check of the same load reuses it);
 * `rules` limits the run to those rule ids (a re-check of a look where only some rules can change).
 */
export async function seriousA11yViolations(page: Page, rules?: readonly string[]): Promise<AxeViolation[]> {
  const found = await axeOnce(page, rules);
  // A list dimmed (aria-busy) while a newer page loads fails contrast for that moment; a refetch can
  // start while axe runs on a loaded machine. Low contrast is read again once nothing is busy.
  if (!found.some((v) => v.id === 'color-contrast')) return found;
  return axeOnce(page, rules);
}

/** One axe run on a settled page: no list busy, no fade of one running. */
async function axeOnce(page: Page, rules?: readonly string[]): Promise<AxeViolation[]> {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
  await page.waitForFunction(() => document.getAnimations().every((a) => !(a instanceof CSSTransition && a.transitionProperty === 'opacity')));
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axePath });
  const result = await page.evaluate(
    async (only) => {
      const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
      return axe.run(document, { resultTypes: ['violations'], ...(only ? { runOnly: { type: 'rule', values: only } } : {}) });
    },
    rules ? [...rules] : null,
  );
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ ...v, nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
}

/** Opens `path` and asserts its list shows its last column inside the screen, without scrolling sideways. */
export async function expectLastColumnShown(page: Page, path: string): Promise<void> {
  await page.goto(path);
  const table = page.locator('table[aria-label]').first();
  await expect(table.locator('tbody tr').first()).toBeVisible();
  const r = await table.evaluate((t) => {
    const last = [...t.querySelectorAll('thead th')].at(-1)!.getBoundingClientRect();
    let box = t.parentElement;
    while (box && box !== document.body && !['auto', 'scroll', 'hidden'].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
    const view = (box ?? document.documentElement).getBoundingClientRect();
    return { lastRight: Math.round(last.right), viewRight: Math.round(Math.min(view.right, window.innerWidth)) };
  });
  expect(r.lastRight, path).toBeLessThanOrEqual(r.viewRight + 1);
}

/**
 * The WCAG contrast ratio of an element's text against the first opaque background behind it (its
 * own or an ancestor's), as the browser computed both. For small elements axe leaves as
 * "incomplete" (a badge in a tab), which its violations never list.
 */
export async function textContrast(locator: Locator): Promise<number> {
  return locator.evaluate((el) => {
    const rgba = (c: string): number[] => (c.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const lin = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
    };
    let bg: number[] | null = null;
    for (let e: Element | null = el; e && !bg; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c.length >= 3 && (c[3] ?? 1) >= 0.99) bg = c;
    }
    const fg = luminance(rgba(getComputedStyle(el).color));
    const back = luminance(bg ?? [255, 255, 255]);
    return (Math.max(fg, back) + 0.05) / (Math.min(fg, back) + 0.05);
  });
}

/**
 * Goes to `path` inside the running app, as a link would: no reload, so every screen works from what
 * the app already holds (a reload would fetch everything again and hide a stale copy), and a walk
 * over many screens skips a page load for each (about a second of the browser's CPU).
 */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/**
 * Waits until the page has laid itself out for its current look and size: two frames (resize
 * observers, such as the log graph's, and the parts React draws by the viewport's width redraw in
 * the next one) and every running transition finished (a colour fades in on a theme switch).
 */
export async function layoutSettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
    await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined)));
  });
}

/** Every word on the screen, the charts' SVG text included. */
export const screenText = (page: Page): Promise<string> =>
  page.evaluate(() => [document.body.innerText, ...[...document.querySelectorAll('svg text')].map((t) => t.textContent ?? '')].join('\n'));

/** Waits until the screen has its data: its heading shown, no loader or skeleton left, and its words still. */
export async function screenSettled(page: Page): Promise<void> {
  await expect(page.getByRole('main').getByRole('heading').first()).toBeVisible();
  await page.waitForFunction(() => !document.querySelector('.mantine-Loader-root, .mantine-Skeleton-root[data-visible], [aria-busy="true"]'), null, {
    polling: 100,
    timeout: 15_000,
  });
  await wordsStill(page);
}

/**
 * Waits until the screen's words stop changing (a drawer's form, a second query) with a heading in
 * the main region and nothing loading.
 */
export async function wordsStill(page: Page): Promise<void> {
  let before = '';
  await expect
    .poll(
      async () => {
        const now = await screenText(page);
        const same = now === before;
        before = now;
        // A lazy screen still loading leaves the main region empty for a moment, or the previous screen
        // in place while the global loading bar (aria-busy) shows: on a loaded machine its text held
        // still for 300 ms and was read as the next screen's.
        return (
          same &&
          (await page.evaluate(() => !!document.querySelector('main h1, main h2') && !document.querySelector('.mantine-Loader-root, [aria-busy="true"]')))
        );
      },
      { intervals: [300], timeout: 10_000 },
    )
    .toBe(true);
}

/** Light and dark at desktop width, and 375 px wide (E2E_SHOTS=1), in the test's output folder. */
export async function screenshotsLightDark(page: Page, name: string) {
  if (!process.env.E2E_SHOTS) return;
  const size = page.viewportSize();
  for (const scheme of ['light', 'dark'] as const) {
    await page.evaluate((v) => {
      localStorage.setItem('fleet.colorScheme', v);
      localStorage.removeItem('fleet.colorSchemeFromOrganization');
    }, scheme);
    await page.emulateMedia({ colorScheme: scheme });
    // Two frames: the media change reached the page's listeners and was painted (the stored theme, or
    // the organization's, may keep it light; the picture shows what the user would see).
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
    await page.screenshot({ path: test.info().outputPath(`${name}-${scheme}.png`), fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });
    await expect.poll(() => page.evaluate(() => document.documentElement.clientWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: test.info().outputPath(`${name}-${scheme}-375.png`), fullPage: true });
    if (size) await page.setViewportSize(size);
  }
}
