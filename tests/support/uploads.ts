import { UPLOAD_CHUNK_SIZE, UPLOAD_TARGETS } from '#shared/upload';
import type { TestClient } from '#test/api-harness';

/** Bytes `file-type` sniffs as MP4: an `ftyp` box (brand mp42), then padding. */
export function mp4Bytes(size: number, fill = 7): Buffer {
  const b = Buffer.alloc(size, fill);
  b.writeUInt32BE(0x18, 0);
  b.write('ftyp', 4, 'latin1');
  b.write('mp42', 8, 'latin1');
  b.writeUInt32BE(0, 12);
  b.write('isommp42', 16, 'latin1');
  return b;
}

export const pngBytes = (size = 2048) => {
  const b = Buffer.alloc(size, 0);
  Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').copy(b);
  return b;
};

/** a multipart/form-data body: text fields, then at most one file part */
export function multipart(
  fields: Record<string, string | number>,
  file?: { field: string; name: string; data: Buffer; type?: string },
) {
  const boundary = '----bbchunk' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
    );
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export const startUpload = (client: TestClient, input: { size: number; name?: string; mime_type?: string }) =>
  client.post(UPLOAD_TARGETS.chunked, {
    phase: 'start',
    mime_type: input.mime_type ?? 'video/mp4',
    size: input.size,
    name: input.name ?? 'groove.mp4',
    purpose: 'practice-video',
  });

export function sendChunk(client: TestClient, sessionId: string, offset: number, data: Buffer) {
  const { payload, contentType } = multipart(
    { phase: 'upload', session_id: sessionId, start_offset: offset },
    { field: 'chunk', name: 'blob', data },
  );
  return client.request('POST', UPLOAD_TARGETS.chunked, payload, { headers: { 'content-type': contentType } });
}

export const finishUpload = (client: TestClient, sessionId: string) =>
  client.post(UPLOAD_TARGETS.chunked, { phase: 'finish', session_id: sessionId });

/** a whole chunked upload; the finished session's id */
export async function uploadVideo(client: TestClient, data: Buffer, name = 'groove.mp4'): Promise<string> {
  const start = await startUpload(client, { size: data.length, name });
  if (start.statusCode !== 200) throw new Error(`start: ${start.statusCode} ${start.body}`);
  const id = (start.json() as { data: { session_id: string } }).data.session_id;
  for (let at = 0; at < data.length; at += UPLOAD_CHUNK_SIZE) {
    const res = await sendChunk(client, id, at, data.subarray(at, at + UPLOAD_CHUNK_SIZE));
    if (res.statusCode !== 200) throw new Error(`chunk ${at}: ${res.statusCode} ${res.body}`);
  }
  const fin = await finishUpload(client, id);
  if (fin.statusCode !== 200) throw new Error(`finish: ${fin.statusCode} ${fin.body}`);
  return id;
}
