import { createHash, timingSafeEqual } from 'node:crypto';
import { problem } from '@engage/kit';

/** Checks `Authorization: Bearer <ADMIN_TOKEN>` in constant time (both sides hashed to equal length). */
export function adminTokenCheck(adminToken: string): (authorization: string | undefined) => void {
  const expected = digest(adminToken);
  return (authorization) => {
    const match = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
    if (!match || !timingSafeEqual(digest(match[1]!.trim()), expected)) {
      throw problem('admin.unauthorized', 'The admin token is missing or wrong.');
    }
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest();
