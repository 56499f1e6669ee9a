import { and, count, desc, eq, isNull, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  CAPTION_MESSAGES,
  captionLabel,
  isWebVtt,
  VIDEO_CAPTIONS,
  VIDEO_LIMITS,
  VIDEO_MESSAGES,
  type VideoSubmission,
  type VideoSubmissionPage,
} from '#shared/upload';
import type { Database } from '#server/db/client';
import { mentorships, users, videoSubmissions } from '#server/db/schema/index';
import { forbidden, notFound, ValidationError } from '#server/lib/errors';
import type { Storage } from '#server/lib/storage';
import type { AuthUser } from '#server/types';
import type { createNotificationService } from '#server/modules/notifications/index';
import type { UploadService } from '#server/modules/uploads/index';
import { mailExcerpt } from '#server/modules/mail/index';

type Notifications = Pick<ReturnType<typeof createNotificationService>, 'notify'>;
type Row = typeof videoSubmissions.$inferSelect;

const students = alias(users, 'video_students');
const mentors = alias(users, 'video_mentors');

const escapeHtml = (v: string) =>
  v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
export const videoUrl = (id: number) => `/mentorship/videos/${id}`;
export const videoFileUrl = (id: number) => `/mentorship/videos/${id}/file`;
export const videoCaptionsUrl = (id: number) => `/mentorship/videos/${id}/captions`;

function toDto(
  row: Row,
  student: { id: number; name: string },
  mentor: { id: number | null; name: string | null } | null,
): VideoSubmission {
  return {
    id: row.id,
    student: { id: student.id, name: student.name },
    title: row.title,
    note: row.note,
    mime_type: row.mimeType,
    size: row.size,
    created_at: row.createdAt.toISOString(),
    file_url: videoFileUrl(row.id),
    url: videoUrl(row.id),
    feedback: row.feedback,
    feedback_at: row.feedbackAt?.toISOString() ?? null,
    feedback_by: mentor?.id ? { id: mentor.id, name: mentor.name ?? '' } : null,
    status: row.feedback ? 'reviewed' : 'awaiting',
    captions:
      row.captionsPath && row.captionsLang
        ? { url: videoCaptionsUrl(row.id), lang: row.captionsLang, label: captionLabel(row.captionsLang) }
        : null,
  };
}

/**
 * Practice video submissions (docs/product/mentorship.md): a student sends a completed upload to their mentor, who
 * answers with written feedback. The file is private: only the student and admins read it.
 */
export function createVideoService(deps: {
  db: Database;
  storage: Storage;
  uploads: UploadService;
  notifications: Notifications;
}) {
  const { db, storage, uploads, notifications } = deps;

  async function load(id: number) {
    const [r] = await db
      .select({
        row: videoSubmissions,
        student: { id: students.id, name: students.name },
        mentor: { id: mentors.id, name: mentors.name },
      })
      .from(videoSubmissions)
      .innerJoin(students, eq(students.id, videoSubmissions.studentId))
      .leftJoin(mentors, eq(mentors.id, videoSubmissions.feedbackBy))
      .where(eq(videoSubmissions.id, id))
      .limit(1);
    return r ?? null;
  }

  /** the submission when `user` may see it: its student, or any admin; 404 for anyone else */
  async function visible(user: AuthUser, id: number) {
    const r = await load(id);
    if (!r || (!user.isAdmin && r.row.studentId !== user.id)) throw notFound(VIDEO_MESSAGES.notFound);
    return r;
  }

  /** whom to tell about a new video: the student's mentor, else every admin */
  async function mentorsOf(studentId: number): Promise<number[]> {
    const [m] = await db
      .select({ mentorId: mentorships.mentorId })
      .from(mentorships)
      .where(eq(mentorships.studentId, studentId))
      .limit(1);
    if (m?.mentorId) return [m.mentorId];
    const admins = await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin'));
    return admins.map((a) => a.id).filter((id) => id !== studentId);
  }

  return {
    async create(user: AuthUser, input: { upload_id: string; title: string; note: string }): Promise<VideoSubmission> {
      const row = await db.transaction(async (tx) => {
        const upload = await uploads.claim(tx, user.id, input.upload_id, 'practice-video');
        if (!upload) throw new ValidationError({ upload_id: [VIDEO_MESSAGES.uploadNotReady] });
        const [inserted] = await tx
          .insert(videoSubmissions)
          .values({
            studentId: user.id,
            title: input.title,
            note: input.note,
            path: upload.path,
            originalName: upload.name,
            mimeType: upload.mimeType,
            size: upload.size,
          })
          .returning();
        return inserted!;
      });
      const recipients = await mentorsOf(user.id);
      const body = `<strong>${escapeHtml(user.name)}</strong> sent a practice video: ${escapeHtml(row.title)}`;
      for (const id of recipients) await notifications.notify(id, { body, url: videoUrl(row.id), area: 'mentorship' });
      return toDto(row, { id: user.id, name: user.name }, null);
    },

    /** a student: their own; an admin: one student's (student_id) or everyone's; `awaiting` = no feedback yet */
    async list(
      user: AuthUser,
      q: { student_id?: number | undefined; awaiting: boolean; page: number },
    ): Promise<VideoSubmissionPage> {
      if (!user.isAdmin && q.student_id !== undefined && q.student_id !== user.id)
        throw forbidden(VIDEO_MESSAGES.notYours);
      const studentId = user.isAdmin ? q.student_id : user.id;
      const conditions: SQL[] = [];
      if (studentId !== undefined) conditions.push(eq(videoSubmissions.studentId, studentId));
      if (q.awaiting) conditions.push(isNull(videoSubmissions.feedback));
      const where = conditions.length ? and(...conditions) : undefined;
      const per = VIDEO_LIMITS.perPage;
      const [total] = await db.select({ n: count() }).from(videoSubmissions).where(where);
      const rows = await db
        .select({
          row: videoSubmissions,
          student: { id: students.id, name: students.name },
          mentor: { id: mentors.id, name: mentors.name },
        })
        .from(videoSubmissions)
        .innerJoin(students, eq(students.id, videoSubmissions.studentId))
        .leftJoin(mentors, eq(mentors.id, videoSubmissions.feedbackBy))
        .where(where)
        // awaiting feedback: oldest first (the queue); otherwise newest first
        .orderBy(
          ...(q.awaiting
            ? [videoSubmissions.createdAt, videoSubmissions.id]
            : [desc(videoSubmissions.createdAt), desc(videoSubmissions.id)]),
        )
        .limit(per)
        .offset((q.page - 1) * per);
      const n = Number(total?.n ?? 0);
      return {
        data: rows.map((r) => toDto(r.row, r.student, r.mentor)),
        page: q.page,
        pages: Math.max(1, Math.ceil(n / per)),
        total: n,
      };
    },

    async show(user: AuthUser, id: number): Promise<VideoSubmission> {
      const r = await visible(user, id);
      return toDto(r.row, r.student, r.mentor);
    },

    /** admin: write (or revise) the feedback; the student hears about it */
    async feedback(admin: AuthUser, id: number, feedback: string): Promise<VideoSubmission> {
      const r = await visible(admin, id);
      const [row] = await db
        .update(videoSubmissions)
        .set({ feedback, feedbackBy: admin.id, feedbackAt: new Date() })
        .where(eq(videoSubmissions.id, id))
        .returning();
      await notifications.notify(r.row.studentId, {
        body: `Your mentor answered your practice video: <strong>${escapeHtml(r.row.title)}</strong>`,
        url: videoUrl(id),
        area: 'mentorship',
        // a revised answer is a new mail: the key names this version of the feedback
        mail: {
          kind: 'mentorship.feedback',
          data: { video: r.row.title, mentor: admin.name, excerpt: mailExcerpt(feedback), url: videoUrl(id) },
          key: `video-${id}-${row!.feedbackAt!.getTime()}`,
        },
      });
      return toDto(row!, r.student, { id: admin.id, name: admin.name });
    },

    /** the student deletes their own video while no feedback was given (admins may delete any) */
    async remove(user: AuthUser, id: number) {
      const r = await visible(user, id);
      if (!user.isAdmin && r.row.feedback) throw forbidden(VIDEO_MESSAGES.feedbackGiven);
      const deleted = await db
        .delete(videoSubmissions)
        .where(
          user.isAdmin
            ? eq(videoSubmissions.id, id)
            : and(eq(videoSubmissions.id, id), isNull(videoSubmissions.feedback)),
        )
        .returning({ path: videoSubmissions.path });
      if (!deleted.length) throw forbidden(VIDEO_MESSAGES.feedbackGiven);
      await storage.removePrivate(deleted[0]!.path);
      if (r.row.captionsPath) await storage.removePrivate(r.row.captionsPath);
      return { deleted: true };
    },

    /**
     * admin: attach a WebVTT caption file (replacing any earlier one). Judged by its content, never its
     * name or declared type; stored privately like the video, under a random name.
     */
    async attachCaptions(
      admin: AuthUser,
      id: number,
      file: { data: Buffer } | null,
      lang: string,
    ): Promise<VideoSubmission> {
      const r = await visible(admin, id);
      const field = VIDEO_CAPTIONS.field;
      if (!file || file.data.length === 0) throw new ValidationError({ [field]: [CAPTION_MESSAGES.required] });
      if (file.data.length > VIDEO_CAPTIONS.maxBytes) throw new ValidationError({ [field]: [CAPTION_MESSAGES.tooBig] });
      if (!isWebVtt(file.data)) throw new ValidationError({ [field]: [CAPTION_MESSAGES.notWebVtt] });
      const rel = await storage.savePrivate('captions', 'vtt', file.data);
      const [row] = await db
        .update(videoSubmissions)
        .set({ captionsPath: rel, captionsLang: lang })
        .where(eq(videoSubmissions.id, id))
        .returning();
      if (!row) {
        await storage.removePrivate(rel);
        throw notFound(VIDEO_MESSAGES.notFound);
      }
      if (r.row.captionsPath && r.row.captionsPath !== rel) await storage.removePrivate(r.row.captionsPath);
      return toDto(row, r.student, r.mentor);
    },

    /** admin: take the caption file off a video */
    async removeCaptions(admin: AuthUser, id: number): Promise<VideoSubmission> {
      const r = await visible(admin, id);
      const [row] = await db
        .update(videoSubmissions)
        .set({ captionsPath: null, captionsLang: null })
        .where(eq(videoSubmissions.id, id))
        .returning();
      if (r.row.captionsPath) await storage.removePrivate(r.row.captionsPath);
      return toDto(row!, r.student, r.mentor);
    },

    /** the caption file of a submission `user` may see: its absolute path, or a 404 when it has none */
    async captions(user: AuthUser, id: number) {
      const r = await visible(user, id);
      const file = r.row.captionsPath ? storage.privatePath(r.row.captionsPath) : null;
      if (!file) throw notFound(CAPTION_MESSAGES.none);
      return file;
    },

    /** the file of a submission `user` may see: its absolute path, type and size */
    async file(user: AuthUser, id: number) {
      const r = await visible(user, id);
      const file = storage.privatePath(r.row.path);
      if (!file) throw notFound(VIDEO_MESSAGES.notFound);
      return { file, mimeType: r.row.mimeType, size: r.row.size };
    },
  };
}
export type VideoService = ReturnType<typeof createVideoService>;
