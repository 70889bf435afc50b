package io.ramjet.bench.jms;

import io.ramjet.model.stats.ConsumerDeliveryState;
import io.ramjet.model.stats.QueueDeliveryState;
import io.ramjet.protocol.command.AdminQuery;
import io.ramjet.protocol.command.BrokerRoute;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.model.stats.DestinationDeliveryState;
import io.ramjet.protocol.command.ErrorHeader;
import io.ramjet.protocol.command.QueryRouteRequest;
import io.ramjet.protocol.command.RouteData;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.provider.client.ClientTlsOptions;
import io.ramjet.provider.jms.RamjetMessageConsumer;
import io.ramjet.provider.url.RamjetUrl;
import jakarta.jms.MessageConsumer;
import java.time.Duration;
import java.util.TreeSet;

/**
 * Ramjet's {@link StallProbe}: the client consumer's own state
 * ({@link RamjetMessageConsumer#deliveryState}) and, from every broker the NameServers route the
 * destination to, its delivery state (the admin command {@code ADMIN_DELIVERY_STATE}: CommitLog
 * positions, each message queue's ends and cursor, each consumer's messages in flight, scan floor
 * and held pulls). The benchmark's brokers run without users, so an anonymous connection holds the
 * admin right there; where it does not, the refusal is what the probe prints.
 */
public final class RamjetStallProbe implements StallProbe {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final RamjetUrl url;

    /** @param url the client's URL: its NameServers and TLS */
    public RamjetStallProbe(String url) {
        this.url = RamjetUrl.parse(url);
    }

    @Override
    public String explain(String destination, MessageConsumer consumer) {
        StringBuilder out = new StringBuilder();
        if (consumer instanceof RamjetMessageConsumer ramjet) {
            out.append("\n  client ").append(ramjet.deliveryState());
        }
        try (RemotingClient remoting = new RemotingClient(RemotingClientConfig.defaults().withConnectTimeout(TIMEOUT)
                .withRequestTimeout(TIMEOUT).withTls(ClientTlsOptions.fromUrl(url)))) {
            TreeSet<String> brokers = new TreeSet<>();
            for (String nameServer : url.nameServers()) {
                RouteData route = ask(remoting, nameServer, CommandCode.QUERY_ROUTE, new QueryRouteRequest(destination),
                        RouteData.class);
                route.brokers().stream().map(BrokerRoute::broker).forEach(b -> brokers.add(b.address()));
            }
            for (String broker : brokers) {
                DestinationDeliveryState state = ask(remoting, broker, CommandCode.ADMIN_DELIVERY_STATE,
                        new AdminQuery(destination), DestinationDeliveryState.class);
                out.append(describe(broker, state));
            }
        } catch (Exception e) {
            out.append("\n  broker state not read: ").append(e);
        }
        return out.toString();
    }

    private static <T> T ask(RemotingClient remoting, String address, short code, Object header, Class<T> type)
            throws Exception {
        Frame response = remoting.invokeSync(address, Frame.request(code, header), TIMEOUT);
        if (response.isError()) {
            throw new IllegalStateException(address + " refused " + CommandCode.name(code) + ": "
                    + response.header(ErrorHeader.class).message());
        }
        return response.header(type);
    }

    /** One line for the broker's CommitLog, one per message queue, one per consumer of it. */
    static String describe(String broker, DestinationDeliveryState state) {
        StringBuilder out = new StringBuilder();
        out.append(String.format("%n  broker %s: CommitLog written to %d, forced to %d, dispatched to %d", broker,
                state.writtenOffset(), state.flushedOffset(), state.dispatchedOffset()));
        for (QueueDeliveryState q : state.queues()) {
            out.append(String.format("%n    %s %s queue %d: entries [%d, %d), low water %d, read to %d, %d pending,"
                            + " %d in flight, first visible %d", q.destination(), q.subscription(), q.queueId(),
                    q.minOffset(), q.maxOffset(), q.lowWater(), q.readOffset(), q.pending(), q.inFlight(),
                    q.firstVisible()));
            for (ConsumerDeliveryState c : q.consumers()) {
                out.append(String.format("%n      consumer %d: %d in flight [%d..%d], scan floor %d, %d held pull(s)",
                        c.consumer(), c.inFlight(), c.firstInFlight(), c.lastInFlight(), c.scanFloor(),
                        c.heldPulls()));
            }
        }
        return out.toString();
    }
}
