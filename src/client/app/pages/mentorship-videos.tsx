import { PageTitle } from './common.tsx';
export const VideosPage = () => <PageTitle title="VideosPage" subtitle="Coming with issue 8." />;
export const VideoPage = () => <PageTitle title="VideoPage" subtitle="Coming with issue 8." />;
export const StudentVideosPage = () => <PageTitle title="StudentVideosPage" subtitle="Coming with issue 8." />;
