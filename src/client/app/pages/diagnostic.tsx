import { FootSpeedDiagnostic } from '#client/features/diagnostic/components/diagnostic.tsx';
import { PageTitle } from './common.tsx';

/** /diagnostic: a public page, its own chunk (scripts/initial-js.ts). */
export const DiagnosticPage = () => (
  <>
    <PageTitle
      title="Foot-speed diagnostic"
      subtitle="Nine questions to find what is holding your feet back, and the practice plan that fixes it."
    />
    <FootSpeedDiagnostic />
  </>
);
