/**
 * Run `fn` once `ms` have passed and the I/O that arrived meanwhile has been handled. A process
 * that was not scheduled for a while (a busy machine) runs its due timers before it reads its
 * sockets, so a plain timer would call an answer that is already waiting in the socket late; the
 * check phase (setImmediate) comes after the poll phase that delivers it.
 */
export function afterPendingIo(ms: number, fn: () => void): NodeJS.Timeout {
  return setTimeout(() => setImmediate(fn), ms);
}
