import { mkdirSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
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
  /**
   * Private files (practice videos, partial chunked uploads) live under DATA_DIR/private: outside
   * `root`, so never served under /files; a route checks who may read them.
   */
  privateRoot: string;
  /** the absolute path of a chunked upload's partial file (throws for an id that is not ours) */
  partialPath(sessionId: string): string;
  /** creates the empty partial file of a new session */
  createPartial(sessionId: string): Promise<void>;
  removePartial(sessionId: string): Promise<void>;
  /** partial files on disk, with their last change (the cleanup sweeps orphans) */
  listPartials(): Promise<Array<{ sessionId: string; mtimeMs: number }>>;
  /** moves a finished partial file to its final random name; returns e.g. `videos/<random>.mp4` */
  promotePartial(sessionId: string, folder: 'videos', ext: string): Promise<string>;
  /** a whole private file (a small upload, a video's captions); returns its relative path */
  savePrivate(folder: PrivateFolder, ext: string, data: Buffer): Promise<string>;
  /** the absolute path of a private file, or null when the name is not one of ours */
  privatePath(relativePath: string): string | null;
  removePrivate(relativePath: string): Promise<void>;
}

type PrivateFolder = 'videos' | 'captions';

const SAFE = /^(avatars|attachments|images)\/[A-Za-z0-9_-]{8,64}\.(jpg|png|gif|webp|pdf)$/;
/** private files: videos and their captions, our random names, the extensions we check the content of */
const PRIVATE_SAFE = /^(videos\/[A-Za-z0-9_-]{8,64}\.(mp4|mov|m4v|webm)|captions\/[A-Za-z0-9_-]{8,64}\.vtt)$/;
const SESSION_ID = /^[A-Za-z0-9_-]{8,64}$/;
const PRIVATE_EXT: Record<PrivateFolder, RegExp> = { videos: /^(mp4|mov|m4v|webm)$/, captions: /^vtt$/ };

export function createStorage(dataDir: string): Storage {
  const root = path.join(dataDir, 'uploads');
  mkdirSync(root, { recursive: true });
  const privateRoot = path.join(dataDir, 'private');
  const partialDir = path.join(privateRoot, 'partial');
  mkdirSync(partialDir, { recursive: true });
  const partialPath = (sessionId: string) => {
    if (!SESSION_ID.test(sessionId)) throw new Error('not an upload session id');
    return path.join(partialDir, `${sessionId}.part`);
  };
  const privateName = (folder: PrivateFolder, ext: string) => {
    if (!PRIVATE_EXT[folder].test(ext)) throw new Error('not a private file type');
    return `${folder}/${randomToken(16)}.${ext}`;
  };
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
    privateRoot,
    partialPath,
    async createPartial(sessionId) {
      await mkdir(partialDir, { recursive: true });
      await writeFile(partialPath(sessionId), Buffer.alloc(0), { flag: 'wx' });
    },
    async removePartial(sessionId) {
      if (!SESSION_ID.test(sessionId)) return;
      await rm(partialPath(sessionId), { force: true });
    },
    async listPartials() {
      const names = await readdir(partialDir).catch(() => [] as string[]);
      const out: Array<{ sessionId: string; mtimeMs: number }> = [];
      for (const name of names) {
        const sessionId = name.endsWith('.part') ? name.slice(0, -5) : '';
        if (!SESSION_ID.test(sessionId)) continue;
        const info = await stat(path.join(partialDir, name)).catch(() => null);
        if (info) out.push({ sessionId, mtimeMs: info.mtimeMs });
      }
      return out;
    },
    async promotePartial(sessionId, folder, ext) {
      const rel = privateName(folder, ext);
      await mkdir(path.join(privateRoot, folder), { recursive: true });
      await rename(partialPath(sessionId), path.join(privateRoot, rel));
      return rel;
    },
    async savePrivate(folder, ext, data) {
      const rel = privateName(folder, ext);
      await mkdir(path.join(privateRoot, folder), { recursive: true });
      await writeFile(path.join(privateRoot, rel), data, { flag: 'wx' });
      return rel;
    },
    privatePath(relativePath) {
      return PRIVATE_SAFE.test(relativePath) ? path.join(privateRoot, relativePath) : null;
    },
    async removePrivate(relativePath) {
      if (!PRIVATE_SAFE.test(relativePath)) return;
      await rm(path.join(privateRoot, relativePath), { force: true });
    },
  };
}
