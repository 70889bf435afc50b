package io.ramjet.server.broker.processor;

import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.CreateDestinationRequest;
import io.ramjet.protocol.command.DeleteDestinationRequest;
import io.ramjet.protocol.command.DestinationInfo;
import io.ramjet.protocol.command.DestinationList;
import io.ramjet.protocol.command.Permission;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.destination.DestinationResolver;
import io.ramjet.server.broker.destination.DestinationTable;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.log.ConsumptionLog;
import io.ramjet.server.broker.security.Operation;
import io.ramjet.server.broker.session.TemporaryDestinations;

import java.util.List;

/**
 * CREATE_DESTINATION, DELETE_DESTINATION and LIST_DESTINATIONS. Creating a destination needs
 * the right to create it (createTemporary for a temporary one, on the name the broker gives it:
 * {@link TemporaryDestinations}), asking for an existing one none
 * (the answer tells its queue count, as the NameServer's routes do); deleting a queue or topic needs the right to delete
 * it, and a temporary destination may be deleted by its own connection only. Listing every
 * destination is admin.
 */
public final class AdminProcessor {

    private final DestinationTable destinations;
    private final DestinationDeleter deleter;
    private final int defaultQueueCount;
    private final Runnable onChanged;
    private final ConsumptionLog log;
    private final TemporaryDestinations temporaries;
    private final Access access;

    /** @param onChanged told after a creation, to re-register with the NameServers */
    public AdminProcessor(DestinationTable destinations, DestinationDeleter deleter, int defaultQueueCount,
                          ConsumptionLog log, TemporaryDestinations temporaries, Access access, Runnable onChanged) {
        this.access = access;
        this.destinations = destinations;
        this.deleter = deleter;
        this.defaultQueueCount = defaultQueueCount;
        this.log = log;
        this.temporaries = temporaries;
        this.onChanged = onChanged;
    }

    public static DestinationInfo info(Destination d) {
        return new DestinationInfo(d.name(), d.kind(), d.queueCount(), Permission.READ_WRITE);
    }

    /** Every destination, temporary ones included: a JMSReplyTo names one that other clients must find. */
    public static List<DestinationInfo> infos(DestinationTable destinations) {
        return destinations.list().stream().map(AdminProcessor::info).toList();
    }

    /**
     * Creates a destination, or answers the existing one. A client's permanent destination is
     * created only when the broker auto-creates destinations (UNKNOWN_DESTINATION otherwise: the
     * broker decides, and an operator configures its destinations); a temporary one always.
     */
    public Frame create(RemotingConnection connection, Frame request) {
        CreateDestinationRequest create = request.header(CreateDestinationRequest.class);
        int queues = create.queueCount() == 0 ? defaultQueueCount : create.queueCount();
        if (create.temporary()) {
            return request.reply(info(createTemporary(connection, create.kind(), queues)));
        }
        boolean existed = destinations.find(create.kind(), create.name()).isPresent();
        if (!existed) {
            DestinationResolver.checkClientName(create.name());
            access.check(connection, Operation.CREATE_DESTINATION, create.name());
            if (!destinations.autoCreate()) {
                throw new BrokerException(Refusal.UNKNOWN_DESTINATION, "no "
                        + create.kind().name().toLowerCase(java.util.Locale.ROOT) + " named '" + create.name()
                        + "' on this broker, which does not create destinations for clients "
                        + "(autoCreateDestinations=false)");
            }
        }
        Destination d = destinations.create(new Destination(create.name(), create.kind(), queues, false));
        if (!existed) {
            log.destinationCreated(d).join();
            onChanged.run();
        }
        return request.reply(info(d));
    }

    /** A new temporary destination of the connection, under the name the broker gives it (the request's is ignored). */
    private Destination createTemporary(RemotingConnection connection, DestinationKind kind, int queues) {
        ConnectionSession owner = new ConnectionSession(connection);
        String name = temporaries.newName(owner);
        access.check(connection, Operation.CREATE_TEMPORARY, name);
        Destination d = destinations.create(new Destination(name, kind, queues, true));
        temporaries.created(d, owner);
        onChanged.run();
        return d;
    }

    public Frame delete(RemotingConnection connection, Frame request) {
        DeleteDestinationRequest delete = request.header(DeleteDestinationRequest.class);
        Destination d = destinations.find(delete.kind(), delete.name()).orElseThrow(() ->
                new BrokerException(Refusal.NOT_FOUND, "no " + delete.kind() + " named '"
                        + delete.name() + "'"));
        if (d.temporary()) {
            if (!temporaries.mayConsume(d, new ConnectionSession(connection))) {
                throw new BrokerException(Refusal.NOT_AUTHORIZED, "temporary destination '" + d.name()
                        + "' belongs to another connection: only it may delete it");
            }
        } else {
            access.check(connection, Operation.DELETE_DESTINATION, d.name());
        }
        deleter.delete(d);
        return request.reply(null);
    }

    public Frame list(RemotingConnection connection, Frame request) {
        access.checkBroker(connection, Operation.ADMIN);
        return request.reply(new DestinationList(infos(destinations)));
    }
}
