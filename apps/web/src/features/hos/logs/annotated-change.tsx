import { useTranslation } from 'react-i18next';
import { Alert, Button, Group, Textarea } from '@mantine/core';
import { describeError } from '../../../lib/api-client.ts';

export interface AnnotatedChangeProps {
  /** The words' key prefix: `driver.crossings`, `driver.declarations` (annotation, annotationHelp, failed, cancel, save). */
  words: string;
  annotation: string;
  onAnnotation: (value: string) => void;
  annotationError?: string;
  /** The change's failure, shown above the buttons. */
  error: unknown;
  pending: boolean;
  /** A removal: the button is red and says `removeLabel`. */
  removing: boolean;
  removeLabel: string;
  onClose: () => void;
}

/**
 * The end of a log correction's form (a crossing's, a declaration's): the annotation of 4-60
 * characters every change of a driver's record carries, the server's refusal, Cancel and Save.
 */
export function AnnotatedChange({ words, annotation, onAnnotation, annotationError, error, pending, removing, removeLabel, onClose }: AnnotatedChangeProps) {
  const { t } = useTranslation();
  return (
    <>
      <Textarea
        label={t(`${words}.annotation`)}
        description={t(`${words}.annotationHelp`, { count: annotation.trim().length })}
        withAsterisk
        autosize
        minRows={2}
        maxLength={60}
        value={annotation}
        onChange={(e) => onAnnotation(e.currentTarget.value)}
        error={annotationError}
      />
      {error ? (
        <Alert color="red" title={t(`${words}.failed`)}>
          {describeError(error).details ?? describeError(error).title}
        </Alert>
      ) : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          {t(`${words}.cancel`)}
        </Button>
        <Button type="submit" color={removing ? 'red' : undefined} loading={pending}>
          {removing ? removeLabel : t(`${words}.save`)}
        </Button>
      </Group>
    </>
  );
}
