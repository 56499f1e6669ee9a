import { MESSAGES } from '#shared/constants';
import { ValidationError } from './errors.ts';

export interface UploadedFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}

/** A multipart file as @fastify/multipart hands it over (see app.ts onFile). */
export function asUploadedFile(value: unknown): UploadedFile | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Partial<UploadedFile>;
  return Buffer.isBuffer(v.data) && typeof v.filename === 'string' ? (v as UploadedFile) : null;
}

/** Decompression bombs: refuse anything with more pixels than a 40-megapixel photo. */
const MAX_INPUT_PIXELS = 40_000_000;
/** the accepted types, by the signature at the start of the bytes, as sharp names them */
const FORMAT_BY_MIME: Record<string, 'jpeg' | 'png' | 'gif'> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/gif': 'gif',
};

/**
 * The bytes start like an accepted image but libvips cannot decode them (a half-written file, a bad
 * download, garbage after a valid header): a 422 under the upload's field. `cause` keeps libvips'
 * own words for the log.
 */
function unreadable(field: string, err: unknown): ValidationError {
  const error = new ValidationError({ [field]: [MESSAGES.imageUnreadable] });
  error.cause = err instanceof Error ? err.message : String(err);
  return error;
}

/**
 * Checks an image by its content (not its name or declared type) and re-encodes it, which strips
 * metadata (EXIF, GPS) and anything smuggled after the image data. GIFs keep their first frame.
 *
 * Two refusals, both 422 under `opts.field`: bytes that are not a jpeg, png or gif get the route's
 * own `message`; bytes that are one by their signature but do not decode (libvips fails reading the
 * header or the image data) get MESSAGES.imageUnreadable. sharp runs only on the uploaded bytes, so
 * any error it raises here is about them.
 */
export async function processImage(
  file: UploadedFile,
  opts: { field: string; maxBytes: number; maxSide: number; message: string; tooBig: string },
) {
  if (file.data.length === 0) throw new ValidationError({ [opts.field]: [opts.message] });
  if (file.data.length > opts.maxBytes) throw new ValidationError({ [opts.field]: [opts.tooBig] });
  // file-type and sharp (libvips, several MB resident) are loaded with the first upload, not at start: a
  // process that never sees an upload never pays their memory
  const { fileTypeFromBuffer } = await import('file-type');
  const sniffed = await fileTypeFromBuffer(file.data).catch(() => undefined);
  const format = sniffed ? FORMAT_BY_MIME[sniffed.mime] : undefined;
  if (!format) throw new ValidationError({ [opts.field]: [opts.message] });
  const { default: sharp } = await import('sharp');
  // libvips keeps recent operations' results (up to 50 MB) for callers that repeat them; every upload
  // is new bytes, so nothing would be reused and the memory would stay with the process
  sharp.cache(false);
  let meta;
  try {
    // the header only (no pixels are decoded): the pixel limit is checked below, as a refusal of its own
    meta = await sharp(file.data, { limitInputPixels: false, failOn: 'error' }).metadata();
  } catch (err) {
    throw unreadable(opts.field, err);
  }
  if (meta.format !== format || !meta.width || !meta.height)
    throw unreadable(opts.field, `libvips read it as ${meta.format} ${meta.width}x${meta.height}`);
  if (meta.width * meta.height > MAX_INPUT_PIXELS) throw new ValidationError({ [opts.field]: [opts.message] });
  // the header was fine; the image data is decoded only now (libjpeg warnings such as a premature end
  // fail too: sharp's default failOn is 'warning')
  const pipeline = sharp(file.data, { limitInputPixels: MAX_INPUT_PIXELS, pages: 1 })
    .rotate()
    .resize(opts.maxSide, opts.maxSide, { fit: 'inside', withoutEnlargement: true });
  try {
    if (format === 'jpeg') return { ext: 'jpg', data: await pipeline.jpeg({ quality: 85, mozjpeg: true }).toBuffer() };
    return { ext: 'png', data: await pipeline.png({ compressionLevel: 9 }).toBuffer() };
  } catch (err) {
    throw unreadable(opts.field, err);
  }
}
