package io.ramjet.server.broker.processor;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.protocol.command.ParkedSendRequest;
import io.ramjet.protocol.command.SendRequest;
import io.ramjet.protocol.command.SendResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.AsyncRequestProcessor;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.destination.DestinationResolver;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.log.DiskGuard;
import io.ramjet.server.broker.security.Operation;
import io.ramjet.server.broker.transaction.ParkedOrigin;
import io.ramjet.server.broker.transaction.ParkedSends;
import io.ramjet.storage.MessageStore;
import io.ramjet.storage.StoreFullException;

import java.util.concurrent.CompletionStage;

/**
 * PARKED_SEND: a client's send that its origin group's lost master may have stored, kept here
 * invisible ({@link ParkedSends}) until that group answers. It is a SEND for every check (the
 * {@code send} right on the destination, creation by use, a well-formed header section, room on
 * the disk) and is answered, queue offset -1, once durable. Refused BAD_REQUEST when it names this
 * broker's own group as origin, or when this broker cannot ask another group (no cluster secret
 * to prove itself with).
 */
public final class ParkedSendProcessor implements AsyncRequestProcessor {

    private final MessageStore store;
    private final DestinationResolver destinations;
    private final DiskGuard disk;
    private final Access access;
    private final ParkedSends parked;
    private final String ownGroup;
    private final boolean canAskOrigins;

    /**
     * @param ownGroup      this broker's group (brokerName)
     * @param canAskOrigins whether this broker proves itself to other groups (a cluster secret)
     */
    public ParkedSendProcessor(MessageStore store, DestinationResolver destinations, DiskGuard disk, Access access,
                               ParkedSends parked, String ownGroup, boolean canAskOrigins) {
        this.store = store;
        this.destinations = destinations;
        this.disk = disk;
        this.access = access;
        this.parked = parked;
        this.ownGroup = ownGroup;
        this.canAskOrigins = canAskOrigins;
    }

    @Override
    public CompletionStage<Frame> process(RemotingConnection connection, Frame request) {
        ParkedSendRequest parkedSend = request.header(ParkedSendRequest.class);
        SendRequest send = parkedSend.send();
        if (parkedSend.originGroup().equals(ownGroup)) {
            throw new BrokerException(Refusal.BAD_REQUEST, "a parked send from group " + ownGroup
                    + " goes to another group");
        }
        if (!canAskOrigins) {
            throw new BrokerException(Refusal.BAD_REQUEST, "group " + ownGroup
                    + " keeps no parked sends: it has no cluster secret to ask their origin with");
        }
        disk.checkSend();
        try {
            store.checkRoomForMessages();
        } catch (StoreFullException e) {
            throw new BrokerException(Refusal.DISK_FULL, e.getMessage());
        }
        byte[] bytes = request.bodyArray();
        if (send.propertiesLength() > bytes.length) {
            throw new IllegalArgumentException("properties length " + send.propertiesLength() + " exceeds the body of "
                    + bytes.length + " bytes");
        }
        SendProcessor.checkSection(bytes, 0, send.propertiesLength(), "");
        access.check(connection, Operation.SEND, send.destination());
        access.checkCreatedByUse(connection, destinations.table(), send.kind(), send.destination());
        Destination destination = destinations.resolve(send.kind(), send.destination());
        SendProcessor.checkQueue(destination, send.queueId());
        MessageRecord message = SendProcessor.record(destination, send.queueId(), send.persistent(), false,
                send.deliveryTime(), bytes, 0, send.propertiesLength(), bytes.length, System.currentTimeMillis(), 0, 0);
        ParkedOrigin origin = new ParkedOrigin(parkedSend.originGroup(), send.producerId(), send.sequence());
        return parked.park(origin, id -> TransactionHalves.half(message, id))
                .thenApply(done -> request.reply(new SendResponse(send.queueId(), -1, -1)));
    }
}
