package io.ramjet.model.stats;

/**
 * One consumer's share of a message queue of its subscription, as the broker sees it at the moment
 * of asking: what it holds and what it waits for.
 *
 * @param consumer      the broker's consumer id
 * @param inFlight      messages of the queue handed to it and neither acknowledged nor given back
 * @param firstInFlight the lowest queue offset of those, -1 for none
 * @param lastInFlight  the highest queue offset of those, -1 for none
 * @param scanFloor     where the next offer to it starts looking (every visible message below is,
 *                      for it, in flight or refused by its selector); -1 when it was never offered one
 * @param heldPulls     its pulls the broker holds on the destination now, waiting for messages
 */
public record ConsumerDeliveryState(long consumer, int inFlight, long firstInFlight, long lastInFlight,
                                    long scanFloor, int heldPulls) {
}
