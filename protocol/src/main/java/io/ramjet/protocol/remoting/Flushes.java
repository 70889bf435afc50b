package io.ramjet.protocol.remoting;

import io.netty.handler.flush.FlushConsolidationHandler;

/**
 * How a connection's frames reach the socket: every frame is written and flushed on its own (a
 * response by the thread that made it), and this handler, placed on the application side of the
 * TLS handler, merges the flushes that queue up on the event loop into one. Without it, each
 * frame is one {@code write} system call and, with TLS, one TLS record of its own; with it, a
 * burst of responses or pipelined sends goes out as one write and as few records as fit.
 */
final class Flushes {

    private Flushes() {
    }

    /** A new handler for one channel: flushes merged while a read is in progress and when none is. */
    static FlushConsolidationHandler consolidated() {
        return new FlushConsolidationHandler(FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true);
    }
}
