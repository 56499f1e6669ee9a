import { open } from 'node:fs/promises';
import { and, count, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { MENTORSHIP_MESSAGES } from '#shared/mentorship';
import {
  MAX_OPEN_UPLOAD_SESSIONS,
  mergeRanges,
  missingRanges,
  UPLOAD_CHUNK_SIZE,
  UPLOAD_DEFAULTS,
  UPLOAD_EXTRA_MESSAGES,
  UPLOAD_MESSAGES,
  UPLOAD_PURPOSES,
  UPLOAD_SESSION_TTL_MS,
  type ByteRange,
  type UploadPurpose,
  type UploadSessionStatus,
} from '#shared/upload';
import type { Database, Executor } from '#server/db/client';
import { uploadSessions } from '#server/db/schema/index';
import { AppError, forbidden, notFound, tooManyRequests, ValidationError } from '#server/lib/errors';
import { hasEntitlement } from '#server/lib/guards';
import { randomToken } from '#server/lib/crypto';
import type { Storage } from '#server/lib/storage';
import type { AuthUser } from '#server/types';

/** Who may upload for each purpose (checked at start and for simple uploads). */
const PURPOSE_ACCESS: Record<UploadPurpose, { allowed: (user: AuthUser) => boolean; message: string }> = {
  'practice-video': {
    allowed: (user) => hasEntitlement(user, 'mentorship'),
    message: MENTORSHIP_MESSAGES.mentorshipOnly,
  },
};

/** The sniffed MIME type -> the extension of the stored file. */
const EXT_BY_MIME: Record<string, string> = {
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/x-m4v': 'm4v',
  'video/webm': 'webm',
};
/** Bytes read from the head of a finished file to sniff it again. */
const HEAD_BYTES = 64 * 1024;

type SessionRow = typeof uploadSessions.$inferSelect;

const sessionGone = () => notFound(UPLOAD_MESSAGES.sessionNotFound);
const wrongType = () => new AppError('invalid', UPLOAD_MESSAGES.wrongType);
/**
 * A session that cannot take more bytes: one refused for its content keeps saying why (the chunks
 * still in flight, a finish or a resume hear "not a video we can play", not "expired").
 */
const closed = (status: string) => (status === 'rejected' ? wrongType() : sessionGone());
const badChunk = () => new AppError('invalid', UPLOAD_MESSAGES.badChunk);

/** The lower-case extension of a file name ('' when none). */
export const extensionOf = (name: string) => {
  const base = name.replace(/^.*[\\/]/, '');
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
};

/** The name kept for display: its last path segment, without control characters. Never used as a path. */
export const displayName = (name: string) =>
  name
    .replace(/^.*[\\/]/, '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 255) || 'upload';

/** The MIME type of `data` by its content when it is one `purpose` accepts, else null. */
export async function sniffAllowed(data: Buffer, purpose: UploadPurpose): Promise<string | null> {
  // file-type is loaded with the first upload, not at start: a server that takes no upload never holds it in memory
  const { fileTypeFromBuffer } = await import('file-type');
  const type = await fileTypeFromBuffer(data).catch(() => undefined);
  const allowed: readonly string[] = UPLOAD_PURPOSES[purpose].mimeTypes;
  return type && allowed.includes(type.mime) && EXT_BY_MIME[type.mime] ? type.mime : null;
}

export type FinishResult = { ok: true; sessionId: string } | { ok: false; missing: ByteRange[] };

export interface ClaimedUpload {
  id: string;
  path: string;
  name: string;
  mimeType: string;
  size: number;
}

/**
 * The generic chunked upload handler (docs/product/uploads.md) and simple uploads. A session's chunks are
 * written at their offsets into one partial file under DATA_DIR/private/partial; the session row's
 * `received` ranges are merged under a row lock. A finished file moves to a random private name and
 * waits, complete, until a feature claims it (e.g. a video submission), which deletes the row and
 * takes the file over. The cleanup removes abandoned partials and files never claimed.
 */
export function createUploadService(deps: { db: Database; storage: Storage; chunkSize?: number }) {
  const { db, storage } = deps;
  const chunkSize = deps.chunkSize ?? UPLOAD_CHUNK_SIZE;

  function checkPurpose(user: AuthUser, purpose: UploadPurpose) {
    const access = PURPOSE_ACCESS[purpose];
    if (!access.allowed(user)) throw forbidden(access.message);
    return UPLOAD_PURPOSES[purpose];
  }

  function checkNameAndSize(purpose: UploadPurpose, name: string, size: number) {
    const rules = UPLOAD_PURPOSES[purpose];
    if (!(rules.extensions as readonly string[]).includes(extensionOf(name)))
      throw new ValidationError({ name: [UPLOAD_MESSAGES.wrongType] });
    if (size > rules.maxSize) throw new ValidationError({ size: [UPLOAD_MESSAGES.tooBig] });
  }

  /** the caller's session (404 for anyone else's, as if it did not exist) */
  async function owned(executor: Executor, user: AuthUser, sessionId: string, lock = false): Promise<SessionRow> {
    const q = executor
      .select()
      .from(uploadSessions)
      .where(and(eq(uploadSessions.id, sessionId), eq(uploadSessions.userId, user.id)))
      .limit(1);
    const [row] = lock ? await q.for('update') : await q;
    if (!row) throw sessionGone();
    return row;
  }

  async function rejectRow(sessionId: string) {
    await db
      .update(uploadSessions)
      .set({ status: 'rejected', updatedAt: new Date() })
      .where(and(eq(uploadSessions.id, sessionId), eq(uploadSessions.status, 'open')));
    await storage.removePartial(sessionId);
  }

  async function readHead(file: string, size: number) {
    const handle = await open(file, 'r');
    try {
      const buf = Buffer.alloc(Math.min(size, HEAD_BYTES));
      const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
      return buf.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  return {
    chunkSize,

    /** the start phase */
    async start(user: AuthUser, input: { purpose: UploadPurpose; name: string; mime_type: string; size: number }) {
      const rules = checkPurpose(user, input.purpose);
      checkNameAndSize(input.purpose, input.name, input.size);
      if (!(rules.mimeTypes as readonly string[]).includes(input.mime_type.toLowerCase()))
        throw new ValidationError({ mime_type: [UPLOAD_MESSAGES.wrongType] });
      const id = randomToken(18);
      await db.transaction(async (tx) => {
        // one member's starts are serialised on their user row, so the cap holds under a burst
        await tx.execute(sql`SELECT pg_advisory_xact_lock(4242, ${user.id})`);
        const [open] = await tx
          .select({ n: count() })
          .from(uploadSessions)
          // open and not yet expired (an expired one waits for the next cleanup)
          .where(
            and(
              eq(uploadSessions.userId, user.id),
              eq(uploadSessions.status, 'open'),
              gte(uploadSessions.updatedAt, new Date(Date.now() - UPLOAD_SESSION_TTL_MS)),
            ),
          );
        if (Number(open?.n ?? 0) >= MAX_OPEN_UPLOAD_SESSIONS)
          throw tooManyRequests(60, UPLOAD_MESSAGES.tooManySessions);
        await tx.insert(uploadSessions).values({
          id,
          userId: user.id,
          purpose: input.purpose,
          name: displayName(input.name),
          mimeType: input.mime_type.toLowerCase(),
          size: input.size,
        });
      });
      await storage.createPartial(id);
      return { session_id: id, end_offset: chunkSize };
    },

    /** the upload phase: one chunk at its offset */
    async chunk(user: AuthUser, input: { session_id: string; start_offset: number; data: Buffer }) {
      const session = await owned(db, user, input.session_id);
      if (session.status === 'complete') throw new AppError('conflict', UPLOAD_EXTRA_MESSAGES.alreadyFinished);
      if (session.status !== 'open') throw closed(session.status);
      const offset = input.start_offset;
      if (offset % chunkSize !== 0 || offset >= session.size) throw badChunk();
      if (input.data.length === 0) throw new AppError('invalid', UPLOAD_EXTRA_MESSAGES.emptyChunk);
      if (input.data.length !== Math.min(chunkSize, session.size - offset)) throw badChunk();
      if (offset === 0 && !(await sniffAllowed(input.data, session.purpose as UploadPurpose))) {
        await rejectRow(session.id);
        throw wrongType();
      }
      let handle;
      try {
        handle = await open(storage.partialPath(session.id), 'r+');
      } catch {
        // its partial file went with the session (refused or cancelled meanwhile)
        throw closed((await owned(db, user, session.id)).status);
      }
      try {
        await handle.write(input.data, 0, input.data.length, offset);
      } finally {
        await handle.close();
      }
      const received = await db.transaction(async (tx) => {
        const row = await owned(tx, user, session.id, true);
        if (row.status !== 'open') throw closed(row.status);
        const merged = mergeRanges(row.received, [offset, offset + input.data.length]);
        await tx
          .update(uploadSessions)
          .set({ received: merged, updatedAt: new Date() })
          .where(eq(uploadSessions.id, row.id));
        return merged;
      });
      return { received };
    },

    /** the finish phase: every byte there, the head sniffed again, the file moved to its final name */
    async finish(user: AuthUser, sessionId: string): Promise<FinishResult> {
      return db.transaction(async (tx) => {
        const row = await owned(tx, user, sessionId, true);
        if (row.status === 'complete') return { ok: true, sessionId: row.id };
        if (row.status !== 'open') throw closed(row.status);
        const missing = missingRanges(row.received, row.size);
        if (missing.length) return { ok: false, missing };
        let head: Buffer;
        try {
          head = await readHead(storage.partialPath(row.id), row.size);
        } catch {
          throw sessionGone();
        }
        const mime = await sniffAllowed(head, row.purpose as UploadPurpose);
        if (!mime) {
          await tx
            .update(uploadSessions)
            .set({ status: 'rejected', updatedAt: new Date() })
            .where(eq(uploadSessions.id, row.id));
          await storage.removePartial(row.id);
          throw wrongType();
        }
        const rel = await storage.promotePartial(row.id, 'videos', EXT_BY_MIME[mime]!);
        await tx
          .update(uploadSessions)
          .set({ status: 'complete', path: rel, mimeType: mime, updatedAt: new Date() })
          .where(eq(uploadSessions.id, row.id));
        return { ok: true, sessionId: row.id };
      });
    },

    /** where a session stands, so a client resumes with the chunks still missing */
    async status(user: AuthUser, sessionId: string): Promise<UploadSessionStatus> {
      const row = await owned(db, user, sessionId);
      return { received: row.received, size: row.size, state: row.status };
    },

    /** the abort phase: the partial file is deleted */
    async abort(user: AuthUser, sessionId: string) {
      const row = await db.transaction(async (tx) => {
        const r = await owned(tx, user, sessionId, true);
        if (r.status === 'complete') throw new AppError('conflict', UPLOAD_EXTRA_MESSAGES.alreadyFinished);
        if (r.status === 'open')
          await tx
            .update(uploadSessions)
            .set({ status: 'aborted', updatedAt: new Date() })
            .where(eq(uploadSessions.id, r.id));
        return r;
      });
      await storage.removePartial(row.id);
      return { session_id: row.id };
    },

    /** a small file in one request (at most chunkMinSize): the same checks, by content */
    async simple(user: AuthUser, input: { purpose: UploadPurpose; name: string; data: Buffer }) {
      checkPurpose(user, input.purpose);
      if (input.data.length === 0) throw new ValidationError({ file: [UPLOAD_EXTRA_MESSAGES.fileRequired] });
      checkNameAndSize(input.purpose, input.name, input.data.length);
      if (input.data.length > UPLOAD_DEFAULTS.chunkMinSize)
        throw new ValidationError({ file: [UPLOAD_EXTRA_MESSAGES.useChunks] });
      const mime = await sniffAllowed(input.data, input.purpose);
      if (!mime) throw new ValidationError({ file: [UPLOAD_MESSAGES.wrongType] });
      const rel = await storage.savePrivate('videos', EXT_BY_MIME[mime]!, input.data);
      const id = randomToken(18);
      const size = input.data.length;
      try {
        await db.insert(uploadSessions).values({
          id,
          userId: user.id,
          purpose: input.purpose,
          name: displayName(input.name),
          mimeType: mime,
          size,
          received: [[0, size]],
          status: 'complete',
          path: rel,
        });
      } catch (err) {
        await storage.removePrivate(rel);
        throw err;
      }
      return { session_id: id };
    },

    /**
     * A feature takes over a completed upload of `userId` for `purpose` inside its transaction: the
     * row is locked and deleted (so it is claimed once), and the file is the feature's from then on.
     */
    async claim(
      tx: Executor,
      userId: number,
      sessionId: string,
      purpose: UploadPurpose,
    ): Promise<ClaimedUpload | null> {
      const [row] = await tx
        .select()
        .from(uploadSessions)
        .where(
          and(
            eq(uploadSessions.id, sessionId),
            eq(uploadSessions.userId, userId),
            eq(uploadSessions.purpose, purpose),
            eq(uploadSessions.status, 'complete'),
          ),
        )
        .limit(1)
        .for('update');
      if (!row?.path) return null;
      await tx.delete(uploadSessions).where(eq(uploadSessions.id, row.id));
      return { id: row.id, path: row.path, name: row.name, mimeType: row.mimeType, size: row.size };
    },

    /**
     * Removes sessions untouched for UPLOAD_SESSION_TTL_MS: open ones with their partial file,
     * completed ones no feature claimed with their file, aborted rows; and partial files on disk
     * that no open session owns (a crash between steps).
     */
    async cleanup(now: Date = new Date()) {
      const cutoff = new Date(now.getTime() - UPLOAD_SESSION_TTL_MS);
      const stale = await db
        .delete(uploadSessions)
        .where(
          and(
            inArray(uploadSessions.status, ['open', 'complete', 'aborted', 'rejected']),
            lt(uploadSessions.updatedAt, cutoff),
          ),
        )
        .returning({ id: uploadSessions.id, status: uploadSessions.status, path: uploadSessions.path });
      let files = 0;
      for (const row of stale) {
        if (row.status === 'complete' && row.path) {
          await storage.removePrivate(row.path);
          files++;
        } else {
          await storage.removePartial(row.id);
          if (row.status === 'open') files++;
        }
      }
      const partials = await storage.listPartials();
      const orphans = partials.filter((p) => p.mtimeMs < cutoff.getTime());
      if (orphans.length) {
        const alive = await db
          .select({ id: uploadSessions.id })
          .from(uploadSessions)
          .where(
            and(
              eq(uploadSessions.status, 'open'),
              inArray(
                uploadSessions.id,
                orphans.map((p) => p.sessionId),
              ),
            ),
          );
        const keep = new Set(alive.map((r) => r.id));
        for (const p of orphans) {
          if (keep.has(p.sessionId)) continue;
          await storage.removePartial(p.sessionId);
          files++;
        }
      }
      return { sessions: stale.length, files };
    },
  };
}
export type UploadService = ReturnType<typeof createUploadService>;
