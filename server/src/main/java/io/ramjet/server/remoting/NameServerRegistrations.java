package io.ramjet.server.remoting;

import io.ramjet.protocol.command.AnnounceDestinationsRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.RegisterBrokerRequest;
import io.ramjet.protocol.command.UnregisterBrokerRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A broker's side of the NameServer commands, over a {@link RemotingClient} the caller owns:
 * registration goes to every NameServer, since they never talk to each other. Thread-safe.
 */
public final class NameServerRegistrations {

    private final RemotingClient client;
    private final List<String> addresses;
    private final Duration timeout;

    /**
     * @param addresses NameServers as {@code host:port}, at least one
     * @param timeout   timeout of each request to one NameServer
     */
    public NameServerRegistrations(RemotingClient client, List<String> addresses, Duration timeout) {
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("no NameServer address");
        }
        this.client = client;
        this.addresses = List.copyOf(addresses);
        this.timeout = timeout;
    }

    /**
     * Registers (or re-registers, as a heartbeat) a broker with every NameServer. Completes when
     * all have answered; fails only when none accepted, with the last failure.
     */
    public CompletableFuture<Void> registerBroker(RegisterBrokerRequest request) {
        return toEvery(CommandCode.REGISTER_BROKER, request);
    }

    /** Removes a broker from every NameServer; completes like {@link #registerBroker}. */
    public CompletableFuture<Void> unregisterBroker(UnregisterBrokerRequest request) {
        return toEvery(CommandCode.UNREGISTER_BROKER, request);
    }

    /**
     * Tells every NameServer a registered broker's created and deleted destinations. Unlike a
     * registration it must reach them all: it fails when any refused or did not answer, since
     * that one no longer holds what the broker told it.
     */
    public CompletableFuture<Void> announceDestinations(AnnounceDestinationsRequest request) {
        return CompletableFuture.allOf(addresses.stream()
                .map(address -> client.invoke(address, Frame.request(CommandCode.ANNOUNCE_DESTINATIONS, request),
                        timeout))
                .toArray(CompletableFuture[]::new));
    }

    private CompletableFuture<Void> toEvery(short code, Object header) {
        List<CompletableFuture<Boolean>> answers = new ArrayList<>();
        AtomicReference<Throwable> lastFailure = new AtomicReference<>();
        for (String address : addresses) {
            answers.add(client.invoke(address, Frame.request(code, header), timeout)
                    .handle((response, failure) -> {
                        if (failure != null) {
                            lastFailure.set(failure);
                        }
                        return failure == null;
                    }));
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenCompose(done -> {
            if (answers.stream().anyMatch(CompletableFuture::join)) {
                return CompletableFuture.<Void>completedFuture(null);
            }
            return CompletableFuture.<Void>failedFuture(RemotingClient.unwrap(lastFailure.get()));
        });
    }
}
