package io.ramjet.server.broker.processor;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.RecordFlags;
import io.ramjet.model.record.RecordType;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.SendRequest;
import io.ramjet.protocol.command.SendResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.message.HeaderSectionDescriptor;
import io.ramjet.protocol.message.MessageFormatError;
import io.ramjet.protocol.message.TagSignature;
import io.ramjet.protocol.remoting.AsyncRequestProcessor;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.destination.DestinationResolver;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.idempotence.ProducerTable;
import io.ramjet.server.broker.idempotence.StoredSend;
import io.ramjet.server.broker.large.LargeMessages;
import io.ramjet.server.broker.large.OpenUploads;
import io.ramjet.server.broker.log.DiskGuard;
import io.ramjet.server.broker.security.Operation;
import io.ramjet.storage.AppendResult;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.StoreFullException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * SEND: stores each message as one NORMAL record in the queue the producer
 * chose. A PERSISTENT send is answered once its record is durable (group commit); a
 * NON_PERSISTENT one without waiting for the disk. Either is answered only once the message is
 * in its ConsumeQueue. A message whose delivery time is still ahead is written as a TIMER
 * record for the {@code DelayedMessages} instead, and its response has queue offset -1.
 *
 * <p>A one-way SEND (the fire-and-forget path for NON_PERSISTENT messages) is appended and
 * nothing more: no wait for the disk or the dispatcher, and no response.
 *
 * <p>A send with a transaction id is stored as a half (PREPARED) record instead, invisible
 * until its transaction commits (see {@link TransactionHalves}); its response has queue offset -1
 * and waits neither for the disk nor for the dispatcher: the transaction's durable TX_PREPARE or
 * TX_END forces the log up to its own record, so every half written before it is durable with
 * it, and dispatches every record written before it first.
 *
 * <p>Every message's header section is checked before anything is stored
 * ({@link HeaderSectionDescriptor#checkWellFormed}): a section that does not follow the layout
 * is refused with BAD_REQUEST, so no consumer is handed a
 * record its client could not decode; the connection stays open. The check walks the section
 * once and allocates nothing on a valid one; the tag signature is then read from it in place.
 *
 * <p>Every refusal that does not depend on the message (a full disk, a store that cannot index,
 * a name a client may not use, a user who may not send there or create the destination) comes
 * before the destination is resolved, so a refused send creates no destination. A transaction's
 * halves are checked as any send.
 *
 * <p>A send from an idempotent producer (a producer id, outside any transaction) whose sequence
 * is not above the last one the {@link ProducerTable} holds for that producer is a resend of a
 * message already stored: it is answered as sent, once that last message is as durable as the
 * send asks and dispatched, with the original's position when it is the one resent, and stores
 * nothing. The record of a stored one carries its producer and sequence.
 *
 * <p>The broker runs this processor for one connection's sends one at a time, in the order they
 * arrived (on the connection's I/O thread or the send lane's own thread: {@code SendLane}), so the CommitLog
 * order of the messages one connection sends is the order they arrived in, one-way ones
 * included. Several connections' sends may run at once: a producer's resend check and the append
 * of its message are one step under that producer's lock, so when its resends come over a new
 * connection while its old one still delivers, each message is stored once. Who forces for a
 * PERSISTENT send, and where its record is dispatched, is the store's decision (its
 * {@code DurabilityPipeline}): on a send lane, once for the lane's batch of sends.
 *
 * <p>A large send (LARGE_SEND, a SEND by another code) carries a chunk table instead of the body: it is
 * stored only if the table names intact chunks of its own upload ({@link LargeMessages#checkTable}),
 * as a record flagged {@link RecordFlags#LARGE}, and its upload is closed once it is answered
 * (the message's queue entry then keeps its chunks from retention).
 */
public final class SendProcessor implements AsyncRequestProcessor {

    private static final Logger LOG = LoggerFactory.getLogger(SendProcessor.class);

    private final MessageStore store;
    private final DestinationResolver destinations;
    private final DiskGuard disk;
    private final TransactionHalves halves;
    private final Access access;
    private final ProducerTable producers;
    private final LargeMessages large;
    private final OpenUploads uploads;

    public SendProcessor(MessageStore store, DestinationResolver destinations,
                         DiskGuard disk, TransactionHalves halves, Access access, ProducerTable producers,
                         LargeMessages large, OpenUploads uploads) {
        this.producers = producers;
        this.large = large;
        this.uploads = uploads;
        this.access = access;
        this.halves = halves;
        this.disk = disk;
        this.store = store;
        this.destinations = destinations;
    }

    @Override
    public CompletionStage<Frame> process(RemotingConnection connection, Frame request) throws Exception {
        SendRequest send = request.header(SendRequest.class);
        if (request.code() != CommandCode.LARGE_SEND) {
            return store(connection, request, send, false);
        }
        byte[] bytes = request.bodyArray();
        long uploadId;
        try {
            if (send.propertiesLength() > bytes.length) {
                throw new IllegalArgumentException("properties length " + send.propertiesLength()
                        + " exceeds the body of " + bytes.length + " bytes");
            }
            uploadId = large.checkTable(ByteBuffer.wrap(bytes, send.propertiesLength(),
                    bytes.length - send.propertiesLength()).slice()).uploadId();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("large message: " + e.getMessage());
        }
        CompletionStage<Frame> answer;
        try {
            answer = store(connection, request, send, true);
        } catch (Exception | Error e) {
            uploads.ended(uploadId);
            throw e;
        }
        if (answer == null) {
            uploads.ended(uploadId);
            return null;
        }
        return answer.whenComplete((done, failure) -> uploads.ended(uploadId));
    }

    private CompletionStage<Frame> store(RemotingConnection connection, Frame request, SendRequest send,
                                         boolean large) throws Exception {
        disk.checkSend();
        checkRoom();
        byte[] bytes = request.bodyArray();
        if (send.propertiesLength() > bytes.length) {
            throw new IllegalArgumentException("properties length " + send.propertiesLength() + " exceeds the body of "
                    + bytes.length + " bytes");
        }
        checkSection(bytes, 0, send.propertiesLength(), "");
        access.check(connection, Operation.SEND, send.destination());
        access.checkCreatedByUse(connection, destinations.table(), send.kind(), send.destination());
        halves.open(send.transactionId(), connection);
        Destination destination = destinations.resolve(send.kind(), send.destination());
        checkQueue(destination, send.queueId());
        long now = System.currentTimeMillis();
        if (send.transactionId() == 0 && expired(send.expiration(), now)) {
            // expired on arrival: never deliverable, so not stored; a half is stored all the same,
            // since a counted commit counts it (the commit drops an expired half)
            return CompletableFuture.completedFuture(request.reply(new SendResponse(send.queueId(), -1, -1)));
        }
        MessageRecord record = record(destination, send.queueId(), send.persistent(), large,
                send.deliveryTime(), bytes, 0, send.propertiesLength(), bytes.length, now, send.producerId(),
                send.sequence());
        record = TransactionHalves.half(record, send.transactionId());
        AppendResult result;
        if (send.producerId() == 0) {
            result = append(record);
        } else {
            synchronized (producers.lockOf(send.producerId())) {
                Optional<StoredSend> stored = producers.resendOf(send.producerId(), send.sequence());
                if (stored.isPresent()) {
                    return answerResend(request, send, stored.get());
                }
                result = append(record);
                producers.appended(new StoredSend(send.producerId(), send.sequence(), result.physicalOffset(),
                        result.size(), result.queueOffset(), now));
            }
        }
        if (request.isOneWay()) {
            return null;
        }
        return answer(request, send, result, send.persistent() && send.transactionId() == 0);
    }

    private CompletionStage<Frame> answerResend(Frame request, SendRequest send, StoredSend last) {
        LOG.debug("producer {} resent sequence {}, not above the {} stored: answered without storing",
                Long.toHexString(send.producerId()), send.sequence(), last.sequence());
        if (request.isOneWay()) {
            return null;
        }
        boolean original = last.sequence() == send.sequence() && !last.fence();
        long queueOffset = original ? last.queueOffset() : -1;
        long physicalOffset = original ? last.physicalOffset() : -1;
        return store.durable(new AppendResult(last.physicalOffset(), last.size(), last.queueOffset()),
                send.persistent()).thenCompose(durable -> store.dispatchedTo(durable.endOffset()))
                .thenApply(done -> request.reply(new SendResponse(send.queueId(), queueOffset, physicalOffset)));
    }

    /**
     * Answers once the record is as durable as asked and in its ConsumeQueue. A half is answered
     * without waiting for the dispatcher's turn: nothing reads it before its transaction ends,
     * and every end (or prepare) first waits until each record written before it is dispatched,
     * the half included.
     */
    private CompletionStage<Frame> answer(Frame request, SendRequest send, AppendResult result, boolean waitForFlush) {
        CompletableFuture<AppendResult> durable = store.durable(result, waitForFlush);
        CompletableFuture<AppendResult> placed = send.transactionId() != 0 ? durable
                : durable.thenCompose(done -> store.dispatchedTo(done.endOffset()).thenApply(ignored -> done));
        return placed.thenApply(done -> request.reply(
                new SendResponse(send.queueId(), done.queueOffset(), done.physicalOffset())));
    }

    /**
     * Refuses a message the store would refuse (a disk without room for new messages, a
     * dispatcher stalled on a record it cannot index) before its destination is resolved, so a
     * refused send creates nothing.
     */
    private void checkRoom() {
        try {
            store.checkRoomForMessages();
        } catch (StoreFullException e) {
            throw new BrokerException(Refusal.DISK_FULL, e.getMessage());
        }
    }

    /** Refuses, as a bad request, a header section that does not follow its layout. */
    static void checkSection(byte[] bytes, int from, int length, String which) {
        try {
            HeaderSectionDescriptor.checkWellFormed(ByteBuffer.wrap(bytes, from, length));
        } catch (MessageFormatError e) {
            throw new IllegalArgumentException(which + "malformed header section: " + e.getMessage());
        }
    }

    static void checkQueue(Destination destination, int queueId) {
        if (queueId >= destination.queueCount()) {
            throw new IllegalArgumentException("queue id " + queueId + " of " + destination.name()
                    + " not below its queue count " + destination.queueCount());
        }
    }

    private static boolean expired(long expiration, long now) {
        return expiration != 0 && expiration <= now;
    }

    /**
     * The record of one sent message. Its tag signature is computed here from the message's
     * header section, never taken from the client, so no client can hide a message from a
     * selector and every client's messages are filtered. The section has passed {@link #checkSection}.
     */
    static MessageRecord record(Destination destination, int queueId, boolean persistent, boolean large,
                                        long deliveryTime,
                                        byte[] bytes, int from, int propertiesLength, int length, long now,
                                        long producerId, long sequence) {
        long tagSignature = TagSignature.DEFAULT.signatureOfCheckedSection(ByteBuffer.wrap(bytes, from, propertiesLength));
        byte[] properties = Arrays.copyOfRange(bytes, from, from + propertiesLength);
        byte[] body = Arrays.copyOfRange(bytes, from + propertiesLength, from + length);
        RecordType type = deliveryTime > now ? RecordType.TIMER : RecordType.NORMAL;
        int flags = RecordFlags.of(type, (persistent ? 0 : RecordFlags.NON_PERSISTENT) | (large ? RecordFlags.LARGE : 0));
        return new MessageRecord(flags, destination.storageName(), queueId, -1, now, deliveryTime, tagSignature,
                properties, body, producerId, sequence);
    }

    /** Appends without waiting for anything: the result is known at once, the answer waits in {@link #answer}. */
    private AppendResult append(MessageRecord record) {
        try {
            return store.append(record, false).join();
        } catch (StoreFullException e) {
            throw new BrokerException(Refusal.DISK_FULL, e.getMessage());
        }
    }
}
