import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import type { GatewayDetail } from '@fleet/api-contract';
import { formatDateTime, fromZoneInput, toZoneInput, zoneLabel } from '../../lib/dates.ts';

/** The picker shows and takes wall-clock times of the viewer's zone ("2026-06-01 06:19:00"). */
const pickerValue = (d: Date) => `${toZoneInput(d.toISOString()).replace('T', ' ')}:00`;
const fromPicker = (v: string | null) => (v ? fromZoneInput(v.slice(0, 16).replace(' ', 'T')) : null);

/**
 * Pairing a device with a vehicle, optionally from a time in the past: the positions the device sent
 * since then (its buffer, or the days since it was installed) become the vehicle's. Not before the
 * device's previous pairing ended (the server answers why).
 */
export function PairDialog({
  device,
  vehicle,
  onClose,
  onPair,
}: {
  device: GatewayDetail;
  vehicle: string;
  onClose: () => void;
  onPair: (from: string | null) => Promise<void>;
}) {
  const [from, setFrom] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ended = device.pairingHistory.find((h) => h.to !== null)?.to ?? null;
  const now = new Date();
  return (
    <Modal opened onClose={onClose} title="Pair device" centered>
      <Stack gap="md">
        <Text size="sm">
          {device.name} will report for {vehicle}.
        </Text>
        <DateTimePicker
          label={`Positions from (${zoneLabel(now)})`}
          description={`Optional. The positions ${device.name} sent since then become ${vehicle}'s: its history, IFTA miles, duty status and statistics. Empty: from now.`}
          placeholder="Now"
          clearable
          value={from ? pickerValue(new Date(from)) : null}
          onChange={(v) => setFrom(fromPicker(v))}
          maxDate={pickerValue(now)}
          minDate={ended ? pickerValue(new Date(ended)) : undefined}
          valueFormat="MM/DD/YY hh:mm A"
        />
        {ended && (
          <Text size="xs" c="dimmed">
            Its previous pairing ended {formatDateTime(ended)}; positions before that are not this vehicle&apos;s.
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            loading={busy}
            onClick={async () => {
              setBusy(true);
              try {
                await onPair(from);
                onClose();
              } catch {
                // The API client showed the server's reason; the dialog stays open to change the time.
              } finally {
                setBusy(false);
              }
            }}
          >
            Pair
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
