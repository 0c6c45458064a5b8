// Where events go. EventWriter implements it; tests may collect events in memory.
import type { EventBody, KiteEvent } from '../protocol/events';

export interface EventSink {
  append(body: EventBody): KiteEvent;
}
