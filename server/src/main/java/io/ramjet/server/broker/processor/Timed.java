package io.ramjet.server.broker.processor;

import io.ramjet.protocol.remoting.AsyncRequestProcessor;

import java.util.function.LongConsumer;

/** A processor whose requests are timed, from their arrival to their response, for the broker's metrics. */
public final class Timed {

    /** Takes the time of a request in nanoseconds and drops it: metrics are off. */
    public static final LongConsumer UNTIMED = nanos -> { };

    private Timed() {
    }

    /** {@code processor} telling {@code nanos} how long each request took, refused ones too. */
    public static AsyncRequestProcessor async(AsyncRequestProcessor processor, LongConsumer nanos) {
        if (nanos == UNTIMED) {
            return processor;
        }
        return (connection, request) -> {
            long started = System.nanoTime();
            try {
                return processor.process(connection, request)
                        .whenComplete((response, failure) -> nanos.accept(System.nanoTime() - started));
            } catch (Exception e) {
                nanos.accept(System.nanoTime() - started);
                throw e;
            }
        };
    }
}
