import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy*/waitFor wait for the event they name; on a busy machine a lazy dialog can take longer than
// Testing Library's default second to appear, so allow more before calling it missing
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => cleanup());
