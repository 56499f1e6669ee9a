import { useParams, useSearchParams } from 'react-router';
import { pageConfig } from '#client/lib/page-config.ts';
import { SendVideoForm } from '#client/features/videos/components/send-video-form.tsx';
import { VideoList } from '#client/features/videos/components/video-list.tsx';
import { VideoDetail } from '#client/features/videos/components/video-detail.tsx';
import { Card, PageTitle } from './common.tsx';

const usePage = () => {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  return [page, (p: number) => setParams({ page: String(p) })] as const;
};

/** /mentorship/videos: a student sends practice videos and sees theirs; an admin sees the feedback queue. */
export function VideosPage() {
  const [page, setPage] = usePage();
  if (pageConfig().admin) {
    return (
      <div className="mx-auto w-full max-w-3xl">
        <PageTitle
          title="Practice videos"
          subtitle="Videos your students sent, oldest first, waiting for your feedback."
        />
        <VideoList
          query={{ awaiting: true, page }}
          onPage={setPage}
          showStudent
          empty="Every video has its feedback. Nothing is waiting."
        />
      </div>
    );
  }
  return (
    <div className="mx-auto w-full max-w-3xl">
      <PageTitle
        title="Practice videos"
        subtitle="Film yourself practising and your mentor answers with written feedback."
      />
      <Card className="mb-8">
        <h2 className="mb-4 text-xl font-bold">Send a practice video</h2>
        <SendVideoForm />
      </Card>
      <h2 className="mb-4 text-xl font-bold">Your videos</h2>
      <VideoList query={{ page }} onPage={setPage} empty="You have not sent a video yet." />
    </div>
  );
}

/** /mentorship/videos/:id */
export function VideoPage() {
  const id = Number(useParams().id) || 0;
  const admin = pageConfig().admin;
  return (
    <div className="mx-auto w-full max-w-3xl">
      <VideoDetail key={id} id={id} admin={admin} backTo="/mentorship/videos" />
    </div>
  );
}

/** /mentorship/students/:id/videos (admin): one student's submissions. */
export function StudentVideosPage() {
  const studentId = Number(useParams().id) || 0;
  const [page, setPage] = usePage();
  return (
    <div className="mx-auto w-full max-w-3xl">
      <PageTitle title="Student's videos" subtitle="Every practice video this student sent, newest first." />
      <VideoList
        query={{ student_id: studentId, page }}
        onPage={setPage}
        empty="This student has not sent a video yet."
      />
    </div>
  );
}
