import { useEffect, useRef, useState } from 'react';
import { Badge, Box, Button, Group, NativeSelect, SegmentedControl, Stack, Text } from '@mantine/core';
import type { Asset, DefectStatus, WorkOrderStatus } from '@fleet/api-contract';
import tones from '../../../components/badge-tones.module.css';
import { useFilterParam } from '../../../components/registry-toolbar.tsx';
import { useGroups } from '../../../lib/map/map-api.ts';
import { usePagedList } from '../../../lib/registry-api.ts';
import { uploadDvirImage } from '../dvir-api.ts';

// Pieces the office's maintenance screens share: badges, the unit picker's options, the signature.

export const DEFECT_STATUS_LABEL: Record<DefectStatus, string> = { OPEN: 'Open', REPAIRED: 'Repaired', NOT_NEEDED: 'Repair not needed' };
export const WORK_ORDER_STATUS_LABEL: Record<WorkOrderStatus, string> = { OPEN: 'Open', IN_PROGRESS: 'In progress', DONE: 'Done' };

export function DefectStatusBadge({ status }: { status: DefectStatus }) {
  const tone = status === 'OPEN' ? tones.warn : tones.ok;
  return (
    <Badge variant="outline" radius="sm" className={tone}>
      {DEFECT_STATUS_LABEL[status]}
    </Badge>
  );
}

/** "Safety" for a defect that affects safe operation: the vehicle may not run until it is repaired. */
export function SafetyBadge({ safety }: { safety: boolean }) {
  return safety ? (
    <Badge variant="outline" radius="sm" className={tones.danger} title="Affects safe operation: the vehicle may not run until repaired">
      Safety
    </Badge>
  ) : (
    <Badge variant="outline" radius="sm" className={tones.muted}>
      Minor
    </Badge>
  );
}

export function WorkOrderStatusBadge({ status }: { status: WorkOrderStatus }) {
  const tone = status === 'DONE' ? tones.ok : status === 'IN_PROGRESS' ? tones.warn : tones.muted;
  return (
    <Badge variant="outline" radius="sm" className={tone}>
      {WORK_ORDER_STATUS_LABEL[status]}
    </Badge>
  );
}

export function DueBadge({ status }: { status: 'OK' | 'DUE' | 'OVERDUE' }) {
  const [label, tone] = status === 'OVERDUE' ? ['Overdue', tones.danger] : status === 'DUE' ? ['Coming due', tones.warn] : ['OK', tones.ok];
  return (
    <Badge variant="outline" radius="sm" className={tone}>
      {label}
    </Badge>
  );
}

const NO_ASSETS: Asset[] = [];

/** The organization's vehicles and trailers (up to 500 each), for the unit pickers and filters. */
export function useUnits500(type: 'VEHICLE' | 'TRAILER' | null = null): Asset[] {
  const q = usePagedList<Asset>('assets', { type: type ?? undefined, size: 500, sort: 'unitNumber,asc' });
  return q.data?.content ?? NO_ASSETS;
}

export const unitOptions = (assets: Asset[]) => assets.map((a) => ({ value: a.id, label: `${a.unitNumber}${a.type === 'TRAILER' ? ' (trailer)' : ''}` }));

/** A drawn signature on a canvas: pointer strokes; `onChange(true)` once something is drawn. */
export function SignaturePad({
  canvasRef,
  onChange,
  label,
}: {
  canvasRef: React.RefObject<HTMLCanvasElement | null>;
  onChange: (drawn: boolean) => void;
  label: string;
}) {
  const drawing = useRef(false);
  useEffect(() => {
    const c = canvasRef.current;
    if (!c) return;
    const ctx = c.getContext('2d');
    if (!ctx) return;
    ctx.lineWidth = 2.2;
    ctx.lineCap = 'round';
    ctx.strokeStyle = '#1a1b1e';
  }, [canvasRef]);
  const point = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return [((e.clientX - r.left) * e.currentTarget.width) / r.width, ((e.clientY - r.top) * e.currentTarget.height) / r.height] as const;
  };
  return (
    <Stack gap={4}>
      <Box
        component="canvas"
        ref={canvasRef}
        width={560}
        height={160}
        aria-label={label}
        role="img"
        style={{
          width: '100%',
          maxWidth: 560,
          height: 140,
          background: '#fff',
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 6,
          touchAction: 'none',
          cursor: 'crosshair',
        }}
        onPointerDown={(e: React.PointerEvent<HTMLCanvasElement>) => {
          const ctx = e.currentTarget.getContext('2d');
          if (!ctx) return;
          drawing.current = true;
          e.currentTarget.setPointerCapture(e.pointerId);
          const [x, y] = point(e);
          ctx.beginPath();
          ctx.moveTo(x, y);
        }}
        onPointerMove={(e: React.PointerEvent<HTMLCanvasElement>) => {
          if (!drawing.current) return;
          const ctx = e.currentTarget.getContext('2d');
          const [x, y] = point(e);
          ctx?.lineTo(x, y);
          ctx?.stroke();
          onChange(true);
        }}
        onPointerUp={() => {
          drawing.current = false;
        }}
      />
    </Stack>
  );
}

export type SignatureMode = 'typed' | 'drawn';

/**
 * The signer's choice of a typed signature (the name stands for it) or a drawn one; `collect()` uploads
 * a drawn signature and answers its image id (null for a typed one), or throws when nothing was drawn.
 */
export function useSignature(orgId: string | null, typedName = '') {
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const [mode, setMode] = useState<SignatureMode>('typed');
  const [drawn, setDrawn] = useState(false);
  const clear = () => {
    const c = canvasRef.current;
    c?.getContext('2d')?.clearRect(0, 0, c.width, c.height);
    setDrawn(false);
  };
  const collect = async (): Promise<string | null> => {
    if (mode === 'typed') return null;
    const c = canvasRef.current;
    if (!c || !drawn) throw new Error('Draw the signature, or choose a typed one');
    const blob = await new Promise<Blob | null>((resolve) => c.toBlob(resolve, 'image/png'));
    if (!blob) throw new Error('The drawn signature could not be read');
    return (await uploadDvirImage(orgId ?? '', blob, 'signature.png')).id;
  };
  const field = (
    <Stack gap={6}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={500}>
          Signature
        </Text>
        <SegmentedControl
          size="xs"
          aria-label="Signature kind"
          value={mode}
          onChange={(v) => setMode(v as SignatureMode)}
          data={[
            { value: 'typed', label: 'Typed' },
            { value: 'drawn', label: 'Drawn' },
          ]}
        />
      </Group>
      {mode === 'drawn' ? (
        <>
          <SignaturePad canvasRef={canvasRef} onChange={setDrawn} label="Draw the signature here" />
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              Sign with the mouse, a pen or a finger.
            </Text>
            <Button size="compact-xs" variant="default" onClick={clear}>
              Clear
            </Button>
          </Group>
        </>
      ) : (
        <Stack gap={2}>
          <Text ff="serif" fs="italic" fz="xl" mih={30}>
            {typedName.trim() || ' '}
          </Text>
          <Text size="xs" c="dimmed">
            The name typed above is the signature.
          </Text>
        </Stack>
      )}
    </Stack>
  );
  return { field, collect };
}

/**
 * The group filter of a maintenance list, as `?group=` (the dashboard's counters link with it):
 * returns the chosen group id and its select, so a grouped counter and its list count the same units.
 */
export function useGroupFilter(): [string | undefined, React.ReactNode] {
  const [group, setGroup] = useFilterParam('group');
  const groups = useGroups();
  const select = (
    <NativeSelect
      aria-label="Group"
      value={group ?? ''}
      onChange={(e) => setGroup(e.currentTarget.value || null)}
      data={[{ value: '', label: 'All groups' }, ...(groups.data?.content.map((g) => ({ value: g.id, label: g.name })) ?? [])]}
    />
  );
  return [group ?? undefined, select];
}
