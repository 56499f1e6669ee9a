import { useCallback, useEffect, useRef, useState } from 'react';
import { Uploader, type UploaderOptions, type UploaderState } from './uploader.ts';

/**
 * React's handle on the framework-free Uploader: one file at a time (single -> at most one file).
 * Choosing another file, removing it or leaving the page drops an unfinished session.
 */
export function useUpload(options: UploaderOptions) {
  const [state, setState] = useState<UploaderState | null>(null);
  const current = useRef<Uploader | null>(null);
  const opts = useRef(options);
  useEffect(() => {
    opts.current = options;
  });

  const select = useCallback((file: File, autoStart = true) => {
    void current.current?.discard();
    const uploader: Uploader = new Uploader(file, opts.current, (s) => {
      if (current.current === uploader) setState(s);
    });
    current.current = uploader;
    setState(uploader.state);
    if (autoStart) void uploader.start();
  }, []);

  const start = useCallback(() => void current.current?.start(), []);
  const cancel = useCallback(() => current.current?.abort(), []);
  const retry = useCallback(() => void current.current?.retry(), []);
  const remove = useCallback(() => {
    void current.current?.discard();
    current.current = null;
    setState(null);
  }, []);

  useEffect(
    () => () => {
      void current.current?.discard();
    },
    [],
  );

  return { state, file: state?.file ?? null, message: state?.message ?? '', select, start, cancel, retry, remove };
}
export type UploadHandle = ReturnType<typeof useUpload>;
