import { mkdirSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomToken } from './crypto.ts';

/**
 * Uploaded files live under DATA_DIR/uploads and are served at /files/... Names are ours (random),
 * never the uploader's, so nothing can traverse or collide.
 */
export interface Storage {
  root: string;
  save(folder: 'avatars' | 'attachments' | 'images', ext: string, data: Buffer): Promise<string>;
  remove(relativePath: string): Promise<void>;
}

const SAFE = /^(avatars|attachments|images)\/[A-Za-z0-9_-]{8,64}\.(jpg|png|gif|webp|pdf)$/;

export function createStorage(dataDir: string): Storage {
  const root = path.join(dataDir, 'uploads');
  mkdirSync(root, { recursive: true });
  return {
    root,
    async save(folder, ext, data) {
      const rel = `${folder}/${randomToken(16)}.${ext}`;
      await mkdir(path.join(root, folder), { recursive: true });
      await writeFile(path.join(root, rel), data, { flag: 'wx' });
      return rel;
    },
    async remove(relativePath) {
      if (!SAFE.test(relativePath)) return;
      await rm(path.join(root, relativePath), { force: true });
    },
  };
}
