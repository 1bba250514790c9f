import net from 'node:net';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { E2E_PORT } from '../playwright.config.ts';
import { officeApi } from './driver-helpers.ts';
import { screenshotsLightDark } from './helpers.ts';
import { ADMIN, ORG, signIn } from './registry-helpers.ts';

// Issue 73: the driver's card. A Teltonika tracker paired with a vehicle reads a card no driver
// has (element 78, sent as a codec 8E packet to the server's Teltonika port): the vehicle's drawer
// says "Unknown card …, read at …" with a link that opens the add-driver form with the card filled
// in; saved, the card is the new driver's and the drawer names them. The form refuses what is not a
// card, and a card another driver has (typed in lower case with spaces) with the server's words.

const TELTONIKA_PORT = Number(process.env.TELTONIKA_PORT ?? E2E_PORT + 2);
const MIN = 60_000;

/** CRC-16/IBM, as Teltonika frames carry it. */
function crc16(buf: Buffer): number {
  let crc = 0;
  for (const b of buf) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

/** A codec 8E packet of one record at `at` with the ignition on and `card` in element 78 (8 bytes). */
function cardPacket(at: number, card: string): Buffer {
  const gps = Buffer.alloc(15);
  gps.writeInt32BE(Math.round(-87.65 * 1e7), 0);
  gps.writeInt32BE(Math.round(41.85 * 1e7), 4);
  gps.writeInt16BE(180, 8);
  gps.writeUInt16BE(90, 10);
  gps.writeUInt8(9, 12);
  gps.writeUInt16BE(0, 13);
  const io = Buffer.alloc(2 + 2 + 2 + 3 + 2 + 2 + 2 + 10 + 2);
  let o = io.writeUInt16BE(78, 0);
  o = io.writeUInt16BE(2, o);
  o = io.writeUInt16BE(1, o);
  o = io.writeUInt16BE(239, o);
  o = io.writeUInt8(1, o);
  o = io.writeUInt16BE(0, o);
  o = io.writeUInt16BE(0, o);
  o = io.writeUInt16BE(1, o);
  o = io.writeUInt16BE(78, o);
  o = io.writeBigUInt64BE(BigInt(`0x${card}`), o);
  io.writeUInt16BE(0, o);
  const time = Buffer.alloc(9);
  time.writeBigUInt64BE(BigInt(at), 0);
  const data = Buffer.concat([Buffer.from([0x8e, 1]), time, gps, io, Buffer.from([1])]);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 4);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc16(data), 0);
  return Buffer.concat([head, data, crc]);
}

/** A tracker's one connection: the IMEI, then the packet; resolves with the records acknowledged. */
function sendPacket(imei: string, packet: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(TELTONIKA_PORT, '127.0.0.1');
    let buf = Buffer.alloc(0);
    let accepted = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no acknowledgement'));
    }, 15_000);
    socket.on('error', reject);
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
        if (buf[0] !== 0x01) return reject(new Error('IMEI refused'));
        accepted = true;
        buf = buf.subarray(1);
        socket.write(packet);
      }
      if (accepted && buf.length >= 4) {
        clearTimeout(timer);
        socket.end();
        resolve(buf.readUInt32BE(0));
      }
    });
  });
}

type Office = Awaited<ReturnType<typeof officeApi>>;
/** 16 hex digits no one has typed before. */
const freshCard = () => `0B${Date.now().toString(16).toUpperCase().padStart(14, '0')}`.slice(0, 16);

/** A vehicle with a Teltonika tracker paired since an hour ago. */
async function trackedVehicle(request: APIRequestContext, office: Office): Promise<{ id: string; unitNumber: string; imei: string }> {
  const models = (await (await request.get('/api/v1/settings/device-models?size=500', { headers: office.headers })).json()) as {
    content: Array<{ id: string; protocol: string }>;
  };
  const model = models.content.find((m) => m.protocol === 'teltonika');
  expect(model, 'the demo has a Teltonika model').toBeTruthy();
  const { id, unitNumber } = await office.vehicle();
  const imei = `35${Date.now()}`.slice(0, 15);
  const gw = await request.post(`${office.org}/gateways`, {
    headers: office.headers,
    data: { uniqueId: imei, name: `FMB ${imei.slice(-4)}`, deviceModelId: model!.id },
  });
  expect(gw.status(), await gw.text()).toBe(201);
  const { id: gatewayId } = (await gw.json()) as { id: string };
  const paired = await request.post(`${office.org}/gateways/${gatewayId}/pair/${id}`, {
    headers: office.headers,
    data: { from: new Date(Date.now() - 60 * MIN).toISOString() },
  });
  expect(paired.ok(), await paired.text()).toBe(true);
  return { id, unitNumber, imei };
}

test('an unknown card read in a vehicle is shown, and given to a new driver from there', async ({ page, request }) => {
  test.setTimeout(180_000);
  const office = await officeApi(request);
  const vehicle = await trackedVehicle(request, office);
  const unknown = freshCard();
  expect(await sendPacket(vehicle.imei, cardPacket(Date.now() - 5 * MIN, unknown))).toBe(1);
  // The dark theme needs the organization's flag (as a11y.spec.ts sets it) for the dark pictures.
  await page.goto('/');
  await page.evaluate(() => localStorage.setItem('fleet.darkModeFlag', JSON.stringify({ isEnabled: true, defaultTheme: 'light' })));
  await signIn(page, ADMIN);
  await page.goto(`${ORG}/vehicles?open=${vehicle.id}`);
  const detail = page.getByRole('dialog', { name: `Vehicle ${vehicle.unitNumber}` });
  const reads = detail.getByTestId('vehicle-card-reads');
  // Times in the user's zone (the demo organization's Chicago), not the browser's (Tokyo).
  await expect(reads.getByTestId('unknown-card')).toHaveText(
    new RegExp(`^Unknown card ${unknown}, read at [A-Z][a-z]{2} \\d{1,2}, \\d{1,2}:\\d\\d [AP]M C[SD]T$`),
  );
  await expect(reads.getByText(/reads? of (an )?unknown cards?/)).toBeVisible();
  await reads.scrollIntoViewIfNeeded();
  await screenshotsLightDark(page, 'vehicle-unknown-card');

  await reads.getByRole('link', { name: 'Add it to a driver' }).click();
  const form = page.getByRole('form', { name: 'Driver form' });
  const card = form.getByLabel('Driver card');
  await expect(card).toHaveValue(unknown);
  const last = `Card${Date.now().toString(36)}`;
  await form.getByLabel('First name').fill('Rosa');
  await form.getByLabel('Last name').fill(last);
  await form.getByLabel('Licence number').fill(`C${Date.now().toString(36).toUpperCase()}`);
  await form.getByLabel('Issuing state or province').selectOption('IL');
  await screenshotsLightDark(page, 'driver-form-card');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();

  await page.goto(`${ORG}/vehicles?open=${vehicle.id}`);
  await expect(detail.getByTestId('vehicle-card-reads')).toContainText(`Rosa ${last}’s card, read at`);
  await expect(detail.getByTestId('unknown-card')).toHaveCount(0);
});

test('the driver form refuses what is not a card, and a card another driver has', async ({ page, request }) => {
  const office = await officeApi(request);
  const taken = freshCard();
  const owner = await request.post(`${office.org}/drivers`, {
    headers: office.headers,
    data: {
      firstName: 'Fob',
      lastName: `Owner${Date.now().toString(36)}`,
      licenseNumber: `F${Date.now().toString(36).toUpperCase()}`,
      licenseState: 'IL',
      cardNumber: taken,
    },
  });
  expect(owner.status(), await owner.text()).toBe(201);
  await signIn(page, ADMIN);
  await page.goto(`${ORG}/driver-add`);
  const form = page.getByRole('form', { name: 'Driver form' });
  await form.getByLabel('First name').fill('Noel');
  await form.getByLabel('Last name').fill(`Dup${Date.now().toString(36)}`);
  await form.getByLabel('Licence number').fill(`D${Date.now().toString(36).toUpperCase()}`);
  await form.getByLabel('Issuing state or province').selectOption('IL');
  const card = form.getByLabel('Driver card');
  await card.fill('not a card');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Driver card must be up to 16 hex digits (0-9, A-F), not all zeros')).toBeVisible();
  // The other driver's card, typed in lower case and in groups of four, as printed on the fob.
  await card.fill(taken.toLowerCase().replace(/(.{4})(?!$)/g, '$1 '));
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText(`Card ${taken} is already used by another driver`)).toBeVisible();
  await expect(card).toHaveAttribute('aria-invalid', 'true');
});
