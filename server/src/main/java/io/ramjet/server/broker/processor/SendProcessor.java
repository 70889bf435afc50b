package io.ramjet.server.broker.processor;

import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.SendRequest;
import io.ramjet.protocol.command.SendResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.record.MessageRecord;
import io.ramjet.protocol.record.RecordFlags;
import io.ramjet.protocol.record.RecordType;
import io.ramjet.protocol.remoting.AsyncRequestProcessor;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.DispatchProgress;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.StoreFullException;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * SEND: stores the message as one NORMAL record in the queue the producer chose. A PERSISTENT
 * send is answered once its record is durable (group commit); a NON_PERSISTENT one without
 * waiting for the disk. Either is answered only once the message is in its ConsumeQueue. A
 * message whose delivery time is still ahead is written as a TIMER record for the
 * {@code DelayedMessages} instead, and its response has queue offset -1.
 */
public final class SendProcessor implements AsyncRequestProcessor {

    private final MessageStore store;
    private final DestinationResolver destinations;
    private final DispatchProgress dispatched;
    private final DiskGuard disk;

    public SendProcessor(MessageStore store, DestinationResolver destinations, DispatchProgress dispatched,
                         DiskGuard disk) {
        this.disk = disk;
        this.store = store;
        this.destinations = destinations;
        this.dispatched = dispatched;
    }

    @Override
    public CompletionStage<Frame> process(RemotingConnection connection, Frame request) throws Exception {
        SendRequest send = request.header(SendRequest.class);
        disk.checkSend();
        Destination destination = destinations.resolve(send.kind(), send.destination());
        if (send.queueId() >= destination.queueCount()) {
            throw new IllegalArgumentException("queue id " + send.queueId() + " of " + destination.name()
                    + " not below its queue count " + destination.queueCount());
        }
        byte[] bytes = request.bodyBytes();
        if (send.propertiesLength() > bytes.length) {
            throw new IllegalArgumentException("properties length " + send.propertiesLength() + " exceeds the body of "
                    + bytes.length + " bytes");
        }
        byte[] properties = Arrays.copyOfRange(bytes, 0, send.propertiesLength());
        byte[] body = Arrays.copyOfRange(bytes, send.propertiesLength(), bytes.length);
        long now = System.currentTimeMillis();
        if (send.expiration() != 0 && send.expiration() <= now) {
            // expired on arrival: never deliverable, so not stored
            return CompletableFuture.completedFuture(request.reply(new SendResponse(send.queueId(), -1, -1)));
        }
        RecordType type = send.deliveryTime() > now ? RecordType.TIMER : RecordType.NORMAL;
        int flags = RecordFlags.of(type, send.persistent() ? 0 : RecordFlags.NON_PERSISTENT);
        MessageRecord record = new MessageRecord(flags, destination.storageName(), send.queueId(), -1,
                now, send.deliveryTime(), send.tagSignature(), properties, body);
        try {
            return store.append(record, send.persistent()).thenCompose(result ->
                    dispatched.passed(result.endOffset()).thenApply(done -> request.reply(
                            new SendResponse(send.queueId(), result.queueOffset(), result.physicalOffset()))));
        } catch (StoreFullException e) {
            throw new RemotingCommandException(ErrorStatus.STORE_FULL, e.getMessage());
        }
    }
}
