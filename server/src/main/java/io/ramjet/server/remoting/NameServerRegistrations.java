package io.ramjet.server.remoting;

import io.ramjet.protocol.command.AnnounceDestinationsRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.RegisterBrokerRequest;
import io.ramjet.protocol.command.UnregisterBrokerRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.ConnectionListener;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingConnection;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

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

    public List<String> addresses() {
        return addresses;
    }

    /**
     * Registers (or re-registers, as a heartbeat) a broker with every NameServer. Completes when
     * all have answered; fails only when none accepted, with the last failure.
     *
     * @param refusedBy told each NameServer that did not accept it
     */
    public CompletableFuture<Void> registerBroker(RegisterBrokerRequest request, Consumer<String> refusedBy) {
        return toEvery(CommandCode.REGISTER_BROKER, request, refusedBy);
    }

    /** {@link #registerBroker(RegisterBrokerRequest, Consumer)} without being told who refused. */
    public CompletableFuture<Void> registerBroker(RegisterBrokerRequest request) {
        return registerBroker(request, address -> { });
    }

    /** Registers a broker with one NameServer. */
    public CompletableFuture<Void> registerWith(String address, RegisterBrokerRequest request) {
        return client.invoke(address, Frame.request(CommandCode.REGISTER_BROKER, request), timeout)
                .thenAccept(response -> { });
    }

    /** Tells {@code lost} the address of each NameServer whose connection closes. */
    public void onConnectionLost(Consumer<String> lost) {
        client.addConnectionListener(new ConnectionListener() {
            @Override
            public void closed(RemotingConnection connection) {
                if (addresses.contains(connection.remoteAddress())) {
                    lost.accept(connection.remoteAddress());
                }
            }
        });
    }

    /** Removes a broker from every NameServer; completes like {@link #registerBroker}. */
    public CompletableFuture<Void> unregisterBroker(UnregisterBrokerRequest request) {
        return toEvery(CommandCode.UNREGISTER_BROKER, request, address -> { });
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

    private CompletableFuture<Void> toEvery(short code, Object header, Consumer<String> refusedBy) {
        List<CompletableFuture<Boolean>> answers = new ArrayList<>();
        AtomicReference<Throwable> lastFailure = new AtomicReference<>();
        for (String address : addresses) {
            answers.add(client.invoke(address, Frame.request(code, header), timeout)
                    .handle((response, failure) -> {
                        if (failure != null) {
                            lastFailure.set(failure);
                            refusedBy.accept(address);
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
