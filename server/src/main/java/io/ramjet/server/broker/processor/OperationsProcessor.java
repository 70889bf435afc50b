package io.ramjet.server.broker.processor;

import io.ramjet.protocol.command.AdminCount;
import io.ramjet.protocol.command.AdminCreateRequest;
import io.ramjet.protocol.command.AdminQuery;
import io.ramjet.protocol.command.AdminSubscriptionRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ConsumerStatsList;
import io.ramjet.protocol.command.DestinationStatsList;
import io.ramjet.protocol.command.MoveRequest;
import io.ramjet.protocol.command.ParkedResolveRequest;
import io.ramjet.protocol.command.ParkedSendList;
import io.ramjet.protocol.command.ParkedSendStats;
import io.ramjet.protocol.command.PurgeRequest;
import io.ramjet.protocol.command.SubscriptionStatsList;
import io.ramjet.protocol.command.TransactionStatsList;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.AsyncRequestProcessor;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.protocol.remoting.RequestProcessor;
import io.ramjet.server.broker.admin.BrokerFactsReader;
import io.ramjet.server.broker.admin.DeliveryStates;
import io.ramjet.server.broker.admin.MessageMover;
import io.ramjet.server.broker.admin.OperatorSubscriptions;
import io.ramjet.server.broker.admin.Purge;
import io.ramjet.server.broker.admin.Statistics;
import io.ramjet.server.broker.admin.TransactionListing;
import io.ramjet.server.broker.destination.DestinationResolver;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.security.Operation;
import io.ramjet.server.broker.transaction.ParkedSends;
import io.ramjet.server.remoting.RemotingServer;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * The operator's commands (ADMIN_*: listings, purge, move, broker facts, transactions, creation of a
 * destination, parked sends), all registered from here, so that one place decides who may run them: a connection
 * with the {@code admin} right on the broker.
 */
public final class OperationsProcessor {

    private final Statistics statistics;
    private final Purge purge;
    private final MessageMover mover;
    private final BrokerFactsReader facts;
    private final ConsumerRegistry consumers;
    private final TransactionListing transactions;
    private final ParkedSends parked;
    private final DestinationResolver resolver;
    private final int defaultQueueCount;
    private final Access access;
    private final DeliveryStates deliveryStates;
    private final OperatorSubscriptions durables;

    public OperationsProcessor(Statistics statistics, Purge purge, MessageMover mover, BrokerFactsReader facts,
                               ConsumerRegistry consumers, TransactionListing transactions, ParkedSends parked,
                               DestinationResolver resolver, int defaultQueueCount, Access access,
                               DeliveryStates deliveryStates, OperatorSubscriptions durables) {
        this.deliveryStates = deliveryStates;
        this.durables = durables;
        this.parked = parked;
        this.access = access;
        this.resolver = resolver;
        this.defaultQueueCount = defaultQueueCount;
        this.transactions = transactions;
        this.statistics = statistics;
        this.purge = purge;
        this.mover = mover;
        this.facts = facts;
        this.consumers = consumers;
    }

    /** Serves every operator command on {@code server}, run by {@code executor}. */
    public void registerOn(RemotingServer server, Executor executor) {
        server.registerProcessor(CommandCode.ADMIN_DESTINATIONS, Refusals.mapped(admin(this::destinations)), executor);
        server.registerProcessor(CommandCode.ADMIN_SUBSCRIPTIONS, Refusals.mapped(admin(this::subscriptions)),
                executor);
        server.registerProcessor(CommandCode.ADMIN_CONSUMERS, Refusals.mapped(admin(this::consumers)), executor);
        server.registerAsyncProcessor(CommandCode.ADMIN_PURGE, Refusals.mappedAsync(adminAsync(this::purge)), executor);
        server.registerProcessor(CommandCode.ADMIN_MOVE, Refusals.mapped(admin(this::move)), executor);
        server.registerProcessor(CommandCode.ADMIN_BROKER, Refusals.mapped(admin(this::broker)), executor);
        server.registerProcessor(CommandCode.ADMIN_TRANSACTIONS, Refusals.mapped(admin(this::transactions)), executor);
        server.registerProcessor(CommandCode.ADMIN_CREATE, Refusals.mapped(admin(this::create)), executor);
        server.registerAsyncProcessor(CommandCode.ADMIN_CREATE_SUBSCRIPTION,
                Refusals.mappedAsync(adminAsync(this::createSubscription)), executor);
        server.registerProcessor(CommandCode.ADMIN_PARKED, Refusals.mapped(admin(this::parked)), executor);
        server.registerAsyncProcessor(CommandCode.ADMIN_PARKED_RESOLVE,
                Refusals.mappedAsync(adminAsync(this::resolveParked)), executor);
        server.registerProcessor(CommandCode.ADMIN_DELIVERY_STATE, Refusals.mapped(admin(this::deliveryState)),
                executor);
    }

    /** Every operator command needs the {@code admin} right on the broker. */
    private RequestProcessor admin(RequestProcessor command) {
        return (connection, request) -> {
            access.checkBroker(connection, Operation.ADMIN);
            return command.process(connection, request);
        };
    }

    private AsyncRequestProcessor adminAsync(AsyncRequestProcessor command) {
        return (connection, request) -> {
            access.checkBroker(connection, Operation.ADMIN);
            return command.process(connection, request);
        };
    }

    Frame destinations(RemotingConnection connection, Frame request) {
        return request.reply(new DestinationStatsList(statistics.destinations(query(request))));
    }

    Frame subscriptions(RemotingConnection connection, Frame request) {
        return request.reply(new SubscriptionStatsList(statistics.subscriptions(query(request))));
    }

    Frame consumers(RemotingConnection connection, Frame request) {
        return request.reply(new ConsumerStatsList(consumers.list(query(request))));
    }

    /** How the deliveries of the named destination stand; one is required. */
    Frame deliveryState(RemotingConnection connection, Frame request) {
        String destination = query(request);
        if (destination == null || destination.isEmpty()) {
            throw new BrokerException(Refusal.BAD_REQUEST, "ADMIN_DELIVERY_STATE names a destination");
        }
        return request.reply(deliveryStates.of(destination));
    }

    CompletionStage<Frame> purge(RemotingConnection connection, Frame request) {
        PurgeRequest p = request.header(PurgeRequest.class);
        return (p.queue() != null ? purge.queue(p.queue()) : purge.durable(p.clientId(), p.subscription()))
                .thenApply(count -> request.reply(new AdminCount(count)));
    }

    Frame move(RemotingConnection connection, Frame request) {
        MoveRequest m = request.header(MoveRequest.class);
        return request.reply(new AdminCount(mover.move(m.from(), m.to(), m.selector(), m.copy(), m.maxMessages())));
    }

    Frame broker(RemotingConnection connection, Frame request) {
        return request.reply(facts.read());
    }

    Frame transactions(RemotingConnection connection, Frame request) {
        return request.reply(new TransactionStatsList(transactions.list()));
    }

    Frame parked(RemotingConnection connection, Frame request) {
        return request.reply(new ParkedSendList(parked.held().stream()
                .map(p -> new ParkedSendStats(p.origin().group(), p.origin().producerId(), p.origin().sequence(),
                        p.transactionId(), p.kind(), p.destination(), p.since()))
                .toList()));
    }

    /** An operator's decision for the parked sends of an origin group gone for good. */
    CompletionStage<Frame> resolveParked(RemotingConnection connection, Frame request) {
        ParkedResolveRequest resolve = request.header(ParkedResolveRequest.class);
        return parked.resolve(resolve.group(), resolve.commit()).thenApply(count -> request.reply(new AdminCount(count)));
    }

    /** Makes a topic's durable subscription without a consumer, from the topic's first message here. */
    CompletionStage<Frame> createSubscription(RemotingConnection connection, Frame request) {
        AdminSubscriptionRequest create = request.header(AdminSubscriptionRequest.class);
        return durables.createDurable(SubscriptionRefs.keyOf(create.subscription()), create.selector(),
                create.noLocal()).thenApply(created -> request.reply(new AdminCount(created ? 1 : 0)));
    }

    /**
     * Creates a permanent destination whatever the auto-creation policy (an operator decides), under
     * a name a client may use; an existing one is left as it is.
     */
    Frame create(RemotingConnection connection, Frame request) {
        AdminCreateRequest create = request.header(AdminCreateRequest.class);
        boolean created = resolver.createPermanent(create.kind(), create.name(), create.queueCount(),
                defaultQueueCount);
        return request.reply(new AdminCount(created ? 1 : 0));
    }

    private static String query(Frame request) {
        return request.header(AdminQuery.class).destination();
    }
}
