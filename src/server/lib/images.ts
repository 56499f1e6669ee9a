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
const ALLOWED = new Set(['jpeg', 'png', 'gif']);

/**
 * Checks an image by its content (not its name or declared type) and re-encodes it, which strips
 * metadata (EXIF, GPS) and anything smuggled after the image data. GIFs keep their first frame.
 */
export async function processImage(file: UploadedFile, opts: { field: string; maxBytes: number; maxSide: number; message: string; tooBig: string }) {
  if (file.data.length === 0) throw new ValidationError({ [opts.field]: [opts.message] });
  if (file.data.length > opts.maxBytes) throw new ValidationError({ [opts.field]: [opts.tooBig] });
  // sharp (libvips, several MB resident) is loaded with the first upload, not at start (issue 9, memory)
  const { default: sharp } = await import('sharp');
  let format: string | undefined;
  try {
    const meta = await sharp(file.data, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).metadata();
    format = meta.format;
    if (!meta.width || !meta.height || meta.width * meta.height > MAX_INPUT_PIXELS) format = undefined;
  } catch {
    format = undefined;
  }
  if (!format || !ALLOWED.has(format)) throw new ValidationError({ [opts.field]: [opts.message] });
  const pipeline = sharp(file.data, { limitInputPixels: MAX_INPUT_PIXELS, pages: 1 })
    .rotate()
    .resize(opts.maxSide, opts.maxSide, { fit: 'inside', withoutEnlargement: true });
  if (format === 'jpeg') return { ext: 'jpg', data: await pipeline.jpeg({ quality: 85, mozjpeg: true }).toBuffer() };
  return { ext: 'png', data: await pipeline.png({ compressionLevel: 9 }).toBuffer() };
}
