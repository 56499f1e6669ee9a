import sharp from 'sharp';

/** A small real PNG (tests of image uploads). */
export const pngBytes = (width = 64, height = 64, background = '#ea580c') => sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();
