import { buttonClass } from '#client/components/ui/button.tsx';

const TITLES: Record<number, string> = {
  401: 'Please sign in',
  403: 'Not allowed',
  404: 'Page not found',
  419: 'Session expired',
  429: 'Slow down',
  500: 'Something went wrong',
  503: 'Briefly unavailable',
};

export function ErrorPage({ status, message }: { status: number; message: string }) {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-4 py-16 text-center">
      <p className="text-6xl font-black text-accent tabular">{status}</p>
      <h1 className="text-3xl font-extrabold tracking-tight">{TITLES[status] ?? 'Something went wrong'}</h1>
      <p className="text-lg text-muted">{message}</p>
      {status === 503 ? (
        // the same page again: the service is expected back in a moment
        <button type="button" className={buttonClass('primary')} onClick={() => window.location.reload()}>
          Try again
        </button>
      ) : (
        <a href="/" className={buttonClass('primary')}>
          Back to Backbeat
        </a>
      )}
    </div>
  );
}

export const NotFoundPage = () => <ErrorPage status={404} message="We could not find what you were looking for." />;
