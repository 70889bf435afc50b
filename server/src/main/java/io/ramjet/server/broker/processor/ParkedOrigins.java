package io.ramjet.server.broker.processor;

import io.ramjet.model.TxState;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.BrokerList;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ErrorHeader;
import io.ramjet.protocol.command.ParkedQueryRequest;
import io.ramjet.protocol.command.ParkedQueryResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.server.broker.transaction.Coordinators;
import io.ramjet.server.broker.transaction.ParkedOrigin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The coordinators of transactions, where a parked send's coordinator is its origin group: that
 * group's master, found through the NameServers' broker lists (the master that came back, or the
 * group's next one), is asked PARKED_QUERY after this broker proved its membership; "held" is
 * the answer ROLLED_BACK (the origin delivers its copy), "not held" COMMITTED. While no master of
 * the origin answers, the answer is OPEN, asked again at the next check-back: nothing decides
 * for a group on a timer. One log line when an origin stops answering, one when it answers
 * again. Any other coordinator is asked as before ({@code others}).
 */
public final class ParkedOrigins implements Coordinators {

    private static final Logger LOG = LoggerFactory.getLogger(ParkedOrigins.class);

    private final Coordinators others;
    private final RemotingClient client;
    private final RemoteCoordinators.Introduction introduction;
    private final String clusterName;
    private final List<String> nameServers;
    /**
     * Per master address, the last introduction to it: introductions to one address run one
     * after another, since a second challenge on a connection would void the first's proof.
     */
    private final Map<String, CompletableFuture<Void>> introductions = new ConcurrentHashMap<>();
    /** Origin groups that did not answer the last time they were asked. */
    private final Set<String> silent = ConcurrentHashMap.newKeySet();

    public ParkedOrigins(Coordinators others, RemotingClient client, RemoteCoordinators.Introduction introduction,
                         String clusterName, List<String> nameServers) {
        this.others = others;
        this.client = client;
        this.introduction = introduction;
        this.clusterName = clusterName;
        this.nameServers = List.copyOf(nameServers);
    }

    @Override
    public CompletableFuture<TxState> query(String coordinator, long id, Duration timeout) {
        Optional<ParkedOrigin> parked = ParkedOrigin.of(coordinator);
        if (parked.isEmpty()) {
            return others.query(coordinator, id, timeout);
        }
        ParkedOrigin origin = parked.get();
        return masterOf(origin.group(), timeout, 0)
                .thenCompose(master -> introduced(master, timeout).thenCompose(done -> client.invoke(master,
                        Frame.request(CommandCode.PARKED_QUERY,
                                new ParkedQueryRequest(origin.producerId(), origin.sequence())), timeout)))
                .thenApply(answer -> {
                    if (answer.isError()) {
                        throw new IllegalStateException(answer.header(ErrorHeader.class).message());
                    }
                    if (silent.remove(origin.group())) {
                        LOG.info("group {} answers about its parked sends again", origin.group());
                    }
                    return answer.header(ParkedQueryResponse.class).held() ? TxState.ROLLED_BACK : TxState.COMMITTED;
                })
                .exceptionally(failure -> {
                    if (silent.add(origin.group())) {
                        LOG.warn("group {} does not answer about the sends parked here (asked again at every"
                                + " check-back): {}", origin.group(), cause(failure).getMessage());
                    }
                    return TxState.OPEN;
                });
    }

    /** Introduces this broker to {@code master}, after any introduction to it still under way. */
    private CompletableFuture<Void> introduced(String master, Duration timeout) {
        return introductions.compute(master, (address, before) -> (before == null
                ? CompletableFuture.<Void>completedFuture(null) : before.handle((done, failure) -> (Void) null))
                .thenCompose(ready -> introduction.to(address, timeout)));
    }

    /** The address of group {@code group}'s master as the NameServers list it, from the {@code from}-th on. */
    private CompletableFuture<String> masterOf(String group, Duration timeout, int from) {
        if (from >= nameServers.size()) {
            return CompletableFuture.failedFuture(new IllegalStateException("no NameServer lists a master of group "
                    + group));
        }
        return client.invoke(nameServers.get(from), Frame.request(CommandCode.LIST_BROKERS, null), timeout)
                .thenApply(answer -> answer.isError() ? Optional.<String>empty()
                        : answer.header(BrokerList.class).brokers().stream()
                        .filter(b -> b.clusterName().equals(clusterName) && b.brokerName().equals(group)
                                && b.brokerId() == BrokerInfo.MASTER_ID)
                        .map(BrokerInfo::address).findFirst())
                .exceptionally(failure -> Optional.empty())
                .thenCompose(found -> found.map(CompletableFuture::completedFuture)
                        .orElseGet(() -> masterOf(group, timeout, from + 1)));
    }

    private static Throwable cause(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
