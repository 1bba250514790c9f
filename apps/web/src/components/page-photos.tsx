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
  const add = async (files: File[]) => {
    if (files.length === 0) return;
    setUnreadable(false);
    setReading(true);
    try {
      const added: PhotoPage[] = [];
      for (const file of files.slice(0, max - pages.length)) {
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
      setPages((p) => [...p, ...added]);
    } finally {
      setReading(false);
    }
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
