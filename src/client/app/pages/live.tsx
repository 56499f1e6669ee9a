import { useParams } from 'react-router';
import { ShowList } from '#client/features/live/components/shows.tsx';
import { ShowView } from '#client/features/live/components/show-view.tsx';
import { NotFoundPage } from './error.tsx';
import { PageTitle } from './common.tsx';

/** Live shows and a show with its chat (docs/product/live.md). */
export function LiveShowsPage() {
  return (
    <>
      <PageTitle title="Live shows" subtitle="Watch lessons as they happen and ask questions in the chat." />
      <ShowList />
    </>
  );
}

export function LiveShowPage() {
  const id = Number(useParams().id);
  if (!Number.isInteger(id) || id <= 0) return <NotFoundPage />;
  return <ShowView key={id} id={id} />;
}
