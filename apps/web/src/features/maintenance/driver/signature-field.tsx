import { useCallback, useEffect, useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconEraser } from '@tabler/icons-react';
import classes from './dvir-driver.module.css';

// A signature as 396.11 and 396.13 ask for it: the signer's name, and a signature drawn with a finger
// (uploaded as a PNG) or typed (the name itself). Drawn with pointer events, so a mouse, a pen and a
// finger all work; the canvas keeps its ink across re-renders.

export type SignatureMode = 'draw' | 'type';

export interface SignatureState {
  name: string;
  mode: SignatureMode;
  /** Something drawn on the canvas (a drawn signature needs ink). */
  inked: boolean;
  canvas: React.RefObject<HTMLCanvasElement | null>;
  setName: (v: string) => void;
  setMode: (v: SignatureMode) => void;
  setInked: (v: boolean) => void;
}

/** The signature's state; `initialName` is the signer's name as the registry has it. */
export function useSignature(initialName: string): SignatureState {
  const [name, setName] = useState(initialName);
  const [mode, setMode] = useState<SignatureMode>('draw');
  const [inked, setInked] = useState(false);
  const canvas = useRef<HTMLCanvasElement | null>(null);
  return { name, mode, inked, canvas, setName, setMode, setInked };
}

/** The drawn signature as a PNG, or null when typed or nothing is drawn. */
export function signaturePng(s: SignatureState): Promise<Blob | null> {
  const c = s.canvas.current;
  if (s.mode !== 'draw' || !s.inked || !c) return Promise.resolve(null);
  return new Promise((resolve) => c.toBlob((b) => resolve(b), 'image/png'));
}

/** What is missing before the signature can be sent, or null; in the driver's language. */
export function signatureProblem(s: SignatureState, t: TFunction): { field: 'name' | 'drawing'; message: string } | null {
  if (!s.name.trim()) return { field: 'name', message: t('validation.required', { label: t('fields.name') }) };
  if (s.mode === 'draw' && !s.inked) return { field: 'drawing', message: t('inspection.signature.drawOrType') };
  return null;
}

export interface SignatureFieldProps {
  state: SignatureState;
  /** Errors from the form's checks or the server, by field. */
  nameError?: string | null;
  drawingError?: string | null;
  /** Prefix for element ids and test ids, so two fields can share a page. */
  id: string;
}

/** Name, then Draw / Type, then the canvas (with Clear) or the typed signature shown in script. */
export function SignatureField({ state, nameError, drawingError, id }: SignatureFieldProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <TextInput
        label={t('inspection.signature.yourName')}
        required
        size="md"
        value={state.name}
        onChange={(e) => state.setName(e.currentTarget.value)}
        error={nameError}
        maxLength={100}
        autoComplete="name"
      />
      <SegmentedControl
        aria-label={t('inspection.signature.label')}
        fullWidth
        size="md"
        value={state.mode}
        onChange={(v) => state.setMode(v as SignatureMode)}
        data={[
          { value: 'draw', label: t('inspection.signature.draw') },
          { value: 'type', label: t('inspection.signature.type') },
        ]}
      />
      {state.mode === 'draw' ? (
        <SignaturePad state={state} error={drawingError} id={id} />
      ) : (
        <div className={classes.typedSignature} data-testid={`${id}-typed`} aria-label={t('inspection.signature.typed')}>
          {state.name.trim() || t('inspection.signature.yourName')}
        </div>
      )}
    </Stack>
  );
}

function SignaturePad({ state, error, id }: { state: SignatureState; error?: string | null; id: string }) {
  const { t } = useTranslation();
  const drawing = useRef<{ x: number; y: number } | null>(null);
  const { canvas, setInked } = state;

  // The canvas is as wide as its box, at the screen's pixel density, so the strokes stay sharp.
  const fit = useCallback(() => {
    const c = canvas.current;
    if (!c) return;
    const ratio = window.devicePixelRatio || 1;
    // Layout size, not getBoundingClientRect: a modal's opening animation scales the box.
    const width = c.offsetWidth;
    const height = c.offsetHeight;
    if (width === 0 || c.width === Math.round(width * ratio)) return;
    c.width = Math.round(width * ratio);
    c.height = Math.round(height * ratio);
    const ctx = c.getContext('2d');
    if (!ctx) return;
    ctx.scale(ratio, ratio);
    ctx.lineWidth = 2.5;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    // Ink is always dark on the pad's white paper, so the PNG reads the same in both themes.
    ctx.strokeStyle = '#111';
    setInked(false);
  }, [canvas, setInked]);
  useEffect(() => {
    fit();
  }, [fit]);

  const point = (e: PointerEvent<HTMLCanvasElement>) => {
    const c = e.currentTarget;
    const r = c.getBoundingClientRect();
    const scale = r.width ? c.offsetWidth / r.width : 1;
    return { x: (e.clientX - r.left) * scale, y: (e.clientY - r.top) * scale };
  };
  const down = (e: PointerEvent<HTMLCanvasElement>) => {
    if (!state.inked) fit();
    e.currentTarget.setPointerCapture(e.pointerId);
    drawing.current = point(e);
    const ctx = e.currentTarget.getContext('2d');
    const p = drawing.current;
    // A tap leaves a dot.
    ctx?.beginPath();
    ctx?.arc(p.x, p.y, 1.2, 0, Math.PI * 2);
    ctx?.fill();
  };
  const move = (e: PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return;
    const ctx = e.currentTarget.getContext('2d');
    const p = point(e);
    if (ctx) {
      ctx.beginPath();
      ctx.moveTo(drawing.current.x, drawing.current.y);
      ctx.lineTo(p.x, p.y);
      ctx.stroke();
    }
    drawing.current = p;
    setInked(true);
  };
  const up = () => {
    drawing.current = null;
  };
  const clear = () => {
    const c = canvas.current;
    c?.getContext('2d')?.clearRect(0, 0, c.width, c.height);
    setInked(false);
  };
  return (
    <Stack gap={4}>
      <canvas
        ref={canvas}
        className={classes.pad}
        data-error={error ? true : undefined}
        data-testid={`${id}-pad`}
        role="img"
        aria-label={t('inspection.signature.pad')}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
      />
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" c={error ? 'var(--mantine-color-error)' : 'dimmed'} id={`${id}-pad-hint`} style={{ flex: 1 }}>
          {error ?? t('inspection.signature.hint')}
        </Text>
        <Button variant="subtle" size="sm" leftSection={<IconEraser size={16} aria-hidden />} onClick={clear}>
          {t('inspection.signature.clear')}
        </Button>
      </Group>
    </Stack>
  );
}
