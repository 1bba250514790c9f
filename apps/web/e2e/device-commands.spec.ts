import net from 'node:net';
import { expect, test } from '@playwright/test';
import { officeApi } from './driver-helpers.ts';
import { screenshotsLightDark } from './helpers.ts';
import { E2E_PORT } from '../playwright.config.ts';
import { ORG, signIn } from './registry-helpers.ts';

// Issue 73 (decision 0318): the device page's command console. A Teltonika device's page offers
// the model's common commands; one click queues getinfo, the simulated device connects to the
// server's Teltonika port, receives it as a codec 12 frame and answers, and the console shows the
// answer without a reload. A free text command with accents is refused in the user's words.

test.describe.configure({ timeout: 120_000 });
test.use({ viewport: { width: 1280, height: 900 } });

const TELTONIKA_PORT = Number(process.env.TELTONIKA_PORT ?? E2E_PORT + 2);

/** CRC-16/IBM, as Teltonika frames carry it. */
function crc16(buf: Buffer, start: number, end: number): number {
  let crc = 0;
  for (let i = start; i < end; i++) {
    crc ^= buf[i]!;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

/** A codec 12 frame of `type` (0x05 command, 0x06 response) carrying `text`. */
function codec12(type: number, text: string): Buffer {
  const body = Buffer.from(text, 'latin1');
  const dataLength = 8 + body.length;
  const f = Buffer.alloc(8 + dataLength + 4);
  f.writeUInt32BE(dataLength, 4);
  f.writeUInt8(0x0c, 8);
  f.writeUInt8(1, 9);
  f.writeUInt8(type, 10);
  f.writeUInt32BE(body.length, 11);
  body.copy(f, 15);
  f.writeUInt8(1, 15 + body.length);
  f.writeUInt32BE(crc16(f, 8, 8 + dataLength), 8 + dataLength);
  return f;
}

/** A tracker on the Teltonika port: handshakes, then answers each command it receives with `answer(text)`. */
function simulatedDevice(imei: string, answer: (command: string) => string) {
  const received: string[] = [];
  const socket = net.connect(TELTONIKA_PORT, '127.0.0.1');
  let buf = Buffer.alloc(0);
  let accepted = false;
  socket.on('error', () => undefined);
  socket.on('connect', () => {
    const id = Buffer.from(imei, 'ascii');
    const hello = Buffer.alloc(2 + id.length);
    hello.writeUInt16BE(id.length, 0);
    id.copy(hello, 2);
    socket.write(hello);
  });
  socket.on('data', (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    if (!accepted && buf.length >= 1) {
      accepted = buf[0] === 0x01;
      buf = buf.subarray(1);
    }
    while (buf.length >= 8 && buf.length >= 12 + buf.readUInt32BE(4)) {
      const size = 12 + buf.readUInt32BE(4);
      const frame = buf.subarray(0, size);
      buf = buf.subarray(size);
      const text = frame.toString('latin1', 15, 15 + frame.readUInt32BE(11));
      received.push(text);
      socket.write(codec12(0x06, answer(text)));
    }
  });
  return { received, accepted: () => accepted, close: () => socket.destroy() };
}

test('the device page sends a common command to a connected tracker and shows its answer', async ({ page, request }) => {
  const office = await officeApi(request);
  const models = (await (await request.get('/api/v1/settings/device-models?size=500', { headers: office.headers })).json()) as {
    content: Array<{ id: string; protocol: string }>;
  };
  const model = models.content.find((m) => m.protocol === 'teltonika');
  expect(model, 'the demo has a Teltonika model').toBeTruthy();
  const imei = `35${Date.now()}`.slice(0, 15);
  const created = await request.post(`${office.org}/gateways`, {
    headers: office.headers,
    data: { uniqueId: imei, name: `FMB ${imei.slice(-4)}`, deviceModelId: model!.id },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  await signIn(page, 'admin');
  await page.goto(`${ORG}/devices/${id}`);
  const panel = page.getByRole('region', { name: 'Commands' });
  await expect(panel.getByText('No commands sent yet')).toBeVisible();
  const common = panel.getByRole('group', { name: 'Common commands' });
  for (const c of ['getinfo', 'getver', 'getgps', 'setdigout 1', 'cpureset']) await expect(common.getByRole('button', { name: c, exact: true })).toBeVisible();

  // The device is away: the command waits for it.
  await common.getByRole('button', { name: 'getinfo', exact: true }).click();
  const table = panel.getByRole('table', { name: 'Commands sent' });
  await expect(table.getByRole('row').nth(1)).toContainText('getinfo');
  await expect(table.getByRole('row').nth(1)).toContainText('Queued');
  await expect(panel.getByText('Waiting for the device', { exact: true })).toBeVisible();

  // It connects, receives getinfo as codec 12, and answers; the console shows the answer by itself.
  const device = simulatedDevice(imei, (c) => (c === 'getinfo' ? 'RTC:2026/11/30 20:00 RST:2 ERR:1 GPS:1 SAT:9' : `${c}: OK`));
  try {
    await expect.poll(() => device.received, { timeout: 15_000 }).toEqual(['getinfo']);
    await expect(table.getByRole('row').nth(1)).toContainText('Answered', { timeout: 15_000 });
    await expect(table.getByRole('row').nth(1)).toContainText('RTC:2026/11/30 20:00 RST:2 ERR:1 GPS:1 SAT:9');
    await expect(panel.getByText('Waiting for the device', { exact: true })).toBeHidden();

    // A template button fills the field to complete; a free text command goes at once to the connected device.
    await common.getByRole('button', { name: 'readio …' }).click();
    const field = panel.getByRole('textbox', { name: 'Command' });
    await expect(field).toHaveValue('readio ');
    await field.fill('readio 239');
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect(table.getByRole('row').nth(1)).toContainText('readio 239: OK', { timeout: 15_000 });
    await expect(field).toHaveValue('');

    // Words the device cannot take are refused before anything is queued.
    await field.fill('réglage');
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect(panel.getByText('Use letters, digits, spaces and punctuation only (no accents or line breaks)')).toBeVisible();
    await expect(table.getByRole('row')).toHaveCount(3);

    await screenshotsLightDark(page, 'device-commands');
  } finally {
    device.close();
  }
});
