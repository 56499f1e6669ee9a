import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { UPLOAD_ERROR_MESSAGES } from '#shared/upload';
import { UploadField } from './upload-field.tsx';
import { TransportError, type HttpRequest, type HttpResponse, type Transport } from './uploader.ts';

const MB = 1_048_576;

/** a chunked handler answering after `gate` resolves for each chunk (to look at the bar mid-way) */
function server(opts: { failChunkOnce?: boolean; refuse?: string } = {}) {
  const calls: HttpRequest[] = [];
  let failed = false;
  let release: (() => void) | null = null;
  let gate = new Promise<void>((r) => (release = r));
  const transport: Transport = async (req) => {
    calls.push(req);
    if (req.signal.aborted) throw new TransportError('abort');
    const body = req.body;
    if (body instanceof FormData) {
      if (body.get('phase') === 'upload') {
        req.onProgress?.(MB / 2);
        await Promise.race([
          gate,
          new Promise((_, reject) => req.signal.addEventListener('abort', () => reject(new TransportError('abort')))),
        ]);
        if (opts.failChunkOnce && !failed) {
          failed = true;
          return { status: 500, body: null };
        }
        req.onProgress?.((body.get('chunk') as Blob).size);
        return { status: 200, body: { status: 'success', data: { received: [] } } };
      }
      return { status: 200, body: { status: 'success', data: { session_id: 'small12345' } } };
    }
    if (req.method === 'GET')
      return {
        status: 200,
        body: { status: 'success', data: { received: [], size: 2 * MB, state: 'open' } },
      } satisfies HttpResponse;
    const phase = (body as { phase: string }).phase;
    if (phase === 'start' && opts.refuse) return { status: 422, body: { status: 'error', message: opts.refuse } };
    if (phase === 'start')
      return { status: 200, body: { status: 'success', data: { session_id: 'sess123456', end_offset: MB } } };
    return { status: 200, body: { status: 'success', data: { session_id: 'sess123456' } } };
  };
  return {
    transport,
    calls,
    open() {
      release?.();
      gate = Promise.resolve();
    },
  };
}

const file = (size: number, name = 'take.mp4') => new File([new Uint8Array(size)], name, { type: 'video/mp4' });
const options = (transport: Transport) => ({
  postAction: '/uploads',
  chunk: { enabled: true, action: '/uploads/chunked' },
  extensions: ['mp4', 'mov'],
  maxSize: 10 * MB,
  transport,
  sleep: async () => undefined,
  speedSampleMs: 20,
});

describe('UploadField', () => {
  it('shows the file, a progress bar with aria values and Cancel while it uploads, then Uploaded', async () => {
    const s = server();
    const onUploaded = vi.fn();
    render(<UploadField label="Your practice video" options={options(s.transport)} onUploaded={onUploaded} />);
    fireEvent.change(screen.getByLabelText('Your practice video'), { target: { files: [file(2 * MB)] } });
    const bar = await screen.findByRole('progressbar');
    expect(bar).toHaveAttribute('aria-valuemin', '0');
    expect(bar).toHaveAttribute('aria-valuemax', '100');
    await waitFor(() => expect(Number(bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0));
    expect(screen.getByText('take.mp4')).toBeInTheDocument();
    expect(screen.getByText('2.0 MB')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('upload-speed').textContent).toMatch(/\/s$/));
    act(() => s.open());
    await screen.findByText('Uploaded');
    expect(screen.queryByRole('progressbar')).toBeNull();
    // the answer is reported from an effect after the commit that shows Uploaded, so wait for it
    await waitFor(() =>
      expect(onUploaded).toHaveBeenCalledWith({ status: 'success', data: { session_id: 'sess123456' } }),
    );
    expect(onUploaded).toHaveBeenCalledTimes(1);
  });

  it('Cancel aborts; Try again resumes the session (asks its status) and finishes', async () => {
    const s = server();
    render(<UploadField label="Your practice video" options={options(s.transport)} />);
    fireEvent.change(screen.getByLabelText('Your practice video'), { target: { files: [file(2 * MB)] } });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(UPLOAD_ERROR_MESSAGES.abort);
    s.open();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByText('Uploaded');
    expect(s.calls.some((c) => c.method === 'GET' && c.url === '/uploads/chunked/sess123456')).toBe(true);
    expect(s.calls.filter((c) => (c.body as { phase?: string } | undefined)?.phase === 'start')).toHaveLength(1);
  });

  it("shows the server's refusal in words, and the client's own extension check", async () => {
    const s = server({ refuse: 'This file is not a video we can play.' });
    render(<UploadField label="Your practice video" options={options(s.transport)} />);
    const input = screen.getByLabelText('Your practice video');
    fireEvent.change(input, { target: { files: [file(2 * MB)] } });
    expect(await screen.findByRole('alert')).toHaveTextContent('This file is not a video we can play.');
    fireEvent.change(input, { target: { files: [file(10, 'notes.TXT')] } });
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(UPLOAD_ERROR_MESSAGES.extension));
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(screen.queryByTestId('upload-file')).toBeNull();
  });

  it('retries a chunk that failed once and still succeeds', async () => {
    const s = server({ failChunkOnce: true });
    s.open();
    render(<UploadField label="Your practice video" options={options(s.transport)} />);
    fireEvent.change(screen.getByLabelText('Your practice video'), { target: { files: [file(2 * MB + 10)] } });
    await screen.findByText('Uploaded');
    const chunks = s.calls.filter((c) => c.body instanceof FormData && c.body.get('phase') === 'upload');
    expect(chunks).toHaveLength(4);
  });

  it('takes a dropped file', async () => {
    const s = server();
    s.open();
    render(<UploadField label="Your practice video" options={options(s.transport)} />);
    fireEvent.drop(screen.getByText('Your practice video'), { dataTransfer: { files: [file(1000)] } });
    await screen.findByText('Uploaded');
    expect(s.calls[0]!.url).toBe('/uploads');
  });
});
