import { useParams } from 'react-router';
import { SongMapper } from '#client/features/songmapper/components/song-mapper.tsx';
import { PageTitle } from './common.tsx';

/** The song mapper (docs/product/song-mapper.md); the mentorship area shows the same tool in its dark look. */
export function SongMapperPage({ mentorship = false }: { mentorship?: boolean }) {
  const { id } = useParams();
  const base = mentorship ? '/mentorship/songmapper' : '/songmapper';
  return (
    <>
      <PageTitle
        title="Song Mapper"
        subtitle="Map a song's sections, measures and feel before you play it. Every change saves itself."
      />
      <SongMapper id={id ?? null} base={base} />
    </>
  );
}

export const MentorshipSongMapperPage = () => <SongMapperPage mentorship />;
