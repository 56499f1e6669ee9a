import type { Io } from '#server/modules/realtime/index';

/**
 * A broadcast (a chat message to a live show's viewers, a like to a thread's readers) goes onto each
 * viewer's websocket as the one frame Socket.IO built for all of them, when that viewer's connection is
 * idle: nothing queued in engine.io, nothing still being written. Engine.io's own path for each viewer
 * and message builds a packet and a write buffer, emits four events nobody here listens to and writes
 * with a callback whose after-write tick re-arms the transport; at thousands of viewers that is a large
 * share of the server's time per message (docs/decisions/0025-broadcast-frames.md).
 *
 * A viewer whose connection is busy (a packet waiting in engine.io, bytes not yet handed to the network)
 * takes engine.io's path, so that their messages keep their order and a slow reader queues in engine.io
 * as before. Everything else (a message to one socket, an acknowledgement, a ping, the long-polling
 * transport) is untouched.
 */
export function writeBroadcastsToIdleWebSockets(io: Io): void {
  io.engine.on('connection', (conn: EngineConnection) => {
    const write = conn.write;
    conn.write = function writeBroadcastFrame(data, options, callback) {
      const frame = broadcastFrame(options);
      const sender = frame && callback === undefined ? idleFrameWriter(conn) : null;
      if (!frame || !sender) return write.call(conn, data, options, callback);
      sender.sendFrame(frame);
      return conn;
    };
  });
}

/**
 * The parts of an engine.io connection this relies on (engine.io's `Socket` and its websocket
 * transport, whose `socket` is the `ws` WebSocket).
 */
interface EngineConnection {
  readyState: string;
  writeBuffer: unknown[];
  transport: {
    name: string;
    /** false while a write of engine.io's is in flight (it queues in writeBuffer meanwhile) */
    writable: boolean;
    perMessageDeflate?: unknown;
    socket?: ViewerWebSocket;
  };
  write(data: unknown, options?: unknown, callback?: unknown): unknown;
}

interface ViewerWebSocket {
  /** ws's state: `OPEN` while open (not once a close frame has gone or come) */
  readonly readyState: number;
  /** ws's own constant for that state, on every socket of the ws copy engine.io loaded */
  readonly OPEN: number;
  /** bytes given to the socket and not yet handed to the network (ws's public count) */
  readonly bufferedAmount: number;
  /** ws's frame writer: engine.io's websocket transport writes Socket.IO's pre-built frames with it too */
  readonly _sender?: Partial<FrameWriter>;
}

interface FrameWriter {
  sendFrame(frame: Buffer[], callback?: (err?: Error) => void): void;
}

/** the WebSocket frame Socket.IO's adapter builds once per broadcast (a text frame, unmasked, uncompressed) */
function broadcastFrame(options: unknown): Buffer[] | undefined {
  if (typeof options !== 'object' || options === null) return undefined;
  const frame = (options as { wsPreEncodedFrame?: unknown }).wsPreEncodedFrame;
  return Array.isArray(frame) ? (frame as Buffer[]) : undefined;
}

/** the viewer's frame writer if their connection is an idle websocket, else null */
function idleFrameWriter(conn: EngineConnection): FrameWriter | null {
  const { transport } = conn;
  const ws = transport.socket;
  const sender = ws?._sender;
  const idle =
    conn.readyState === 'open' &&
    conn.writeBuffer.length === 0 &&
    transport.name === 'websocket' &&
    transport.writable &&
    // a compressed connection needs each frame compressed for it
    !transport.perMessageDeflate &&
    ws !== undefined &&
    ws.readyState === ws.OPEN &&
    ws.bufferedAmount === 0;
  return idle && typeof sender?.sendFrame === 'function' ? (sender as FrameWriter) : null;
}
