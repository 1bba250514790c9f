import { queryOptions, useMutation } from '@tanstack/react-query';
import type { RoadsideCa, RoadsideCaSent } from '@fleet/api-contract';
import { api } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/download.ts';
import { orgPathFor } from '../../../lib/org-path.ts';
import { hosKeys } from '../hos-api.ts';

// The Canadian roadside view's calls (issue 72, decision 0316): the 15 days with their cycle totals,
// the PDF and its e-mail. Keys sit under the driver's (['hos', orgId, 'driver', userId]), so whatever
// refreshes the driver's screen refreshes these too.

const path = (orgId: string, driverId: string) => orgPathFor(orgId, `/drivers/${encodeURIComponent(driverId)}/hos_log/roadside-ca`);

export const roadsideCaKeys = {
  view: (orgId: string, userId: string, driverId: string) => [...hosKeys.driver(orgId, userId), 'roadside-ca', driverId] as const,
};

/** Today and the 14 days before it, with each day's totals and cycle totals. */
export const roadsideCaQuery = (orgId: string, userId: string, driverId: string) =>
  queryOptions({
    queryKey: roadsideCaKeys.view(orgId, userId, driverId),
    queryFn: ({ signal }) => api<RoadsideCa>(path(orgId, driverId), { signal }),
    // The days change only by an edit; kept as the roadside view's other copies are, for a phone without signal.
    staleTime: 60_000,
  });

/** Downloads the PDF of `date` and the 14 days before it; answers the file's name. */
export async function downloadRoadsideCaPdf(orgId: string, driverId: string, date: string, name: string): Promise<string> {
  // The server's name for it (roadside-ca.service.ts): accents dropped, ASCII letters, digits and hyphens.
  const ascii = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9-]+/g, '')
    .slice(0, 40);
  const fileName = `daily-log-ca-${ascii || 'driver'}-${date}.pdf`;
  saveFile(await api<Blob>(`${path(orgId, driverId)}.pdf`, { query: { date }, blob: true }), fileName);
  return fileName;
}

export function useSendRoadsideCa(orgId: string, driverId: string) {
  return useMutation({
    mutationFn: (body: { email: string; date: string }) => api<RoadsideCaSent>(`${path(orgId, driverId)}/email`, { method: 'POST', body, toast: false }),
  });
}
