import { useCallback, useEffect, useRef, useState } from 'react';
import {
  PRACTICE_PLAN_AUTOSAVE_MS,
  PRACTICE_PLAN_MESSAGES,
  type PracticePlan,
  type PracticePlanAnswer,
  type PracticePlanConflict,
} from '#shared/mentorship';
import { mergeTheirs } from '#shared/practice-plan-merge';
import { practicePlanChannel, type PracticePlanChannelEvents } from '#shared/realtime';
import { ApiError } from '#client/lib/api.ts';
import { useChannelEvent } from '#client/lib/socket.ts';
import { fetchPlan, savePlan } from './api.ts';

/** a link still being typed (not yet http:// or https://) is saved empty, so the rest of the plan saves */
const validLink = (link: string) => (link === '' || /^https?:\/\//i.test(link) ? link : '');
export const withValidLinks = (plan: PracticePlan): PracticePlan => ({
  ...plan,
  phase1: plan.phase1.map((w) =>
    w.map((d) => ({ ...d, exercises: d.exercises.map((e) => ({ ...e, link: validLink(e.link) })) })),
  ),
  phase2: plan.phase2.map((w) =>
    w.map((d) => ({ ...d, exercises: d.exercises.map((e) => ({ ...e, link: validLink(e.link) })) })),
  ),
  phase3: plan.phase3.map((w) =>
    w.map((d) => ({ ...d, exercises: d.exercises.map((e) => ({ ...e, link: validLink(e.link) })) })),
  ),
});

export type SaveState = 'idle' | 'saving' | 'saved';
/** a save the server refused (422): its messages by field (`day.<id>.title`, `exercise.<id>.notes`) and its sentence */
export interface Refusal {
  fields: Record<string, string>;
  message: string;
}

/**
 * A 422's field names (`practice_plan.phase1.0.2.exercises.1.title`: phase, week, day, exercise) as the
 * ids of the days and exercises of the plan that was sent, which stay right when the plan moves on.
 */
export function refusedFields(errors: Record<string, string[]>, sent: PracticePlan): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, messages] of Object.entries(errors)) {
    if (!messages[0]) continue;
    const [, phase, week, dayAt, exerciseAt, field] =
      /^practice_plan\.(phase[123])\.(\d+)\.(\d+)\.(?:exercises\.(\d+)\.)?(\w+)$/.exec(key) ?? [];
    const day = phase ? sent[phase as 'phase1' | 'phase2' | 'phase3'][Number(week)]?.[Number(dayAt)] : undefined;
    const exercise = exerciseAt === undefined ? undefined : day?.exercises[Number(exerciseAt)];
    const at = exerciseAt === undefined ? day && `day.${day.id}` : exercise && `exercise.${exercise.id}`;
    out[at ? `${at}.${field}` : key] ??= messages[0];
  }
  return out;
}

type Role = 'admin' | 'student';
type UpdatedPayload = Parameters<PracticePlanChannelEvents['PracticePlanUpdated']>[0];

interface Inner {
  local: PracticePlan;
  /** the server's plan as this editor last knew it */
  base: PracticePlan;
  adminVersion: number;
  studentVersion: number;
  /** edits made / edits stored: dirty while they differ */
  edits: number;
  savedEdits: number;
  inFlight: boolean;
  timer: ReturnType<typeof setTimeout> | null;
  /** the other side saved while a save was out: fetch once it is back */
  pendingRemote: UpdatedPayload['by'] | null;
  stopped: boolean;
}

/**
 * The practice plan editor's state (docs/product/mentorship.md): edits show at once and are saved
 * PRACTICE_PLAN_AUTOSAVE_MS after they stop, one request at a time; a failed save is silent and the
 * next change tries again; a 409 (another mentor saved) shows its message and loads their version.
 * When the other side saves (the plan's channel), the plan is fetched and their fields merged in
 * without losing this editor's unsaved edits (the rules of #shared/practice-plan-merge).
 */
export function usePlanEditor(initial: PracticePlanAnswer, role: Role, studentId: number | null) {
  const [plan, setPlan] = useState<PracticePlan>(initial.practice_plan);
  const [status, setStatus] = useState<SaveState>('idle');
  const [notice, setNotice] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const ref = useRef<Inner>({
    local: initial.practice_plan,
    base: initial.practice_plan,
    adminVersion: initial.admin_version,
    studentVersion: initial.student_version,
    edits: 0,
    savedEdits: 0,
    inFlight: false,
    timer: null,
    pendingRemote: null,
    stopped: false,
  });
  const planId = initial.id;

  const show = useCallback((next: PracticePlan) => {
    ref.current.local = next;
    if (!ref.current.stopped) setPlan(next);
  }, []);

  const adopt = useCallback((a: PracticePlanAnswer) => {
    const s = ref.current;
    s.base = a.practice_plan;
    s.adminVersion = a.admin_version;
    s.studentVersion = a.student_version;
  }, []);

  const fetchRemote = useCallback(
    async (by: UpdatedPayload['by']) => {
      const s = ref.current;
      if (s.inFlight) {
        s.pendingRemote = by;
        return;
      }
      let remote: PracticePlanAnswer;
      try {
        remote = await fetchPlan(studentId);
      } catch {
        return; // the next event or save brings it
      }
      if (s.stopped) return;
      if (s.inFlight) {
        // a save started meanwhile: its answer moves the base; look again after it
        s.pendingRemote = by;
        return;
      }
      const dirty = s.edits !== s.savedEdits;
      if (role === 'admin' && by === 'admin') {
        // another mentor: with unsaved edits the next save is refused (409) and reloads then
        if (dirty) return;
        adopt(remote);
        show(remote.practice_plan);
        return;
      }
      const merged = dirty ? mergeTheirs(s.local, s.base, remote.practice_plan, role) : remote.practice_plan;
      adopt(remote);
      show(merged);
    },
    [adopt, role, show, studentId],
  );

  const run = useCallback(async () => {
    const s = ref.current;
    if (s.inFlight || s.stopped || s.edits === s.savedEdits) return;
    s.inFlight = true;
    const sent = s.local;
    const editsAtSend = s.edits;
    try {
      const answer = await savePlan({
        practice_plan: role === 'admin' ? withValidLinks(sent) : sent,
        id: planId,
        admin_version: s.adminVersion,
        student_version: s.studentVersion,
      });
      if (s.stopped) return;
      s.savedEdits = editsAtSend;
      adopt(answer);
      // a student takes the server's copy (edits made while the request was out stay on top); a
      // mentor keeps what they typed (a link still being typed is not lost) and takes the student's
      // fields the server kept
      show(
        role === 'student' && s.edits === editsAtSend
          ? answer.practice_plan
          : mergeTheirs(s.local, sent, answer.practice_plan, role),
      );
      setRefusal(null);
      if (s.edits !== s.savedEdits) schedule(PRACTICE_PLAN_AUTOSAVE_MS);
      else setStatus('saved');
    } catch (err) {
      if (s.stopped) return;
      if (err instanceof ApiError && err.status === 409) {
        const current = (err.body as Partial<PracticePlanConflict> | null)?.current;
        setNotice(err.message || PRACTICE_PLAN_MESSAGES.conflict);
        s.savedEdits = s.edits;
        if (current) {
          adopt(current);
          show(current.practice_plan);
        } else {
          s.pendingRemote = 'admin';
        }
        setRefusal(null);
        setStatus('idle');
      } else {
        // autosave failures are ignored silently and the next change tries again; a field the server
        // refused (422) is marked where it is shown (components/ui/form-feedback.ts)
        if (err instanceof ApiError && err.status === 422 && err.errors)
          setRefusal({ fields: refusedFields(err.errors, sent), message: err.message });
        setStatus('idle');
      }
    } finally {
      s.inFlight = false;
      const by = s.pendingRemote;
      s.pendingRemote = null;
      if (by && !s.stopped) void fetchRemote(by);
    }
    // `schedule` (below) only touches the ref and this same `run`
  }, [adopt, fetchRemote, planId, role, show]);

  const schedule = (ms: number) => {
    const s = ref.current;
    if (s.stopped) return;
    if (s.timer) clearTimeout(s.timer);
    s.timer = setTimeout(() => {
      s.timer = null;
      void run();
    }, ms);
  };

  /** an edit: shown now, saved after the pause */
  const change = (next: PracticePlan) => {
    const s = ref.current;
    s.edits += 1;
    show(next);
    setStatus('saving');
    setNotice(null);
    schedule(PRACTICE_PLAN_AUTOSAVE_MS);
  };
  /** an edit computed from the latest plan (safe inside async callbacks) */
  const update = (fn: (plan: PracticePlan) => PracticePlan) => change(fn(ref.current.local));

  useChannelEvent<UpdatedPayload>(practicePlanChannel(planId), 'PracticePlanUpdated', (payload) => {
    const s = ref.current;
    if (payload.id !== planId) return;
    // our own save (when the socket id was not sent yet) or one we already have
    if (payload.admin_version <= s.adminVersion && payload.student_version <= s.studentVersion) return;
    void fetchRemote(payload.by);
  });

  useEffect(() => {
    const s = ref.current;
    s.stopped = false;
    const hidden = () => {
      if (document.visibilityState === 'hidden') {
        if (s.timer) clearTimeout(s.timer);
        void run();
      }
    };
    const leave = (e: BeforeUnloadEvent) => {
      if (s.edits !== s.savedEdits) {
        void run();
        e.preventDefault();
      }
    };
    document.addEventListener('visibilitychange', hidden);
    window.addEventListener('beforeunload', leave);
    return () => {
      document.removeEventListener('visibilitychange', hidden);
      window.removeEventListener('beforeunload', leave);
      if (s.timer) clearTimeout(s.timer);
      // leaving the page inside the pause: send the last edit anyway (the answer is not needed)
      if (s.edits !== s.savedEdits && !s.inFlight) {
        void savePlan({
          practice_plan: role === 'admin' ? withValidLinks(s.local) : s.local,
          id: planId,
          admin_version: s.adminVersion,
          student_version: s.studentVersion,
        }).catch(() => undefined);
      }
      s.stopped = true;
    };
  }, [planId, role, run]);

  return { plan, status, notice, refusal, change, update, dismissNotice: () => setNotice(null) };
}
