import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionIcon, Button, FileButton, Group, Text } from '@mantine/core';
import { IconArrowLeft, IconCamera, IconX } from '@tabler/icons-react';
import { pagePhoto } from '../lib/photo-resize.ts';
import classes from './page-photos.module.css';

// A paper photographed page by page on the phone, as the load documents of issue 70 are: the pages in
// the order taken (each shown, each removable, moved earlier if taken out of order), each turned into a
// JPEG a PDF page can hold. A stop's papers (issue 70) and issue 71's renewals use it; the words
// are the paper pages' words of the driver's catalogue (`loads.*`).

const READABLE = ['image/jpeg', 'image/png'];

export interface PhotoPage {
  key: string;
  blob: Blob;
  url: string;
}

let pageSeq = 0;

/** The pages taken so far and the ways to change them; their thumbnails' object URLs go with the component. */
export function usePagePhotos(max: number) {
  const [pages, setPages] = useState<PhotoPage[]>([]);
  const [reading, setReading] = useState(false);
  const [unreadable, setUnreadable] = useState(false);
  const urls = useRef(new Set<string>());
  useEffect(() => {
    const held = urls.current;
    return () => held.forEach((u) => URL.revokeObjectURL(u));
  }, []);
  // Pages taken one after another are read one after another: a larger photo takes longer to
  // turn into a JPEG, and read side by side it would land after the page taken next.
  const chain = useRef<Promise<void>>(Promise.resolve());
  const waiting = useRef(0);
  const read = async (files: File[]) => {
    const added: PhotoPage[] = [];
    for (const file of files) {
      const blob = await pagePhoto(file);
      // Not turned into a JPEG and not one already: a PDF page cannot hold it (a HEIC photo from a gallery).
      if (!READABLE.includes(blob.type)) {
        setUnreadable(true);
        continue;
      }
      const url = URL.createObjectURL(blob);
      urls.current.add(url);
      added.push({ key: `p${++pageSeq}`, blob, url });
    }
    setPages((p) => {
      const kept = added.slice(0, Math.max(0, max - p.length));
      for (const gone of added.slice(kept.length)) {
        URL.revokeObjectURL(gone.url);
        urls.current.delete(gone.url);
      }
      return [...p, ...kept];
    });
  };
  const add = (files: File[]): Promise<void> => {
    if (files.length === 0) return Promise.resolve();
    setUnreadable(false);
    setReading(true);
    waiting.current++;
    chain.current = chain.current
      .then(() => read(files.slice(0, max)))
      // A photo that cannot be read is said so; the pages after it are still read.
      .catch(() => setUnreadable(true))
      .finally(() => {
        if (--waiting.current === 0) setReading(false);
      });
    return chain.current;
  };
  const remove = (key: string) =>
    setPages((p) => {
      const gone = p.find((x) => x.key === key);
      if (gone) {
        URL.revokeObjectURL(gone.url);
        urls.current.delete(gone.url);
      }
      return p.filter((x) => x.key !== key);
    });
  const earlier = (i: number) => setPages((p) => (i <= 0 ? p : [...p.slice(0, i - 1), p[i]!, p[i - 1]!, ...p.slice(i + 1)]));
  return { pages, reading, unreadable, max, add, remove, earlier };
}

/** The pages taken (thumbnails with their order and controls) and the button that photographs the next one; the screen says `unreadable`. */
export function PagePhotos({ state }: { state: ReturnType<typeof usePagePhotos> }) {
  const { t } = useTranslation();
  const { pages } = state;
  return (
    <>
      <Text size="xs" c="dimmed">
        {t('loads.pagesHint')}
      </Text>
      {pages.length > 0 && (
        <ol className={classes.pages} aria-label={t('loads.pagesTaken')}>
          {pages.map((p, i) => (
            <li key={p.key} data-testid="document-page">
              <img src={p.url} alt={t('loads.pageN', { n: i + 1 })} />
              <Group justify="space-between" gap={2} wrap="nowrap">
                {i > 0 ? (
                  <ActionIcon variant="subtle" size="md" aria-label={t('loads.pageEarlier', { n: i + 1 })} onClick={() => state.earlier(i)}>
                    <IconArrowLeft size={16} aria-hidden />
                  </ActionIcon>
                ) : (
                  <span />
                )}
                <Text size="xs" fw={600}>
                  {i + 1}
                </Text>
                <ActionIcon variant="subtle" color="red" size="md" aria-label={t('loads.removePage', { n: i + 1 })} onClick={() => state.remove(p.key)}>
                  <IconX size={16} aria-hidden />
                </ActionIcon>
              </Group>
            </li>
          ))}
        </ol>
      )}
      {pages.length < state.max && (
        <FileButton onChange={(f) => void state.add(f)} accept="image/*" capture="environment" multiple>
          {(props) => (
            <Button {...props} variant="default" loading={state.reading} leftSection={<IconCamera size={16} aria-hidden />}>
              {t('loads.takePage', { n: pages.length + 1 })}
            </Button>
          )}
        </FileButton>
      )}
    </>
  );
}
