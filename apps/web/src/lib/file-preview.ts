import { useState } from 'react';
import { readTextFile } from './text-file.ts';

/**
 * The state of an import drawer: the chosen file, its text, and the server's preview of it (nothing
 * saved yet) or the error that preview answered. Choosing another file, or none, starts over.
 */
export function useFilePreview<P>(check: (text: string) => Promise<P>) {
  const [file, setFile] = useState<File | null>(null);
  const [text, setText] = useState<string | null>(null);
  const [preview, setPreview] = useState<P | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [checking, setChecking] = useState(false);

  const reset = () => {
    setFile(null);
    setText(null);
    setPreview(null);
    setError(null);
  };
  const choose = async (f: File | null) => {
    reset();
    setFile(f);
    if (!f) return;
    setChecking(true);
    try {
      const t = await readTextFile(f);
      setText(t);
      setPreview(await check(t));
    } catch (err) {
      setError(err);
    } finally {
      setChecking(false);
    }
  };
  return { file, text, preview, error, checking, reset, choose };
}
