/**
 * The per-replica share used while Redis is unreachable: at most `maxActive` requests of one
 * organization execute on this replica and `maxWaiting` wait, first come first served.
 */
export interface LocalLimitSettings {
  maxActive: number;
  maxWaiting: number;
  maxWaitMs: number;
  /** Requests of the scope running on this replica outside this share, counted in it. */
  alsoRunning?: (scope: string) => number;
}

export type LocalAdmission =
  | { outcome: 'admitted'; release: () => void; inUse: number }
  | { outcome: 'refused'; reason: 'full' | 'wait_timeout' }
  | { outcome: 'aborted' };

interface ScopeState {
  active: number;
  queue: Array<() => void>;
}

export class LocalLimit {
  readonly #settings: LocalLimitSettings;
  readonly #scopes = new Map<string, ScopeState>();

  constructor(settings: LocalLimitSettings) {
    this.#settings = settings;
  }

  /** Requests of `scope` executing on this replica under the fallback. */
  inUse(scope: string): number {
    return this.#scopes.get(scope)?.active ?? 0;
  }

  async acquire(scope: string, signal?: AbortSignal): Promise<LocalAdmission> {
    if (signal?.aborted) return { outcome: 'aborted' };
    const state = this.#scopes.get(scope) ?? { active: 0, queue: [] };
    this.#scopes.set(scope, state);
    if (this.#hasRoom(scope, state) && state.queue.length === 0) return this.#admit(scope, state);
    if (state.queue.length >= this.#settings.maxWaiting) {
      this.#dropIfIdle(scope, state);
      return { outcome: 'refused', reason: 'full' };
    }
    const turn = await new Promise<'turn' | 'timeout' | 'aborted'>((resolve) => {
      const finish = (how: 'turn' | 'timeout' | 'aborted') => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = state.queue.indexOf(onTurn);
        if (at !== -1) state.queue.splice(at, 1);
        resolve(how);
      };
      const onTurn = () => finish('turn');
      const onAbort = () => finish('aborted');
      const timer = setTimeout(() => finish('timeout'), this.#settings.maxWaitMs);
      state.queue.push(onTurn);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted) onAbort();
    });
    // The releasing request handed its slot over: it is already counted in `active`.
    if (turn === 'turn') return this.#admitted(scope, state);
    this.#dropIfIdle(scope, state);
    return turn === 'timeout' ? { outcome: 'refused', reason: 'wait_timeout' } : { outcome: 'aborted' };
  }

  /** A request counted by `alsoRunning` ended: the first waiting request runs if there is room now. */
  wake(scope: string): void {
    const state = this.#scopes.get(scope);
    const next = state?.queue[0];
    if (!state || !next || !this.#hasRoom(scope, state)) return;
    state.active += 1;
    next();
  }

  #hasRoom(scope: string, state: ScopeState): boolean {
    return state.active + (this.#settings.alsoRunning?.(scope) ?? 0) < this.#settings.maxActive;
  }

  #admit(scope: string, state: ScopeState): LocalAdmission {
    state.active += 1;
    return this.#admitted(scope, state);
  }

  #admitted(scope: string, state: ScopeState): LocalAdmission {
    let released = false;
    return {
      outcome: 'admitted',
      inUse: state.active,
      release: () => {
        if (released) return;
        released = true;
        // The slot passes straight to the first waiting request, if there is room for it.
        const next = state.queue[0];
        state.active -= 1;
        if (next && this.#hasRoom(scope, state)) {
          state.active += 1;
          return next();
        }
        this.#dropIfIdle(scope, state);
      },
    };
  }

  #dropIfIdle(scope: string, state: ScopeState) {
    if (state.active === 0 && state.queue.length === 0) this.#scopes.delete(scope);
  }
}
