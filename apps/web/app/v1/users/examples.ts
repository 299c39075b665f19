/** Request examples of the end user's export and erasure (lib/operation-example.ts). */
import { EXAMPLE_USERS } from '@/lib/example-ids';
import type { AreaExamples } from '@/lib/operation-example';
import type * as operations from './operations';

export const usersExamples: AreaExamples<typeof operations> = {
  exportUser: { query: { external_user_id: EXAMPLE_USERS.general } },
  eraseUser: { params: { external_user_id: EXAMPLE_USERS.general } },
};
