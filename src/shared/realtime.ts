import type { Notification } from './notifications.ts';
import type { ChatMessageDto, LiveShowDto } from './live.ts';

/**
 * Realtime channels (docs/product/notifications.md): a private channel per user (`user.{id}`) and one per live show
 * (`show.{id}`). A client asks to join with `subscribe`; the server checks it may.
 */
export const userChannel = (userId: number) => `user.${userId}`;
export const showChannel = (showId: number) => `show.${showId}`;
/** a practice plan: the student and admins editing it hear each other's saves */
export const practicePlanChannel = (planId: number) => `practice-plan.${planId}`;

export interface UserChannelEvents {
  NotificationCreated: (payload: {
    notification: Notification;
    area: 'main' | 'mentorship';
    unread_count: number;
  }) => void;
  PointsAdded: (payload: { point: { points: number; description: string }; message: string }) => void;
  UnlockedAchievement: (payload: { imageUrl: string; progress: { details: { name: string } } }) => void;
  SoundslicePathStatus: (payload: { soundslice_path_id: number; complete: boolean }) => void;
  /** a lesson marked complete or not in one tab: the member's other tabs follow, with the course's progress */
  LessonStatus: (payload: {
    lesson_id: number;
    complete: boolean;
    progress: { completed: number; total: number; percent: number };
  }) => void;
}

export interface ShowChannelEvents {
  NewMessage: (payload: { message: ChatMessageDto }) => void;
  NewTopic: (payload: { topic: string | null }) => void;
  /** userId: who hearted (their other tabs mark it hearted) */
  HeartAdded: (payload: { messageId: number; userId: number }) => void;
  HeartRemoved: (payload: { messageId: number; userId: number }) => void;
  /** an admin hid or deleted a message: viewers take it out of the chat */
  MessageHidden: (payload: { messageId: number }) => void;
  /** status or chat open/closed changed (admins) */
  ShowUpdated: (payload: { show: LiveShowDto }) => void;
}

export interface PracticePlanChannelEvents {
  /** a save landed: editors refetch and merge the other side's fields */
  PracticePlanUpdated: (payload: {
    id: number;
    admin_version: number;
    student_version: number;
    by: 'admin' | 'student';
    socket_id?: string | null;
  }) => void;
}

/** Every event the server sends: `(channel, payload)` arrives as event name + `{channel, payload}`. */
export type ServerEventName = keyof UserChannelEvents | keyof ShowChannelEvents | keyof PracticePlanChannelEvents;
export interface ServerToClientEvents {
  event: (message: { channel: string; event: ServerEventName; payload: unknown }) => void;
}
export interface ClientToServerEvents {
  subscribe: (channel: string, ack: (result: { ok: boolean; message?: string }) => void) => void;
  unsubscribe: (channel: string) => void;
}
