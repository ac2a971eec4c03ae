/**
 * Test support: an EventRecorder per controller user that keeps what was recorded, so a test
 * checks a controller's events (reason, note, regarding object) without an events API.
 *
 * @example
 *   const events = new FakeEvents();
 *   startInProcessServer({ controllers: { eventRecorderFor: events.for } });
 *   events.notes('SuccessfulCreate') // ['Created pod: pi-abcde']
 */
import type { EventRecorder, EventToRecord } from './event-recorder.js';

export class FakeEvents {
  readonly recorded: Array<EventToRecord & { user: string }> = [];

  for = (user: string): EventRecorder => ({ record: (event) => void this.recorded.push({ ...event, user }) });

  /** Notes of the events with this reason, optionally about one object (tenant and name). */
  notes(reason: string, regarding?: { tenant: string; name: string }): string[] {
    return this.recorded
      .filter((e) => e.reason === reason && (!regarding || (e.regarding.metadata.tenant === regarding.tenant && e.regarding.metadata.name === regarding.name)))
      .map((e) => e.note);
  }
}
