package io.ramjet.provider.client;

import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.ClaimClientIdRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.provider.client.ClientException.Reason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client id one client holds, claimed on every broker it talks to: on every live master
 * when set, and on each broker connection opened later (a broker that joined or restarted).
 * Thread-safe.
 */
final class ClientIdClaims {

    private static final Logger LOG = LoggerFactory.getLogger(ClientIdClaims.class);
    /** How long a refused late claim waits before it is tried again. */
    static final Duration RECLAIM_PAUSE = Duration.ofMillis(250);

    private final RemotingClient remoting;
    private final Routes routes;
    private final Duration timeout;
    private final BooleanSupplier closed;
    /** The client id this client holds, told to every broker it connects to later; null when none. */
    private volatile String claimedClientId;

    ClientIdClaims(RemotingClient remoting, Routes routes, Duration timeout, BooleanSupplier closed) {
        this.remoting = remoting;
        this.routes = routes;
        this.timeout = timeout;
        this.closed = closed;
    }

    /**
     * Claims the client id on every live master, waiting for one to register as
     * {@link Routes#firstMaster()} does. If one refuses, or does not answer, the claims granted
     * by the others are given back and the failure reported. A listed master that cannot be
     * reached at all (killed, and not yet dropped by the NameServers) is claimed when this client
     * connects to it, as below, so long as another master granted the claim. A broker that joins
     * (or comes back) later never heard of the claim until this client connects to it, which claims the id there too (so does a
     * reconnection to a broker that restarted); meanwhile it would not refuse the id to another
     * client, and if one took it there first the late claim is refused, logged and tried again
     * until granted ({@link #claimOn}).
     */
    CompletableFuture<Void> claim(String clientId) {
        return routes.firstMaster().thenCompose(any -> routes.masters()).thenCompose(brokers -> {
            List<CompletableFuture<String>> claims = new ArrayList<>();
            for (BrokerInfo broker : brokers) {
                claims.add(invoke(broker.address(), ClaimClientIdRequest.claim(clientId))
                        .thenApply(done -> broker.address()));
            }
            return CompletableFuture.allOf(claims.toArray(CompletableFuture[]::new)).handle((all, failure) -> {
                if (failure == null) {
                    claimedClientId = clientId;
                    return CompletableFuture.<Void>completedFuture(null);
                }
                List<String> unreached = unreached(brokers, claims);
                if (unreached.size() < brokers.size() && unreached.size() == failedCount(claims)) {
                    claimedClientId = clientId;
                    LOG.info("client id '{}' claimed; listed master(s) {} could not be reached, and are claimed when "
                            + "this client connects to them", clientId, unreached);
                    return CompletableFuture.<Void>completedFuture(null);
                }
                ClientException refusal = claims.stream().filter(CompletableFuture::isCompletedExceptionally)
                        .map(c -> RemotingFailures.of(c.handle((done, f) -> f).join()))
                        .filter(f -> f.reason() == Reason.CLIENT_ID_IN_USE)
                        .findFirst().orElse(RemotingFailures.of(failure));
                List<CompletableFuture<Void>> releases = new ArrayList<>();
                claims.stream().filter(c -> !c.isCompletedExceptionally()).map(CompletableFuture::join)
                        .forEach(address -> releases.add(invoke(address, ClaimClientIdRequest.release(clientId))
                                .exceptionally(f -> null)));
                return CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new))
                        .thenCompose(released -> CompletableFuture.<Void>failedFuture(refusal));
            }).thenCompose(done -> done);
        });
    }

    /** The brokers whose claim failed because they could not be reached at all (nothing was asked of them). */
    private static List<String> unreached(List<BrokerInfo> brokers, List<CompletableFuture<String>> claims) {
        List<String> unreached = new ArrayList<>();
        for (int i = 0; i < claims.size(); i++) {
            Throwable f = claims.get(i).handle((done, failure) -> failure).join();
            if (f != null && RemotingFailures.of(f).reason() == Reason.UNREACHABLE) {
                unreached.add(brokers.get(i).address());
            }
        }
        return unreached;
    }

    private static long failedCount(List<CompletableFuture<String>> claims) {
        return claims.stream().filter(CompletableFuture::isCompletedExceptionally).count();
    }

    /** Gives the client id back on every live master; failures are ignored (closing the transport releases it too). */
    CompletableFuture<Void> release(String clientId) {
        claimedClientId = null;
        return routes.masters().thenCompose(brokers -> CompletableFuture.allOf(brokers.stream()
                .map(b -> invoke(b.address(), ClaimClientIdRequest.release(clientId)).exceptionally(f -> null))
                .toArray(CompletableFuture[]::new)));
    }

    /**
     * Claims the held client id on a broker connection opened after the id was set. A refusal is
     * logged once, not fatal, and the claim is tried again every {@link #RECLAIM_PAUSE} while the
     * connection lives and the id is held: the connection that took it may be this client's own
     * earlier one, which the broker has not yet seen closed, or one that gives it back soon. The
     * returned stage completes after the first attempt.
     */
    CompletableFuture<Void> claimOn(String address, RemotingConnection connection) {
        String clientId = claimedClientId;
        if (clientId == null) {
            return CompletableFuture.completedFuture(null);
        }
        return attemptOn(connection, clientId).thenAccept(granted -> {
            if (!granted) {
                LOG.warn("client id '{}' is held on broker {} by another connection that took it while "
                        + "this one was not connected there; claiming it again until it is given back", clientId,
                        address);
                reclaimLater(address, connection, clientId);
            }
        });
    }

    private void reclaimLater(String address, RemotingConnection connection, String clientId) {
        CompletableFuture.delayedExecutor(RECLAIM_PAUSE.toMillis(), TimeUnit.MILLISECONDS).execute(() -> {
            if (closed.getAsBoolean() || !connection.isActive() || !clientId.equals(claimedClientId)) {
                return;
            }
            attemptOn(connection, clientId).thenAccept(granted -> {
                if (granted) {
                    LOG.info("client id '{}' is now held on broker {} too", clientId, address);
                } else {
                    reclaimLater(address, connection, clientId);
                }
            });
        });
    }

    /** One claim on {@code connection}: true when granted, false when held by another connection; other failures count as granted (nothing to retry). */
    private CompletableFuture<Boolean> attemptOn(RemotingConnection connection, String clientId) {
        return connection.invoke(Frame.request(CommandCode.CLAIM_CLIENT_ID, ClaimClientIdRequest.claim(clientId)),
                        timeout)
                .handle((response, failure) -> {
                    if (response != null) {
                        Frames.release(response);
                        return true;
                    }
                    return closed.getAsBoolean()
                            || RemotingFailures.of(failure).reason() != Reason.CLIENT_ID_IN_USE;
                });
    }

    private CompletableFuture<Void> invoke(String address, ClaimClientIdRequest request) {
        return remoting.invoke(address, Frame.request(CommandCode.CLAIM_CLIENT_ID, request), timeout)
                .thenAccept(Frames::release);
    }
}
