/** Test fixtures of the webhook tests: a load whose creation is the event they subscribe to. */
const H = 3_600_000;

/** A Kansas City → St. Louis load starting in an hour (POST …/loads body). */
export const loadBody = () => ({
  customer: 'Acme Foods',
  stops: [
    {
      kind: 'PICKUP',
      latitude: 39.1,
      longitude: -94.58,
      windowStart: new Date(Date.now() + H).toISOString(),
      windowEnd: new Date(Date.now() + 2 * H).toISOString(),
      serviceMinutes: 30,
    },
    {
      kind: 'DELIVERY',
      latitude: 38.63,
      longitude: -90.2,
      windowStart: new Date(Date.now() + 9 * H).toISOString(),
      windowEnd: new Date(Date.now() + 10 * H).toISOString(),
      serviceMinutes: 30,
    },
  ],
  rate: { lineHaul: 1000, fuelSurcharge: 0, accessorials: [] },
});
