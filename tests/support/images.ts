import { crc32 } from 'node:zlib';
import sharp from 'sharp';

/** A small real PNG (tests of image uploads). */
export const pngBytes = (width = 64, height = 64, background = '#ea580c') =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

function pngChunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/**
 * Files that look like images to anything reading their headers but whose image data cannot be
 * decoded: what a half-written file, a bad download or a hand-edited one looks like.
 */
export async function brokenImages(): Promise<Array<{ label: string; filename: string; type: string; data: Buffer }>> {
  const solid = (format: 'jpeg' | 'gif') => {
    const image = sharp({ create: { width: 64, height: 64, channels: 3, background: '#ea580c' } });
    return (format === 'jpeg' ? image.jpeg() : image.gif()).toBuffer();
  };
  // a valid signature and header (64x64 RGB), then IDAT chunks (with correct checksums) that are not zlib data
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(64, 0);
  ihdr.writeUInt32BE(64, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', Buffer.from('these bytes are not compressed image data at all')),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
  // a real JPEG's markers up to the start of scan, then bytes that are not entropy-coded data
  const jpeg = await solid('jpeg');
  const sos = jpeg.indexOf(Buffer.from([0xff, 0xda]));
  const garbage = Buffer.from(Array.from({ length: 400 }, (_, i) => (i * 37) % 255));
  const brokenJpeg = Buffer.concat([jpeg.subarray(0, sos + 14), garbage, Buffer.from([0xff, 0xd9])]);
  // a real GIF cut off half-way
  const gif = await solid('gif');
  return [
    { label: 'PNG with a valid header and garbage IDAT', filename: 'kit.png', type: 'image/png', data: png },
    { label: 'JPEG header followed by garbage', filename: 'kit.jpg', type: 'image/jpeg', data: brokenJpeg },
    {
      label: 'truncated GIF',
      filename: 'kit.gif',
      type: 'image/gif',
      data: gif.subarray(0, Math.floor(gif.length / 2)),
    },
  ];
}
