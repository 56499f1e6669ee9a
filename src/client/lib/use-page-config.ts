import { useSyncExternalStore } from 'react';
import type { PageConfig } from '#shared/page-config';
import { pageConfig, subscribePageConfig } from './page-config.ts';

/** The page-wide configuration, re-rendering when it changes without a page load (`updatePageConfig`). */
export const usePageConfig = (): PageConfig => useSyncExternalStore(subscribePageConfig, pageConfig, pageConfig);
