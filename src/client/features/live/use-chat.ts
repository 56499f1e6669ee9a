import { useCallback, useEffect, useReducer, useRef } from 'react';
import { COMMUNITY_MESSAGES } from '#shared/community';
import type { ChatMessageDto, ChatPageDto } from '#shared/live';
import { showChannel } from '#shared/realtime';
import { errorMessage } from '#client/lib/api.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { useChannelEvent } from '#client/lib/socket.ts';
import { toast } from '#client/components/ui/toast.tsx';
import { chatCalls } from './api/live.ts';

export type ChatMessage = ChatMessageDto & { pending?: boolean };

export interface ChatState {
  status: 'loading' | 'ready' | 'error';
  messages: ChatMessage[];
  topic: string | null;
  from: number | null;
  more: boolean;
  loadingOlder: boolean;
}

type Action =
  | { type: 'loaded'; page: ChatPageDto }
  | { type: 'failed' }
  | { type: 'olderStart' }
  | { type: 'older'; page: ChatPageDto | null }
  | { type: 'add'; message: ChatMessage }
  | { type: 'confirm'; tempId: number; id: number }
  | { type: 'remove'; id: number }
  | { type: 'topic'; topic: string | null }
  | { type: 'heart'; id: number; delta: 1 | -1; hearted?: boolean }
  | { type: 'heartSet'; id: number; hearted: boolean; hearts: number };

const initial: ChatState = {
  status: 'loading',
  messages: [],
  topic: null,
  from: null,
  more: false,
  loadingOlder: false,
};

const mapMessage = (state: ChatState, id: number, fn: (m: ChatMessage) => ChatMessage): ChatState => ({
  ...state,
  messages: state.messages.map((m) => (m.id === id ? fn(m) : m)),
});

export function chatReducer(state: ChatState, action: Action): ChatState {
  switch (action.type) {
    case 'loaded': {
      // keep what arrived through the channel while the page loaded
      const ids = new Set(action.page.messages.map((m) => m.id));
      const newer = state.messages.filter(
        (m) => !ids.has(m.id) && (m.pending || m.id > (action.page.messages.at(-1)?.id ?? 0)),
      );
      return {
        status: 'ready',
        messages: [...action.page.messages, ...newer],
        topic: action.page.topic,
        from: action.page.from,
        more: action.page.more,
        loadingOlder: false,
      };
    }
    case 'failed':
      return { ...state, status: 'error' };
    case 'olderStart':
      return { ...state, loadingOlder: true };
    case 'older': {
      if (!action.page) return { ...state, loadingOlder: false };
      const ids = new Set(state.messages.map((m) => m.id));
      return {
        ...state,
        messages: [...action.page.messages.filter((m) => !ids.has(m.id)), ...state.messages],
        from: action.page.from ?? state.from,
        more: action.page.more,
        loadingOlder: false,
      };
    }
    case 'add':
      return state.messages.some((m) => m.id === action.message.id)
        ? state
        : { ...state, messages: [...state.messages, action.message] };
    case 'confirm':
      // the server's copy may already be here (the socket id was not known yet): keep one
      if (state.messages.some((m) => m.id === action.id))
        return { ...state, messages: state.messages.filter((m) => m.id !== action.tempId) };
      return mapMessage(state, action.tempId, (m) => ({ ...m, id: action.id, pending: false }));
    case 'remove':
      return { ...state, messages: state.messages.filter((m) => m.id !== action.id) };
    case 'topic':
      return { ...state, topic: action.topic };
    case 'heart':
      return mapMessage(state, action.id, (m) => ({
        ...m,
        hearts: Math.max(0, m.hearts + action.delta),
        hearted: action.hearted ?? m.hearted,
      }));
    case 'heartSet':
      return mapMessage(state, action.id, (m) => ({
        ...m,
        hearts: Math.max(0, action.hearts),
        hearted: action.hearted,
      }));
  }
}

let tempIds = 0;

/**
 * The chat of one show (docs/product/live.md): the newest page, older pages on demand,
 * own messages shown at once with a temporary id, hearts changed at once, and the show channel's
 * NewMessage / NewTopic / HeartAdded / HeartRemoved applied as they come.
 */
export function useChat(showId: number) {
  const [state, dispatch] = useReducer(chatReducer, initial);
  const stateRef = useRef(state);
  stateRef.current = state;
  const me = pageConfig();

  const load = useCallback(() => {
    let live = true;
    chatCalls.page(showId).then(
      (page) => live && dispatch({ type: 'loaded', page }),
      () => live && dispatch({ type: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [showId]);
  useEffect(load, [load]);

  const channel = showChannel(showId);
  useChannelEvent<{ message: ChatMessageDto }>(channel, 'NewMessage', ({ message }) =>
    dispatch({ type: 'add', message }),
  );
  useChannelEvent<{ messageId: number }>(channel, 'MessageHidden', ({ messageId }) =>
    dispatch({ type: 'remove', id: messageId }),
  );
  useChannelEvent<{ topic: string | null }>(channel, 'NewTopic', ({ topic }) => dispatch({ type: 'topic', topic }));
  useChannelEvent<{ messageId: number; userId?: number }>(channel, 'HeartAdded', ({ messageId, userId }) =>
    dispatch({ type: 'heart', id: messageId, delta: 1, ...(userId === me.authId ? { hearted: true } : {}) }),
  );
  useChannelEvent<{ messageId: number; userId?: number }>(channel, 'HeartRemoved', ({ messageId, userId }) =>
    dispatch({ type: 'heart', id: messageId, delta: -1, ...(userId === me.authId ? { hearted: false } : {}) }),
  );

  const loadOlder = useCallback(async () => {
    const { from, loadingOlder } = stateRef.current;
    if (loadingOlder || !from) return;
    dispatch({ type: 'olderStart' });
    try {
      dispatch({ type: 'older', page: await chatCalls.page(showId, from) });
    } catch {
      dispatch({ type: 'older', page: null });
      toast(COMMUNITY_MESSAGES.chatLoadFailed, 'danger');
    }
  }, [showId]);

  /** Send a message: shown at once; the answer's id replaces the temporary one. Resolves to the failure, if any. */
  const send = useCallback(
    async (text: string): Promise<{ failed: unknown } | null> => {
      const body = text.trim();
      if (!body) return null;
      const tempId = -++tempIds;
      dispatch({
        type: 'add',
        message: {
          id: tempId,
          name: me.authName ?? '',
          admin: me.admin,
          avatar_url: me.authAvatarUrl ?? '',
          profile_url: me.authProfileUrl,
          body,
          hearts: 0,
          hearted: false,
          timestamp: Math.floor(Date.now() / 1000),
          pending: true,
        },
      });
      try {
        const { id } = await chatCalls.send(showId, body);
        dispatch({ type: 'confirm', tempId, id });
        return null;
      } catch (err) {
        dispatch({ type: 'remove', id: tempId });
        return { failed: err };
      }
    },
    [showId, me],
  );

  const toggleHeart = useCallback(
    async (messageId: number) => {
      const m = stateRef.current.messages.find((x) => x.id === messageId);
      if (!m || m.pending || messageId < 0) return;
      const hearted = !m.hearted;
      dispatch({ type: 'heart', id: messageId, delta: hearted ? 1 : -1, hearted });
      try {
        const res = await chatCalls.toggleHeart(showId, messageId);
        // another tab of ours toggled it in between: take the server's word
        if (res.hearted !== hearted)
          dispatch({ type: 'heartSet', id: messageId, hearted: res.hearted, hearts: res.hearts });
      } catch (err) {
        dispatch({ type: 'heart', id: messageId, delta: hearted ? -1 : 1, hearted: !hearted });
        toast(errorMessage(err, ['body']), 'danger');
      }
    },
    [showId],
  );

  const setTopic = useCallback(
    async (topic: string) => {
      const before = stateRef.current.topic;
      dispatch({ type: 'topic', topic: topic.trim() || null });
      try {
        const res = await chatCalls.setTopic(showId, topic);
        dispatch({ type: 'topic', topic: res.topic });
      } catch (err) {
        dispatch({ type: 'topic', topic: before });
        toast(errorMessage(err, ['body']), 'danger');
      }
    },
    [showId],
  );

  return { state, loadOlder, send, toggleHeart, setTopic };
}
