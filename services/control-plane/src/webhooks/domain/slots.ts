/** How a replica shares its delivery slots: a total, and at most so many per organization and per endpoint. */
export interface SlotCaps {
  total: number;
  perOrganization: number;
  perEndpoint: number;
}

/** One delivery holding a slot: whose it is. */
export interface SlotHolder {
  organizationId: string;
  webhookId: string;
}

/**
 * The delivery slots of one replica in use, counted per organization and per endpoint, so a claim
 * asks only for what each may still take: an organization whose receivers never answer holds its
 * share of the slots for the timeout, not all of them.
 */
export class DeliverySlots {
  private inUse = 0;
  private readonly byOrganization = new Map<string, number>();
  private readonly byEndpoint = new Map<string, number>();

  readonly caps: SlotCaps;

  constructor(caps: SlotCaps) {
    this.caps = caps;
  }

  get free(): number {
    return this.caps.total - this.inUse;
  }

  /** The organizations and endpoints with slots in use, and how many each holds. */
  holders(): { organizations: Map<string, number>; endpoints: Map<string, number> } {
    return { organizations: new Map(this.byOrganization), endpoints: new Map(this.byEndpoint) };
  }

  take(holder: SlotHolder): void {
    this.inUse += 1;
    bump(this.byOrganization, holder.organizationId, 1);
    bump(this.byEndpoint, holder.webhookId, 1);
  }

  release(holder: SlotHolder): void {
    this.inUse -= 1;
    bump(this.byOrganization, holder.organizationId, -1);
    bump(this.byEndpoint, holder.webhookId, -1);
  }
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const count = (counts.get(key) ?? 0) + by;
  if (count === 0) counts.delete(key);
  else counts.set(key, count);
}
