/**
 * When an endpoint is paused: as soon as one of its deliveries has failed every attempt of the retry
 * schedule (so it failed for the schedule's whole span, about a day by default). Its later
 * deliveries are kept, not sent, until an operator resumes it.
 */
export function pauseReasonOnExhaustion(input: { attempts: number; lastError: string }): string {
  return `A delivery failed all ${input.attempts} attempts (last: ${input.lastError}); resume the endpoint once it answers again.`;
}
