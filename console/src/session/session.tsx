import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import { ApiProblem, api, setCsrfToken, unwrap } from '../api/client.ts';
import type { components } from '../api/schema.ts';

type Session = components['schemas']['AdminSession'];
type Membership = components['schemas']['AdminMembership'];
type Role = Membership['role'];

interface SessionState {
  /** undefined while the first check runs; null when signed out. */
  session: Session | null | undefined;
  signIn: (email: string, password: string) => Promise<void>;
  signOut: () => Promise<void>;
  /** Reads the session again (its memberships change when an invitation is accepted). */
  refresh: () => Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null | undefined>(undefined);

  const adopt = useCallback((next: Session | null) => {
    setCsrfToken(next?.csrfToken ?? null);
    setSession(next);
  }, []);

  useEffect(() => {
    unwrap(api.GET('/admin/v1/session'))
      .then(adopt)
      .catch((error) => {
        if (!(error instanceof ApiProblem) || error.status !== 401) console.error(error);
        adopt(null);
      });
  }, [adopt]);

  const signIn = useCallback(
    async (email: string, password: string) => {
      adopt(await unwrap(api.POST('/admin/v1/session', { body: { email, password } })));
    },
    [adopt],
  );

  const signOut = useCallback(async () => {
    await unwrap(api.DELETE('/admin/v1/session'));
    adopt(null);
  }, [adopt]);

  const refresh = useCallback(async () => {
    adopt(await unwrap(api.GET('/admin/v1/session')));
  }, [adopt]);

  return <SessionContext value={{ session, signIn, signOut, refresh }}>{children}</SessionContext>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession needs a SessionProvider');
  return state;
}

/** What a role may do in the console; the server checks again and has the last word. */
const WRITERS: Record<string, readonly Role[]> = {
  apiKeys: ['owner', 'admin'],
  definition: ['owner', 'admin', 'designer'],
  discovery: ['owner', 'admin'],
  players: ['owner', 'admin', 'support'],
  webhooks: ['owner', 'admin'],
};

export function canWrite(membership: Membership | undefined, area: keyof typeof WRITERS): boolean {
  return membership !== undefined && (WRITERS[area] ?? []).includes(membership.role);
}

export function useMembership(organizationId: string | undefined): Membership | undefined {
  const { session } = useSession();
  return session?.memberships.find((m) => m.organizationId === organizationId);
}
