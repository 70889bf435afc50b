package io.ramjet.server.broker.processor;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.protocol.command.ParkedQueryRequest;
import io.ramjet.protocol.command.ParkedQueryResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.AsyncRequestProcessor;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.idempotence.FenceRecord;
import io.ramjet.server.broker.idempotence.ProducerTable;
import io.ramjet.server.broker.idempotence.StoredSend;
import io.ramjet.storage.AppendResult;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.StoreFullException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletionStage;

/**
 * PARKED_QUERY, on a group's master: another group keeps a parked copy of a producer's message
 * that this group's lost master may have stored, and asks whether this group holds it. The
 * answer comes from the {@link ProducerTable} (rebuilt from the CommitLog after a crash): held
 * when the producer's highest sequence stored here as a message is at or above the one asked;
 * otherwise not held, and unless a fence covers it already a FENCE record raising the producer's
 * last sequence to it is written first, so a late resend of it here is taken as a duplicate.
 * Either answer waits until the record it rests on is durable and dispatched, and is the same
 * however often it is asked. The check and the fence's append are one step under the producer's
 * lock, as a SEND's are ({@link SendProcessor}). Only proven cluster members may ask (the broker
 * checks that where it registers the command).
 */
public final class ParkedQueryProcessor implements AsyncRequestProcessor {

    private static final Logger LOG = LoggerFactory.getLogger(ParkedQueryProcessor.class);

    private final MessageStore store;
    private final ProducerTable producers;

    public ParkedQueryProcessor(MessageStore store, ProducerTable producers) {
        this.store = store;
        this.producers = producers;
    }

    @Override
    public CompletionStage<Frame> process(RemotingConnection connection, Frame request) {
        ParkedQueryRequest query = request.header(ParkedQueryRequest.class);
        long producerId = query.producerId();
        AppendResult basis;
        boolean held;
        synchronized (producers.lockOf(producerId)) {
            ProducerTable.Holding holding = producers.holding(producerId, query.sequence());
            if (holding == ProducerTable.Holding.UNKNOWN) {
                long heldUpTo = producers.lastOf(producerId).map(StoredSend::heldUpTo).orElse(0L);
                long now = System.currentTimeMillis();
                basis = append(FenceRecord.of(producerId, query.sequence(), heldUpTo, now));
                producers.appended(new StoredSend(producerId, query.sequence(), basis.physicalOffset(), basis.size(),
                        -1, now, heldUpTo));
                held = false;
                LOG.info("{}: producer {} sequence {} not stored here (up to {} is): fenced",
                        connection.remoteAddress(), Long.toHexString(producerId), query.sequence(), heldUpTo);
            } else {
                StoredSend last = producers.lastOf(producerId).orElseThrow();
                basis = new AppendResult(last.physicalOffset(), last.size(), last.queueOffset());
                held = holding == ProducerTable.Holding.HELD;
            }
        }
        return store.durable(basis, true)
                .thenCompose(durable -> store.dispatchedTo(durable.endOffset()))
                .thenApply(done -> request.reply(new ParkedQueryResponse(held)));
    }

    private AppendResult append(MessageRecord fence) {
        try {
            return store.append(fence, false).join();
        } catch (StoreFullException e) {
            throw new BrokerException(Refusal.DISK_FULL, e.getMessage());
        }
    }
}
